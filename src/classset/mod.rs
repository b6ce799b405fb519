//! Collusion in a class set: which of n texts share passages with which,
//! without comparing every pair, with the exclusions graders need.
//!
//! [`class_pairs`] takes the students' texts, optional sources (reference
//! texts, earlier years) and an optional template (the assignment's prompt
//! or starter text), and returns the candidate pairs with their exact word
//! k-shingle counts:
//!
//! 1. every text is a [`Document`]; its distinct word k-shingles (Broder
//!    1997) are its features;
//! 2. **template**: shingles of the template count for no pair and are
//!    left out of every text's shingle count;
//! 3. **stock phrases**: a shingle found in more than
//!    `stock_share × students` students' texts (at least
//!    [`MIN_STOCK_DOCUMENTS`]) and in no source is common wording of the
//!    class, not evidence, and counts for no pair — MOSS's `-m`
//!    (Schleimer, Wilkerson & Aiken 2003), as a share of the class;
//! 4. **candidate pairs** ([`index::shared_counts`]): an inverted index from
//!    each remaining shingle to the texts holding it gives, for every pair
//!    sharing at least one shingle, the exact number shared; pairs sharing
//!    none are never touched (the all-pairs join by an inverted index,
//!    Sarawagi & Kirpal 2004). Source–source pairs are not counted, and a
//!    source is compared one way (the student's text against it);
//! 5. each pair gets both containments `shared / |A|`, `shared / |B|` and
//!    the resemblance; it is kept when it shares at least `min_shared`
//!    shingles and the larger containment reaches `min_containment`
//!    (containment, not resemblance, so a short answer
//!    copied whole into a long essay shows: its containment is near 1,
//!    its resemblance small).
//!
//! The report also gives each text's excluded ranges (template and stock
//! phrases), for a view to grey them and for the full comparison of a pair
//! to leave them out. Time `O(N log N + P)` for `N` shingle occurrences and
//! `P` (pair, shared shingle) incidences, which the stock-phrase cap bounds
//! by `N × stock_share × students`; memory `O(N + pairs sharing a
//! shingle)`.

pub mod index;

use crate::compare::check_size;
use crate::document::Document;
use crate::error::{check_range, Error};
use crate::exclude;
use crate::shingle::Shingling;
use crate::text::{utf16_offsets, TextRange};
use alloc::vec::Vec;

/// A shingle is a stock phrase only when found in more than this many
/// students' texts, whatever the share (in a class of 20, 3 students
/// sharing a phrase is collusion to look at, not a stock phrase).
pub const MIN_STOCK_DOCUMENTS: usize = 4;

/// A run of at least this many consecutive stock shingles (10 words of
/// word 3-shingles) that several texts share is reported as a
/// [`StockPassage`]: left out as a stock phrase, but long enough to be a
/// copied passage (a copy ring, or a template not given).
pub const STOCK_RUN: usize = 8;

/// Options of [`class_pairs`], with by-value setters; checked once by
/// [`ClassSetConfig::check`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", default, deny_unknown_fields)
)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct ClassSetConfig {
    /// Words per shingle, 1..=32. Default 3 (Clough & Stevenson's word
    /// trigrams).
    pub word_k: u32,
    /// Hash seed. Default 0.
    pub seed: u64,
    /// A shingle in more than this share of the students' texts is a stock
    /// phrase, in (0, 1]; 1 keeps every shingle. Default 0.2 (EVALUATION.md,
    /// "Class sets").
    pub stock_share: f64,
    /// A pair is kept when its larger containment reaches this, in [0, 1].
    /// Default 0.1 (EVALUATION.md, "Class sets").
    pub min_containment: f64,
    /// A pair is kept only when it shares at least this many shingles,
    /// 1..=1000 (a containment of a very short text is noise: one shared
    /// phrase of a ten-word note is 12 %). Default 5 (EVALUATION.md,
    /// "Class sets").
    pub min_shared: u32,
    /// Largest accepted text, in bytes of UTF-8. Default 16 MiB.
    pub max_bytes: u64,
    /// Leave every text's quotations out ([`crate::exclude::quotations`]).
    /// Default `true`, as the page.
    pub ignore_quotes: bool,
    /// Leave every text's trailing reference list out
    /// ([`crate::exclude::reference_list`]). Default `true`, as the page.
    pub ignore_references: bool,
}

