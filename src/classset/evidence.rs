//! The class set's evidence pack: one self-contained HTML file with no
//! script, the record a teacher keeps or hands on — the date and every
//! setting, every input file with its SHA-256, and each pair at or above
//! the cut-off with its figures, verdict, review mark and both texts, the
//! shared passages highlighted and the words left out (template, stock
//! phrases, quotations, reference lists) greyed. One builder for every
//! surface: the page (through WebAssembly, `evidencePack`) and
//! `neardup class --evidence` write the same file for the same class.
//!
//! A pair the teacher dismissed on review (`review` `"dismissed"`) is left
//! out, and the settings say how many were. Texts only ever become escaped
//! text; names are shown as
//! [`shown_name`] writes them. With [`EvidencePack::pseudonyms`] students
//! and their files are named "Student 1", "Student 2", … (by their order
//! in the class, sources keeping their names) and only the hashes identify
//! the files.

use super::{ClassSetConfig, ClassSetReport};
#[cfg(feature = "serde")]
use crate::compare::{CompareConfig, Exclusions, Report};
use crate::error::Error;
use crate::text::TextRange;
#[cfg(feature = "serde")]
use crate::verdict::{SvmModel, Verdict};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write;

/// Everything the evidence pack shows. Offsets are UTF-8 bytes into the
/// texts (the WebAssembly binding converts the page's UTF-16 units).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct EvidencePack {
    /// The line under the title: when and where the pack was made, e.g.
    /// `"Made 2026-11-26 18:40 UTC by neardup class; nothing was uploaded."`.
    pub made: String,
    /// How many of `texts` are students' (the first ones); the rest are
    /// sources.
    pub students: u32,
    /// Students' texts, then sources, numbered as in the class report.
    pub texts: Vec<PackText>,
    /// The pairs at or above the cut-off, in the order listed (those
    /// dismissed on review are left out of the pack).
    pub pairs: Vec<PackPair>,
    /// The reference library's matches (none without a library).
    #[cfg_attr(feature = "serde", serde(default))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub library: Vec<PackLibraryMatch>,
    /// What the settings table says.
    pub settings: PackSettings,
    /// Name students "Student 1", … and their files "Student 1, file 1", ….
    pub pseudonyms: bool,
}

/// One text of the class: a student (their files joined) or a source.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct PackText {
    /// Its name as given (a student's folder or file name, `"source: …"`).
    pub name: String,
    /// The text.
    pub text: String,
    /// Ranges left out of every pair (the report's `excluded`), greyed.
    pub excluded: Vec<TextRange>,
    /// The files it was read from, in order.
    pub files: Vec<PackFile>,
    /// What was undone to read it (the report's `obfuscation`: look-alike
    /// letters, invisible characters, hidden runs); listed in the pack with
    /// its warning when any was found. Default: nothing.
    #[cfg_attr(feature = "serde", serde(default))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub obfuscation: crate::Obfuscation,
}

/// An input file: its path as read and the SHA-256 of its bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct PackFile {
    /// The path, with `/`.
    pub path: String,
    /// The SHA-256 of the file's bytes, 64 lower-case hex digits.
    pub sha256: String,
}

/// A pair at or above the cut-off, with its full comparison.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct PackPair {
    /// The first text (a student).
    pub a: u32,
    /// The second text (a student or, with `source`, a source).
    pub b: u32,
    /// `b` is a source: a "shared source" pair.
    pub source: bool,
    /// Share of a's shingles also in b, in [0, 1].
    pub containment_ab: f64,
    /// Share of b's shingles also in a, in [0, 1].
    pub containment_ba: f64,
    /// The learned verdict's grade (`cut`, `light`, `heavy`, `non`; SPEC.md
    /// §11), or `""` when the pair was not compared in full.
    pub verdict: String,
    /// The teacher's review mark: `""` (to review), `"confirmed"`, or
    /// `"dismissed"` (left out of the pack).
    pub review: String,
    /// The shared passages: ranges in a and in b.
    pub passages: Vec<PackPassage>,
    /// 0, or `n ≥ 2` when the pair stands for a group of `n` identical
    /// texts (said in its title).
    #[cfg_attr(feature = "serde", serde(default))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub identical: u32,
}

