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
//!
//! The shared passages are found by [`passages`].

pub mod passages;

use crate::document::Document;
use crate::error::{check_range, Error, ErrorKind};
use crate::measures::TermFrequencies;
use crate::shingle::Shingling;
use crate::text::{ranges_to_utf16, TextRange};
use alloc::vec::Vec;
pub use passages::{Misspelling, Passage};

/// Options of [`compare`], with by-value setters; checked once by
/// [`CompareConfig::check`] (which `compare` calls).
///
/// The defaults suit essays and articles: word 3-shingles, character
/// 5-grams, seed 0, no gap merging, inputs up to 64 MiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", default, deny_unknown_fields)
)]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct CompareConfig {
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
    /// Tolerate misspellings: the word shingles behind the score,
    /// resemblance, containment, Dice and the passages are made of the
    /// words' phonetic codes by this encoder (`phonetic:ALGO:K`, SPEC.md
    /// §13), so a misspelt word that sounds like the original still matches,
    /// and [`Report::misspellings`] lists the words so matched. Default
    /// `None` (the words themselves).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub phonetic: Option<crate::phonetic::Algorithm>,
    /// Minimum match length, in word tokens of a, 0..=1000: shared passages
    /// shorter than this are dropped, and the score, the word-shingle
    /// measures (containment both ways, resemblance, Dice, shared shingles),
    /// the coverages and the misspellings count only the shingles inside
    /// the passages kept (stock phrases such as "in the case of" stop
    /// counting as evidence, as graders and WCopyfind's minimum phrase
    /// length do). The character q-gram measures and the cosine are not
    /// passage-based and are not affected. Default 0 (every passage).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub min_words: u32,
    /// Leave a's quotations out (`"…"`, `“…”`, `«…»`, across a line break
    /// but not a blank line; [`crate::exclude::quotations`]): quoting with
    /// attribution is not copying. Default `false`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub ignore_quotes: bool,
    /// Leave each text's trailing reference list out
    /// ([`crate::exclude::reference_list`]). Default `false`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub ignore_references: bool,
    /// Fold diacritics in both texts (SPEC.md §1, [`crate::Normalization`]):
    /// `é` → `e`, `ä` → `ae`, so a text typed without accents, or German
    /// with `ae`/`oe`/`ue`, matches its original. Default `false`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub fold_diacritics: bool,
    /// Undo the tricks that hide a copy in both texts first (SPEC.md §1,
    /// step 0, [`crate::Normalization::unmask`]): invisible characters
    /// (zero-width spaces, soft hyphens, joiners, …) removed, letters of
    /// another script that imitate the main script's (Cyrillic `а` for
    /// Latin `a`) mapped to them; [`Report::obfuscation_a`] and
    /// [`Report::obfuscation_b`] say what was undone. Default `true`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_true"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub unmask: bool,
}

#[cfg(feature = "serde")]
fn is_true(b: &bool) -> bool {
    *b
}

#[cfg(feature = "serde")]
fn is_false(b: &bool) -> bool {
    !*b
}

#[cfg(feature = "serde")]
fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Default for CompareConfig {
    fn default() -> Self {
        CompareConfig {
            word_k: 3,
            char_q: 5,
            seed: crate::hash::DEFAULT_SEED,
            span_gap: 0,
            max_bytes: 64 << 20,
            phonetic: None,
            min_words: 0,
            ignore_quotes: false,
            ignore_references: false,
            fold_diacritics: false,
            unmask: true,
        }
    }
}