impl Default for ClassSetConfig {
    fn default() -> Self {
        ClassSetConfig {
            word_k: 3,
            seed: crate::hash::DEFAULT_SEED,
            stock_share: 0.2,
            min_containment: 0.1,
            min_shared: 5,
            max_bytes: 16 << 20,
            ignore_quotes: true,
            ignore_references: true,
        }
    }
}

crate::config::setters!(ClassSetConfig {
    /// Sets `word_k`.
    word_k: u32,
    /// Sets the hash seed.
    seed: u64,
    /// Sets `stock_share`.
    stock_share: f64,
    /// Sets `min_containment`.
    min_containment: f64,
    /// Sets `min_shared`.
    min_shared: u32,
    /// Sets `max_bytes`.
    max_bytes: u64,
    /// Sets whether quotations are left out.
    ignore_quotes: bool,
    /// Sets whether trailing reference lists are left out.
    ignore_references: bool,
});

impl ClassSetConfig {
    /// Checks every option against its range.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] naming the option and its range.
    pub fn check(&self) -> Result<(), Error> {
        check_range("word_k", self.word_k, 1..=32)?;
        if !(self.stock_share > 0.0 && self.stock_share <= 1.0) {
            return Err(Error::option(
                "stock_share",
                alloc::format!("must be in (0, 1], got {}", self.stock_share),
            ));
        }
        check_range("min_containment", self.min_containment, 0.0..=1.0)?;
        check_range("min_shared", self.min_shared, 1..=1000)?;
        check_range("max_bytes", self.max_bytes, 1..=u32::MAX as u64)
    }
}

/// A pair of texts sharing shingles. Texts are numbered students first
/// (`0..students`), then sources (`students..students + sources`); `a` is
/// always a student, `a < b`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct ClassPair {
    /// The first text (a student).
    pub a: u32,
    /// The second text (a student, or a source when `source` is true).
    pub b: u32,
    /// `true` when `b` is a source: a "shared source" pair, not collusion.
    pub source: bool,
    /// Distinct shingles the two share, exclusions left out.
    pub shared: u32,
    /// `shared / |A|`, in [0, 1].
    pub containment_ab: f64,
    /// `shared / |B|`, in [0, 1].
    pub containment_ba: f64,
    /// `shared / |A ∪ B|` (Jaccard), in [0, 1].
    pub resemblance: f64,
    /// The pair's score: the larger containment, in [0, 1].
    pub score: f64,
}

/// One text's counts and excluded ranges.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct ClassText {
    /// Word tokens.
    pub tokens: u32,
    /// Distinct shingles after the exclusions: the containments' base.
    pub shingles: u32,
    /// Distinct shingles also in the template.
    pub template_shingles: u32,
    /// Distinct shingles that are stock phrases (not in the template).
    pub stock_shingles: u32,
    /// Quotations left out (`ignore_quotes`).
    pub quotations: u32,
    /// A trailing reference list was left out (`ignore_references`).
    pub reference_list: bool,
    /// Ranges of the text left out of every pair — quotations, a reference
    /// list, template and stock phrases — merged, in order (UTF-8 bytes in
    /// the core; UTF-16 units in JavaScript).
    pub excluded: Vec<TextRange>,
    /// Passages of this text whose shingles are found in more than two
    /// students' texts (but are not stock phrases): "this passage occurs
    /// in N texts", N the most texts any of its shingles is in. In order,
    /// not overlapping; same unit as `excluded`.
    pub common: Vec<CommonPassage>,
}

/// A passage of one text whose shingles other students' texts share too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct CommonPassage {
    /// The passage's range in the text.
    pub range: TextRange,
    /// The most students' texts (this one included) any of its shingles is
    /// found in, at least 3.
    pub texts: u32,
}

/// A passage several students' texts share word for word that the stock
/// phrase rule left out: a run of at least [`STOCK_RUN`] consecutive stock
/// shingles. Common wording of the assignment (then give it as the
/// template), or a passage copied by more students than the stock share
/// allows (then raise `stock_share`): never dropped without saying so.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct StockPassage {
    /// The students' texts holding all of it, ascending (at least two).
    pub texts: Vec<u32>,
    /// Its length in words, the longest such run these texts share.
    pub words: u32,
}

