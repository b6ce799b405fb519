//! `compare(a, b, options) -> Report`: every measure of how much text a
//! copies text b, the shared passages, and one plagiarism score.
//!
//! Text **a** is the suspicious text, text **b** the source. The plagiarism
//! [`Measures::score`] is the containment of a in b by word k-shingles,
//! `|S_k(a) ∩ S_k(b)| / |S_k(a)|` (Broder 1997; the word n-gram containment
//! that Clough and Stevenson 2011 found to separate copied from independent
//! answers): the share of a's k-word phrases found in b. It is 1 when every
//! phrase of a comes from b, whatever else b contains, and near 0 for
//! independent texts on the same topic. `EVALUATION.md` measures it on the
//! Clough–Stevenson corpus.

use crate::error::{Error, ErrorKind};
use crate::evidence::{self, Passage};
use crate::measures::{self, TermFrequencies};
use crate::shingle::{self, ShingleSet};
use crate::text::{normalize, utf16_offsets, Normalized, TextRange};
use alloc::vec::Vec;

/// Options of [`compare`], with by-value setters; checked once by
/// [`CompareOptions::check`] (which `compare` calls).
///
/// The defaults suit essays and articles: word 3-shingles, character
/// 5-grams, seed 0, no gap merging, inputs up to 64 MiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", default, deny_unknown_fields)
)]
pub struct CompareOptions {
    /// Words per word shingle, `k` in 1..=32. Default 3.
    pub word_k: u32,
    /// Characters per character shingle, `q` in 1..=32. Default 5.
    pub char_q: u32,
    /// Hash seed (any `u64`). Default 0. Values are comparable only under
    /// one seed.
    pub seed: u64,
    /// Shared runs at most this many tokens apart in both texts are merged
    /// into one passage, 0..=64. Default 0 (merge only overlapping runs).
    pub span_gap: u32,
    /// Largest accepted text, in bytes of UTF-8, 1..=2^32 - 1.
    /// Default 64 MiB.
    pub max_bytes: u64,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            word_k: 3,
            char_q: 5,
            seed: crate::hash::DEFAULT_SEED,
            span_gap: 0,
            max_bytes: 64 << 20,
        }
    }
}

impl CompareOptions {
    /// The default options.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `word_k`.
    pub fn word_k(mut self, k: u32) -> Self {
        self.word_k = k;
        self
    }

    /// Sets `char_q`.
    pub fn char_q(mut self, q: u32) -> Self {
        self.char_q = q;
        self
    }

    /// Sets the hash seed.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Sets `span_gap`.
    pub fn span_gap(mut self, gap: u32) -> Self {
        self.span_gap = gap;
        self
    }

    /// Sets `max_bytes`.
    pub fn max_bytes(mut self, max: u64) -> Self {
        self.max_bytes = max;
        self
    }

    /// Checks every option against its range.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] naming the option and its range.
    pub fn check(&self) -> Result<(), Error> {
        if !(1..=32).contains(&self.word_k) {
            return Err(Error::invalid_option(alloc::format!(
                "wordK must be in 1..=32, got {}",
                self.word_k
            )));
        }
        if !(1..=32).contains(&self.char_q) {
            return Err(Error::invalid_option(alloc::format!(
                "charQ must be in 1..=32, got {}",
                self.char_q
            )));
        }
        if self.span_gap > 64 {
            return Err(Error::invalid_option(alloc::format!(
                "spanGap must be in 0..=64, got {}",
                self.span_gap
            )));
        }
        if !(1..=u32::MAX as u64).contains(&self.max_bytes) {
            return Err(Error::invalid_option(alloc::format!(
                "maxBytes must be in 1..=4294967295, got {}",
                self.max_bytes
            )));
        }
        Ok(())
    }
}

/// The measures of a comparison. All ratios are in [0, 1] and never NaN.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Measures {
    /// The plagiarism score: containment of a in b by word k-shingles
    /// (equal to `containment`; see the module docs).
    pub score: f64,
    /// Jaccard resemblance of the word k-shingle sets, `|A∩B| / |A∪B|`.
    pub resemblance: f64,
    /// Containment of a in b by word k-shingles, `|A∩B| / |A|`.
    pub containment: f64,
    /// Containment of b in a by word k-shingles, `|A∩B| / |B|`.
    pub containment_b_in_a: f64,
    /// Dice coefficient of the word k-shingle sets, `2|A∩B| / (|A|+|B|)`.
    pub dice: f64,
    /// Jaccard resemblance of the character q-gram sets.
    pub char_resemblance: f64,
    /// Containment of a in b by character q-grams.
    pub char_containment: f64,
    /// Cosine of the word term-frequency vectors (unigrams).
    pub cosine: f64,
    /// Number of distinct word k-shingles shared, `|A∩B|`.
    pub shared_shingles: u64,
    /// Number of distinct word k-shingles of a, `|A|`.
    pub shingles_a: u64,
    /// Number of distinct word k-shingles of b, `|B|`.
    pub shingles_b: u64,
    /// Word tokens in a.
    pub tokens_a: u64,
    /// Word tokens in b.
    pub tokens_b: u64,
    /// Share of a's word tokens inside shared passages, in [0, 1].
    pub coverage_a: f64,
    /// Share of b's word tokens inside shared passages, in [0, 1].
    pub coverage_b: f64,
}

