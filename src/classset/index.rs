//! The inverted index behind [`super::class_pairs`]: each shingle with the
//! texts holding it ([`for_each_run`], merged from the texts' sorted sets,
//! never materialised), shingles by document frequency (stock phrases,
//! passages many texts share), and the exact number of shingles every pair
//! of texts shares, found from each shingle's postings so that pairs
//! sharing nothing are never touched (the all-pairs join by an inverted index, Sarawagi &
//! Kirpal 2004; MOSS's cap on a fingerprint's documents, Schleimer,
//! Wilkerson & Aiken 2003).

use alloc::collections::binary_heap::{BinaryHeap, PeekMut};
use alloc::vec::Vec;
use core::cmp::Reverse;
use hashbrown::HashMap;

/// Calls `f(shingle, holders)` for every shingle of `sets` (each a sorted,
/// distinct set of one text's shingle hashes) in ascending order, with the
/// texts holding it in ascending order: the postings of an inverted index,
/// merged from the sorted sets (a heap of one cursor per set) instead of
/// materialised — memory one entry per text, where a list of every
/// (shingle, text) pair was 16 bytes a shingle of every text, the peak of a
/// large class. Time `O(N log T)` for `N` shingles in `T` texts.
pub fn for_each_run(sets: &[Vec<u64>], mut f: impl FnMut(u64, &[u32])) {
    let mut heap: BinaryHeap<Reverse<(u64, u32)>> = sets
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.first().map(|&h| Reverse((h, i as u32))))
        .collect();
    let mut at = alloc::vec![0usize; sets.len()];
    let mut holders: Vec<u32> = Vec::new();
    while let Some(&Reverse((h, _))) = heap.peek() {
        holders.clear();
        while let Some(mut top) = heap.peek_mut() {
            let Reverse((x, i)) = *top;
            if x != h {
                break;
            }
            holders.push(i);
            let (set, next) = (&sets[i as usize], &mut at[i as usize]);
            *next += 1;
            // The set's next shingle takes its place (one sift down), or
            // the set is done.
            match set.get(*next) {
                Some(&y) => *top = Reverse((y, i)),
                None => {
                    PeekMut::pop(top);
                }
            }
        }
        f(h, &holders);
    }
}

/// Every shingle found in more than `min` of the `sets` (each a sorted,
/// distinct set of one text's shingle hashes), with the number of sets
/// holding it, sorted by hash. Time `O(N log N)` for `N` shingles in all.
pub fn document_frequencies(sets: &[Vec<u64>], min: usize) -> Vec<(u64, u32)> {
    // Sized exactly: grown by doubling, this one vector was the peak of a
    // large class (twice the shingles of every text).
    let mut all: Vec<u64> = Vec::with_capacity(sets.iter().map(Vec::len).sum());
    all.extend(sets.iter().flatten().copied());
    all.sort_unstable();
    all.chunk_by(|x, y| x == y)
        .filter(|run| run.len() > min)
        .map(|run| (run[0], run.len() as u32))
        .collect()
}

/// For every pair of texts sharing at least one shingle, `(a, b, shared)`
/// with `a < b`, `a` a student (`a < students`), sorted by `(a, b)`.
/// `sets[i]` is text i's sorted distinct shingle hashes; texts from
/// `students` on are sources: source–source pairs are not counted, and a
/// shingle found in a source counts for the student–source pairs only (two
/// students who took the same passage from a source share a source; they
/// did not copy each other). Time
/// `O(N log N + P)` for `N` shingles and `P` (pair, shingle) incidences;
/// memory one counter per pair sharing anything.
pub fn shared_counts(sets: &[Vec<u64>], students: usize) -> Vec<(u32, u32, u32)> {
    let mut counts: HashMap<u64, u32, fnv::FnvBuildHasher> = HashMap::default();
    for_each_run(sets, |_, run| {
        // Ascending: students first, then sources.
        let first_source = run.partition_point(|&t| (t as usize) < students);
        let partners = if first_source < run.len() {
            &run[first_source..] // in a source: pair students with sources only
        } else {
            run
        };
        for (x, &a) in run[..first_source].iter().enumerate() {
            let from = if first_source < run.len() { 0 } else { x + 1 };
            for &b in &partners[from..] {
                *counts.entry(((a as u64) << 32) | b as u64).or_insert(0) += 1;
            }
        }
    });
    let mut out: Vec<(u32, u32, u32)> = counts
        .into_iter()
        .map(|(key, n)| ((key >> 32) as u32, key as u32, n))
        .collect();
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_exact_and_sources_are_one_way() {
        let sets = alloc::vec![
            alloc::vec![1, 2, 3, 9],
            alloc::vec![2, 3, 4],
            alloc::vec![5],
            alloc::vec![3, 4, 9], // source
            alloc::vec![4, 9],    // source
        ];
        // Shingle 2 is in students 0 and 1 only; 3, 4 and 9 are in sources,
        // so they pair students with sources, never with each other.
        assert_eq!(
            shared_counts(&sets, 3),
            [(0, 1, 1), (0, 3, 2), (0, 4, 1), (1, 3, 2), (1, 4, 1)]
        );
        assert_eq!(document_frequencies(&sets, 2), [(3, 3), (4, 3), (9, 3)]);
        let mut runs = alloc::vec::Vec::new();
        for_each_run(&sets, |h, holders| runs.push((h, holders.to_vec())));
        let want: alloc::vec::Vec<(u64, alloc::vec::Vec<u32>)> = alloc::vec![
            (1, alloc::vec![0]),
            (2, alloc::vec![0, 1]),
            (3, alloc::vec![0, 1, 3]),
            (4, alloc::vec![1, 3, 4]),
            (5, alloc::vec![2]),
            (9, alloc::vec![0, 3, 4]),
        ];
        assert_eq!(runs, want);
        for_each_run(&[], |_, _| panic!("no shingles"));
        assert_eq!(document_frequencies(&sets, 3), []);
    }
}