/// The result of [`class_pairs`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct ClassSetReport {
    /// Students' texts, then sources, in input order.
    pub texts: Vec<ClassText>,
    /// Pairs whose score reaches `min_containment`, highest score first
    /// (then by `a`, `b`).
    pub pairs: Vec<ClassPair>,
    /// Pairs that shared any shingle, before the cut-off (how much work the
    /// index saved: out of `students × (students − 1) / 2 + students ×
    /// sources`).
    pub candidates: u64,
    /// The stock-phrase limit used: a shingle in more than this many
    /// students' texts was excluded.
    pub stock_limit: u32,
    /// Distinct stock shingles found.
    pub stock_phrases: u32,
    /// Long passages the stock-phrase rule left out, one per group of texts
    /// sharing them, longest first (then by texts).
    pub stock_passages: Vec<StockPassage>,
    /// The options used.
    pub options: ClassSetConfig,
}

impl ClassSetReport {
    /// Converts every text's excluded ranges from UTF-8 byte offsets to
    /// UTF-16 code units into the same texts (students then sources, as
    /// given to [`class_pairs`]).
    pub fn into_utf16(mut self, texts: &[&str]) -> ClassSetReport {
        for (t, text) in self.texts.iter_mut().zip(texts) {
            let ranges = t
                .excluded
                .iter_mut()
                .chain(t.common.iter_mut().map(|c| &mut c.range));
            let mut ranges: Vec<&mut TextRange> = ranges.collect();
            let bytes: Vec<usize> = ranges.iter().flat_map(|r| [r.start, r.end]).collect();
            let units = utf16_offsets(text, &bytes);
            for (r, u) in ranges.iter_mut().zip(units.chunks_exact(2)) {
                **r = TextRange {
                    start: u[0],
                    end: u[1],
                };
            }
        }
        self
    }
}

/// Finds the pairs of a class set that share passages; see the module docs.
/// `students` and `sources` are texts; `template` the assignment's text or
/// `""` for none. Offsets in the report are UTF-8 bytes
/// ([`ClassSetReport::into_utf16`] for JavaScript).
///
/// # Errors
/// * [`crate::ErrorKind::InvalidOption`] when `config.check()` fails;
/// * [`crate::ErrorKind::TooLarge`] naming the text (`"student"`, `"source"`,
///   `"template"`) over `config.max_bytes`;
/// * [`crate::ErrorKind::InvalidOption`] (`students`) when fewer than two texts,
///   or no student's, are given.
///
/// ```
/// use neardup::classset::{class_pairs, ClassSetConfig};
/// let essays = [
///     "Photosynthesis turns light into chemical energy inside the chloroplasts of a leaf.",
///     "I think plants are green. Photosynthesis turns light into chemical energy inside the chloroplasts, as we learnt.",
///     "Cells divide by mitosis, which copies the chromosomes before the cell splits in two.",
/// ];
/// let r = class_pairs(&essays, &[], "", &ClassSetConfig::default())?;
/// assert_eq!((r.pairs[0].a, r.pairs[0].b), (0, 1));
/// assert_eq!(r.pairs.len(), 1);
/// # Ok::<(), neardup::Error>(())
/// ```
pub fn class_pairs(
    students: &[&str],
    sources: &[&str],
    template: &str,
    config: &ClassSetConfig,
) -> Result<ClassSetReport, Error> {
    config.check()?;
    for (texts, which) in [(students, "student"), (sources, "source")] {
        for t in texts.iter() {
            check_size(t, which, config.max_bytes)?;
        }
    }
    check_size(template, "template", config.max_bytes)?;
    if students.len() + sources.len() < 2 || students.is_empty() {
        return Err(Error::option(
            "students",
            "give at least two texts, one of them a student's",
        ));
    }
    let texts: Vec<Text> = students
        .iter()
        .chain(sources.iter())
        .map(|t| Text::read(t, config))
        .collect();
    let template = template_shingles(template, config);
    let n_students = students.len();
    // `as` truncates: the floor of a non-negative product.
    let stock_limit = ((config.stock_share * n_students as f64) as usize)
        .max(MIN_STOCK_DOCUMENTS)
        .min(u32::MAX as usize);
    // Each text's distinct shingles, the template's left out.
    let sets: Vec<Vec<u64>> = texts.iter().map(|t| t.set_without(&template)).collect();
    let (stock, common_df) = stock_phrases(&sets, n_students, stock_limit);
    let mut reports = Vec::with_capacity(texts.len());
    let mut kept: Vec<Vec<u64>> = Vec::with_capacity(texts.len());
    for (i, t) in texts.iter().enumerate() {
        let mut set = sets[i].clone();
        set.retain(|h| stock.binary_search(h).is_err());
        reports.push(t.report(&sets[i], &set, &template, &stock, &common_df, config));
        kept.push(set);
    }
    let (pairs, candidates) = scored_pairs(&kept, &reports, n_students, config);
    let stock_passages = stock_passages(&texts[..n_students], &sets[..n_students], &stock, config);
    Ok(ClassSetReport {
        texts: reports,
        pairs,
        candidates,
        stock_limit: stock_limit as u32,
        stock_phrases: stock.len() as u32,
        stock_passages,
        options: *config,
    })
}

