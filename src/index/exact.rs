//! Exact all-pairs Jaccard similarity join with prefix filtering
//! (Chaudhuri, Ganti, Kaushik 2006; Bayardo, Ma, Srikant, "Scaling up all
//! pairs similarity search", WWW 2007): the ground truth that MinHash LSH and
//! SimHash are measured against.
//!
//! Shingles are ordered by increasing document frequency (rarest first; ties
//! by hash). For threshold `t`, two sets with `J(x, y) ≥ t` share at least one
//! shingle among the first `|x| − ⌈t·|x|⌉ + 1` of `x` and likewise of `y`, so
//! only pairs that share a prefix shingle are verified; records are processed
//! by increasing size and a record `y` is skipped when `|y| < t·|x|` (size
//! filter). Verification is an exact merge of the sorted sets.

use crate::shingle::ShingleSet;
use alloc::vec::Vec;
use hashbrown::HashMap;

type Map<K, V> = HashMap<K, V, fnv::FnvBuildHasher>;

/// Every pair `(i, j, J)` with `i < j` and exact Jaccard resemblance
/// `J(sets[i], sets[j]) ≥ threshold` (`threshold` in (0, 1]), sorted by
/// `(i, j)`. Empty sets never pair.
pub fn all_pairs(sets: &[ShingleSet], threshold: f64) -> Vec<(u32, u32, f64)> {
    all_pairs_with_progress(sets, threshold, &mut |_| {})
}

/// [`all_pairs`], calling `progress(n)` after each of the `n` non-empty sets
/// is joined (for a progress bar; sets are joined in order of size, so the
/// later ones cost more).
pub fn all_pairs_with_progress(
    sets: &[ShingleSet],
    threshold: f64,
    progress: &mut dyn FnMut(usize),
) -> Vec<(u32, u32, f64)> {
    let t = threshold.clamp(f64::MIN_POSITIVE, 1.0);
    // Document frequency of each shingle.
    let mut df: Map<u64, u32> = Map::default();
    for s in sets {
        for &h in s.as_slice() {
            *df.entry(h).or_insert(0) += 1;
        }
    }
    // Each set's shingles as (df, hash), rarest first.
    let ordered: Vec<Vec<(u32, u64)>> = sets
        .iter()
        .map(|s| {
            let mut v: Vec<(u32, u64)> = s.as_slice().iter().map(|&h| (df[&h], h)).collect();
            v.sort_unstable();
            v
        })
        .collect();
    let mut order: Vec<u32> = (0..sets.len() as u32)
        .filter(|&i| !sets[i as usize].is_empty())
        .collect();
    order.sort_by_key(|&i| (sets[i as usize].len(), i));

    let prefix_len = |n: usize| n - (libm::ceil(t * n as f64) as usize).min(n) + 1;
    let mut index: Map<u64, Vec<u32>> = Map::default();
    let mut out: Vec<(u32, u32, f64)> = Vec::new();
    let mut cands: Vec<u32> = Vec::new();
    for (done, &x) in order.iter().enumerate() {
        progress(done + 1);
        let xs = &ordered[x as usize];
        let nx = xs.len();
        let min_size = t * nx as f64;
        cands.clear();
        for &(_, h) in &xs[..prefix_len(nx).min(nx)] {
            if let Some(list) = index.get(&h) {
                cands.extend(
                    list.iter()
                        .copied()
                        .filter(|&y| sets[y as usize].len() as f64 >= min_size),
                );
            }
        }
        cands.sort_unstable();
        cands.dedup();
        for &y in &cands {
            let (a, b) = (&sets[x as usize], &sets[y as usize]);
            let inter = a.intersection_len(b);
            let j = inter as f64 / (a.len() + b.len() - inter) as f64;
            if j >= t {
                out.push((x.min(y), x.max(y), j));
            }
        }
        for &(_, h) in &xs[..prefix_len(nx).min(nx)] {
            index.entry(h).or_default().push(x);
        }
    }
    out.sort_unstable_by_key(|p| (p.0, p.1));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::SplitMix64;

    #[test]
    fn equals_brute_force_on_random_sets() {
        let mut rng = SplitMix64::new(42);
        // Small universe so that many pairs overlap.
        let mut sets: Vec<ShingleSet> = (0..120)
            .map(|_| {
                let n = (rng.next() % 30) as usize;
                ShingleSet::from_hashes((0..n).map(|_| rng.next() % 60).collect())
            })
            .collect();
        // Planted near copies: a set with one element replaced.
        for i in 0..20 {
            let mut v = sets[i].as_slice().to_vec();
            if let Some(first) = v.first_mut() {
                *first = 1000 + i as u64;
            }
            sets.push(ShingleSet::from_hashes(v));
        }
        for t in [0.1, 0.3, 0.5, 0.8, 1.0] {
            let mut brute = Vec::new();
            for i in 0..sets.len() {
                for j in i + 1..sets.len() {
                    let inter = sets[i].intersection_len(&sets[j]);
                    let union = sets[i].len() + sets[j].len() - inter;
                    if union > 0 && inter as f64 / union as f64 >= t {
                        brute.push((i as u32, j as u32, inter as f64 / union as f64));
                    }
                }
            }
            assert_eq!(all_pairs(&sets, t), brute, "threshold {t}");
            assert!(t == 1.0 || !brute.is_empty(), "no pairs at {t}");
        }
    }
}
