//! Winnowing: the fingerprints MOSS and Dolos keep of a text's q-grams
//! (Schleimer, Wilkerson & Aiken 2003, "Winnowing: local algorithms for
//! document fingerprinting", SIGMOD). In every window of `w` consecutive
//! gram hashes the smallest is selected (the rightmost on a tie), and each
//! selected position is kept once. Any substring
//! two texts share that spans `w + q − 1` characters or more yields at
//! least one shared fingerprint, and about `2 / (w + 1)` of the grams are
//! kept.

use alloc::vec::Vec;

/// The positions winnowing selects from `hashes` with window `w` (`w ≤ 1`
/// or fewer hashes than `w`: see below), ascending. A text with fewer than
/// `w` hashes keeps its smallest one; `w ≤ 1` keeps every position. Time
/// `O(n)` amortised (a monotone queue), memory `O(w)` beyond the result.
pub fn winnow(hashes: &[u64], w: usize) -> Vec<usize> {
    if w <= 1 {
        return (0..hashes.len()).collect();
    }
    let mut out: Vec<usize> = Vec::with_capacity(2 * hashes.len() / (w + 1) + 1);
    // Candidates for the minimum of the current window: positions with
    // strictly increasing hashes from the front; a later equal or smaller
    // hash removes earlier ones (the rightmost minimum wins).
    let mut queue: alloc::collections::VecDeque<usize> = alloc::collections::VecDeque::new();
    for (i, &h) in hashes.iter().enumerate() {
        while queue.back().is_some_and(|&j| hashes[j] >= h) {
            queue.pop_back();
        }
        queue.push_back(i);
        if queue.front().is_some_and(|&j| j + w <= i) {
            queue.pop_front();
        }
        if i + 1 >= w || i + 1 == hashes.len() {
            let m = queue[0];
            if out.last() != Some(&m) {
                out.push(m);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paper's example (its Figure 2): the hashes of the 5-grams of
    /// "adorunrunrunadorunrun", windows of 4, give the fingerprints
    /// 17, 17, 8, 39, 17 at positions 3, 6, 8, 11, 15.
    #[test]
    fn selects_the_rightmost_minimum_of_every_window_once() {
        let h = [
            77u64, 74, 42, 17, 98, 50, 17, 98, 8, 88, 67, 39, 77, 74, 42, 17, 98,
        ];
        let got: Vec<u64> = winnow(&h, 4).iter().map(|&p| h[p]).collect();
        assert_eq!(got, [17, 17, 8, 39, 17]);
        assert_eq!(winnow(&h, 4), [3, 6, 8, 11, 15]);
    }

    #[test]
    fn every_window_holds_a_selected_position() {
        let mut rng = crate::hash::SplitMix64::new(7);
        let h: Vec<u64> = (0..500).map(|_| rng.next() % 50).collect();
        for w in [2usize, 4, 8, 16] {
            let sel = winnow(&h, w);
            for start in 0..=h.len() - w {
                let min = h[start..start + w].iter().min();
                assert!(
                    sel.iter()
                        .any(|&p| p >= start && p < start + w && Some(&h[p]) == min),
                    "w {w} at {start}"
                );
            }
            assert!(sel.windows(2).all(|x| x[0] < x[1]));
        }
        assert_eq!(winnow(&[5, 3, 9], 8), [1]);
        assert_eq!(winnow(&[5, 3, 9], 1), [0, 1, 2]);
        assert!(winnow(&[], 4).is_empty());
    }
}