/// A student's text found in a reference library text: the library's
/// figures, or, when the library keeps the text, its full comparison's
/// (containments, verdict, passages) with the text shown.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct PackLibraryMatch {
    /// The student, by position in the texts.
    pub a: u32,
    /// The library text's name.
    pub name: String,
    /// The share of the student's fingerprints in the library text, in
    /// [0, 1].
    pub containment: f64,
    /// The share of the library text's fingerprints in the student's.
    pub containment_library: f64,
    /// The library text, when the library keeps it and the match was
    /// compared in full; `""` otherwise.
    #[cfg_attr(feature = "serde", serde(default))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub text: String,
    /// Ranges of `text` left out (its quotations and reference list), greyed.
    #[cfg_attr(feature = "serde", serde(default))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub excluded: Vec<TextRange>,
    /// The learned verdict's grade, `""` when not compared in full.
    #[cfg_attr(feature = "serde", serde(default))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub verdict: String,
    /// The shared passages: ranges in the student's text (`a`) and in
    /// `text` (`b`).
    #[cfg_attr(feature = "serde", serde(default))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub passages: Vec<PackPassage>,
}

/// A shared passage's range in each text of a pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct PackPassage {
    /// In the pair's text a.
    pub a: TextRange,
    /// In the pair's text b.
    pub b: TextRange,
}

/// What the settings table says: the class report's options and counts,
/// the cut-off in use and the template's hash.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct PackSettings {
    /// The SHA-256 of the template's text (UTF-8), or `None` without one.
    pub template_sha256: Option<String>,
    /// The cut-off in use (the larger containment), in [0, 1].
    pub cut_off: f64,
    /// The cut-off is the one for the class's size.
    pub adaptive_cut_off: bool,
    /// The report's `stockLimit`.
    pub stock_limit: u32,
    /// The report's `stockPhrases`.
    pub stock_phrases: u32,
    /// Quotations left out, over all texts.
    pub quotations: u32,
    /// Texts whose trailing reference list was left out.
    pub reference_lists: u32,
    /// The class report's options.
    pub options: ClassSetConfig,
}

impl PackSettings {
    /// The settings of a class report: its options and counts, with
    /// `cut_off` the cut-off in use (`adaptive`: the class's own,
    /// [`ClassSetReport::cut_off`]).
    pub fn of(
        report: &ClassSetReport,
        cut_off: f64,
        adaptive: bool,
        template_sha256: Option<String>,
    ) -> PackSettings {
        PackSettings {
            template_sha256,
            cut_off,
            adaptive_cut_off: adaptive,
            stock_limit: report.stock_limit,
            stock_phrases: report.stock_phrases,
            quotations: report.texts.iter().map(|t| t.quotations).sum(),
            reference_lists: report.texts.iter().filter(|t| t.reference_list).count() as u32,
            options: report.options,
        }
    }
}

/// A grade (SPEC.md §11) in plain words, as the page says it: `cut` "near
/// copy", `light` "light revision", `heavy` "heavy revision", `non`
/// "original"; anything else `""`.
pub fn grade_words(grade: &str) -> &'static str {
    match grade {
        "cut" => "near copy",
        "light" => "light revision",
        "heavy" => "heavy revision",
        "non" => "original",
        _ => "",
    }
}

