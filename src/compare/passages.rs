//! The passages two texts share: the evidence behind a score.
//!
//! A shared passage is a maximal run of consecutive word k-shingles of text a
//! that occur, consecutively and in the same order, in text b (the matching
//! behind Clough and Stevenson's n-gram overlap and Wise's greedy string
//! tiling, restricted to exact runs). Runs are found greedily from the start
//! of a: at each shingle of a that occurs in b, the longest run starting at
//! any of its first [`MAX_CANDIDATES`] occurrences in b is taken, and the scan
//! resumes after it. Runs that overlap or are at most `gap` tokens apart in
//! both texts (b's run after a's previous one) are merged into one passage.
//!
//! Cost: `O((n_a + n_b) log n_b + MAX_CANDIDATES · n_a)` time and
//! `16 n_b` bytes for the index of b, whatever the texts (a repetitive text
//! cannot make it quadratic).

use crate::text::{Normalized, TextRange};
use alloc::vec::Vec;

/// At most this many occurrences in b of one shingle are tried as the start
/// of a run; bounds the work on repetitive texts.
pub const MAX_CANDIDATES: usize = 32;

/// A passage shared by texts a and b.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct Passage {
    /// Range in text a (bytes of UTF-8 in the core; see [`super::Report::into_utf16`]).
    pub a: TextRange,
    /// Range in text b, same unit as `a`.
    pub b: TextRange,
    /// Range of word-token indices of a covered by the passage.
    #[cfg_attr(feature = "serde", serde(rename = "aTokens"))]
    pub a_tokens: TextRange,
    /// Range of word-token indices of b covered by the passage.
    #[cfg_attr(feature = "serde", serde(rename = "bTokens"))]
    pub b_tokens: TextRange,
}

/// Finds the shared passages, as token-index ranges, from the positional word
/// shingle hashes of a and b ([`crate::Document::shingles`] with the same
/// `k` and seed) and the token counts `n_a`, `n_b`.
///
/// Returns `(a_tokens, b_tokens)` pairs in order of a, non-overlapping in a.
pub fn shared_runs(
    a_sh: &[u64],
    b_sh: &[u64],
    k: usize,
    n_a: usize,
    n_b: usize,
    gap: usize,
) -> Vec<(TextRange, TextRange)> {
    let k = k.max(1);
    let mut index: Vec<(u64, u32)> = b_sh
        .iter()
        .enumerate()
        .map(|(j, &h)| (h, j as u32))
        .collect();
    index.sort_unstable();
    let mut out: Vec<(TextRange, TextRange)> = Vec::new();
    let mut i = 0;
    while i < a_sh.len() {
        let h = a_sh[i];
        let lo = index.partition_point(|&(x, _)| x < h);
        let hi = lo + index[lo..].partition_point(|&(x, _)| x == h);
        if lo == hi {
            i += 1;
            continue;
        }
        let (mut best_len, mut best_j) = (0usize, 0usize);
        for &(_, j) in &index[lo..hi.min(lo + MAX_CANDIDATES)] {
            let j = j as usize;
            let mut l = 1;
            while i + l < a_sh.len() && j + l < b_sh.len() && a_sh[i + l] == b_sh[j + l] {
                l += 1;
            }
            if l > best_len {
                best_len = l;
                best_j = j;
            }
        }
        // Shingle p covers tokens p .. min(p + k, n).
        let ta = TextRange {
            start: i,
            end: (i + best_len - 1 + k).min(n_a),
        };
        let tb = TextRange {
            start: best_j,
            end: (best_j + best_len - 1 + k).min(n_b),
        };
        match out.last_mut() {
            Some((pa, pb))
                if ta.start <= pa.end + gap && tb.start >= pb.start && tb.start <= pb.end + gap =>
            {
                pa.end = pa.end.max(ta.end);
                pb.end = pb.end.max(tb.end);
            }
            _ => out.push((ta, tb)),
        }
        i += best_len;
    }
    // A later run may start inside the previous one in a (when it was not
    // merged); trim so passages never overlap in a.
    for w in 1..out.len() {
        let prev_end = out[w - 1].0.end;
        if out[w].0.start < prev_end {
            out[w].0.start = prev_end.min(out[w].0.end);
        }
    }
    out.retain(|(ta, _)| !ta.is_empty());
    out
}

/// Maps token-index runs to [`Passage`]s with byte ranges in the originals.
pub fn passages(runs: &[(TextRange, TextRange)], a: &Normalized, b: &Normalized) -> Vec<Passage> {
    let span = |n: &Normalized, t: TextRange| {
        let toks = n.tokens();
        TextRange {
            start: toks[t.start].orig.start,
            end: toks[t.end - 1].orig.end,
        }
    };
    runs.iter()
        .map(|&(ta, tb)| Passage {
            a: span(a, ta),
            b: span(b, tb),
            a_tokens: ta,
            b_tokens: tb,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shingle::{token_hashes, word_shingles};
    use crate::text::normalize;

    fn runs(a: &str, b: &str, k: usize, gap: usize) -> Vec<(TextRange, TextRange)> {
        let (na, nb) = (normalize(a), normalize(b));
        let sa = word_shingles(&token_hashes(&na, 0), k, 0);
        let sb = word_shingles(&token_hashes(&nb, 0), k, 0);
        shared_runs(&sa, &sb, k, na.len(), nb.len(), gap)
    }

    fn r(start: usize, end: usize) -> TextRange {
        TextRange { start, end }
    }

    #[test]
    fn finds_copied_run_in_both_texts() {
        let a = "my own words then the quick brown fox jumps over it and more";
        let b = "intro text: The quick brown fox jumps over! end";
        // a tokens 4..10 = "the quick brown fox jumps over"; b tokens 2..8
        assert_eq!(runs(a, b, 3, 0), [(r(4, 10), r(2, 8))]);
    }

    #[test]
    fn edits_split_runs_and_gap_merges_them() {
        let a = "one two three four five six seven eight nine ten";
        let b = "one two three four fife six seven eight nine ten";
        assert_eq!(runs(a, b, 2, 0), [(r(0, 4), r(0, 4)), (r(5, 10), r(5, 10))]);
        assert_eq!(runs(a, b, 2, 1), [(r(0, 10), r(0, 10))]);
    }

    #[test]
    fn repetitive_text_is_bounded_and_covers_all() {
        let a = "la ".repeat(5000);
        let got = runs(&a, &a, 3, 0);
        assert_eq!(got, [(r(0, 5000), r(0, 5000))]);
    }

    #[test]
    fn no_shared_run() {
        assert!(runs("alpha beta gamma", "delta epsilon zeta", 2, 0).is_empty());
    }
}