crate::config::setters!(CompareConfig {
    /// Sets `word_k`.
    word_k: u32,
    /// Sets `char_q`.
    char_q: u32,
    /// Sets the hash seed.
    seed: u64,
    /// Sets `span_gap`.
    span_gap: u32,
    /// Sets `max_bytes`.
    max_bytes: u64,
    /// Sets the phonetic encoder of the word shingles (`None`: the words).
    phonetic: Option<crate::phonetic::Algorithm>,
    /// Sets the minimum match length in word tokens (`min_words`).
    min_words: u32,
    /// Sets whether a's quotations are left out.
    ignore_quotes: bool,
    /// Sets whether trailing reference lists are left out.
    ignore_references: bool,
    /// Sets whether diacritics are folded.
    fold_diacritics: bool,
    /// Sets whether the tricks that hide a copy are undone.
    unmask: bool,
});

impl CompareConfig {
    /// How both texts are normalised (diacritics folded or not, unmasked or
    /// not).
    pub fn normalization(&self) -> crate::Normalization {
        crate::Normalization::folding(self.fold_diacritics).unmasking(self.unmask)
    }

    /// Checks every option against its range.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] naming the option and its range.
    pub fn check(&self) -> Result<(), Error> {
        check_range("word_k", self.word_k, 1..=32)?;
        check_range("char_q", self.char_q, 1..=32)?;
        check_range("span_gap", self.span_gap, 0..=64)?;
        check_range("min_words", self.min_words, 0..=1000)?;
        check_range("max_bytes", self.max_bytes, 1..=u32::MAX as u64)
    }
}

/// The measures of a comparison. All ratios are in [0, 1] and never NaN.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
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
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
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
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct Report {
    /// Every measure, including the plagiarism score.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub measures: Measures,
    /// Shared passages, in order of text a, not overlapping in a.
    pub passages: Vec<Passage>,
    /// With [`CompareConfig::phonetic`]: the words of a inside passages
    /// spelt differently from the word of b they were matched with (same
    /// phonetic code), in order of a; empty otherwise.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub misspellings: Vec<Misspelling>,
    /// The ranges of a left out of the comparison (quotations, a reference
    /// list, a template's phrases, ranges given), merged, in order; in the
    /// passages' unit. Empty when nothing was left out.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub excluded_a: Vec<TextRange>,
    /// The ranges of b left out (its reference list, the template's
    /// phrases, ranges given); as `excluded_a`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub excluded_b: Vec<TextRange>,
    /// What was undone in a to compare it ([`CompareConfig::unmask`]):
    /// look-alike letters mapped, invisible characters removed, with their
    /// ranges (in the passages' unit); empty counts when nothing was found
    /// or `unmask` is off. Non-zero counts are a known way to hide copying.
    #[cfg_attr(feature = "serde", serde(default))]
    pub obfuscation_a: crate::Obfuscation,
    /// What was undone in b; as `obfuscation_a`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub obfuscation_b: crate::Obfuscation,
    /// With [`CompareConfig::ignore_quotes`]: the share of a's letters and
    /// digits inside the quotations left out, in [0, 1]
    /// ([`crate::exclude::share`]); 0 otherwise.
    #[cfg_attr(feature = "serde", serde(default))]
    pub quoted_a: f64,
    /// When `quoted_a` is over a third
    /// ([`crate::exclude::QUOTED_SHARE_WARNING`]): a sentence saying so,
    /// since wrapping a copy in quotation marks would make it vanish.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub quotation_warning: Option<alloc::string::String>,
    /// The unit of the passages' `a` and `b` offsets.
    pub offsets: OffsetUnit,
    /// The options the report was made with.
    pub options: CompareConfig,
}

impl Report {
    /// Records the share of a left out as quotations, and its warning.
    pub fn set_quoted(&mut self, share: f64) {
        self.quoted_a = share;
        self.quotation_warning = crate::exclude::quoted_warning(share);
    }

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
        let (passages, misspellings) = (&mut self.passages, &mut self.misspellings);
        ranges_to_utf16(
            a,
            passages
                .iter_mut()
                .map(|p| &mut p.a)
                .chain(misspellings.iter_mut().map(|m| &mut m.a))
                .chain(self.excluded_a.iter_mut())
                .chain(self.obfuscation_a.ranges.iter_mut()),
        );
        ranges_to_utf16(
            b,
            passages
                .iter_mut()
                .map(|p| &mut p.b)
                .chain(misspellings.iter_mut().map(|m| &mut m.b))
                .chain(self.excluded_b.iter_mut())
                .chain(self.obfuscation_b.ranges.iter_mut()),
        );
        self.offsets = OffsetUnit::Utf16Units;
        self
    }
}

