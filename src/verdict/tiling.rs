//! Greedy String Tiling (Wise 1993, "String similarity via greedy string
//! tiling and running Karp–Rabin matching"), the matcher of JPlag (Prechelt,
//! Malpohl & Philippsen 2002): repeatedly take the longest common runs of
//! unmarked tokens (at least `min` long), mark them in both texts as tiles,
//! until no run of `min` tokens is left. Unlike the LCS it keeps blocks that
//! were moved: a text whose paragraphs were reordered is still tiled.
//!
//! Candidate runs are found through an index of `b`'s `min`-token windows
//! (as the running Karp–Rabin matching does), and a run is only extended
//! from its left end (a run that could extend to the left is part of a
//! longer one). The similarity is JPlag's: `2 · tiled / (|a| + |b|)`.

use alloc::vec;
use alloc::vec::Vec;

/// Tokens of each sequence read by [`tiled_tokens`]: longer sequences are
/// cut to their first `MAX_TILING_TOKENS` (2^14). The work of one round is
/// the sum, over the positions of `a`, of `b`'s windows that equal it; the
/// rounds are at most the number of distinct tile lengths.
pub const MAX_TILING_TOKENS: usize = 1 << 14;

/// The number of tokens of `a` covered by the tiles of Greedy String Tiling
/// with minimum match length `min` (≥ 1), each sequence cut to its first
/// [`MAX_TILING_TOKENS`]; in `0..=min(|a|, |b|)` (tiles cover as many tokens
/// in both texts).
pub fn tiled_tokens(a: &[u64], b: &[u64], min: usize) -> usize {
    let a = &a[..a.len().min(MAX_TILING_TOKENS)];
    let b = &b[..b.len().min(MAX_TILING_TOKENS)];
    let min = min.max(1);
    if a.len() < min || b.len() < min {
        return 0;
    }
    // b's windows of `min` tokens, (window hash, start), sorted.
    let window = |s: &[u64], i: usize| {
        s[i..i + min]
            .iter()
            .fold(0xCBF2_9CE4_8422_2325u64, |h, &t| {
                (h ^ t).wrapping_mul(0x0000_0100_0000_01B3)
            })
    };
    let mut index: Vec<(u64, u32)> = (0..=b.len() - min)
        .map(|j| (window(b, j), j as u32))
        .collect();
    index.sort_unstable();
    let a_windows: Vec<u64> = (0..=a.len() - min).map(|i| window(a, i)).collect();
    let (mut marked_a, mut marked_b) = (vec![false; a.len()], vec![false; b.len()]);
    let mut tiled = 0;
    loop {
        let mut longest = min;
        let mut found: Vec<(usize, usize, usize)> = Vec::new();
        for (i, &h) in a_windows.iter().enumerate() {
            if marked_a[i] {
                continue;
            }
            let from = index.partition_point(|&(x, _)| x < h);
            for &(_, j) in index[from..].iter().take_while(|&&(x, _)| x == h) {
                let j = j as usize;
                if marked_b[j] {
                    continue;
                }
                // Maximal to the left: else it is part of a run found from
                // an earlier position.
                if i > 0 && j > 0 && a[i - 1] == b[j - 1] && !marked_a[i - 1] && !marked_b[j - 1] {
                    continue;
                }
                let mut k = 0;
                while i + k < a.len()
                    && j + k < b.len()
                    && a[i + k] == b[j + k]
                    && !marked_a[i + k]
                    && !marked_b[j + k]
                {
                    k += 1;
                }
                if k > longest {
                    longest = k;
                    found.clear();
                }
                if k == longest {
                    found.push((i, j, k));
                }
            }
        }
        if found.is_empty() {
            return tiled;
        }
        for (i, j, k) in found {
            // An earlier tile of this round may have taken some of it.
            if marked_a[i..i + k].iter().any(|&m| m) || marked_b[j..j + k].iter().any(|&m| m) {
                continue;
            }
            marked_a[i..i + k].iter_mut().for_each(|m| *m = true);
            marked_b[j..j + k].iter_mut().for_each(|m| *m = true);
            tiled += k;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(t: &str) -> Vec<u64> {
        t.split_whitespace()
            .map(|w| crate::hash::bytes_hash(0, w.as_bytes()))
            .collect()
    }

    #[test]
    fn moved_blocks_are_tiled_where_the_lcs_keeps_one_order() {
        // Two blocks swapped: both are tiles (8 tokens), the LCS keeps 4.
        let a = s("one two three four five six seven eight");
        let b = s("five six seven eight one two three four");
        assert_eq!(tiled_tokens(&a, &b, 3), 8);
        assert_eq!(crate::verdict::lcs::lcs_len(&a, &b), 4);
        // Runs shorter than the minimum match length are not tiles.
        assert_eq!(tiled_tokens(&a, &b, 5), 0);
    }

    #[test]
    fn greedy_takes_the_longest_first_and_never_reuses_a_token() {
        // "x y z w" occurs once in b; a has it twice: one tile of 4.
        let a = s("x y z w x y z w");
        let b = s("x y z w");
        assert_eq!(tiled_tokens(&a, &b, 2), 4);
        // The longest run (5) is taken before the shorter one it overlaps.
        let a = s("p q r s t u v");
        let b = s("r s t u v q p q r");
        // Tiles: "r s t u v" (5), then "p q" (2) from b's tail "p q".
        assert_eq!(tiled_tokens(&a, &b, 2), 7);
        assert_eq!(tiled_tokens(&s("a b c"), &s("d e f"), 1), 0);
        assert_eq!(tiled_tokens(&s("a b"), &s("a b"), 3), 0);
    }
}