/// Stage 1: one text of the class, read once. Only its positional shingles
/// and its tokens' ranges are kept (a whole `Document` holds about 50 bytes
/// per byte of text; these, about 12 per token), and the ranges left out
/// before it was read (quotations, a reference list: blanked, so that every
/// offset still points into the text as given).
struct Text {
    shingles: Vec<u64>,
    tokens: Vec<TextRange>,
    own: Vec<TextRange>,
    quotations: u32,
    reference_list: bool,
}

impl Text {
    fn read(text: &str, config: &ClassSetConfig) -> Text {
        let quotations = match config.ignore_quotes {
            true => exclude::quotations(text),
            false => Vec::new(),
        };
        let references = match config.ignore_references {
            true => exclude::reference_list(text),
            false => None,
        };
        let count = quotations.len() as u32;
        let own = exclude::merge(quotations.into_iter().chain(references));
        let d = match own.is_empty() {
            true => Document::new(text, config.seed),
            false => Document::new(&exclude::blank(text, &own), config.seed),
        };
        Text {
            shingles: if d.is_empty() {
                Vec::new()
            } else {
                d.shingles(Shingling::Words(config.word_k)).to_vec()
            },
            tokens: d.normalized().tokens().iter().map(|t| t.orig).collect(),
            own,
            quotations: count,
            reference_list: references.is_some(),
        }
    }

    /// Its distinct shingles, those of `template` (sorted) left out.
    fn set_without(&self, template: &[u64]) -> Vec<u64> {
        let mut v = self.shingles.clone();
        v.sort_unstable();
        v.dedup();
        v.retain(|h| template.binary_search(h).is_err());
        v
    }

    /// Stage 4: what the report says of this text — its counts, every range
    /// left out (its own, the template's and stock phrases), and the
    /// passages other students share.
    fn report(
        &self,
        set: &[u64],
        kept: &[u64],
        template: &[u64],
        stock: &[u64],
        common_df: &[(u64, u32)],
        config: &ClassSetConfig,
    ) -> ClassText {
        let k = config.word_k as usize;
        let mut distinct = self.shingles.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let excluded_at = self
            .shingles
            .iter()
            .enumerate()
            .filter(|(_, h)| template.binary_search(h).is_ok() || stock.binary_search(h).is_ok())
            .map(|(p, _)| p);
        let phrases = exclude::phrases(excluded_at, k, &self.tokens);
        // Runs of positions whose shingle is common, with the most texts.
        let mut common: Vec<(TextRange, u32)> = Vec::new();
        for (p, h) in self.shingles.iter().enumerate() {
            if let Ok(j) = common_df.binary_search_by_key(h, |&(x, _)| x) {
                let (start, end) = (p, (p + k).min(self.tokens.len()).max(p + 1));
                let n = common_df[j].1;
                match common.last_mut() {
                    Some((r, m)) if start <= r.end => {
                        r.end = r.end.max(end);
                        *m = (*m).max(n);
                    }
                    _ => common.push((TextRange { start, end }, n)),
                }
            }
        }
        let tokens = &self.tokens;
        let common = common
            .into_iter()
            .filter(|(r, _)| r.end <= tokens.len() && r.start < r.end)
            .map(|(r, texts)| CommonPassage {
                range: TextRange {
                    start: tokens[r.start].start,
                    end: tokens[r.end - 1].end,
                },
                texts,
            })
            .collect();
        ClassText {
            tokens: self.tokens.len() as u32,
            shingles: kept.len() as u32,
            template_shingles: (distinct.len() - set.len()) as u32,
            stock_shingles: (set.len() - kept.len()) as u32,
            quotations: self.quotations,
            reference_list: self.reference_list,
            excluded: exclude::merge(self.own.iter().copied().chain(phrases)),
            common,
        }
    }
}