/// Checks a text's size before any work is done on it: `TooLarge` naming
/// `which` when it exceeds `max` bytes.
pub(crate) fn check_size(text: &str, which: &'static str, max: u64) -> Result<(), Error> {
    if text.len() as u64 > max {
        return Err(Error::new(ErrorKind::TooLarge {
            which,
            len: text.len() as u64,
            max,
        }));
    }
    Ok(())
}

/// Checks `config` and both texts' sizes against `config.max_bytes`, before
/// any work is done on them.
///
/// # Errors
/// [`ErrorKind::InvalidOption`] or [`ErrorKind::TooLarge`].
pub fn check_sizes(a: &str, b: &str, config: &CompareConfig) -> Result<(), Error> {
    config.check()?;
    check_size(a, "a", config.max_bytes)?;
    check_size(b, "b", config.max_bytes)
}

/// Compares suspicious text `a` with source text `b`: checks the sizes,
/// makes a [`Document`] of each with `config.seed`, and calls
/// [`compare_documents`]. Time `O(n log n)` in the tokens of both texts,
/// whatever they hold (measured 0.10–0.15 s of CPU per MB of English prose,
/// up to 0.4 s per MB of CJK); peak memory about 40–60 bytes per input byte,
/// 90 for the worst case (one-letter words). BENCHMARKS.md, "Comparing large
/// texts".
///
/// # Errors
/// * [`ErrorKind::InvalidOption`] when `config.check()` fails;
/// * [`ErrorKind::TooLarge`] when a text exceeds `config.max_bytes`;
/// * [`ErrorKind::EmptyText`] when a text has no word tokens.
///
/// ```
/// use neardup::{compare, CompareConfig};
/// let src = "The quick brown fox jumps over the lazy dog.";
/// let r = compare("He said the quick brown fox jumps over it.", src, &CompareConfig::default())?;
/// assert!(r.measures.score > 0.5);
/// assert_eq!(&src[r.passages[0].b.start..r.passages[0].b.end], "The quick brown fox jumps over");
/// # Ok::<(), neardup::Error>(())
/// ```
pub fn compare(a: &str, b: &str, config: &CompareConfig) -> Result<Report, Error> {
    compare_with(a, b, config, &Exclusions::default())
}

/// What a comparison leaves out besides [`CompareConfig`]'s switches
/// (`ignore_quotes`, `ignore_references`): a template's phrases (its word
/// k-shingles, the assignment's prompt or starter text) in both texts, and
/// ranges the caller gives (UTF-8 byte offsets; e.g. a class set's
/// exclusions of the two texts). [`crate::exclude`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Exclusions<'t> {
    /// The template's text (`""` for none).
    pub template: &'t str,
    /// Ranges of a to leave out.
    pub a: &'t [TextRange],
    /// Ranges of b to leave out.
    pub b: &'t [TextRange],
}

/// The two documents of a comparison, made from the texts with their
/// exclusions blanked (offsets kept), and what was left out of each.
#[derive(Debug)]
pub struct Prepared {
    /// Text a's document.
    pub a: Document,
    /// Text b's document.
    pub b: Document,
    /// Ranges of a left out, merged (UTF-8 bytes).
    pub excluded_a: Vec<TextRange>,
    /// Ranges of b left out, merged (UTF-8 bytes).
    pub excluded_b: Vec<TextRange>,
    /// The share of a inside its quotations left out (0 unless
    /// `ignore_quotes`), [`crate::exclude::share`].
    pub quoted_a: f64,
}