/// The unit of the offsets in a [`Report`]'s passages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum OffsetUnit {
    /// Bytes of UTF-8 (the core's unit; Rust string slicing).
    Utf8Bytes,
    /// UTF-16 code units (JavaScript `String` indices).
    Utf16Units,
}

/// The result of [`compare`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Report {
    /// Every measure, including the plagiarism score.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub measures: Measures,
    /// Shared passages, in order of text a, not overlapping in a.
    pub passages: Vec<Passage>,
    /// The unit of the passages' `a` and `b` offsets.
    pub offsets: OffsetUnit,
    /// The options the report was made with.
    pub options: CompareOptions,
}

impl Report {
    /// Converts the passages' `a` and `b` ranges from UTF-8 byte offsets to
    /// UTF-16 code-unit offsets into the same texts `a` and `b` (for
    /// JavaScript). Does nothing when already converted.
    ///
    /// `a` and `b` must be the texts the report was made from; a range that
    /// does not fall on a `char` boundary of them maps to the next boundary.
    pub fn into_utf16(mut self, a: &str, b: &str) -> Report {
        if self.offsets == OffsetUnit::Utf16Units {
            return self;
        }
        let flat = |r: TextRange| [r.start, r.end];
        let ua = utf16_offsets(
            a,
            &self
                .passages
                .iter()
                .flat_map(|p| flat(p.a))
                .collect::<Vec<_>>(),
        );
        let ub = utf16_offsets(
            b,
            &self
                .passages
                .iter()
                .flat_map(|p| flat(p.b))
                .collect::<Vec<_>>(),
        );
        for (i, p) in self.passages.iter_mut().enumerate() {
            p.a = TextRange {
                start: ua[2 * i],
                end: ua[2 * i + 1],
            };
            p.b = TextRange {
                start: ub[2 * i],
                end: ub[2 * i + 1],
            };
        }
        self.offsets = OffsetUnit::Utf16Units;
        self
    }
}

fn prepare(text: &str, which: &'static str, max: u64) -> Result<Normalized, Error> {
    if text.len() as u64 > max {
        return Err(Error::new(ErrorKind::TooLarge {
            which,
            len: text.len() as u64,
            max,
        }));
    }
    let n = normalize(text);
    if n.is_empty() {
        return Err(Error::new(ErrorKind::EmptyText { which }));
    }
    Ok(n)
}