/// Stage 2: the template's distinct shingles, sorted (none for a blank
/// template).
fn template_shingles(template: &str, config: &ClassSetConfig) -> Vec<u64> {
    if template.trim().is_empty() {
        return Vec::new();
    }
    let mut t = Document::new(template, config.seed)
        .shingles(Shingling::Words(config.word_k))
        .to_vec();
    t.sort_unstable();
    t.dedup();
    t
}

/// Stage 3: the stock phrases (sorted) — shingles in more than `limit`
/// students' texts and in no source (a shingle found in a source is
/// evidence of that source, never a stock phrase, however many students
/// took it) — and the shingles in more than two students' texts that are
/// not stock, with their document frequency (passages many share). The
/// students' document frequencies are counted once for both.
fn stock_phrases(sets: &[Vec<u64>], students: usize, limit: usize) -> (Vec<u64>, Vec<(u64, u32)>) {
    let mut in_sources: Vec<u64> = sets[students..].iter().flatten().copied().collect();
    in_sources.sort_unstable();
    in_sources.dedup();
    let df = index::document_frequencies(&sets[..students], 2);
    let stock: Vec<u64> = df
        .iter()
        .filter(|&&(h, n)| n as usize > limit && in_sources.binary_search(&h).is_err())
        .map(|&(h, _)| h)
        .collect();
    let common = df
        .into_iter()
        .filter(|(h, _)| stock.binary_search(h).is_err())
        .collect();
    (stock, common)
}

/// Stage 4b: the long passages left out as stock phrases — runs of at least
/// [`STOCK_RUN`] consecutive stock shingles in a student's text, each with
/// the students' texts holding every shingle of the run — one per group of
/// texts (its longest run), longest first.
fn stock_passages(
    texts: &[Text],
    sets: &[Vec<u64>],
    stock: &[u64],
    config: &ClassSetConfig,
) -> Vec<StockPassage> {
    if stock.is_empty() {
        return Vec::new();
    }
    // Each stock shingle's texts, ascending.
    let mut postings: Vec<(u64, u32)> = sets
        .iter()
        .enumerate()
        .flat_map(|(i, set)| {
            set.iter()
                .filter(|h| stock.binary_search(h).is_ok())
                .map(move |&h| (h, i as u32))
        })
        .collect();
    postings.sort_unstable();
    let holders = |h: u64| -> &[(u64, u32)] {
        let from = postings.partition_point(|&(x, _)| x < h);
        let to = postings.partition_point(|&(x, _)| x <= h);
        &postings[from..to]
    };
    let k = config.word_k as usize;
    let mut groups: Vec<StockPassage> = Vec::new();
    // A run many texts hold (a boilerplate paragraph) is looked at once.
    let mut seen: hashbrown::HashSet<u64, fnv::FnvBuildHasher> = Default::default();
    for t in texts {
        let is_stock = |h: &u64| stock.binary_search(h).is_ok();
        for run in t.shingles.chunk_by(|x, y| is_stock(x) == is_stock(y)) {
            if run.len() < STOCK_RUN || !is_stock(&run[0]) {
                continue;
            }
            let digest = run.iter().fold(0u64, |d, &h| crate::hash::fmix64(d ^ h));
            if !seen.insert(digest) {
                continue;
            }
            // The texts holding every shingle of the run: sorted lists
            // intersected by merging.
            let mut shared: Vec<u32> = holders(run[0]).iter().map(|&(_, i)| i).collect();
            for &h in &run[1..] {
                let these = holders(h);
                let mut j = 0;
                shared.retain(|&i| {
                    while j < these.len() && these[j].1 < i {
                        j += 1;
                    }
                    j < these.len() && these[j].1 == i
                });
            }
            if shared.len() >= 2 {
                groups.push(StockPassage {
                    texts: shared,
                    words: (run.len() + k - 1) as u32,
                });
            }
        }
    }
    groups.sort_by(|x, y| x.texts.cmp(&y.texts).then(y.words.cmp(&x.words)));
    groups.dedup_by(|later, first| later.texts == first.texts);
    groups.sort_by(|x, y| y.words.cmp(&x.words).then(x.texts.cmp(&y.texts)));
    groups
}