/// Checks the sizes and makes the two documents of a comparison, with the
/// exclusions of `config` and `exclusions` blanked (the verdict reads the
/// same documents as the comparison).
///
/// # Errors
/// As [`compare`].
pub fn prepare(
    a: &str,
    b: &str,
    config: &CompareConfig,
    exclusions: &Exclusions<'_>,
) -> Result<Prepared, Error> {
    use crate::exclude;
    check_sizes(a, b, config)?;
    let doc = |text: &str| Document::with_normalization(text, config.seed, config.normalization());
    check_size(exclusions.template, "template", config.max_bytes)?;
    let template: Vec<u64> = if exclusions.template.trim().is_empty() {
        Vec::new()
    } else {
        let mut t = doc(exclusions.template)
            .shingles(Shingling::Words(config.word_k))
            .to_vec();
        t.sort_unstable();
        t.dedup();
        t
    };
    let excluded = |text: &str, quotes: bool, given: &[TextRange]| {
        let mut ranges: Vec<TextRange> = given.to_vec();
        if quotes {
            ranges.extend(exclude::quotations(text));
        }
        if config.ignore_references {
            ranges.extend(exclude::reference_list(text));
        }
        if !template.is_empty() {
            let d = doc(text);
            let k = config.word_k as usize;
            let tokens: Vec<TextRange> = d.normalized().tokens().iter().map(|t| t.orig).collect();
            let positions = d
                .shingles(Shingling::Words(config.word_k))
                .iter()
                .enumerate()
                .filter(|(_, h)| template.binary_search(h).is_ok())
                .map(|(p, _)| p)
                .collect::<Vec<usize>>();
            ranges.extend(exclude::phrases(positions, k, &tokens));
        }
        exclude::merge(ranges)
    };
    let (excluded_a, excluded_b) = (
        excluded(a, config.ignore_quotes, exclusions.a),
        excluded(b, false, exclusions.b),
    );
    let quoted_a = match config.ignore_quotes {
        true => exclude::share(a, &exclude::quotations(a)),
        false => 0.0,
    };
    let document = |text: &str, ranges: &[TextRange]| match ranges.is_empty() {
        true => doc(text),
        false => doc(&exclude::blank(text, ranges)),
    };
    Ok(Prepared {
        a: document(a, &excluded_a),
        b: document(b, &excluded_b),
        excluded_a,
        excluded_b,
        quoted_a,
    })
}

/// [`compare`] with a template and given ranges left out too; the report's
/// `excluded_a` and `excluded_b` say what was.
///
/// # Errors
/// As [`compare`]; [`ErrorKind::TooLarge`] for a template over `max_bytes`.
pub fn compare_with(
    a: &str,
    b: &str,
    config: &CompareConfig,
    exclusions: &Exclusions<'_>,
) -> Result<Report, Error> {
    let p = prepare(a, b, config, exclusions)?;
    let mut report = compare_documents(&p.a, &p.b, config)?;
    report.excluded_a = p.excluded_a;
    report.excluded_b = p.excluded_b;
    report.set_quoted(p.quoted_a);
    Ok(report)
}

