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
//! Cost: `O(n_a log n_a + n_b log n_b + MAX_CANDIDATES · n_a)` time in the
//! worst case, `O(n log n)` on unrelated texts (a candidate is extended only
//! while the next shingles of a occur in b at all), and about
//! `16 (n_a + n_b)` bytes of working memory, whatever the texts (a
//! repetitive text cannot make it quadratic).

use crate::text::{Normalized, TextRange};
use alloc::vec::Vec;

/// At most this many occurrences in b of one shingle are tried as the start
/// of a run; bounds the work on repetitive texts.
pub const MAX_CANDIDATES: usize = 32;

/// A passage shared by texts a and b.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
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

/// A word of a matched, inside a shared passage, with a differently spelt
/// word of b that has the same phonetic code (see
/// [`super::CompareConfig::phonetic`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct Misspelling {
    /// The word in text a (bytes of UTF-8 in the core; UTF-16 units in JS).
    pub a: TextRange,
    /// The word of text b it was matched with, same unit.
    pub b: TextRange,
}

/// The token pairs of the passages (`runs`, aligned token by token from
/// each run's start) whose normalised words differ but whose codes by
/// `algorithm` are equal, in order of a. Time linear in the passages'
/// tokens.
pub fn misspellings(
    runs: &[(TextRange, TextRange)],
    a: &Normalized,
    b: &Normalized,
    algorithm: crate::phonetic::Algorithm,
) -> Vec<Misspelling> {
    fn word(n: &Normalized, i: usize) -> &str {
        let r = n.tokens()[i].norm;
        &n.text()[r.start..r.end]
    }
    let (mut letters, mut ca, mut cb) = (
        Vec::new(),
        alloc::string::String::new(),
        alloc::string::String::new(),
    );
    let mut out = Vec::new();
    for &(ta, tb) in runs {
        for o in 0..ta.len().min(tb.len()) {
            let (i, j) = (ta.start + o, tb.start + o);
            let (wa, wb) = (word(a, i), word(b, j));
            if wa == wb {
                continue;
            }
            ca.clear();
            cb.clear();
            crate::phonetic::encode_into(algorithm, wa, &mut letters, &mut ca);
            crate::phonetic::encode_into(algorithm, wb, &mut letters, &mut cb);
            if ca == cb {
                out.push(Misspelling {
                    a: a.tokens()[i].orig,
                    b: b.tokens()[j].orig,
                });
            }
        }
    }
    out
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
    let mut out: Vec<(TextRange, TextRange)> = Vec::new();
    for (i, best_len, best_j) in greedy_runs(a_sh, b_sh) {
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

/// The greedy runs of shared shingles, before merging: `(i, len, j)` means
/// shingles `i .. i + len` of a equal shingles `j .. j + len` of b; runs are
/// in order of a and do not overlap in a. At each `i`, the longest run among
/// the first [`MAX_CANDIDATES`] occurrences of `a_sh[i]` in b (in order of
/// b) is taken, the first of equal lengths.
fn greedy_runs(a_sh: &[u64], b_sh: &[u64]) -> Vec<(usize, usize, usize)> {
    let ranges = occurrence_ranges(a_sh, b_sh);
    let index = &ranges.index;
    // reach[i]: how many consecutive shingles of a from i occur somewhere in
    // b, an upper bound on any run starting at i; scanning candidates stops
    // once a run reaches it (on unrelated texts, at the first candidate).
    let mut reach = alloc::vec![0u32; a_sh.len() + 1];
    for i in (0..a_sh.len()).rev() {
        let (lo, hi) = ranges.of_a[i];
        reach[i] = if lo < hi { reach[i + 1] + 1 } else { 0 };
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < a_sh.len() {
        let (lo, hi) = ranges.of_a[i];
        let (lo, hi) = (lo as usize, hi as usize);
        if lo == hi {
            i += 1;
            continue;
        }
        let cap = reach[i] as usize;
        let (mut best_len, mut best_j) = (0usize, 0usize);
        for &j in &index[lo..hi.min(lo + MAX_CANDIDATES)] {
            let j = j as usize;
            let mut l = 1;
            while l < cap && j + l < b_sh.len() && a_sh[i + l] == b_sh[j + l] {
                l += 1;
            }
            if l > best_len {
                best_len = l;
                best_j = j;
                if l == cap {
                    break;
                }
            }
        }
        out.push((i, best_len, best_j));
        i += best_len;
    }
    out
}

/// Where each shingle of a occurs in b: `index` holds the positions of b's
/// shingles sorted by hash (then position), and `of_a[i]` the range of
/// `index` whose hash equals `a_sh[i]` (empty when it does not occur in b).
struct OccurrenceRanges {
    index: Vec<u32>,
    of_a: Vec<(u32, u32)>,
}

/// Builds [`OccurrenceRanges`] by sorting both sides and merging them:
/// `O(n_a log n_a + n_b log n_b)` time with sequential memory access, where
/// a binary search per shingle of a would miss the cache at every step once
/// b's index outgrows it (10 MB texts: 4× slower).
fn occurrence_ranges(a_sh: &[u64], b_sh: &[u64]) -> OccurrenceRanges {
    let sorted = |sh: &[u64]| {
        let mut v: Vec<(u64, u32)> = sh.iter().enumerate().map(|(j, &h)| (h, j as u32)).collect();
        v.sort_unstable();
        v
    };
    let (sa, sb) = (sorted(a_sh), sorted(b_sh));
    let mut of_a = alloc::vec![(0u32, 0u32); a_sh.len()];
    let mut p = 0;
    let mut s = 0;
    while s < sa.len() {
        let h = sa[s].0;
        while p < sb.len() && sb[p].0 < h {
            p += 1;
        }
        let lo = p;
        let mut hi = p;
        while hi < sb.len() && sb[hi].0 == h {
            hi += 1;
        }
        while s < sa.len() && sa[s].0 == h {
            of_a[sa[s].1 as usize] = (lo as u32, hi as u32);
            s += 1;
        }
    }
    OccurrenceRanges {
        index: sb.into_iter().map(|(_, j)| j).collect(),
        of_a,
    }
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
    use crate::hash::Spec::V1;
    use crate::shingle::{token_hashes, word_shingles};
    use crate::text::normalize;

    fn runs(a: &str, b: &str, k: usize, gap: usize) -> Vec<(TextRange, TextRange)> {
        let (na, nb) = (normalize(a), normalize(b));
        let sa = word_shingles(&token_hashes(&na, 0, V1), k, 0, V1);
        let sb = word_shingles(&token_hashes(&nb, 0, V1), k, 0, V1);
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

    /// The fast greedy search equals a direct transcription of its
    /// definition (scan b in order for the first `MAX_CANDIDATES`
    /// occurrences, extend each as far as it goes) on random texts over
    /// small vocabularies, where runs, repeats and dead ends abound.
    #[test]
    fn greedy_runs_equal_their_definition() {
        fn by_definition(a: &[u64], b: &[u64]) -> Vec<(usize, usize, usize)> {
            let mut out = Vec::new();
            let mut i = 0;
            while i < a.len() {
                let mut best = (0, 0);
                for j in (0..b.len()).filter(|&j| b[j] == a[i]).take(MAX_CANDIDATES) {
                    let l = (0..)
                        .take_while(|&l| i + l < a.len() && j + l < b.len() && a[i + l] == b[j + l])
                        .count();
                    if l > best.0 {
                        best = (l, j);
                    }
                }
                if best.0 == 0 {
                    i += 1;
                } else {
                    out.push((i, best.0, best.1));
                    i += best.0;
                }
            }
            out
        }
        let mut rng = crate::hash::SplitMix64::new(7);
        for case in 0..400 {
            let vocab = 2 + case % 40;
            let mut text =
                |n: u64| -> Vec<u64> { (0..n).map(|_| rng.next() % vocab as u64).collect() };
            let a = text(rng_len(case, 0));
            let b = text(rng_len(case, 1));
            assert_eq!(greedy_runs(&a, &b), by_definition(&a, &b), "case {case}");
        }
        fn rng_len(case: usize, side: usize) -> u64 {
            ((case * 37 + side * 101) % 300) as u64
        }
    }
}
