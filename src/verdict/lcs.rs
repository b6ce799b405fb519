//! The length of the longest common subsequence of two token sequences, by
//! the bit-parallel algorithm of Allison & Dix (1986) in the form of
//! Crochemore, Iliopoulos, Pinzon & Reid (2001): one bit per token of `a`,
//! and for each token `y` of `b`, `V ← (V + (V & M[y])) | (V & !M[y])`,
//! where `M[y]` marks the positions of `y` in `a`; the LCS is the number of
//! zero bits of `V` at the end. Time `O(|a| · |b| / 64)`, memory `O(|a|)`.
//!
//! Clough & Stevenson (2011) use the LCS of the two token sequences,
//! normalised by the length of the suspicious text, as a measure of how much
//! of its order it keeps from the source: a light revision keeps most of it,
//! a heavy one reorders.

use alloc::vec;
use alloc::vec::Vec;

/// Tokens of each sequence read by [`lcs_len`]: longer sequences are cut
/// to their first `MAX_LCS_TOKENS` (2^15), bounding the work at
/// 2^15 · 2^15 / 64 = 2^24 word operations.
pub const MAX_LCS_TOKENS: usize = 1 << 15;

/// The length of a longest common subsequence of `a` and `b` (tokens as
/// hashes, equal when equal), each cut to its first [`MAX_LCS_TOKENS`];
/// in `0..=min(|a|, |b|)`.
pub fn lcs_len(a: &[u64], b: &[u64]) -> usize {
    let a = &a[..a.len().min(MAX_LCS_TOKENS)];
    let b = &b[..b.len().min(MAX_LCS_TOKENS)];
    if a.is_empty() || b.is_empty() {
        return 0;
    }
    // Positions of each token of a, grouped by token: (hash, position).
    let mut at: Vec<(u64, u32)> = a.iter().enumerate().map(|(i, &h)| (h, i as u32)).collect();
    at.sort_unstable();
    let words = a.len().div_ceil(64);
    let mut v = vec![u64::MAX; words];
    let mut m = vec![0u64; words];
    for &y in b {
        let from = at.partition_point(|&(h, _)| h < y);
        let to = at.partition_point(|&(h, _)| h <= y);
        if from == to {
            continue; // M[y] = 0: V is unchanged.
        }
        for &(_, i) in &at[from..to] {
            m[i as usize / 64] |= 1 << (i % 64);
        }
        let mut carry = false;
        for (vw, mw) in v.iter_mut().zip(m.iter_mut()) {
            let u = *vw & *mw;
            let (s1, c1) = vw.overflowing_add(u);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            carry = c1 || c2;
            *vw = s2 | (*vw & !*mw);
            *mw = 0;
        }
    }
    // Zero bits among the first |a| bits (carries only move upwards, into
    // the unused bits of the last word, which are not counted).
    let full = a.len() / 64;
    let mut zeros: usize = v[..full].iter().map(|w| w.count_zeros() as usize).sum();
    let rest = a.len() % 64;
    if rest > 0 {
        zeros += (!v[full] & ((1u64 << rest) - 1)).count_ones() as usize;
    }
    zeros
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook dynamic programme, as the expectation.
    fn dp(a: &[u64], b: &[u64]) -> usize {
        let mut row = vec![0usize; b.len() + 1];
        for &x in a {
            let mut diag = 0;
            for (j, &y) in b.iter().enumerate() {
                let up = row[j + 1];
                row[j + 1] = if x == y { diag + 1 } else { up.max(row[j]) };
                diag = up;
            }
        }
        row[b.len()]
    }

    #[test]
    fn small_cases_by_hand() {
        // ABCBDAB / BDCABA: LCS 4 (BCBA), the textbook example (CLRS 15.4).
        let s = |t: &str| t.bytes().map(u64::from).collect::<Vec<_>>();
        assert_eq!(lcs_len(&s("ABCBDAB"), &s("BDCABA")), 4);
        assert_eq!(lcs_len(&s("ABC"), &s("ABC")), 3);
        assert_eq!(lcs_len(&s("ABC"), &s("CBA")), 1);
        assert_eq!(lcs_len(&s("ABC"), &s("XYZ")), 0);
        assert_eq!(lcs_len(&s(""), &s("XYZ")), 0);
    }

    #[test]
    fn equals_the_dynamic_programme_across_word_boundaries() {
        // Pseudo-random sequences over small alphabets, lengths around 64
        // and 128, where the carries cross words.
        let mut rng = crate::testing::XorShift(0x9E37_79B9_7F4A_7C15);
        let mut next = |k: u64| rng.below(k);
        for (n, m, k) in [
            (63, 70, 3),
            (64, 64, 2),
            (65, 129, 4),
            (200, 150, 5),
            (130, 1, 2),
        ] {
            let a: Vec<u64> = (0..n).map(|_| next(k)).collect();
            let b: Vec<u64> = (0..m).map(|_| next(k)).collect();
            assert_eq!(lcs_len(&a, &b), dp(&a, &b), "n {n} m {m} k {k}");
            assert_eq!(lcs_len(&b, &a), dp(&a, &b), "symmetric, n {n} m {m}");
        }
    }
}