/// Compares suspicious document `a` with source document `b` (both made
/// with `config.seed`): every [`Measures`] field and the shared
/// [`Passage`]s with UTF-8 byte ranges into the original texts. The
/// documents keep the shingle sets computed here, so a verdict on the same
/// documents reuses them.
///
/// # Errors
/// * [`ErrorKind::InvalidOption`] when `config.check()` fails;
/// * [`ErrorKind::Incompatible`] when a document's seed is not `config.seed`;
/// * [`ErrorKind::EmptyText`] when a document has no word tokens.
pub fn compare_documents(
    a: &Document,
    b: &Document,
    config: &CompareConfig,
) -> Result<Report, Error> {
    config.check()?;
    for (d, which) in [(a, "a"), (b, "b")] {
        if d.seed() != config.seed {
            return Err(Error::incompatible(
                "document",
                alloc::format!("seed {}", config.seed),
                alloc::format!("seed {} (text {which})", d.seed()),
            ));
        }
        if d.is_empty() {
            return Err(Error::new(ErrorKind::EmptyText { which }));
        }
    }
    let k = config.word_k as usize;
    let words = match config.phonetic {
        Some(algorithm) => Shingling::Phonetic(algorithm, config.word_k),
        None => Shingling::Words(config.word_k),
    };
    let chars = Shingling::Chars(config.char_q);
    let (wa, wb) = (a.shingles(words), b.shingles(words));
    let mut runs = passages::shared_runs(&wa, &wb, k, a.len(), b.len(), config.span_gap as usize);
    let min = config.min_words as usize;
    if min > 0 {
        runs.retain(|(ta, _)| ta.len() >= min);
    }
    let passages = passages::passages(&runs, a.normalized(), b.normalized());
    let misspellings = match config.phonetic {
        Some(algorithm) => passages::misspellings(&runs, a.normalized(), b.normalized(), algorithm),
        None => Vec::new(),
    };

    let mut w = a.shingle_set(words).counts(&b.shingle_set(words));
    if min > 0 {
        w.intersection = shingles_inside(&wa, &wb, k, &runs);
    }
    let c = a.shingle_set(chars).counts(&b.shingle_set(chars));
    let fa = TermFrequencies::from_hashes(a.token_hashes());
    let fb = TermFrequencies::from_hashes(b.token_hashes());

    let covered_a: usize = runs.iter().map(|(x, _)| x.len()).sum();
    let covered_b = covered_tokens(runs.iter().map(|&(_, y)| y).collect());
    let m = Measures {
        score: w.containment(),
        resemblance: w.resemblance(),
        containment: w.containment(),
        containment_b_in_a: w.containment_b_in_a(),
        dice: w.dice(),
        char_resemblance: c.resemblance(),
        char_containment: c.containment(),
        cosine: crate::measures::sets::cosine(&fa, &fb),
        shared_shingles: w.intersection as u64,
        shingles_a: w.a as u64,
        shingles_b: w.b as u64,
        tokens_a: a.len() as u64,
        tokens_b: b.len() as u64,
        coverage_a: covered_a as f64 / a.len() as f64,
        coverage_b: covered_b as f64 / b.len() as f64,
    };
    Ok(Report {
        measures: m,
        passages,
        misspellings,
        excluded_a: Vec::new(),
        excluded_b: Vec::new(),
        obfuscation_a: a.normalized().obfuscation().clone(),
        obfuscation_b: b.normalized().obfuscation().clone(),
        quoted_a: 0.0,
        quotation_warning: None,
        offsets: OffsetUnit::Utf8Bytes,
        options: *config,
    })
}

/// Number of distinct shingles of a (positional hashes `wa`, `k` tokens
/// each) that lie wholly inside the token ranges of a of `runs` and occur in
/// b (hashes `wb`; a passage merged across a gap holds unshared ones). With
/// every run kept this is `|A ∩ B|`: each shingle of a found in b lies in a
/// run.
fn shingles_inside(wa: &[u64], wb: &[u64], k: usize, runs: &[(TextRange, TextRange)]) -> usize {
    let mut in_b = wb.to_vec();
    in_b.sort_unstable();
    let mut inside: Vec<u64> = Vec::new();
    for (ta, _) in runs {
        // A text shorter than k tokens has one shingle, at position 0.
        let last = ta.end.saturating_sub(k).max(ta.start);
        inside.extend(wa.iter().take(last + 1).skip(ta.start));
    }
    inside.sort_unstable();
    inside.dedup();
    inside.retain(|h| in_b.binary_search(h).is_ok());
    inside.len()
}

