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

pub mod evidence;
pub mod index;
pub mod library;
#[cfg(feature = "serde")]
pub mod run;
pub mod students;
pub mod winnow;

use crate::compare::check_size;
use crate::document::Document;
use crate::error::{check_range, Error};
use crate::exclude;
use crate::shingle::Shingling;
use crate::text::{Normalized, TextRange};
use alloc::vec::Vec;

/// A shingle is a stock phrase only when found in more than this many
/// students' texts, whatever the share (in a class of 20, 3 students
/// sharing a phrase is collusion to look at, not a stock phrase).
pub const MIN_STOCK_DOCUMENTS: usize = 4;

/// A run of consecutive shingles of a text, each found in another
/// student's text or a source, that covers at least this many words is a
/// *passage*: evidence, never a stock phrase, however many texts share it
/// (a stock phrase is short: "in this essay I will"). Ten words: the run
/// of eight word 3-shingles.
pub const PASSAGE_WORDS: usize = 10;

/// Options of [`class_pairs`], with by-value setters; checked once by
/// [`ClassSetConfig::check`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", default, deny_unknown_fields)
)]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct ClassSetConfig {
    /// Words per shingle, 1..=32, when `char_q` is 0. Default 3 (Clough &
    /// Stevenson's word trigrams).
    pub word_k: u32,
    /// Characters per shingle, 0 or 1..=32: when not 0, the features are
    /// the character q-grams of the normalised words (joined by one
    /// space), as Dolos and MOSS fingerprint characters (Schleimer,
    /// Wilkerson & Aiken 2003), and `word_k` is not used. Default 20
    /// (EVALUATION.md, "Collusion without the source").
    pub char_q: u32,
    /// With `char_q`: the winnowing window in q-grams, 1..=64
    /// ([`winnow::winnow`]; 1 keeps every gram). Default 8: about 2 grams
    /// in 9 kept, any shared run of `window + char_q − 1` characters found.
    pub window: u32,
    /// Hash seed. Default 0.
    pub seed: u64,
    /// A shingle in more than this share of the students' texts is a stock
    /// phrase, in (0, 1], unless it lies in a passage ([`PASSAGE_WORDS`]);
    /// 1 keeps every shingle. Default 0.5 (EVALUATION.md, "Collusion
    /// without the source").
    pub stock_share: f64,
    /// A pair is reported when its larger containment reaches this, in
    /// [0, 1]; the pairs flagged are those at or above the report's
    /// `cut_off`, this or higher ([`ClassSetConfig::adaptive_cut_off`]).
    /// Default 0.05 (EVALUATION.md, "Class sets").
    pub min_containment: f64,
    /// Raise the cut-off with the class's size: [`suggested_cut_off`] (a
    /// class of 20 texts or fewer: 0.05; +0.15 per tenfold more texts, at
    /// most 0.5), so that the pairs flagged in a large class of one
    /// subject stay the copies, not the phrases all its texts share.
    /// `false`: the cut-off is `min_containment`. Default `true`
    /// (EVALUATION.md, "A cut-off that fits the class").
    pub adaptive_cut_off: bool,
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
    /// Fold diacritics (SPEC.md §1, [`crate::Normalization`]): `é` → `e`,
    /// `ä` → `ae`, so an answer typed without accents, or German with
    /// `ae`/`oe`/`ue`, still matches. Default `false` (the page turns it on).
    pub fold_diacritics: bool,
    /// Undo the tricks that hide a copy (SPEC.md §1, step 0,
    /// [`crate::Normalization::unmask`]): invisible characters removed,
    /// look-alike letters of another script mapped to the main script's;
    /// each student's [`Obfuscation`](crate::Obfuscation) says what was
    /// undone. Default `true`.
    pub unmask: bool,
}

impl Default for ClassSetConfig {
    fn default() -> Self {
        ClassSetConfig {
            word_k: 3,
            char_q: 20,
            window: 8,
            seed: crate::hash::DEFAULT_SEED,
            stock_share: 0.5,
            min_containment: 0.05,
            adaptive_cut_off: true,
            min_shared: 5,
            max_bytes: 16 << 20,
            ignore_quotes: true,
            ignore_references: true,
            fold_diacritics: false,
            unmask: true,
        }
    }
}

crate::config::setters!(ClassSetConfig {
    /// Sets `word_k`.
    word_k: u32,
    /// Sets `char_q` (0: word shingles).
    char_q: u32,
    /// Sets the winnowing `window`.
    window: u32,
    /// Sets the hash seed.
    seed: u64,
    /// Sets `stock_share`.
    stock_share: f64,
    /// Sets `min_containment`.
    min_containment: f64,
    /// Sets whether the cut-off rises with the class's size.
    adaptive_cut_off: bool,
    /// Sets `min_shared`.
    min_shared: u32,
    /// Sets `max_bytes`.
    max_bytes: u64,
    /// Sets whether quotations are left out.
    ignore_quotes: bool,
    /// Sets whether trailing reference lists are left out.
    ignore_references: bool,
    /// Sets whether diacritics are folded.
    fold_diacritics: bool,
    /// Sets whether the tricks that hide a copy are undone.
    unmask: bool,
});

impl ClassSetConfig {
    /// How every text is normalised (diacritics folded or not, unmasked or
    /// not).
    pub fn normalization(&self) -> crate::Normalization {
        crate::Normalization::folding(self.fold_diacritics).unmasking(self.unmask)
    }

    /// A text's [`Document`] under this configuration's seed and
    /// normalisation.
    pub(crate) fn document(&self, text: &str) -> Document {
        Document::with_normalization(text, self.seed, self.normalization())
    }