/// Stage 5: every pair sharing a shingle ([`index::shared_counts`]), with
/// both containments and the resemblance; kept when it shares at least
/// `min_shared` shingles and its larger containment reaches
/// `min_containment`; highest score first (then by `a`, `b`). Also the
/// number of pairs that shared any shingle.
fn scored_pairs(
    kept: &[Vec<u64>],
    texts: &[ClassText],
    students: usize,
    config: &ClassSetConfig,
) -> (Vec<ClassPair>, u64) {
    let counts = index::shared_counts(kept, students);
    let candidates = counts.len() as u64;
    let mut pairs: Vec<ClassPair> = counts
        .into_iter()
        .filter_map(|(a, b, shared)| {
            let (na, nb) = (texts[a as usize].shingles, texts[b as usize].shingles);
            let ratio = |x: u32| {
                if x == 0 {
                    0.0
                } else {
                    shared as f64 / x as f64
                }
            };
            let (cab, cba) = (ratio(na), ratio(nb));
            let score = cab.max(cba);
            (score >= config.min_containment && shared >= config.min_shared).then(|| ClassPair {
                a,
                b,
                source: b as usize >= students,
                shared,
                containment_ab: cab,
                containment_ba: cba,
                resemblance: ratio(na + nb - shared),
                score,
            })
        })
        .collect();
    pairs.sort_by(|x, y| {
        y.score
            .total_cmp(&x.score)
            .then(x.a.cmp(&y.a))
            .then(x.b.cmp(&y.b))
    });
    (pairs, candidates)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    const COPIED: &str =
        "the mitochondria is the powerhouse of the cell and makes most of its energy";

    #[test]
    fn finds_the_copying_pair_and_only_it() {
        let a = alloc::format!("My essay. {COPIED}. That is all I know.");
        let b = alloc::format!("Biology is fun because {COPIED}, as our teacher says.");
        let c = "Rivers carry sediment downstream and deposit it where the current slows.";
        let r = class_pairs(&[&a, &b, c], &[], "", &ClassSetConfig::default()).unwrap();
        assert_eq!(r.pairs.len(), 1);
        let p = r.pairs[0];
        assert_eq!((p.a, p.b, p.source), (0, 1, false));
        // 14 words copied: 12 shared 3-shingles.
        assert_eq!(p.shared, 12);
        assert_eq!(p.containment_ab, 12.0 / r.texts[0].shingles as f64);
        assert_eq!(p.score, p.containment_ab.max(p.containment_ba));
        assert_eq!(r.candidates, 1);
    }

    #[test]
    fn a_short_answer_copied_into_a_long_essay_shows_by_containment() {
        let long: alloc::string::String = (0..400)
            .map(|i| alloc::format!("word{i} "))
            .collect::<alloc::string::String>()
            + COPIED;
        let r = class_pairs(&[COPIED, &long], &[], "", &ClassSetConfig::default()).unwrap();
        let p = r.pairs[0];
        assert_eq!(p.containment_ab, 1.0);
        assert!(p.resemblance < 0.05, "{}", p.resemblance);
    }

    #[test]
    fn the_template_counts_for_no_pair_and_is_marked() {
        let template = "Question one: explain how the heart pumps blood around the body.";
        let a = alloc::format!("{template} The heart has four chambers and valves.");
        let b = alloc::format!("{template} Blood flows through arteries and veins.");
        let without = class_pairs(&[&a, &b], &[], "", &ClassSetConfig::default()).unwrap();
        assert_eq!(without.pairs.len(), 1);
        let with = class_pairs(&[&a, &b], &[], template, &ClassSetConfig::default()).unwrap();
        assert!(with.pairs.is_empty(), "{:?}", with.pairs);
        let t = &with.texts[0];
        assert!(t.template_shingles >= 9);
        assert_eq!(t.excluded.len(), 1);
        assert_eq!(
            &a[t.excluded[0].start..t.excluded[0].end],
            &template[..template.len() - 1]
        );
    }

    #[test]
    fn stock_phrases_count_for_no_pair() {
        // Ten students open with the same sentence; two of them share more.
        let stock = "in this essay i will discuss the causes of the war";
        let mut texts: Vec<alloc::string::String> = (0..10)
            .map(|i| alloc::format!("{stock}. student{i} wrote about topic{i} alone here."))
            .collect();
        texts[3].push_str(" The treaty was signed at Versailles after long talks in Paris.");
        texts[7].push_str(" The treaty was signed at Versailles after long talks in Paris.");
        let refs: Vec<&str> = texts.iter().map(|s| s.as_str()).collect();
        let r = class_pairs(&refs, &[], "", &ClassSetConfig::default()).unwrap();
        assert_eq!(r.stock_limit, 4);
        assert!(r.stock_phrases >= 9);
        assert_eq!(r.pairs.len(), 1, "{:?}", r.pairs);
        assert_eq!((r.pairs[0].a, r.pairs[0].b), (3, 7));
        assert!(r.texts[0].stock_shingles >= 9);
        assert_eq!(
            &texts[0][r.texts[0].excluded[0].start..r.texts[0].excluded[0].end],
            stock
        );
        // With stock_share 1, nothing is stock and every pair shows.
        let all = class_pairs(&refs, &[], "", &ClassSetConfig::default().stock_share(1.0)).unwrap();
        assert_eq!(all.stock_phrases, 0);
        assert_eq!(all.pairs.len(), 45);
    }

    #[test]
    fn passages_in_more_than_two_texts_are_found_with_their_count() {
        let shared = "the treaty was signed at versailles after long talks in paris";
        let texts: Vec<alloc::string::String> = (0..10)
            .map(|i| {
                if i < 3 {
                    alloc::format!("alpha{i} beta{i} gamma{i}. {shared}. delta{i} epsilon{i}")
                } else {
                    alloc::format!("student{i} wrote about topic{i} alone here today")
                }
            })
            .collect();
        let refs: Vec<&str> = texts.iter().map(|s| s.as_str()).collect();
        let r = class_pairs(&refs, &[], "", &ClassSetConfig::default()).unwrap();
        let c = &r.texts[1].common;
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!(c[0].texts, 3);
        assert_eq!(&texts[1][c[0].range.start..c[0].range.end], shared);
        assert!(r.texts[5].common.is_empty());
    }

    #[test]
    fn sources_are_compared_one_way() {
        let src = alloc::format!("Encyclopedia entry: {COPIED}. More facts follow here.");
        let a = alloc::format!("Answer: {COPIED}.");
        let b = "An answer in my own words about rivers and their sediment.";
        let r = class_pairs(&[&a, b], &[&src, &src], "", &ClassSetConfig::default()).unwrap();
        // Student 0 against both sources; the sources are never paired.
        let got: Vec<(u32, u32, bool)> = r.pairs.iter().map(|p| (p.a, p.b, p.source)).collect();
        assert_eq!(got, [(0, 2, true), (0, 3, true)]);
        // Two students copying the same source passage share a source; they
        // are not paired with each other.
        let c = alloc::format!("Another answer: {COPIED}, I read.");
        let r = class_pairs(&[&a, &c], &[&src], "", &ClassSetConfig::default()).unwrap();
        let got: Vec<(u32, u32, bool)> = r.pairs.iter().map(|p| (p.a, p.b, p.source)).collect();
        assert_eq!(got, [(0, 2, true), (1, 2, true)]);
        let alone = class_pairs(&[&a, &c], &[], "", &ClassSetConfig::default()).unwrap();
        assert_eq!((alone.pairs[0].a, alone.pairs[0].b), (0, 1));
    }

    #[test]
    fn quotations_and_reference_lists_count_for_no_pair_and_are_marked() {
        let refs = "References\nJones, A. (1999). The Cell. Oxford: Science Books, second edition.";
        let intro: alloc::string::String = (0..30).map(|i| alloc::format!("w{i} ")).collect();
        let a =
            alloc::format!("{intro}As the book says, “{COPIED}”, which I agree with.\n\n{refs}");
        let b = alloc::format!("{intro}{intro}Some notes of my own here.\n\n{refs}\n{COPIED}");
        let off = ClassSetConfig::default()
            .ignore_quotes(false)
            .ignore_references(false)
            .stock_share(1.0);
        let all = class_pairs(&[&a, &b], &[], "", &off).unwrap();
        assert_eq!(all.pairs.len(), 1);
        let on = ClassSetConfig::default().stock_share(1.0);
        let r = class_pairs(&[&a, &b], &[], "", &on).unwrap();
        // The intro's words are shared still; the quotation and the
        // reference lists are not.
        assert!(r.pairs[0].shared < all.pairs[0].shared);
        let t = &r.texts[0];
        assert_eq!((t.quotations, t.reference_list), (1, true));
        let ex: Vec<&str> = t.excluded.iter().map(|e| &a[e.start..e.end]).collect();
        assert!(
            ex.iter().any(|e| e.starts_with('“') && e.ends_with('”')),
            "{ex:?}"
        );
        assert!(ex.iter().any(|e| e.starts_with("References")), "{ex:?}");
        // b's copy after its reference list is in the list: left out too.
        assert!(r.texts[1].reference_list);
    }

    #[test]
    fn bad_options_and_inputs_are_errors() {
        let c = ClassSetConfig::default();
        assert!(class_pairs(&["one text"], &[], "", &c).is_err());
        assert!(class_pairs(&[], &["a", "b"], "", &c).is_err());
        for bad in [
            c.stock_share(0.0),
            c.stock_share(f64::NAN),
            c.min_containment(1.5),
            c.word_k(0),
        ] {
            assert!(matches!(
                class_pairs(&["a b c", "a b c"], &[], "", &bad)
                    .unwrap_err()
                    .kind(),
                ErrorKind::InvalidOption { .. }
            ));
        }
        let e = class_pairs(&["a b c", "a b c d"], &[], "", &c.max_bytes(6)).unwrap_err();
        assert!(matches!(
            e.kind(),
            ErrorKind::TooLarge {
                which: "student",
                ..
            }
        ));
        // Texts without words take part with no shingles and no pairs.
        let r = class_pairs(&["...", "!!!", "words here now"], &[], "", &c).unwrap();
        assert!(r.pairs.is_empty());
        assert_eq!(r.texts[0].shingles, 0);
    }

    /// A class of 20: `ring` students hand in one essay, the others their
    /// own; every text ~150 words of a 2,000-word vocabulary.
    fn class_with_ring(ring: usize) -> Vec<alloc::string::String> {
        let mut rng = crate::hash::SplitMix64::new(ring as u64);
        let mut essay = || -> alloc::string::String {
            (0..150)
                .map(|_| alloc::format!("w{} ", rng.next() % 2000))
                .collect()
        };
        let shared = essay();
        (0..20)
            .map(|i| if i < ring { shared.clone() } else { essay() })
            .collect()
    }

    /// Issue 35: a passage copied by more students than the stock share
    /// allows is left out of every pair, but never silently: the report
    /// names the texts sharing it and its length.
    #[test]
    fn a_copy_ring_left_out_as_stock_is_reported_never_silent() {
        for ring in [5usize, 6, 10, 20] {
            let texts = class_with_ring(ring);
            let refs: Vec<&str> = texts.iter().map(|t| t.as_str()).collect();
            let r = class_pairs(&refs, &[], "", &ClassSetConfig::default()).unwrap();
            assert!(
                r.pairs.iter().all(|p| p.a as usize >= ring),
                "{ring}: ring pairs are stock"
            );
            let ids: Vec<u32> = (0..ring as u32).collect();
            assert_eq!(r.stock_passages.len(), 1, "{ring}: {:?}", r.stock_passages);
            assert_eq!(r.stock_passages[0].texts, ids);
            assert_eq!(r.stock_passages[0].words, 150);
        }
        // Below the stock limit the ring is three pairs, and nothing is left out.
        let texts = class_with_ring(3);
        let refs: Vec<&str> = texts.iter().map(|t| t.as_str()).collect();
        let r = class_pairs(&refs, &[], "", &ClassSetConfig::default()).unwrap();
        let ring: Vec<(u32, u32)> = r
            .pairs
            .iter()
            .filter(|p| p.a < 3)
            .map(|p| (p.a, p.b))
            .collect();
        assert_eq!(ring, [(0, 1), (0, 2), (1, 2)]);
        assert!(r.stock_passages.is_empty());
    }

    /// A stock phrase proper — a few words many students use — is no
    /// passage: only runs of STOCK_RUN shingles or more are.
    #[test]
    fn short_stock_phrases_are_not_reported_as_passages() {
        let texts: Vec<alloc::string::String> = class_with_ring(0)
            .into_iter()
            .enumerate()
            .map(|(i, t)| match i % 2 {
                0 => alloc::format!("In conclusion it is clear that {t}"),
                _ => t,
            })
            .collect();
        let refs: Vec<&str> = texts.iter().map(|t| t.as_str()).collect();
        let r = class_pairs(&refs, &[], "", &ClassSetConfig::default()).unwrap();
        assert!(
            r.stock_phrases >= 4,
            "the phrase is stock: {}",
            r.stock_phrases
        );
        assert!(r.stock_passages.is_empty(), "{:?}", r.stock_passages);
    }
}