/// Compares suspicious text `a` with source text `b`.
///
/// Normalises both ([`crate::normalize`]), shingles them
/// ([`crate::shingle`]), computes every [`Measures`] field and the shared
/// [`Passage`]s with UTF-8 byte ranges into `a` and `b`. Linear in the texts'
/// lengths up to a log factor; memory about 40 bytes per word token.
///
/// # Errors
/// * [`ErrorKind::InvalidOption`] when `options.check()` fails;
/// * [`ErrorKind::TooLarge`] when a text exceeds `options.max_bytes`;
/// * [`ErrorKind::EmptyText`] when a text has no word tokens.
///
/// ```
/// use neardup::{compare, CompareOptions};
/// let src = "The quick brown fox jumps over the lazy dog.";
/// let r = compare("He said the quick brown fox jumps over it.", src, &CompareOptions::default())?;
/// assert!(r.measures.score > 0.5);
/// assert_eq!(&src[r.passages[0].b.start..r.passages[0].b.end], "The quick brown fox jumps over");
/// # Ok::<(), neardup::Error>(())
/// ```
pub fn compare(a: &str, b: &str, options: &CompareOptions) -> Result<Report, Error> {
    options.check()?;
    let na = prepare(a, "a", options.max_bytes)?;
    let nb = prepare(b, "b", options.max_bytes)?;
    let (k, q, seed) = (
        options.word_k as usize,
        options.char_q as usize,
        options.seed,
    );

    let ta = shingle::token_hashes(&na, seed);
    let tb = shingle::token_hashes(&nb, seed);
    let wa = shingle::word_shingles(&ta, k, seed);
    let wb = shingle::word_shingles(&tb, k, seed);
    let runs = evidence::shared_runs(&wa, &wb, k, na.len(), nb.len(), options.span_gap as usize);
    let passages = evidence::passages(&runs, &na, &nb);

    let sa = ShingleSet::from_hashes(wa);
    let sb = ShingleSet::from_hashes(wb);
    let ca = ShingleSet::from_hashes(shingle::char_shingles(&na, q, seed));
    let cb = ShingleSet::from_hashes(shingle::char_shingles(&nb, q, seed));
    let fa = TermFrequencies::from_hashes(&ta);
    let fb = TermFrequencies::from_hashes(&tb);

    let covered_a: usize = runs.iter().map(|(x, _)| x.len()).sum();
    let covered_b = covered_tokens(runs.iter().map(|&(_, y)| y).collect());
    let containment = measures::containment(&sa, &sb);
    let m = Measures {
        score: containment,
        resemblance: measures::resemblance(&sa, &sb),
        containment,
        containment_b_in_a: measures::containment(&sb, &sa),
        dice: measures::dice(&sa, &sb),
        char_resemblance: measures::resemblance(&ca, &cb),
        char_containment: measures::containment(&ca, &cb),
        cosine: measures::cosine(&fa, &fb),
        shared_shingles: sa.intersection_len(&sb) as u64,
        shingles_a: sa.len() as u64,
        shingles_b: sb.len() as u64,
        tokens_a: na.len() as u64,
        tokens_b: nb.len() as u64,
        coverage_a: covered_a as f64 / na.len() as f64,
        coverage_b: covered_b as f64 / nb.len() as f64,
    };
    Ok(Report {
        measures: m,
        passages,
        offsets: OffsetUnit::Utf8Bytes,
        options: *options,
    })
}

/// Number of indices covered by a union of ranges.
fn covered_tokens(mut ranges: Vec<TextRange>) -> usize {
    ranges.sort_unstable();
    let (mut total, mut reach) = (0usize, 0usize);
    for r in ranges {
        let start = r.start.max(reach);
        if r.end > start {
            total += r.end - start;
            reach = r.end;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_texts_score_one() {
        let t = "Inheritance lets a class reuse the fields and methods of another class.";
        let r = compare(t, t, &CompareOptions::default()).unwrap();
        assert_eq!(r.measures.score, 1.0);
        assert_eq!(r.measures.resemblance, 1.0);
        assert!((r.measures.cosine - 1.0).abs() < 1e-12);
        assert_eq!(r.measures.coverage_a, 1.0);
        assert_eq!(r.passages.len(), 1);
        assert_eq!(
            r.passages[0].a,
            TextRange {
                start: 0,
                end: t.len() - 1
            }
        );
    }

    #[test]
    fn errors_name_the_text() {
        let o = CompareOptions::default();
        let e = compare("  ", "text", &o).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::EmptyText { which: "a" });
        let e = compare("text", "...", &o).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::EmptyText { which: "b" });
        let e = compare("a b", "a b", &o.max_bytes(2)).unwrap_err();
        assert!(matches!(
            e.kind(),
            ErrorKind::TooLarge {
                which: "a",
                len: 3,
                max: 2
            }
        ));
        let e = compare("a", "b", &o.word_k(0)).unwrap_err();
        assert!(alloc::format!("{e}").contains("wordK"));
    }

    #[test]
    fn utf16_offsets() {
        let a = "😀 café copied words here";
        let b = "x copied words here";
        let r = compare(a, b, &CompareOptions::default()).unwrap();
        assert_eq!(r.passages[0].a, TextRange { start: 11, end: 28 });
        let u = r.into_utf16(a, b);
        // 😀 is 4 bytes / 2 units; é is 2 bytes / 1 unit.
        assert_eq!(u.passages[0].a, TextRange { start: 8, end: 25 });
        assert_eq!(u.passages[0].b, TextRange { start: 2, end: 19 });
        assert_eq!(u.offsets, OffsetUnit::Utf16Units);
    }

    #[test]
    fn covered_union() {
        let r = |s, e| TextRange { start: s, end: e };
        assert_eq!(covered_tokens(alloc::vec![r(5, 10), r(0, 3), r(2, 6)]), 10);
        assert_eq!(covered_tokens(alloc::vec![r(5, 10), r(0, 3), r(6, 8)]), 8);
    }
}