/// A name as shown everywhere (tables, exports, messages): the
/// bidirectional controls that would reorder what follows them (U+061C,
/// U+200E/F, U+202A–E, U+2066–9; Unicode Bidirectional Algorithm, UAX #9)
/// written as `⟨U+202E⟩`, so a file named "essay\u{202E}txt.exe" cannot
/// pass for another. Idempotent.
pub fn shown_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        {
            let _ = write!(out, "⟨U+{:04X}⟩", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// The pseudonym of student `i` (numbered from 0 in the class's order):
/// `"Student {i + 1}"`, as the evidence pack and the CSV name students.
pub fn pseudonym(i: usize) -> String {
    format!("Student {}", i + 1)
}

/// The full comparison of a pair of a class set, as the page runs it: the
/// default [`CompareConfig`] with the class's `fold_diacritics`, each
/// text's exclusions from the report left out (the template's phrases are
/// among them), with the learned verdict
/// when `model` is given. `texts` are the students' then the sources', as
/// given to [`super::class_pairs`].
///
/// Feature `serde` (the verdict's model).
///
/// # Errors
/// [`crate::ErrorKind::InvalidOption`] (`pair`) when the pair's texts are not in
/// `texts` or `report`; otherwise [`crate::compare_with`]'s.
#[cfg(feature = "serde")]
pub fn compare_pair(
    texts: &[&str],
    report: &ClassSetReport,
    a: u32,
    b: u32,
    model: Option<&SvmModel>,
) -> Result<(Report, Option<Verdict>), Error> {
    let (a, b) = (a as usize, b as usize);
    let (Some(ta), Some(tb), Some(xa), Some(xb)) = (
        texts.get(a),
        texts.get(b),
        report.texts.get(a),
        report.texts.get(b),
    ) else {
        return Err(Error::option(
            "pair",
            format!(
                "texts {a} and {b} of {}",
                texts.len().min(report.texts.len())
            ),
        ));
    };
    compare_excluding(report, (ta, &xa.excluded), (tb, &xb.excluded), model)
}

/// [`compare_pair`]'s comparison of two texts, each with the ranges left
/// out of it (UTF-8 bytes): a student's text and a reference library's kept
/// text go through it too.
#[cfg(feature = "serde")]
pub(crate) fn compare_excluding(
    report: &ClassSetReport,
    (ta, xa): (&str, &[TextRange]),
    (tb, xb): (&str, &[TextRange]),
    model: Option<&SvmModel>,
) -> Result<(Report, Option<Verdict>), Error> {
    let exclusions = Exclusions {
        template: "",
        a: xa,
        b: xb,
    };
    let config = CompareConfig::default()
        .fold_diacritics(report.options.fold_diacritics)
        .unmask(report.options.unmask);
    match model {
        Some(m) => m
            .compare(ta, tb, &config, &exclusions)
            .map(|(r, v)| (r, Some(v))),
        None => crate::compare_with(ta, tb, &config, &exclusions).map(|r| (r, None)),
    }
}

#[cfg(feature = "serde")]
impl PackPair {
    /// A listed row of a class run (not a library match) with its review
    /// mark: the row's figures (the full comparison's when it was
    /// compared), verdict and passages.
    pub fn of_row(row: &super::run::ClassRow, review: &str) -> PackPair {
        PackPair {
            a: row.a,
            b: row.b,
            source: row.kind == super::run::RowKind::Source,
            containment_ab: row.containment_ab,
            containment_ba: row.containment_ba,
            verdict: row.verdict.clone(),
            review: review.to_string(),
            passages: row.passages.clone(),
            identical: row.identical,
        }
    }
}

/// The review mark of a pair left out of the pack.
pub const DISMISSED: &str = "dismissed";

const CSS: &str = "body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#1d2330}
.muted{color:#5b6475;font-size:.9rem}
table{border-collapse:collapse}td,th{padding:.15rem .5rem;border-bottom:1px solid #eef0f4;text-align:left;vertical-align:top}
.view{white-space:pre-wrap;overflow-wrap:anywhere;border:1px solid #d9dde5;border-radius:6px;padding:.6rem}
mark{background:#ffe58a;print-color-adjust:exact;-webkit-print-color-adjust:exact}
.excluded{color:#8a8f99;text-decoration:line-through}
.pair{break-before:page;margin-top:2rem}.pair:first-of-type{break-before:auto}
.texts{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
code{font-size:.8rem;word-break:break-all}
@media print{body{max-width:none;margin:0}.view{break-inside:auto}h2{break-after:avoid}.texts{display:block}}";

/// `x` in [0, 1] as a whole percentage, "37%" (half up).
fn pct(x: f64) -> String {
    format!("{}%", (x * 100.0 + 0.5) as i64)
}

/// Appends `s` escaped for HTML text and attribute values.
fn esc(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
}

/// Appends `<tag>text</tag>`, the text escaped.
fn el(out: &mut String, tag: &str, text: &str) {
    let _ = write!(out, "<{tag}>");
    esc(out, text);
    let _ = write!(out, "</{tag}>");
}

/// Appends a table: a head row (when not empty) and rows of cells; a cell
/// given as `(text, true)` is written as `<code>`.
fn table(out: &mut String, head: &[&str], rows: &[Vec<(String, bool)>]) {
    out.push_str("<table>");
    if !head.is_empty() {
        out.push_str("<thead><tr>");
        for h in head {
            el(out, "th", h);
        }
        out.push_str("</tr></thead>");
    }
    out.push_str("<tbody>");
    for row in rows {
        out.push_str("<tr>");
        for (cell, code) in row {
            out.push_str("<td>");
            if *code {
                el(out, "code", cell);
            } else {
                esc(out, cell);
            }
            out.push_str("</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
}

fn plain(cells: &[String]) -> Vec<(String, bool)> {
    cells.iter().map(|c| (c.clone(), false)).collect()
}

/// Checks that every range lies in its text on `char` boundaries.
fn check_ranges(text: &str, ranges: &[TextRange], what: &str) -> Result<(), Error> {
    for r in ranges {
        if r.start > r.end
            || r.end > text.len()
            || !text.is_char_boundary(r.start)
            || !text.is_char_boundary(r.end)
        {
            return Err(Error::option(
                "pack",
                format!(
                    "{what}: range {}..{} is not inside its text of {} bytes on character boundaries",
                    r.start,
                    r.end,
                    text.len()
                ),
            ));
        }
    }
    Ok(())
}

/// Appends `text` with `passages` marked and `excluded` greyed: the text is
/// cut at every range's ends; a piece inside passages becomes one `<mark>`
/// listing them (`data-passages`, ids in order of start), a piece inside
/// exclusions only a greyed `<span class="excluded">`, the rest plain text
/// (the page's highlighting, `www/highlight.js`).
fn highlighted(out: &mut String, text: &str, passages: &[TextRange], excluded: &[TextRange]) {
    let mut cuts: Vec<usize> = Vec::with_capacity(2 * (passages.len() + excluded.len()) + 2);
    cuts.extend([0, text.len()]);
    for r in passages.iter().chain(excluded) {
        cuts.extend([r.start, r.end]);
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut order: Vec<usize> = (0..passages.len()).collect();
    order.sort_by_key(|&i| passages[i].start);
    let mut xs: Vec<TextRange> = excluded.to_vec();
    xs.sort_unstable();
    let (mut next, mut next_x) = (0, 0);
    let mut open: Vec<usize> = Vec::new();
    let mut open_x: Vec<TextRange> = Vec::new();
    for w in cuts.windows(2) {
        let (s, e) = (w[0], w[1]);
        while next < order.len() && passages[order[next]].start <= s {
            open.push(order[next]);
            next += 1;
        }
        open.retain(|&i| passages[i].end > s);
        while next_x < xs.len() && xs[next_x].start <= s {
            open_x.push(xs[next_x]);
            next_x += 1;
        }
        open_x.retain(|r| r.end > s);
        let piece = &text[s..e];
        let ids: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&i| passages[i].end >= e)
            .collect();
        if !ids.is_empty() {
            let list: Vec<String> = ids.iter().map(ToString::to_string).collect();
            let _ = write!(
                out,
                "<mark data-passages=\"{}\" data-passage=\"{}\" data-source=\"0\" class=\"src-0\">",
                list.join(" "),
                ids[0]
            );
            esc(out, piece);
            out.push_str("</mark>");
        } else if open_x.iter().any(|r| r.end >= e) {
            out.push_str("<span class=\"excluded\" title=\"left out of the comparison\">");
            esc(out, piece);
            out.push_str("</span>");
        } else {
            esc(out, piece);
        }
    }
}

impl EvidencePack {
    /// The name of text `i` as the pack shows it.
    fn name(&self, i: usize) -> String {
        if self.pseudonyms && i < self.students as usize {
            pseudonym(i)
        } else {
            shown_name(self.texts.get(i).map_or("", |t| t.name.as_str()))
        }
    }

    /// Checks the pack: `students` within the texts, every pair's texts
    /// present (a a student), every range inside its text on character
    /// boundaries.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] (`pack`) naming what is wrong.
    pub fn check(&self) -> Result<(), Error> {
        let n = self.texts.len();
        if self.students as usize > n {
            return Err(Error::option(
                "pack",
                format!("{} students among {n} texts", self.students),
            ));
        }
        for (i, t) in self.texts.iter().enumerate() {
            check_ranges(&t.text, &t.excluded, &format!("text {i}'s excluded"))?;
        }
        for (k, p) in self.pairs.iter().enumerate() {
            let (a, b) = (p.a as usize, p.b as usize);
            if a >= self.students as usize || b >= n || a == b {
                return Err(Error::option(
                    "pack",
                    format!("pair {k}: texts {a} and {b} (a student's and another text of {n})"),
                ));
            }
            let pa: Vec<TextRange> = p.passages.iter().map(|x| x.a).collect();
            let pb: Vec<TextRange> = p.passages.iter().map(|x| x.b).collect();
            check_ranges(
                &self.texts[a].text,
                &pa,
                &format!("pair {k}'s passages in a"),
            )?;
            check_ranges(
                &self.texts[b].text,
                &pb,
                &format!("pair {k}'s passages in b"),
            )?;
        }
        for (k, m) in self.library.iter().enumerate() {
            if m.a >= self.students {
                return Err(Error::option(
                    "pack",
                    format!("library match {k}: text {} is not a student's", m.a),
                ));
            }
            let pa: Vec<TextRange> = m.passages.iter().map(|x| x.a).collect();
            let pb: Vec<TextRange> = m.passages.iter().map(|x| x.b).collect();
            let what = format!("library match {k}'s");
            check_ranges(
                &self.texts[m.a as usize].text,
                &pa,
                &format!("{what} passages in a"),
            )?;
            check_ranges(&m.text, &pb, &format!("{what} passages in its text"))?;
            check_ranges(&m.text, &m.excluded, &format!("{what} excluded"))?;
        }
        Ok(())
    }

    /// The pairs dismissed on review.
    fn dismissed(&self) -> impl Iterator<Item = &PackPair> {
        self.pairs.iter().filter(|p| p.review == DISMISSED)
    }

    /// The settings table's rows.
    fn settings_rows(&self) -> Vec<[String; 2]> {
        let s = &self.settings;
        let o = &s.options;
        let sources: Vec<String> = (self.students as usize..self.texts.len())
            .map(|i| self.name(i))
            .collect();
        let left_out = |on: bool, n: u32| {
            if on {
                format!("left out ({n})")
            } else {
                "counted".to_string()
            }
        };
        [
            ("Students", self.students.to_string()),
            (
                "Sources (compared one way)",
                if sources.is_empty() {
                    "none".to_string()
                } else {
                    sources.join(", ")
                },
            ),
            (
                "Template",
                s.template_sha256.as_ref().map_or_else(
                    || "none".to_string(),
                    |h| format!("given (SHA-256 of its text {h})"),
                ),
            ),
            (
                "Cut-off (larger containment)",
                format!(
                    "{} %{}",
                    (s.cut_off * 100.0 + 0.5) as i64,
                    if s.adaptive_cut_off {
                        " (for a class of this size)"
                    } else {
                        ""
                    }
                ),
            ),
            (
                "Stock phrases",
                format!(
                    "in more than {} % of the students' texts ({}) and in no source, \
                     outside passages of ten words or more: {}",
                    (o.stock_share * 100.0 + 0.5) as i64,
                    s.stock_limit,
                    s.stock_phrases
                ),
            ),
            (
                "Phrases",
                if o.char_q > 0 {
                    format!(
                        "character {}-grams of the words, winnowed (window {})",
                        o.char_q, o.window
                    )
                } else {
                    format!("{} words", o.word_k)
                },
            ),
            (
                "Accents",
                if o.fold_diacritics {
                    "forgiven (é as e, ä as ae)"
                } else {
                    "as written"
                }
                .to_string(),
            ),
            ("Quotations", left_out(o.ignore_quotes, s.quotations)),
            (
                "Trailing reference lists",
                left_out(o.ignore_references, s.reference_lists),
            ),
            (
                "Pairs dismissed on review",
                format!("{} (left out)", self.dismissed().count()),
            ),
            (
                "Names",
                if self.pseudonyms {
                    "replaced by pseudonyms"
                } else {
                    "as given"
                }
                .to_string(),
            ),
        ]
        .into_iter()
        .map(|(k, v)| [k.to_string(), v])
        .collect()
    }

    /// The evidence pack: a complete HTML document (UTF-8), self-contained,
    /// with no script, link or image.
    ///
    /// # Errors
    /// [`EvidencePack::check`]'s.
    pub fn to_html(&self) -> Result<String, Error> {
        self.check()?;
        let mut out = String::with_capacity(
            4096 + self
                .pairs
                .iter()
                .filter(|p| p.review != DISMISSED)
                .map(|p| {
                    2 * (self.texts[p.a as usize].text.len() + self.texts[p.b as usize].text.len())
                })
                .sum::<usize>(),
        );
        out.push_str("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>neardup evidence pack</title><style>");
        out.push_str(CSS);
        out.push_str("</style></head>\n<body>");
        el(&mut out, "h1", "neardup evidence pack");
        out.push_str("<p class=\"muted\">");
        esc(&mut out, &self.made);
        out.push_str("</p>");
        el(&mut out, "h2", "Settings");
        let rows: Vec<Vec<(String, bool)>> =
            self.settings_rows().iter().map(|r| plain(r)).collect();
        table(&mut out, &["Setting", "Value"], &rows);

        let mut files = Vec::new();
        for (i, t) in self.texts.iter().enumerate() {
            let name = self.name(i);
            for (j, f) in t.files.iter().enumerate() {
                let path = if self.pseudonyms && i < self.students as usize {
                    format!("{name}, file {}", j + 1)
                } else {
                    shown_name(&f.path)
                };
                files.push(vec![
                    (name.clone(), false),
                    (path, false),
                    (f.sha256.clone(), true),
                ]);
            }
        }
        el(&mut out, "h2", &format!("Files ({})", files.len()));
        table(&mut out, &["Student", "File", "SHA-256"], &files);

        // Texts made to look other than they are to a checker, undone
        // before comparing (SPEC.md §1 step 0): named, with their counts.
        let tricked: Vec<Vec<(String, bool)>> = self
            .texts
            .iter()
            .enumerate()
            .filter_map(|(i, t)| {
                let o = &t.obfuscation;
                let warning = o.warning.as_ref()?;
                Some(vec![
                    (self.name(i), false),
                    (o.lookalikes.to_string(), false),
                    (o.invisible.to_string(), false),
                    (o.hidden.to_string(), false),
                    (warning.clone(), false),
                ])
            })
            .collect();
        if !tricked.is_empty() {
            el(
                &mut out,
                "h2",
                &format!("Tricks undone ({})", tricked.len()),
            );
            table(
                &mut out,
                &[
                    "Student",
                    "Look-alike letters",
                    "Invisible characters",
                    "Hidden runs",
                    "What it means",
                ],
                &tricked,
            );
        }

        let verdict = |p: &PackPair| {
            if p.source {
                "shared source"
            } else {
                grade_words(&p.verdict)
            }
        };
        let review = |p: &PackPair| {
            if p.review.is_empty() {
                "to review".to_string()
            } else {
                p.review.clone()
            }
        };
        let kept: Vec<&PackPair> = self
            .pairs
            .iter()
            .filter(|p| p.review != DISMISSED)
            .collect();
        el(
            &mut out,
            "h2",
            &format!("Pairs at or above the cut-off ({})", kept.len()),
        );
        let rows: Vec<Vec<(String, bool)>> = kept
            .iter()
            .map(|p| {
                plain(&[
                    self.name(p.a as usize),
                    self.name(p.b as usize),
                    pct(p.containment_ab),
                    pct(p.containment_ba),
                    verdict(p).to_string(),
                    review(p),
                ])
            })
            .collect();
        table(
            &mut out,
            &[
                "A",
                "B",
                "A’s phrases in B",
                "B’s phrases in A",
                "Verdict",
                "Review",
            ],
            &rows,
        );
        if !self.library.is_empty() {
            el(
                &mut out,
                "h2",
                &format!("Reference library matches ({})", self.library.len()),
            );
            let rows: Vec<Vec<(String, bool)>> = self
                .library
                .iter()
                .map(|m| {
                    plain(&[
                        self.name(m.a as usize),
                        shown_name(&m.name),
                        pct(m.containment),
                        pct(m.containment_library),
                        match (m.text.is_empty(), grade_words(&m.verdict)) {
                            (true, _) => "not compared (the library keeps no text)".to_string(),
                            (false, "") => "compared (no verdict model)".to_string(),
                            (false, v) => v.to_string(),
                        },
                    ])
                })
                .collect();
            table(
                &mut out,
                &[
                    "Student",
                    "Library text",
                    "Student’s phrases in it",
                    "Its phrases in the student’s",
                    "Verdict",
                ],
                &rows,
            );
        }
        for (n, p) in kept.iter().enumerate() {
            let (a, b) = (self.name(p.a as usize), self.name(p.b as usize));
            out.push_str("<section class=\"pair\">");
            let group = match p.identical {
                0 => String::new(),
                k => format!(" (a group of {k} identical texts)"),
            };
            el(
                &mut out,
                "h2",
                &format!("Pair {}: {a} and {b}{group}", n + 1),
            );
            let v = match verdict(p) {
                "" => "not compared",
                v => v,
            };
            el(
                &mut out,
                "p",
                &format!(
                    "{} of {a}’s phrases are in {b}; {} of {b}’s are in {a}. Verdict: {v}. \
                     Review: {}. {} shared passages highlighted; greyed words were left out \
                     (template, stock phrases, quotations, reference lists).",
                    pct(p.containment_ab),
                    pct(p.containment_ba),
                    review(p),
                    p.passages.len()
                ),
            );
            let (ta, tb) = (&self.texts[p.a as usize], &self.texts[p.b as usize]);
            side_by_side(
                &mut out,
                [(&a, &ta.text, &ta.excluded), (&b, &tb.text, &tb.excluded)],
                &p.passages,
            );
        }
        for (n, m) in self.library.iter().enumerate() {
            if m.text.is_empty() {
                continue;
            }
            let (a, b) = (
                self.name(m.a as usize),
                format!("library: {}", shown_name(&m.name)),
            );
            out.push_str("<section class=\"pair\">");
            el(
                &mut out,
                "h2",
                &format!("Library match {}: {a} and {b}", n + 1),
            );
            el(
                &mut out,
                "p",
                &format!(
                    "{} of {a}’s phrases are in {b}; {} of {b}’s are in {a}. Verdict: {}. \
                     {} shared passages highlighted; greyed words were left out.",
                    pct(m.containment),
                    pct(m.containment_library),
                    match grade_words(&m.verdict) {
                        "" => "none",
                        v => v,
                    },
                    m.passages.len()
                ),
            );
            let ta = &self.texts[m.a as usize];
            side_by_side(
                &mut out,
                [(&a, &ta.text, &ta.excluded), (&b, &m.text, &m.excluded)],
                &m.passages,
            );
        }
        out.push_str("</body>\n</html>\n");
        Ok(out)
    }
}

/// Two texts side by side, each under its name, the `passages` highlighted
/// and each text's excluded ranges greyed; closes the pair's `<section>`.
fn side_by_side(
    out: &mut String,
    texts: [(&str, &str, &[TextRange]); 2],
    passages: &[PackPassage],
) {
    out.push_str("<div class=\"texts\">");
    for (k, (name, text, excluded)) in texts.into_iter().enumerate() {
        let ranges: Vec<TextRange> = passages
            .iter()
            .map(|x| if k == 0 { x.a } else { x.b })
            .collect();
        out.push_str("<div>");
        el(out, "h3", name);
        out.push_str("<div class=\"view\">");
        highlighted(out, text, &ranges, excluded);
        out.push_str("</div></div>");
    }
    out.push_str("</div></section>");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(start: usize, end: usize) -> TextRange {
        TextRange { start, end }
    }

    fn pack() -> EvidencePack {
        EvidencePack {
            made: "Made today".into(),
            students: 2,
            texts: vec![
                PackText {
                    name: "ann".into(),
                    text: "one <two> three & four".into(),
                    excluded: vec![r(0, 3)],
                    files: vec![PackFile {
                        path: "class/ann.txt".into(),
                        sha256: "ab".repeat(32),
                    }],
                    obfuscation: crate::Obfuscation::default(),
                },
                PackText {
                    name: "bob\u{202E}txt".into(),
                    text: "x <two> three y".into(),
                    excluded: vec![],
                    files: vec![PackFile {
                        path: "class/bob\u{202E}txt.md".into(),
                        sha256: "cd".repeat(32),
                    }],
                    obfuscation: crate::Obfuscation::default(),
                },
            ],
            pairs: vec![PackPair {
                a: 0,
                b: 1,
                source: false,
                containment_ab: 0.505,
                containment_ba: 1.0,
                verdict: "heavy".into(),
                review: String::new(),
                passages: vec![PackPassage {
                    a: r(4, 15),
                    b: r(2, 13),
                }],
                identical: 0,
            }],
            library: vec![],
            settings: PackSettings {
                cut_off: 0.05,
                adaptive_cut_off: true,
                options: ClassSetConfig::default(),
                ..PackSettings::default()
            },
            pseudonyms: false,
        }
    }

    /// Library matches get a table of their own (issue 48 item 4), names
    /// escaped; one naming a text that is not a student's is refused.
    #[test]
    fn library_matches_are_listed() {
        let mut p = pack();
        assert!(!p.to_html().unwrap().contains("Reference library"));
        p.library.push(PackLibraryMatch {
            a: 1,
            name: "<essay 2019>".into(),
            containment: 0.25,
            containment_library: 0.125,
            ..PackLibraryMatch::default()
        });
        let html = p.to_html().unwrap();
        assert!(html.contains("Reference library matches (1)"), "{html}");
        assert!(
            html.contains(
                "<td>bob⟨U+202E⟩txt</td><td>&lt;essay 2019&gt;</td><td>25%</td><td>13%</td>"
            ),
            "{html}"
        );
        p.library[0].a = 2;
        assert!(p.to_html().is_err());
    }

    #[test]
    fn texts_are_escaped_marked_and_greyed() {
        let html = pack().to_html().unwrap();
        assert!(html.contains(
            "<span class=\"excluded\" title=\"left out of the comparison\">one</span> \
             <mark data-passages=\"0\" data-passage=\"0\" data-source=\"0\" class=\"src-0\">&lt;two&gt; three</mark> &amp; four"
        ));
        assert!(html.contains("<h2>Pair 1: ann and bob⟨U+202E⟩txt</h2>"));
        assert!(!html.contains('\u{202E}'));
        assert!(html.contains("<td>51%</td><td>100%</td><td>heavy revision</td><td>to review</td>"));
        assert!(html.contains(
            "<td>Cut-off (larger containment)</td><td>5 % (for a class of this size)</td>"
        ));
        assert!(!html.contains("<script"));
    }

    /// A text whose tricks were undone is listed with its counts and the
    /// warning; a pack without any has no such table.
    #[test]
    fn tricks_undone_are_listed() {
        assert!(!pack().to_html().unwrap().contains("Tricks undone"));
        let mut p = pack();
        let tricked = crate::text::normalize_with(
            "а сору оf the tеxt",
            crate::Normalization::default().unmasking(true),
        );
        p.texts[1].obfuscation = tricked.obfuscation().clone();
        let html = p.to_html().unwrap();
        assert!(html.contains("Tricks undone (1)"), "{html}");
        assert!(html.contains("look-alike letters of another script"));
        assert!(html.contains("<td>7</td>"), "{html}");
    }

    #[test]
    fn pseudonyms_hide_names_and_paths_not_hashes() {
        let mut p = pack();
        p.pseudonyms = true;
        let html = p.to_html().unwrap();
        assert!(!html.contains("ann") && !html.contains("bob"));
        assert!(html.contains("<td>Student 2</td><td>Student 2, file 1</td><td><code>cdcd"));
    }

    #[test]
    fn dismissed_pairs_are_left_out_and_counted() {
        let mut p = pack();
        let mut other = p.pairs[0].clone();
        other.review = DISMISSED.into();
        other.containment_ab = 0.9;
        p.pairs.push(other);
        let html = p.to_html().unwrap();
        assert_eq!(html.matches("<section class=\"pair\">").count(), 1);
        assert!(!html.contains("<td>90%</td>"));
        assert!(html.contains("<td>Pairs dismissed on review</td><td>1 (left out)</td>"));
        assert!(html.contains("Pairs at or above the cut-off (1)"));
    }

    #[test]
    fn overlapping_passages_list_both() {
        let mut out = String::new();
        highlighted(&mut out, "abcdefgh", &[r(2, 6), r(0, 4)], &[r(5, 8)]);
        assert_eq!(
            out,
            "<mark data-passages=\"1\" data-passage=\"1\" data-source=\"0\" class=\"src-0\">ab</mark>\
             <mark data-passages=\"1 0\" data-passage=\"1\" data-source=\"0\" class=\"src-0\">cd</mark>\
             <mark data-passages=\"0\" data-passage=\"0\" data-source=\"0\" class=\"src-0\">e</mark>\
             <mark data-passages=\"0\" data-passage=\"0\" data-source=\"0\" class=\"src-0\">f</mark>\
             <span class=\"excluded\" title=\"left out of the comparison\">gh</span>"
        );
    }

    #[test]
    fn bad_packs_are_named() {
        let mut p = pack();
        p.pairs[0].passages[0].b = r(2, 99);
        let e = p.to_html().unwrap_err().to_string();
        assert!(e.contains("pair 0's passages in b"), "{e}");
        let mut p = pack();
        p.texts[0].excluded = vec![r(0, 1), r(3, 2)];
        assert!(p.to_html().is_err());
        let mut p = pack();
        p.texts[0].text = "é".into();
        p.texts[0].excluded = vec![r(0, 1)];
        assert!(p
            .to_html()
            .unwrap_err()
            .to_string()
            .contains("character boundaries"));
        let mut p = pack();
        p.pairs[0].a = 1;
        p.pairs[0].b = 1;
        assert!(p.to_html().is_err());
        let mut p = pack();
        p.students = 3;
        assert!(p.to_html().is_err());
    }

    #[test]
    fn shown_name_is_idempotent() {
        let once = shown_name("a\u{2066}b\u{061C}");
        assert_eq!(once, "a⟨U+2066⟩b⟨U+061C⟩");
        assert_eq!(shown_name(&once), once);
    }
}