    /// Checks every option against its range.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] naming the option and its range.
    pub fn check(&self) -> Result<(), Error> {
        check_range("word_k", self.word_k, 1..=32)?;
        check_range("char_q", self.char_q, 0..=32)?;
        check_range("window", self.window, 1..=64)?;
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

    /// The cut-off on a pair's score for a class of `students` texts:
    /// `min_containment`, raised to [`suggested_cut_off`] when
    /// `adaptive_cut_off`.
    pub fn cut_off(&self, students: usize) -> f64 {
        match self.adaptive_cut_off {
            true => self.min_containment.max(suggested_cut_off(students)),
            false => self.min_containment,
        }
    }

    /// The shingles the class set compares: character `char_q`-grams, or
    /// word `word_k`-shingles when `char_q` is 0.
    pub fn shingling(&self) -> Shingling {
        match self.char_q {
            0 => Shingling::Words(self.word_k),
            q => Shingling::Chars(q),
        }
    }
}

/// The cut-off on a pair's larger containment that fits a class of
/// `students` texts: 0.05 up to 20 texts, then 0.05 + 0.15 ×
/// log10(students / 20), at most 0.5 (0.20 for 200 texts, 0.35 for 2,000,
/// 0.41 for 5,000).
/// The pairs of a class grow with the square of its size, and with them
/// the pairs that share a subject's phrases by chance; measured on the
/// shared data in EVALUATION.md ("A cut-off that fits the class").
pub fn suggested_cut_off(students: usize) -> f64 {
    let n = students.max(1) as f64;
    (0.05 + 0.15 * libm::log10(n / 20.0)).clamp(0.05, 0.5)
}

/// A pair of texts sharing shingles. Texts are numbered students first
/// (`0..students`), then sources (`students..students + sources`); `a` is
/// always a student, `a < b`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
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
    /// 0 for a pair of two texts; `n ≥ 2` when the pair stands for a group
    /// of `n` students' texts identical after normalisation and exclusions
    /// (`a` the group's first, `b` its second; the report's `groups` lists
    /// every member): found by hash, reported once, its members paired
    /// with no one else (the first stands for them all).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub identical: u32,
}

/// One text's counts and excluded ranges.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
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
    /// Share of `shingles` that another student's text or a source also
    /// holds, in [0, 1]: how much of this text is found elsewhere in the
    /// class (0 for a source, which is not a student's work).
    pub shared: f64,
    /// Ranges of the text left out of every pair — quotations, a reference
    /// list, template and stock phrases — merged, in order (UTF-8 bytes in
    /// the core; UTF-16 units in JavaScript).
    pub excluded: Vec<TextRange>,
    /// Passages of this text that at least three students' texts share
    /// (this one included): maximal runs of shingles other students' texts
    /// hold, each with the number of texts holding at least half of it. In
    /// order, not overlapping; same unit as `excluded`.
    pub common: Vec<CommonPassage>,
    /// What was undone to read the text ([`ClassSetConfig::unmask`]):
    /// look-alike letters, invisible characters, with their ranges (same
    /// unit as `excluded`); non-zero counts flag the student.
    #[cfg_attr(feature = "serde", serde(default))]
    pub obfuscation: crate::Obfuscation,
    /// With `ignore_quotes`: the share of the text's letters and digits
    /// inside the quotations left out, in [0, 1] ([`crate::exclude::share`]).
    #[cfg_attr(feature = "serde", serde(default))]
    pub quoted: f64,
    /// When `quoted` is over a third: a sentence saying so
    /// ([`crate::exclude::quoted_warning`]).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub quotation_warning: Option<alloc::string::String>,
}

/// A passage of one text that other students' texts share too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct CommonPassage {
    /// The passage's range in the text.
    pub range: TextRange,
    /// The students' texts (this one included) holding at least half of
    /// the passage's shingles: the texts that share this passage, not any
    /// phrase inside it. At least 3.
    pub texts: u32,
}

/// A passage of at least [`PASSAGE_WORDS`] words that three or more
/// students' texts share: a copy ring, a source the class used and the
/// teacher did not give, or a template not given. Counted as evidence in
/// every pair of these texts, and named so that a teacher sees the group;
/// a passage that is (at least half) in a source given is that source's,
/// and not named here.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct SharedPassage {
    /// The students' texts holding at least half of it, ascending.
    pub texts: Vec<u32>,
    /// Its length in words, the longest such passage these texts share.
    pub words: u32,
}

/// Each student's strongest match, for a teacher's per-student table.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct StudentSummary {
    /// The text (a student or a source) covering the most of this
    /// student's text, among those sharing at least `min_shared`
    /// shingles with it; `None` when there is none. Ties to the lower
    /// number.
    pub best: Option<u32>,
    /// How much of this student's text `best` holds: `shared / |this|`, in
    /// [0, 1] (0 when `best` is `None`).
    pub covered: f64,
    /// Whether `best` is a source.
    pub source: bool,
}

/// The result of [`class_pairs`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct ClassSetReport {
    /// Students' texts, then sources, in input order.
    pub texts: Vec<ClassText>,
    /// Pairs whose score reaches `min_containment`, highest score first
    /// (then by `a`, `b`); those at or above `cut_off` are flagged.
    pub pairs: Vec<ClassPair>,
    /// The cut-off used for this class: [`ClassSetConfig::cut_off`].
    pub cut_off: f64,
    /// One per student, in input order.
    pub students: Vec<StudentSummary>,
    /// Pairs that shared any shingle, before the cut-off (how much work the
    /// index saved: out of `students × (students − 1) / 2 + students ×
    /// sources`).
    pub candidates: u64,
    /// The stock-phrase limit used: a shingle in more than this many
    /// students' texts, outside passages, was excluded.
    pub stock_limit: u32,
    /// Distinct stock shingles found.
    pub stock_phrases: u32,
    /// Passages of [`PASSAGE_WORDS`] words or more that three or more
    /// students' texts share, one per group of texts (its longest), longest
    /// first (then by texts).
    pub shared_passages: Vec<SharedPassage>,
    /// Groups of students' texts identical after normalisation and
    /// exclusions (the same counted shingles, at least one), each its
    /// members ascending, in order of their first: each group is one pair
    /// of `pairs` (`identical` its size), and only its first member is
    /// paired with other texts.
    #[cfg_attr(feature = "serde", serde(default))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub groups: Vec<Vec<u32>>,
    /// The options used.
    pub options: ClassSetConfig,
}

impl ClassSetReport {
    /// Adds to each text's [`ClassText::obfuscation`] the runs of hidden
    /// text a document reader left out of it (`crate::read`'s
    /// `Hidden::runs`), one count per text in the report's order (students
    /// then sources); missing counts add nothing, extra ones are ignored.
    pub fn add_hidden(&mut self, runs: &[u64]) {
        for (text, &n) in self.texts.iter_mut().zip(runs) {
            text.obfuscation.add_hidden(n);
        }
    }