/// Number of indices covered by a union of ranges.
fn covered_tokens(mut ranges: Vec<TextRange>) -> usize {
    crate::text::sort_ranges(&mut ranges);
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
        let r = compare(t, t, &CompareConfig::default()).unwrap();
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
    fn quotations_references_templates_and_given_ranges_are_left_out() {
        let src = "The mitochondria is the powerhouse of the cell and makes most of its energy from sugar.";
        let a = "My view, first.\n“The mitochondria is the powerhouse of the cell and makes most of\nits energy from sugar,” the book says, and I agree with it.";
        let plain = compare(a, src, &CompareConfig::default()).unwrap();
        assert!(plain.measures.score > 0.3, "{}", plain.measures.score);
        let quoted = compare(a, src, &CompareConfig::default().ignore_quotes(true)).unwrap();
        assert_eq!(quoted.measures.shared_shingles, 0);
        let q = &quoted.excluded_a[0];
        assert!(a[q.start..q.end].starts_with("“The mitochondria"));
        assert!(a[q.start..q.end].ends_with("sugar,”"));
        assert!(
            quoted.excluded_b.is_empty(),
            "b's quotations are its own text"
        );
        // A template's phrases leave both texts.
        let template = "Explain why the mitochondria is the powerhouse of the cell.";
        let with = compare_with(
            src,
            src,
            &CompareConfig::default(),
            &Exclusions {
                template,
                ..Exclusions::default()
            },
        )
        .unwrap();
        let e = with.excluded_a[0];
        assert_eq!(
            &src[e.start..e.end],
            "The mitochondria is the powerhouse of the cell"
        );
        assert_eq!(with.excluded_b, with.excluded_a);
        assert!(with.measures.shingles_a < plain.measures.shingles_b);
        // A trailing reference list, and ranges given by the caller.
        let body =
            "Rivers carry sediment downstream and deposit it where the current slows down again.";
        let cited = alloc::format!(
            "{body}\n\nReferences\nSmith, J. (2001). Rivers and deltas. London: Water Press."
        );
        let other = "Smith, J. (2001). Rivers and deltas. London: Water Press. A book about water.";
        let r = compare(
            &cited,
            other,
            &CompareConfig::default().ignore_references(true),
        )
        .unwrap();
        assert_eq!(r.measures.shared_shingles, 0);
        assert!(cited[r.excluded_a[0].start..].starts_with("References"));
        let given = [TextRange { start: 0, end: 6 }];
        let r = compare_with(
            body,
            body,
            &CompareConfig::default(),
            &Exclusions {
                a: &given,
                ..Exclusions::default()
            },
        )
        .unwrap();
        assert_eq!(r.excluded_a, given);
        assert!(r.passages.iter().all(|p| p.a.start >= 6));
    }

    #[test]
    fn errors_name_the_text() {
        let o = CompareConfig::default();
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
        assert_eq!(
            alloc::format!("{e}"),
            "invalid option word_k: must be in 1..=32, got 0"
        );
        assert!(matches!(
            e.kind(),
            ErrorKind::InvalidOption {
                option: "word_k",
                ..
            }
        ));
    }

    #[test]
    fn utf16_offsets() {
        let a = "😀 café copied words here";
        let b = "x copied words here";
        let r = compare(a, b, &CompareConfig::default()).unwrap();
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

    /// The minimum match length drops short passages and every figure
    /// built on passages; with it at 0 (or 1) nothing changes.
    #[test]
    fn min_words_applies_to_every_passage_figure() {
        // a: one 8-word copied run, one 3-word stock phrase, unrelated rest.
        let a = "alpha beta gamma delta epsilon zeta eta theta and then in the end we went home quietly";
        let b = "in the end; alpha beta gamma delta epsilon zeta eta theta, said nobody else";
        let all = compare(a, b, &CompareConfig::default()).unwrap();
        assert_eq!(all.passages.len(), 2);
        // 3-shingles of a: 17 tokens, 15 shingles; shared: 6 in the long
        // run, 1 ("in the end").
        assert_eq!(all.measures.shingles_a, 15);
        assert_eq!(all.measures.shared_shingles, 7);
        for min in [0, 1, 3] {
            let same = compare(a, b, &CompareConfig::default().min_words(min)).unwrap();
            assert_eq!(same.measures, all.measures, "min_words {min}");
            assert_eq!(same.passages, all.passages);
        }
        let long = compare(a, b, &CompareConfig::default().min_words(4)).unwrap();
        assert_eq!(long.passages, all.passages[..1]);
        assert_eq!(long.measures.shared_shingles, 6);
        assert_eq!(long.measures.score, 6.0 / 15.0);
        assert_eq!(long.measures.containment, long.measures.score);
        assert_eq!(long.measures.coverage_a, 8.0 / 17.0);
        let (sb, n_b) = (long.measures.shingles_b as f64, 14.0);
        assert_eq!(long.measures.containment_b_in_a, 6.0 / sb);
        assert_eq!(long.measures.dice, 12.0 / (15.0 + sb));
        assert_eq!(long.measures.coverage_b, 8.0 / n_b);
        // Not passage-based: unchanged.
        assert_eq!(long.measures.cosine, all.measures.cosine);
        assert_eq!(
            long.measures.char_resemblance,
            all.measures.char_resemblance
        );
        let none = compare(a, b, &CompareConfig::default().min_words(9)).unwrap();
        assert!(none.passages.is_empty());
        assert_eq!(none.measures.score, 0.0);
        assert_eq!(none.measures.coverage_a, 0.0);
        assert!(CompareConfig::default().min_words(1001).check().is_err());
    }

    /// A passage merged across a gap holds shingles b does not have: they
    /// are not counted as shared.
    #[test]
    fn min_words_counts_only_shared_shingles_across_gaps() {
        let a = "one two three four five XX six seven eight nine ten";
        let b = "one two three four five YY six seven eight nine ten";
        let c = CompareConfig::default().span_gap(1);
        let all = compare(a, b, &c).unwrap();
        assert_eq!(all.passages.len(), 1);
        let kept = compare(a, b, &c.min_words(2)).unwrap();
        assert_eq!(kept.passages, all.passages);
        assert_eq!(kept.measures.shared_shingles, all.measures.shared_shingles);
        assert_eq!(all.measures.shared_shingles, 6);
    }

    /// With `phonetic`, a copy with misspelt words keeps its score and
    /// passage, and the misspelt words are listed with their originals.
    #[test]
    fn phonetic_option_tolerates_misspellings_and_lists_them() {
        let a = "The comittee recieved a seperate report about the goverment budget.";
        let b = "the committee received a separate report about the government budget, he said";
        let plain = compare(a, b, &CompareConfig::default()).unwrap();
        let config = CompareConfig::default().phonetic(Some(crate::phonetic::Algorithm::SoundD));
        let typo = compare(a, b, &config).unwrap();
        assert!(plain.measures.score < 0.3, "{}", plain.measures.score);
        assert!(plain.misspellings.is_empty());
        assert_eq!(typo.measures.score, 1.0);
        assert_eq!(typo.passages.len(), 1);
        let pairs: Vec<(&str, &str)> = typo
            .misspellings
            .iter()
            .map(|m| (&a[m.a.start..m.a.end], &b[m.b.start..m.b.end]))
            .collect();
        assert_eq!(
            pairs,
            [
                ("comittee", "committee"),
                ("recieved", "received"),
                ("seperate", "separate"),
                ("goverment", "government")
            ]
        );
        // UTF-16 offsets for JavaScript move the misspellings too.
        let u = compare("café recieved it", "café received it", &config)
            .unwrap()
            .into_utf16("café recieved it", "café received it");
        assert_eq!(u.misspellings[0].a, TextRange { start: 5, end: 13 });
    }
}