    /// Converts every text's excluded ranges from UTF-8 byte offsets to
    /// UTF-16 code units into the same texts (students then sources, as
    /// given to [`class_pairs`]).
    pub fn into_utf16(mut self, texts: &[&str]) -> ClassSetReport {
        for (t, text) in self.texts.iter_mut().zip(texts) {
            let ranges = t
                .excluded
                .iter_mut()
                .chain(t.common.iter_mut().map(|c| &mut c.range))
                .chain(t.obfuscation.ranges.iter_mut());
            crate::text::ranges_to_utf16(text, ranges);
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
/// assert_eq!(r.students[2].best, None);
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
    let mut sets: Vec<Vec<u64>> = texts.iter().map(|t| t.set_without(&template)).collect();
    let class = Class::new(&sets, n_students, stock_limit);
    let mut reports = Vec::with_capacity(texts.len());
    let mut kept: Vec<Vec<u64>> = Vec::with_capacity(texts.len());
    let mut passages = Passages::new(n_students);
    // Each text is read into its report, then let go: what stays for the
    // pairs is its kept set (the largest class, in one worker's memory,
    // which never shrinks, holds the less at its peak).
    for (i, t) in texts.into_iter().enumerate() {
        let student = i < n_students;
        let infos = class.infos(&t.shingles);
        let in_passage = t.in_passage(&infos);
        let all = core::mem::take(&mut sets[i]);
        let mut set = all.clone();
        if student {
            let restored = t.restored(&infos, &in_passage);
            set.retain(|h| !class.is_stock(*h) || restored.binary_search(h).is_ok());
        }
        let common = match student {
            true => passages.of(i as u32, &t, &class, &infos, &set),
            false => Vec::new(),
        };
        reports.push(t.report(
            &all,
            &set,
            &template,
            &class,
            &infos,
            &in_passage,
            common,
            student,
        ));
        kept.push(set);
    }
    let stock_phrases = class.stock as u32;
    drop(sets);
    drop(class);
    // Identical texts (a ring handing in one essay) are found by hash and
    // paired once: only each group's first is counted with the others, so
    // that time and memory grow with the ring's size, not its square.
    let groups = identical_groups(&kept[..n_students]);
    for g in &groups {
        for &m in &g[1..] {
            kept[m as usize] = Vec::new();
        }
    }
    let (mut pairs, mut students_summary, mut candidates) =
        scored_pairs(&kept, &reports, n_students, config);
    for g in &groups {
        let n = g.len() as u64;
        candidates = candidates.saturating_add(n * (n - 1) / 2);
        let shingles = reports[g[0] as usize].shingles;
        if shingles >= config.min_shared {
            pairs.push(ClassPair {
                a: g[0],
                b: g[1],
                source: false,
                shared: shingles,
                containment_ab: 1.0,
                containment_ba: 1.0,
                resemblance: 1.0,
                score: 1.0,
                identical: g.len() as u32,
            });
        }
        for &m in g {
            let s = &mut students_summary[m as usize];
            if s.covered < 1.0 {
                *s = StudentSummary {
                    best: Some(if m == g[0] { g[1] } else { g[0] }),
                    covered: 1.0,
                    source: false,
                };
            }
        }
    }
    pairs.sort_by(|x, y| {
        y.score
            .total_cmp(&x.score)
            .then(x.a.cmp(&y.a))
            .then(x.b.cmp(&y.b))
    });
    Ok(ClassSetReport {
        texts: reports,
        pairs,
        cut_off: config.cut_off(n_students),
        students: students_summary,
        candidates,
        stock_limit: stock_limit as u32,
        stock_phrases,
        shared_passages: passages.groups(),
        groups,
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
    /// Per shingle, the tokens it covers, `(first, end)`; empty for word
    /// shingles (shingle `p` covers tokens `p .. p + k`).
    spans: Vec<(u32, u32)>,
    /// Words per shingle, for word shingles.
    k: usize,
    /// Each token's byte range in the text, `[start, end)` in 32 bits (half
    /// the memory of a `TextRange`, for a whole class at once).
    tokens: Vec<[u32; 2]>,
    own: Vec<TextRange>,
    quotations: u32,
    reference_list: bool,
    obfuscation: crate::Obfuscation,
    quoted: f64,
}

/// The ranges of `text` its class options leave out of every pair: its
/// quotations and reference list, as [`ClassText::excluded`] holds them
/// before the template's and stock phrases are added. What a reference
/// library's kept text is compared with left out
/// ([`run::ClassRun::compare`]).
pub(crate) fn own_exclusions(text: &str, config: &ClassSetConfig) -> Vec<TextRange> {
    let (quotations, references) = own_parts(text, config);
    exclude::merge(quotations.into_iter().chain(references))
}

/// `text`'s quotations and reference list, each when its option leaves it
/// out (else none).
fn own_parts(text: &str, config: &ClassSetConfig) -> (Vec<TextRange>, Option<TextRange>) {
    let quotations = match config.ignore_quotes {
        true => exclude::quotations(text),
        false => Vec::new(),
    };
    let references = match config.ignore_references {
        true => exclude::reference_list(text),
        false => None,
    };
    (quotations, references)
}

impl Text {
    fn read(text: &str, config: &ClassSetConfig) -> Text {
        let (quotations, references) = own_parts(text, config);
        let count = quotations.len() as u32;
        let quoted = exclude::share(text, &quotations);
        let own = exclude::merge(quotations.into_iter().chain(references));
        let d = match own.is_empty() {
            true => config.document(text),
            false => config.document(&exclude::blank(text, &own)),
        };
        let shingles = match d.is_empty() {
            true => Vec::new(),
            false => d.shingles(config.shingling()).to_vec(),
        };
        let (shingles, spans) = match config.char_q {
            0 => (shingles, Vec::new()),
            q => {
                let spans = char_spans(d.normalized(), q as usize, shingles.len());
                let kept = winnow::winnow(&shingles, config.window as usize);
                (
                    kept.iter().map(|&p| shingles[p]).collect(),
                    kept.iter().map(|&p| spans[p]).collect(),
                )
            }
        };
        Text {
            shingles,
            spans,
            k: config.word_k as usize,
            // Offsets fit 32 bits: a text is at most `max_bytes` ≤ u32::MAX.
            tokens: d
                .normalized()
                .tokens()
                .iter()
                .map(|t| [t.orig.start as u32, t.orig.end as u32])
                .collect(),
            own,
            quotations: count,
            reference_list: references.is_some(),
            obfuscation: d.normalized().obfuscation().clone(),
            quoted,
        }
    }

    /// Token `i`'s byte range in the text.
    fn token(&self, i: usize) -> TextRange {
        let [start, end] = self.tokens[i];
        TextRange {
            start: start as usize,
            end: end as usize,
        }
    }

    /// The tokens shingle `p` covers, `(first, end)`, `first < end`.
    fn span(&self, p: usize) -> (usize, usize) {
        match self.spans.get(p) {
            Some(&(a, b)) => (a as usize, b as usize),
            None => (p, (p + self.k).min(self.tokens.len()).max(p + 1)),
        }
    }

    /// Words covered by the shingles at positions `from..to`.
    fn words(&self, from: usize, to: usize) -> usize {
        self.span(to - 1).1.saturating_sub(self.span(from).0)
    }

    /// Its distinct shingles, those of `template` (sorted) left out.
    fn set_without(&self, template: &[u64]) -> Vec<u64> {
        let mut v = self.shingles.clone();
        v.sort_unstable();
        v.dedup();
        v.retain(|h| template.binary_search(h).is_err());
        v
    }

    /// Per position, whether its shingle lies in a passage: a run of
    /// consecutive shingles found in another student's text or a source
    /// covering at least [`PASSAGE_WORDS`] words.
    fn in_passage(&self, infos: &[Option<Info>]) -> Vec<bool> {
        let shared: Vec<bool> = infos
            .iter()
            .map(|i| i.is_some_and(|x| x.shared()))
            .collect();
        let mut out = alloc::vec![false; shared.len()];
        let mut p = 0;
        for run in shared.chunk_by(|x, y| x == y) {
            let (from, to) = (p, p + run.len());
            p = to;
            if run[0] && self.words(from, to) >= PASSAGE_WORDS {
                out[from..to].fill(true);
            }
        }
        out
    }

    /// The stock shingles found in this text's passages, sorted: evidence,
    /// not stock phrases, in this text.
    fn restored(&self, infos: &[Option<Info>], in_passage: &[bool]) -> Vec<u64> {
        let mut v: Vec<u64> = (0..self.shingles.len())
            .filter(|&p| in_passage[p] && infos[p].is_some_and(|x| x.stock))
            .map(|p| self.shingles[p])
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Stage 4: what the report says of this text — its counts, every range
    /// left out (its own, the template's and stock phrases outside
    /// passages), and the passages other students share.
    #[allow(clippy::too_many_arguments)]
    fn report(
        &self,
        set: &[u64],
        kept: &[u64],
        template: &[u64],
        class: &Class,
        infos: &[Option<Info>],
        in_passage: &[bool],
        common: Vec<CommonPassage>,
        student: bool,
    ) -> ClassText {
        let mut distinct = self.shingles.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let excluded_at = self
            .shingles
            .iter()
            .enumerate()
            .filter(|&(p, h)| {
                template.binary_search(h).is_ok()
                    || (student && infos[p].is_some_and(|x| x.stock) && !in_passage[p])
            })
            .map(|(p, _)| self.span(p));
        let phrases = exclude::spans_by(excluded_at, self.tokens.len(), |i| self.token(i));
        let found = kept
            .iter()
            .filter(|&h| class.info.get(h).is_some_and(|x| x.shared()))
            .count();
        ClassText {
            tokens: self.tokens.len() as u32,
            shingles: kept.len() as u32,
            template_shingles: (distinct.len() - set.len()) as u32,
            stock_shingles: (set.len() - kept.len()) as u32,
            quotations: self.quotations,
            reference_list: self.reference_list,
            shared: match (student, kept.len()) {
                (true, n) if n > 0 => found as f64 / n as f64,
                _ => 0.0,
            },
            excluded: exclude::merge(self.own.iter().copied().chain(phrases)),
            common,
            obfuscation: self.obfuscation.clone(),
            quoted: self.quoted,
            quotation_warning: exclude::quoted_warning(self.quoted),
        }
    }
}

/// The tokens each character q-gram of `n` covers, `(first, end)`:
/// `count` grams as [`crate::shingle::char_shingles`] makes them (gram `i`
/// starts at character `i`; a text shorter than `q` characters is one
/// gram).
fn char_spans(n: &Normalized, q: usize, count: usize) -> Vec<(u32, u32)> {
    let text = n.text();
    let starts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    let tokens = n.tokens();
    (0..count)
        .map(|i| {
            let s = starts.get(i).copied().unwrap_or(0);
            let e = starts.get(i + q).copied().unwrap_or(text.len());
            // The first token ending after s, up to the last starting before e.
            let first = tokens.partition_point(|t| t.norm.end <= s);
            let end = tokens.partition_point(|t| t.norm.start < e).max(first + 1);
            (first as u32, end as u32)
        })
        .collect()
}

/// Stage 2: the template's distinct shingles, sorted (none for a blank
/// template).
fn template_shingles(template: &str, config: &ClassSetConfig) -> Vec<u64> {
    if template.trim().is_empty() {
        return Vec::new();
    }
    let mut t = config
        .document(template)
        .shingles(config.shingling())
        .to_vec();
    t.sort_unstable();
    t.dedup();
    t
}

/// Stage 3: what the class as a whole says of a shingle, counted once: the
/// students holding it (for shingles in two or more students' texts),
/// whether a source holds it, and whether it is a stock phrase — in more
/// than `limit` students' texts and in no source (a shingle found in a
/// source is evidence of that source, never a stock phrase, however many
/// students took it). Shingles in one text only are not held.
struct Class {
    /// The students holding each shingle, ascending, one slice per shingle.
    holders: Vec<u32>,
    info: hashbrown::HashMap<u64, Info, fnv::FnvBuildHasher>,
    /// Distinct stock shingles.
    stock: usize,
}

/// What [`Class`] knows of one shingle.
#[derive(Clone, Copy, Debug)]
struct Info {
    /// Where its students start in [`Class::holders`].
    start: u32,
    /// Students' texts holding it (0 or 1 when only a source's shingle is
    /// recorded: their holders are not kept).
    students: u32,
    /// A source holds it.
    source: bool,
    /// A stock phrase.
    stock: bool,
}

impl Info {
    /// In another student's text or a source.
    fn shared(&self) -> bool {
        self.students >= 2 || self.source
    }
}

impl Class {
    fn new(sets: &[Vec<u64>], students: usize, limit: usize) -> Class {
        let mut class = Class {
            holders: Vec::new(),
            info: Default::default(),
            stock: 0,
        };
        let mut in_sources: Vec<u64> = sets[students..].iter().flatten().copied().collect();
        in_sources.sort_unstable();
        in_sources.dedup();
        index::for_each_run(&sets[..students], |h, run| {
            let source = in_sources.binary_search(&h).is_ok();
            if run.len() >= 2 || source {
                let stock = run.len() > limit && !source;
                class.stock += stock as usize;
                let start = class.holders.len() as u32;
                if run.len() >= 2 {
                    class.holders.extend_from_slice(run);
                }
                let students = run.len() as u32;
                class.info.insert(
                    h,
                    Info {
                        start,
                        students,
                        source,
                        stock,
                    },
                );
            }
        });
        for h in in_sources {
            class.info.entry(h).or_insert(Info {
                start: 0,
                students: 0,
                source: true,
                stock: false,
            });
        }
        class
    }

    /// What the class knows of each shingle of `shingles`, in order.
    fn infos(&self, shingles: &[u64]) -> Vec<Option<Info>> {
        shingles.iter().map(|h| self.info.get(h).copied()).collect()
    }

    /// The students holding a shingle, ascending (empty when fewer than two).
    fn holders(&self, info: &Info) -> &[u32] {
        match info.students >= 2 {
            true => &self.holders[info.start as usize..(info.start + info.students) as usize],
            false => &[],
        }
    }

    fn is_stock(&self, h: u64) -> bool {
        self.info.get(&h).is_some_and(|i| i.stock)
    }
}

/// Stage 4b: passages several students' texts share — per text its
/// `common` passages, and over the class one [`SharedPassage`] per group of
/// texts. A run many texts hold (a boilerplate paragraph) is counted once.
struct Passages {
    /// The texts holding at least half of a run, by the run's digest, and
    /// the run's place in `groups` once it is there.
    seen: hashbrown::HashMap<u64, (Vec<u32>, Option<usize>), fnv::FnvBuildHasher>,
    groups: Vec<SharedPassage>,
    /// Per student, a count (all 0 between runs).
    tally: Vec<u32>,
}

impl Passages {
    fn new(students: usize) -> Passages {
        Passages {
            seen: Default::default(),
            groups: Vec::new(),
            tally: alloc::vec![0; students],
        }
    }

    /// Text `i`'s passages that at least three students share: maximal
    /// runs of its counted shingles (`kept`, sorted) that other students
    /// hold, each with the students holding at least half of its distinct
    /// shingles. Time: the run's shingles' holders, once per distinct run.
    fn of(
        &mut self,
        i: u32,
        t: &Text,
        class: &Class,
        infos: &[Option<Info>],
        kept: &[u64],
    ) -> Vec<CommonPassage> {
        let counted: Vec<bool> = t
            .shingles
            .iter()
            .zip(infos)
            .map(|(h, info)| info.is_some_and(|x| x.students >= 2) && kept.binary_search(h).is_ok())
            .collect();
        let mut out = Vec::new();
        let mut p = 0;
        for run in counted.chunk_by(|x, y| x == y) {
            let (from, to) = (p, p + run.len());
            p = to;
            if !run[0] {
                continue;
            }
            let hashes = &t.shingles[from..to];
            let digest = hashes.iter().fold(0u64, |d, &h| crate::hash::fmix64(d ^ h));
            if !self.seen.contains_key(&digest) {
                let texts = self.holders_of_half(hashes, &infos[from..to], class);
                self.seen.insert(digest, (texts, None));
            }
            let Some((texts, group)) = self.seen.get_mut(&digest) else {
                continue;
            };
            if texts.len() < 3 || texts.binary_search(&i).is_err() {
                continue;
            }
            let (first, end) = (t.span(from).0, t.span(to - 1).1);
            if end > t.tokens.len() || first >= end {
                continue;
            }
            out.push(CommonPassage {
                range: TextRange {
                    start: t.token(first).start,
                    end: t.token(end - 1).end,
                },
                texts: texts.len() as u32,
            });
            let words = (end - first) as u32;
            // A run found in a given source is that source's, not a group
            // to name ("give it as a source"): it was given.
            let sourced = 2 * infos[from..to]
                .iter()
                .filter(|x| x.is_some_and(|x| x.source))
                .count()
                >= to - from;
            // One group per run (the texts of a ring all hold it): its
            // longest reading kept.
            if words as usize >= PASSAGE_WORDS && !sourced {
                match *group {
                    Some(g) => {
                        let w = &mut self.groups[g].words;
                        *w = (*w).max(words);
                    }
                    None => {
                        *group = Some(self.groups.len());
                        self.groups.push(SharedPassage {
                            texts: texts.clone(),
                            words,
                        });
                    }
                }
            }
        }
        out
    }

    /// The students holding at least half of the distinct shingles of
    /// `run`, ascending.
    fn holders_of_half(&mut self, run: &[u64], infos: &[Option<Info>], class: &Class) -> Vec<u32> {
        let mut order: Vec<usize> = (0..run.len()).collect();
        order.sort_unstable_by_key(|&j| run[j]);
        order.dedup_by_key(|j| run[*j]);
        let distinct = order.len();
        let mut touched: Vec<u32> = Vec::new();
        for &j in &order {
            if let Some(info) = &infos[j] {
                for &s in class.holders(info) {
                    let c = &mut self.tally[s as usize];
                    if *c == 0 {
                        touched.push(s);
                    }
                    *c += 1;
                }
            }
        }
        touched.sort_unstable();
        let mut out = Vec::new();
        for s in touched {
            let c = core::mem::take(&mut self.tally[s as usize]);
            if 2 * c as usize >= distinct {
                out.push(s);
            }
        }
        out
    }

    /// One passage per group of texts, its longest; longest first.
    fn groups(mut self) -> Vec<SharedPassage> {
        let g = &mut self.groups;
        g.sort_by(|x, y| x.texts.cmp(&y.texts).then(y.words.cmp(&x.words)));
        g.dedup_by(|later, first| later.texts == first.texts);
        g.sort_by(|x, y| y.words.cmp(&x.words).then(x.texts.cmp(&y.texts)));
        self.groups
    }
}

#[cfg(feature = "serde")]
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Stage 4c: groups of texts whose counted shingle sets are equal (and
/// not empty), each ascending, in order of their first: by a hash of each
/// set, every group confirmed by comparing the sets themselves. Time
/// linear in the shingles.
fn identical_groups(kept: &[Vec<u64>]) -> Vec<Vec<u32>> {
    let mut by_hash: Vec<(u64, u32)> = kept
        .iter()
        .enumerate()
        .filter(|(_, set)| !set.is_empty())
        .map(|(i, set)| {
            let h = set.iter().fold(set.len() as u64, |d, &x| {
                crate::hash::fmix64(d.rotate_left(23) ^ x)
            });
            (h, i as u32)
        })
        .collect();
    by_hash.sort_unstable();
    let mut groups: Vec<Vec<u32>> = Vec::new();
    for run in by_hash.chunk_by(|x, y| x.0 == y.0) {
        if run.len() < 2 {
            continue;
        }
        // Equal hashes of unequal sets split into the sets' own groups.
        let mut left: Vec<u32> = run.iter().map(|&(_, i)| i).collect();
        while left.len() >= 2 {
            let first = left[0];
            let (same, rest): (Vec<u32>, Vec<u32>) = left
                .iter()
                .partition(|&&i| kept[i as usize] == kept[first as usize]);
            if same.len() >= 2 {
                groups.push(same);
            }
            left = rest;
        }
    }
    groups.sort_unstable_by_key(|g| g[0]);
    groups
}

/// Stage 5: every pair sharing a shingle ([`index::shared_counts`]), with
/// both containments and the resemblance; kept when it shares at least
/// `min_shared` shingles and its larger containment reaches
/// `min_containment`; highest score first (then by `a`, `b`). Also each
/// student's strongest match, and the number of pairs that shared any
/// shingle.
fn scored_pairs(
    kept: &[Vec<u64>],
    texts: &[ClassText],
    students: usize,
    config: &ClassSetConfig,
) -> (Vec<ClassPair>, Vec<StudentSummary>, u64) {
    let counts = index::shared_counts(kept, students);
    let candidates = counts.len() as u64;
    let mut summary = alloc::vec![
        StudentSummary {
            best: None,
            covered: 0.0,
            source: false,
        };
        students
    ];
    let mut pairs = Vec::new();
    for (a, b, shared) in counts {
        let (na, nb) = (texts[a as usize].shingles, texts[b as usize].shingles);
        let ratio = |x: u32| {
            if x == 0 {
                0.0
            } else {
                shared as f64 / x as f64
            }
        };
        let (cab, cba) = (ratio(na), ratio(nb));
        if shared < config.min_shared {
            continue;
        }
        let source = b as usize >= students;
        // Pairs come sorted by (a, b): a strict > keeps the lower number.
        for (x, y, c) in [(a, b, cab), (b, a, cba)] {
            if let Some(s) = summary.get_mut(x as usize) {
                if c > s.covered {
                    *s = StudentSummary {
                        best: Some(y),
                        covered: c,
                        source: y as usize >= students,
                    };
                }
            }
        }
        let score = cab.max(cba);
        if score >= config.min_containment {
            pairs.push(ClassPair {
                a,
                b,
                source,
                shared,
                containment_ab: cab,
                containment_ba: cba,
                resemblance: ratio(na + nb - shared),
                score,
                identical: 0,
            });
        }
    }
    (pairs, summary, candidates)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    /// Word 3-shingles and the stock share of 0.2: the counts these tests
    /// give were counted by hand in words.
    fn by_words() -> ClassSetConfig {
        ClassSetConfig::default().char_q(0).stock_share(0.2)
    }

    const COPIED: &str =
        "the mitochondria is the powerhouse of the cell and makes most of its energy";

    /// Issue 51 item 2: identical texts (after normalisation: case,
    /// spacing, punctuation) are one group, one pair with `identical` its
    /// size; a text that differs by one word is an ordinary pair with the
    /// group's first; groups of 2, 3 and 1,000 alike; every member's
    /// strongest match is its group (covered 1).
    #[test]
    fn identical_texts_are_one_group() {
        let essay = "The Industrial Revolution began in Britain because coal and iron \
                     lay close together, capital was plentiful, and a growing \
                     population both worked in the new factories and bought what \
                     they made, while canals and later railways carried goods cheaply.";
        let shouted = essay.to_uppercase().replace(',', " ,");
        let revised = essay.replace("cheaply", "quickly");
        let other = "Photosynthesis turns light, water and carbon dioxide into sugar \
                     and oxygen inside the chloroplasts of green plants and algae.";
        for n in [2usize, 3, 1000] {
            let mut texts: Vec<&str> = alloc::vec![essay; n];
            texts[n - 1] = &shouted;
            texts.push(&revised);
            texts.push(other);
            let r = class_pairs(&texts, &[], "", &ClassSetConfig::default()).unwrap();
            let members: Vec<u32> = (0..n as u32).collect();
            assert_eq!(r.groups, core::slice::from_ref(&members), "{n}");
            let group: Vec<&ClassPair> = r.pairs.iter().filter(|p| p.identical > 0).collect();
            assert_eq!(group.len(), 1);
            assert_eq!(
                (group[0].a, group[0].b, group[0].identical),
                (0, 1, n as u32)
            );
            assert_eq!(group[0].score, 1.0);
            // The revised copy pairs with the group's first only.
            let revised_pairs: Vec<(u32, u32)> = r
                .pairs
                .iter()
                .filter(|p| p.b == n as u32 || p.a == n as u32)
                .map(|p| (p.a, p.b))
                .collect();
            assert_eq!(revised_pairs, [(0, n as u32)], "{n}");
            assert!(!r
                .pairs
                .iter()
                .any(|p| p.a == n as u32 + 1 || p.b == n as u32 + 1));
            for &m in &members {
                let s = r.students[m as usize];
                assert_eq!(s.covered, 1.0);
                assert!(s.best.is_some_and(|b| b < n as u32 && b != m));
            }
            // Counted as the pairs they stand for.
            assert!(r.candidates >= (n * (n - 1) / 2) as u64);
        }
        // A group of one is no group.
        let r = class_pairs(&[essay, other], &[], "", &ClassSetConfig::default()).unwrap();
        assert!(r.groups.is_empty() && r.pairs.iter().all(|p| p.identical == 0));
    }

    /// Issue 48: a passage several students took from a source given is
    /// the source's — paired with it, not named as a group to "give as a
    /// source" — while the same passage without the source is named.
    #[test]
    fn a_passage_of_a_given_source_is_not_named_as_a_group() {
        let source = "The Industrial Revolution began in Britain because coal and iron \
                      lay close together, capital was plentiful, and a growing population \
                      both worked in the new factories and bought what they made.";
        let students: Vec<alloc::string::String> = [
            "My view on the question.",
            "Here is what I found.",
            "An answer in my own words first.",
            "Rivers and mountains are another topic entirely, unrelated to this.",
        ]
        .iter()
        .enumerate()
        .map(|(i, own)| match i {
            3 => (*own).into(),
            _ => alloc::format!("{own} {source} That is all."),
        })
        .collect();
        let refs: Vec<&str> = students.iter().map(|s| s.as_str()).collect();
        let config = by_words();
        let without = class_pairs(&refs, &[], "", &config).unwrap();
        assert_eq!(
            without.shared_passages.len(),
            1,
            "{:?}",
            without.shared_passages
        );
        assert_eq!(without.shared_passages[0].texts, [0, 1, 2]);
        let with = class_pairs(&refs, &[source], "", &config).unwrap();
        assert!(
            with.shared_passages.is_empty(),
            "{:?}",
            with.shared_passages
        );
        assert_eq!(with.pairs.iter().filter(|p| p.source).count(), 3);
    }

    /// Equal hashes of unequal sets are not a group: the sets are compared.
    #[test]
    fn groups_are_confirmed_by_the_sets() {
        let sets = alloc::vec![
            alloc::vec![1, 2, 3],
            alloc::vec![1, 2, 4],
            alloc::vec![1, 2, 3],
            alloc::vec![],
            alloc::vec![],
        ];
        assert_eq!(identical_groups(&sets), [alloc::vec![0, 2]]);
    }

    #[test]
    fn finds_the_copying_pair_and_only_it() {
        let a = alloc::format!("My essay. {COPIED}. That is all I know.");
        let b = alloc::format!("Biology is fun because {COPIED}, as our teacher says.");
        let c = "Rivers carry sediment downstream and deposit it where the current slows.";
        let r = class_pairs(&[&a, &b, c], &[], "", &by_words()).unwrap();
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
        let r = class_pairs(&[COPIED, &long], &[], "", &by_words()).unwrap();
        let p = r.pairs[0];
        assert_eq!(p.containment_ab, 1.0);
        assert!(p.resemblance < 0.05, "{}", p.resemblance);
    }

    #[test]
    fn the_template_counts_for_no_pair_and_is_marked() {
        let template = "Question one: explain how the heart pumps blood around the body.";
        let a = alloc::format!("{template} The heart has four chambers and valves.");
        let b = alloc::format!("{template} Blood flows through arteries and veins.");
        let without = class_pairs(&[&a, &b], &[], "", &by_words()).unwrap();
        assert_eq!(without.pairs.len(), 1);
        let with = class_pairs(&[&a, &b], &[], template, &by_words()).unwrap();
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
        let stock = "in this essay i will now discuss";
        let mut texts: Vec<alloc::string::String> = (0..10)
            .map(|i| alloc::format!("{stock}. student{i} wrote about topic{i} alone here."))
            .collect();
        texts[3].push_str(" The treaty was signed at Versailles after long talks in Paris.");
        texts[7].push_str(" The treaty was signed at Versailles after long talks in Paris.");
        let refs: Vec<&str> = texts.iter().map(|s| s.as_str()).collect();
        let r = class_pairs(&refs, &[], "", &by_words()).unwrap();
        assert_eq!(r.stock_limit, 4);
        assert!(r.stock_phrases >= 5);
        assert_eq!(r.pairs.len(), 1, "{:?}", r.pairs);
        assert_eq!((r.pairs[0].a, r.pairs[0].b), (3, 7));
        assert!(r.texts[0].stock_shingles >= 5);
        assert_eq!(
            &texts[0][r.texts[0].excluded[0].start..r.texts[0].excluded[0].end],
            stock
        );
        // With stock_share 1, nothing is stock and every pair shows.
        let all = class_pairs(&refs, &[], "", &by_words().stock_share(1.0)).unwrap();
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
        let r = class_pairs(&refs, &[], "", &by_words()).unwrap();
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
        let r = class_pairs(&[&a, b], &[&src, &src], "", &by_words()).unwrap();
        // Student 0 against both sources; the sources are never paired.
        let got: Vec<(u32, u32, bool)> = r.pairs.iter().map(|p| (p.a, p.b, p.source)).collect();
        assert_eq!(got, [(0, 2, true), (0, 3, true)]);
        // Two students copying the same source passage share a source; they
        // are not paired with each other.
        let c = alloc::format!("Another answer: {COPIED}, I read.");
        let r = class_pairs(&[&a, &c], &[&src], "", &by_words()).unwrap();
        let got: Vec<(u32, u32, bool)> = r.pairs.iter().map(|p| (p.a, p.b, p.source)).collect();
        assert_eq!(got, [(0, 2, true), (1, 2, true)]);
        let alone = class_pairs(&[&a, &c], &[], "", &by_words()).unwrap();
        assert_eq!((alone.pairs[0].a, alone.pairs[0].b), (0, 1));
    }

    #[test]
    fn quotations_and_reference_lists_count_for_no_pair_and_are_marked() {
        let refs = "References\nJones, A. (1999). The Cell. Oxford: Science Books, second edition.";
        let intro: alloc::string::String = (0..30).map(|i| alloc::format!("w{i} ")).collect();
        let a =
            alloc::format!("{intro}As the book says, “{COPIED}”, which I agree with.\n\n{refs}");
        let b = alloc::format!("{intro}{intro}Some notes of my own here.\n\n{refs}\n{COPIED}");
        let off = by_words()
            .ignore_quotes(false)
            .ignore_references(false)
            .stock_share(1.0);
        let all = class_pairs(&[&a, &b], &[], "", &off).unwrap();
        assert_eq!(all.pairs.len(), 1);
        let on = by_words().stock_share(1.0);
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
        let c = by_words();
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

    /// Issue 38: a passage copied by more students than the stock share
    /// is a passage, not a stock phrase: the ring is found — since issue
    /// 51, as one group of identical texts, its first two the pair that
    /// stands for it — and the report names the group.
    #[test]
    fn a_copy_ring_is_evidence_whatever_its_size() {
        for ring in [2usize, 3, 5, 6, 10, 20] {
            let texts = class_with_ring(ring);
            let refs: Vec<&str> = texts.iter().map(|t| t.as_str()).collect();
            for config in [by_words(), ClassSetConfig::default()] {
                let r = class_pairs(&refs, &[], "", &config).unwrap();
                let found: Vec<(u32, u32)> = r
                    .pairs
                    .iter()
                    .filter(|p| (p.a as usize) < ring)
                    .map(|p| (p.a, p.b))
                    .collect();
                assert_eq!(found, [(0, 1)], "ring of {ring}, {config:?}");
                assert_eq!(r.pairs[0].identical, ring as u32);
                assert_eq!(r.groups, [(0..ring as u32).collect::<Vec<u32>>()]);
                assert!(
                    r.pairs
                        .iter()
                        .filter(|p| (p.a as usize) < ring)
                        .all(|p| p.score == 1.0),
                    "{ring}"
                );
                // The whole essay is one passage of the ring's texts.
                let ids: Vec<u32> = (0..ring as u32).collect();
                match ring {
                    2 => assert!(r.shared_passages.is_empty(), "{:?}", r.shared_passages),
                    _ => {
                        assert_eq!(
                            r.shared_passages.len(),
                            1,
                            "{ring}: {:?}",
                            r.shared_passages
                        );
                        assert_eq!(r.shared_passages[0].texts, ids);
                        // Winnowed character grams may leave a word at
                        // either end without a fingerprint of its own.
                        let words = r.shared_passages[0].words;
                        match config.char_q {
                            0 => assert_eq!(words, 150),
                            _ => assert!((146..=150).contains(&words), "{words}"),
                        }
                        assert_eq!(r.texts[0].common.len(), 1);
                        assert_eq!(r.texts[0].common[0].texts, ring as u32);
                    }
                }
                // Every ring member's strongest match covers all of it.
                for i in 0..ring {
                    assert_eq!(r.students[i].covered, 1.0);
                    assert!(r.students[i].best.is_some_and(|b| (b as usize) < ring));
                }
                assert_eq!(r.texts[0].shared, 1.0);
            }
        }
    }

    /// A stock phrase proper — a few words many students use — counts for
    /// no pair, and is no passage.
    #[test]
    fn short_stock_phrases_count_for_no_pair_and_are_no_passage() {
        let texts: Vec<alloc::string::String> = class_with_ring(0)
            .into_iter()
            .enumerate()
            .map(|(i, t)| match i % 4 {
                0 => t,
                _ => alloc::format!("In conclusion it is clear that {t}"),
            })
            .collect();
        let refs: Vec<&str> = texts.iter().map(|t| t.as_str()).collect();
        for config in [by_words(), ClassSetConfig::default()] {
            let r = class_pairs(&refs, &[], "", &config).unwrap();
            // Four word 3-shingles; fewer winnowed character grams.
            let least = if config.char_q == 0 { 4 } else { 1 };
            assert!(r.stock_phrases >= least, "stock: {}", r.stock_phrases);
            assert!(r.shared_passages.is_empty(), "{:?}", r.shared_passages);
            assert!(r.pairs.is_empty(), "{:?}", r.pairs);
            let e = r.texts[1].excluded[0];
            assert!(
                "In conclusion it is clear that".contains(&texts[1][e.start..e.end])
                    && e.len() > 20,
                "{}",
                &texts[1][e.start..e.end]
            );
        }
    }

    /// Issue 38: two students share a 48-word passage in no other text,
    /// inside which a 3-word piece is common to many texts: the passage is
    /// in 2 texts (no common passage of three), not "in 13".
    #[test]
    fn a_passage_is_counted_by_the_texts_sharing_it_not_a_phrase_inside() {
        let mut rng = crate::hash::SplitMix64::new(9);
        let mut words = |n: usize| -> alloc::string::String {
            (0..n)
                .map(|_| alloc::format!("w{} ", rng.next() % 5000))
                .collect()
        };
        let passage = alloc::format!("{} the hash table {}", words(22), words(23));
        let mut texts: Vec<alloc::string::String> = (0..13)
            .map(|_| alloc::format!("{} as in the hash table here {}", words(40), words(40)))
            .collect();
        texts[0] = alloc::format!("{} {passage} {}", words(30), words(30));
        texts[1] = alloc::format!("{} {passage} {}", words(30), words(30));
        let refs: Vec<&str> = texts.iter().map(|t| t.as_str()).collect();
        let r = class_pairs(&refs, &[], "", &by_words().stock_share(1.0)).unwrap();
        assert_eq!((r.pairs[0].a, r.pairs[0].b), (0, 1));
        let p0 = &texts[0];
        let at = p0.find(&passage).unwrap();
        for c in &r.texts[0].common {
            // Only the common 3-word piece is in 3 texts or more.
            assert!(
                c.range.end <= at || c.range.start >= at + passage.len() || c.range.len() < 20,
                "{:?} {}",
                c,
                &p0[c.range.start..c.range.end]
            );
        }
    }

    #[test]
    fn the_cut_off_rises_with_the_class_size() {
        let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
        // 0.05 + 0.15 × log10(n / 20), within [0.05, 0.5], by hand.
        for (n, want) in [
            (2, 0.05),
            (20, 0.05),
            (200, 0.2),
            (2000, 0.35),
            (1_000_000, 0.5),
        ] {
            assert!(
                close(suggested_cut_off(n), want),
                "{n}: {}",
                suggested_cut_off(n)
            );
        }
        let c = ClassSetConfig::default();
        assert!(close(c.cut_off(2000), 0.35));
        assert!(close(c.min_containment(0.6).cut_off(2000), 0.6));
        assert!(close(c.adaptive_cut_off(false).cut_off(2000), 0.05));
        let r = class_pairs(&["a b c d e f", "a b c d e f"], &[], "", &c).unwrap();
        assert!(close(r.cut_off, 0.05));
    }

    #[test]
    fn character_grams_find_copies_words_would_split() {
        // Inflections change every word 3-shingle but not the longer
        // character runs between them.
        let a = "The inheritance hierarchy lets subclasses reuse behaviour defined by their superclasses without rewriting it again";
        let b = "An inherited hierarchy letting subclassing reuse behaviours defined by the superclass without rewriting them again";
        let words = class_pairs(&[a, b], &[], "", &by_words().min_shared(1)).unwrap();
        let chars = class_pairs(
            &[a, b],
            &[],
            "",
            &by_words().char_q(12).window(1).min_shared(1),
        )
        .unwrap();
        let score = |r: &ClassSetReport| r.pairs.first().map_or(0.0, |p| p.score);
        assert!(
            score(&chars) > score(&words) + 0.1,
            "{} {}",
            score(&chars),
            score(&words)
        );
        assert_eq!(chars.options.shingling(), Shingling::Chars(12));
        assert!(class_pairs(&[a, b], &[], "", &by_words().window(0)).is_err());
        assert!(class_pairs(&[a, b], &[], "", &by_words().char_q(33)).is_err());
    }
}
