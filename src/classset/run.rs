//! A class run: the one composition of a class set that every surface
//! drives (`neardup class`, Python's `neardup.class_set`, the page's class
//! view) — the class report ([`super::class_pairs`]) with the hidden runs
//! the reader left out, the listed pairs (those at or above the cut-off),
//! each listed pair's full comparison ([`super::evidence::compare_pair`]),
//! the reference library's matches, and what is written of it: the CSV
//! ([`ClassRun::to_csv`]), the JSON ([`ClassRun::to_json`]) and the
//! evidence pack ([`ClassRun::evidence_pack`]).
//!
//! **One set of figures per pair.** The class measure (winnowed character
//! grams, [`super::ClassPair`]) finds and ranks the candidates and decides
//! which are listed: a row's `similarity`. Once a listed pair is compared
//! in full, its two containments are the full comparison's (word
//! k-shingles, the pair's exclusions left out: what `neardup compare A B`
//! and `B A` give, and what the page shows when the pair is opened); the
//! table row, the CSV, the JSON and the pack all show those. A library
//! match whose text the library keeps is compared in full the same way
//! (the student's exclusions and the library text's quotations and
//! reference list left out); a match of a library that keeps no text has
//! the library's sampled figures only.
//!
//! Feature `serde` (the verdict's model, the JSON).

use super::evidence::{
    compare_excluding, compare_pair, pseudonym, shown_name, EvidencePack, PackFile, PackPair,
    PackPassage, PackSettings, PackText,
};
use super::library::{Library, LibraryMatch};
use super::{class_pairs, ClassPair, ClassSetConfig, ClassSetReport};
use crate::compare::Report;
use crate::error::Error;
use crate::verdict::{SvmModel, Verdict};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// What a row pairs a student with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub enum RowKind {
    /// Another student: possible collusion.
    Students,
    /// A source given with the class: "shared source", not collusion.
    Source,
    /// A text of the reference library.
    Library,
}

impl RowKind {
    /// `"students"`, `"source"` or `"library"` (the CSV's `kind`).
    pub fn name(self) -> &'static str {
        match self {
            RowKind::Students => "students",
            RowKind::Source => "source",
            RowKind::Library => "library",
        }
    }
}

/// One listed row of a class run: a pair at or above the cut-off, or a
/// library match.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct ClassRow {
    /// What `b` is.
    pub kind: RowKind,
    /// A student, by position in the class's texts.
    pub a: u32,
    /// Another student or a source, by position in the class's texts
    /// (students then sources); a library text by position in the
    /// library's names.
    pub b: u32,
    /// Fingerprints the two share by the class measure (the library's
    /// sampled ones for a library match).
    pub shared: u32,
    /// The class measure's score, the larger of its two containments, in
    /// [0, 1]: what ranks the rows and meets the cut-off.
    pub similarity: f64,
    /// 0, or `n ≥ 2` when the row stands for a group of `n` identical
    /// texts (the report's `groups`; `a` and `b` its first two).
    #[serde(default, skip_serializing_if = "is_zero")]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub identical: u32,
    /// The share of `a` found in `b`, in [0, 1]: the full comparison's
    /// (`compared`), else the class measure's.
    pub containment_ab: f64,
    /// The share of `b` found in `a`, in [0, 1], as `containment_ab`.
    pub containment_ba: f64,
    /// The containments are the full comparison's.
    pub compared: bool,
    /// The learned verdict's grade (`cut`, `light`, `heavy`, `non`; SPEC.md
    /// §11), `""` when not compared or without a model.
    pub verdict: String,
    /// Why the full comparison failed, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub error: Option<String>,
    /// The shared passages the full comparison found: ranges in `a` and
    /// `b`, UTF-8 bytes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub passages: Vec<PackPassage>,
}

impl ClassRow {
    /// A pair of the class report, with the class measure's figures (not
    /// yet compared in full).
    pub fn of_pair(pair: &ClassPair) -> ClassRow {
        ClassRow {
            kind: if pair.source {
                RowKind::Source
            } else {
                RowKind::Students
            },
            a: pair.a,
            b: pair.b,
            shared: pair.shared,
            similarity: pair.score,
            identical: pair.identical,
            containment_ab: pair.containment_ab,
            containment_ba: pair.containment_ba,
            compared: false,
            verdict: String::new(),
            error: None,
            passages: Vec::new(),
        }
    }

    /// A library match, with the library's figures.
    pub fn of_library(m: &LibraryMatch) -> ClassRow {
        ClassRow {
            kind: RowKind::Library,
            a: m.student,
            b: m.text,
            shared: m.shared,
            similarity: m.containment,
            identical: 0,
            containment_ab: m.containment,
            containment_ba: m.containment_library,
            compared: false,
            verdict: String::new(),
            error: None,
            passages: Vec::new(),
        }
    }

    /// Takes the figures of the pair's full comparison (or its failure).
    pub fn set_compared(&mut self, compared: Compared) {
        match compared {
            Ok((report, verdict)) => self.set_figures(
                &Containments {
                    containment: report.measures.containment,
                    containment_b_in_a: report.measures.containment_b_in_a,
                },
                verdict.and_then(|v| v.class).unwrap_or_default(),
                report
                    .passages
                    .iter()
                    .map(|p| PackPassage { a: p.a, b: p.b })
                    .collect(),
            ),
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Takes a full comparison's figures: the containments of its
    /// `measures` (`containment`, a in b; `containment_b_in_a`), the
    /// verdict's grade (`""` without one) and the shared passages.
    pub fn set_figures(
        &mut self,
        measures: &Containments,
        verdict: String,
        passages: Vec<PackPassage>,
    ) {
        self.containment_ab = measures.containment;
        self.containment_ba = measures.containment_b_in_a;
        self.compared = true;
        self.verdict = verdict;
        self.passages = passages;
    }

    /// The CSV's `verdict` cell: `shared source` for a source, the grade
    /// for a pair of students compared with a model, `error` when the
    /// comparison failed, else empty.
    pub fn verdict_cell(&self) -> &str {
        match (self.kind, &self.error) {
            (RowKind::Source, _) => "shared source",
            (_, Some(_)) => "error",
            _ => &self.verdict,
        }
    }
}

/// The names a run's output uses: the students', the sources' (as given,
/// without `source: `) and the library's texts'.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClassNames<'a> {
    /// Each student's name, in the class's order.
    pub students: &'a [String],
    /// Each source's name.
    pub sources: &'a [String],
    /// Each library text's name (empty without a library).
    pub library: &'a [String],
}

impl ClassNames<'_> {
    /// Text `i`'s name as the page shows it (bidirectional controls
    /// escaped): a student's, or `source: ` and the source's.
    pub fn text(&self, i: u32) -> String {
        let i = i as usize;
        match self.students.get(i) {
            Some(n) => shown_name(n),
            None => self
                .sources
                .get(i - self.students.len())
                .map_or_else(String::new, |n| format!("source: {}", shown_name(n))),
        }
    }

    /// Row `b`'s name: a text's, or `library: ` and the library text's.
    pub fn b_of(&self, row: &ClassRow) -> String {
        match row.kind {
            RowKind::Library => self
                .library
                .get(row.b as usize)
                .map_or_else(String::new, |n| format!("library: {}", shown_name(n))),
            _ => self.text(row.b),
        }
    }
}

/// The CSV's header: the page's "Export CSV" and `neardup class --csv`.
pub const CSV_COLUMNS: [&str; 10] = [
    "a",
    "b",
    "kind",
    "containment_ab",
    "containment_ba",
    "similarity",
    "verdict",
    "review",
    "obfuscation_a",
    "obfuscation_b",
];

/// What the CSV is written from: a class run's rows and names, or the
/// page's (which holds the same).
#[derive(Clone, Copy, Debug)]
pub struct CsvTable<'a> {
    /// The rows, in order.
    pub rows: &'a [ClassRow],
    /// Each text's count of what was undone to read it
    /// ([`crate::Obfuscation::undone`]), students then sources.
    pub undone: &'a [u64],
    /// How many texts are students'.
    pub students: u32,
    /// The names.
    pub names: ClassNames<'a>,
    /// Each row's review mark (missing: empty).
    pub reviews: &'a [String],
    /// Students as "Student 1", … by their order.
    pub pseudonyms: bool,
}

/// The rows as CSV ([`CSV_COLUMNS`], `\n` line ends, RFC 4180 quoting by
/// `csv-core`): names as [`ClassNames`] gives them — with `pseudonyms`,
/// students as "Student 1", … by their order — a cell beginning with `=`,
/// `+`, `-`, `@`, a tab or a carriage return written after a `'` (OWASP's
/// rule against formula injection: names come from file names); the
/// verdict as [`ClassRow::verdict_cell`]; each text's count of look-alike
/// letters, invisible characters and hidden runs undone to read it (0 for
/// a library text). The one CSV of `neardup class --csv`, Python's
/// `ClassSet.to_csv()` and the page's "Export CSV".
pub fn class_csv(t: &CsvTable<'_>) -> String {
    let name = |i: u32| {
        if t.pseudonyms && i < t.students {
            pseudonym(i as usize)
        } else {
            formula_safe(t.names.text(i))
        }
    };
    let undone = |i: u32| t.undone.get(i as usize).copied().unwrap_or(0);
    let mut out = Csv::new();
    out.record(&CSV_COLUMNS);
    for (n, row) in t.rows.iter().enumerate() {
        let (b, undone_b) = match row.kind {
            RowKind::Library => (formula_safe(t.names.b_of(row)), 0),
            _ if row.identical > 0 => (
                format!(
                    "{} (group of {} identical texts)",
                    name(row.b),
                    row.identical
                ),
                undone(row.b),
            ),
            _ => (name(row.b), undone(row.b)),
        };
        out.record(&[
            &name(row.a),
            &b,
            row.kind.name(),
            &row.containment_ab.to_string(),
            &row.containment_ba.to_string(),
            &row.similarity.to_string(),
            row.verdict_cell(),
            t.reviews.get(n).map_or("", String::as_str),
            &undone(row.a).to_string(),
            &undone_b.to_string(),
        ]);
    }
    out.finish()
}

/// The two containments of a full comparison, as its report names them
/// ([`crate::compare::Measures`]' `containment` and `containmentBInA`).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Containments {
    /// The share of a's word shingles found in b, in [0, 1].
    pub containment: f64,
    /// The share of b's word shingles found in a, in [0, 1].
    pub containment_b_in_a: f64,
}

/// A pair's full comparison: its report and, with a model, its verdict;
/// or why it failed.
pub type Compared = Result<(Report, Option<Verdict>), Error>;

/// The rows of a class's listed `pairs`, then the library's `matches`,
/// each given its full comparison by `compared` (called with the row and
/// its position among all rows: the pairs', then the matches').
pub fn class_rows(
    pairs: &[ClassPair],
    mut compared: impl FnMut(usize, &mut ClassRow),
    matches: &[LibraryMatch],
) -> Vec<ClassRow> {
    let mut rows: Vec<ClassRow> = pairs.iter().map(ClassRow::of_pair).collect();
    rows.extend(matches.iter().map(ClassRow::of_library));
    for (i, row) in rows.iter_mut().enumerate() {
        compared(i, row);
    }
    rows
}

/// A class run: the report, then its listed rows (module docs).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClassRun {
    /// The class report, hidden runs counted.
    pub report: ClassSetReport,
    /// The pairs at or above the cut-off in the report's order (highest
    /// class score first), then the library's matches (highest containment
    /// first).
    pub rows: Vec<ClassRow>,
    /// How many of the report's texts are students'.
    pub students: u32,
}

impl ClassRun {
    /// Runs the class measure over `students` then `sources` (a template's
    /// phrases counting for no pair) and lists the pairs at or above the
    /// cut-off; `hidden` gives the hidden runs the reader left out of each
    /// text (students then sources; missing counts are 0). The pairs are
    /// not yet compared in full: [`ClassRun::compare`].
    ///
    /// # Errors
    /// [`class_pairs`]'s: a bad option, a text over `max_bytes`, fewer than
    /// two texts or no student.
    pub fn new(
        students: &[&str],
        sources: &[&str],
        template: &str,
        hidden: &[u64],
        config: &ClassSetConfig,
    ) -> Result<ClassRun, Error> {
        let mut report = class_pairs(students, sources, template, config)?;
        report.add_hidden(hidden);
        let rows = report
            .pairs
            .iter()
            .filter(|p| p.score >= report.cut_off)
            .map(ClassRow::of_pair)
            .collect();
        Ok(ClassRun {
            report,
            rows,
            students: students.len() as u32,
        })
    }

    /// Compares every listed pair in full (with the learned verdict when
    /// `model` is given): `texts` are the students' then the sources', as
    /// given to [`ClassRun::new`]. A library match whose text `library`
    /// keeps ([`Library::keep_texts`]) is compared in full too: the
    /// student's exclusions and the library text's own (its quotations and
    /// reference list, by the class's options) left out. On every core with
    /// feature `parallel`. A pair that cannot be compared keeps the class
    /// measure's (or the library's) figures and says why in
    /// [`ClassRow::error`].
    pub fn compare(&mut self, texts: &[&str], library: Option<&Library>, model: Option<&SvmModel>) {
        let report = &self.report;
        let one = |row: &mut ClassRow| {
            if row.compared {
                return;
            }
            if row.kind != RowKind::Library {
                row.set_compared(compare_pair(texts, report, row.a, row.b, model));
                return;
            }
            let (Some(student), Some(found), Some((t, own))) = (
                texts.get(row.a as usize),
                report.texts.get(row.a as usize),
                library.and_then(|l| l.kept(row.b as usize, &report.options)),
            ) else {
                return;
            };
            row.set_compared(compare_excluding(
                report,
                (student, &found.excluded),
                (t, &own),
                model,
            ));
        };
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            self.rows.par_iter_mut().for_each(one);
        }
        #[cfg(not(feature = "parallel"))]
        self.rows.iter_mut().for_each(one);
    }

    /// Appends the reference library's matches (from
    /// [`super::library::Library::check`] of the students' texts) as rows of
    /// kind `library`.
    pub fn add_library(&mut self, matches: &[LibraryMatch]) {
        self.rows.extend(matches.iter().map(ClassRow::of_library));
    }

    /// The rows as CSV: [`class_csv`] of the run's rows, each text's
    /// obfuscation counted from the report.
    pub fn to_csv(&self, names: &ClassNames<'_>, reviews: &[String], pseudonyms: bool) -> String {
        let undone: Vec<u64> = self
            .report
            .texts
            .iter()
            .map(|t| t.obfuscation.undone())
            .collect();
        class_csv(&CsvTable {
            rows: &self.rows,
            undone: &undone,
            students: self.students,
            names: *names,
            reviews,
            pseudonyms,
        })
    }

    /// The run as one JSON object: `studentNames`, `sourceNames`, the
    /// report's fields (texts with counts and excluded byte ranges, pairs,
    /// cutOff, each student's strongest match, shared passages, options),
    /// `rows` (the listed rows with their figures, verdicts and passages)
    /// and, with a library, `libraryNames`.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] if serialisation fails (a
    /// non-finite figure).
    pub fn to_json(&self, names: &ClassNames<'_>) -> Result<String, Error> {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            #[serde(rename = "studentNames")]
            students: &'a [String],
            #[serde(rename = "sourceNames")]
            sources: &'a [String],
            #[serde(flatten)]
            report: &'a ClassSetReport,
            rows: &'a [ClassRow],
            #[serde(rename = "libraryNames", skip_serializing_if = "<[String]>::is_empty")]
            library: &'a [String],
        }
        serde_json::to_string(&Out {
            students: names.students,
            sources: names.sources,
            report: &self.report,
            rows: &self.rows,
            library: names.library,
        })
        .map_err(|e| Error::option("json", e.to_string()))
    }

    /// The evidence pack of the run: `texts` the students' then the
    /// sources' (as given to [`ClassRun::new`]), `files` each text's files
    /// (path, SHA-256), `made` the line under the title, `template_sha256`
    /// the template's hash (none without one), `reviews` each row's review
    /// mark (dismissed pairs are left out of the pack). The pairs carry the
    /// rows' figures; library matches are listed with the library's.
    pub fn evidence_pack(&self, pack: PackInput<'_>) -> EvidencePack {
        let texts = pack
            .texts
            .iter()
            .enumerate()
            .map(|(i, text)| PackText {
                name: pack.names.text(i as u32),
                text: (*text).to_string(),
                excluded: self.report.texts[i].excluded.clone(),
                obfuscation: self.report.texts[i].obfuscation.clone(),
                files: pack.files.get(i).cloned().unwrap_or_default(),
            })
            .collect();
        let mut out = EvidencePack {
            made: pack.made.to_string(),
            students: self.students,
            texts,
            pairs: Vec::new(),
            library: Vec::new(),
            settings: PackSettings::of(
                &self.report,
                self.report.cut_off,
                self.report.options.adaptive_cut_off,
                pack.template_sha256,
            ),
            pseudonyms: pack.pseudonyms,
        };
        out.add_rows(
            &self.rows,
            pack.reviews,
            pack.names.library,
            pack.library_texts,
        );
        out
    }
}

#[cfg(feature = "read")]
impl ClassRun {
    /// A class run of texts read from files ([`crate::read::ClassTexts`]:
    /// the students', then the sources'), the hidden runs the reader left
    /// out of each counted, and with a reference `library` its matches of
    /// the students' texts at the class's cut-off as rows: what `neardup
    /// class` and Python's `class_set` run. Not yet compared in full:
    /// [`ClassRun::compare`] with [`ClassRun::texts_of`].
    ///
    /// # Errors
    /// [`ClassRun::new`]'s; [`super::library::Library::check`]'s.
    pub fn of_files(
        students: &crate::read::ClassTexts,
        sources: &crate::read::ClassTexts,
        template: &str,
        config: &ClassSetConfig,
        library: Option<&super::library::Library>,
    ) -> Result<ClassRun, Error> {
        let s: Vec<&str> = students.texts.iter().map(String::as_str).collect();
        let r: Vec<&str> = sources.texts.iter().map(String::as_str).collect();
        let hidden: Vec<u64> = students
            .hidden_runs
            .iter()
            .chain(&sources.hidden_runs)
            .copied()
            .collect();
        let mut run = ClassRun::new(&s, &r, template, &hidden, config)?;
        if let Some(lib) = library {
            run.add_library(&lib.check(&s, run.report.cut_off)?);
        }
        Ok(run)
    }

    /// The texts of a run of files, students then sources, as
    /// [`ClassRun::compare`] takes them.
    pub fn texts_of<'a>(
        students: &'a crate::read::ClassTexts,
        sources: &'a crate::read::ClassTexts,
    ) -> Vec<&'a str> {
        students
            .texts
            .iter()
            .chain(&sources.texts)
            .map(String::as_str)
            .collect()
    }
}

impl EvidencePack {
    /// Adds a class run's rows: its pairs (with their figures, verdicts,
    /// passages and each row's review mark) and its library matches (named
    /// from `library`; a match compared in full shows its text from
    /// `library_texts`, by the library's positions, with its verdict and
    /// passages).
    pub fn add_rows(
        &mut self,
        rows: &[ClassRow],
        reviews: &[String],
        library: &[String],
        library_texts: &[Option<String>],
    ) {
        for (n, r) in rows.iter().enumerate() {
            match r.kind {
                RowKind::Library => {
                    let kept = library_texts
                        .get(r.b as usize)
                        .and_then(Option::as_deref)
                        .filter(|_| r.compared);
                    let (text, excluded, passages) = match kept {
                        Some(t) => (
                            t.to_string(),
                            super::own_exclusions(t, &self.settings.options),
                            r.passages.clone(),
                        ),
                        None => Default::default(),
                    };
                    self.library.push(super::evidence::PackLibraryMatch {
                        a: r.a,
                        name: library.get(r.b as usize).cloned().unwrap_or_default(),
                        containment: r.containment_ab,
                        containment_library: r.containment_ba,
                        text,
                        excluded,
                        verdict: r.verdict.clone(),
                        passages,
                    })
                }
                _ => self.pairs.push(PackPair::of_row(
                    r,
                    reviews.get(n).map_or("", String::as_str),
                )),
            }
        }
    }
}

/// What [`ClassRun::evidence_pack`] needs besides the run.
#[derive(Clone, Debug, Default)]
pub struct PackInput<'a> {
    /// The students' texts, then the sources'.
    pub texts: &'a [&'a str],
    /// The names.
    pub names: ClassNames<'a>,
    /// Each text's files, as `texts`.
    pub files: &'a [Vec<PackFile>],
    /// The line under the title: when and where the pack was made.
    pub made: &'a str,
    /// The SHA-256 of the template's text, or `None` without one.
    pub template_sha256: Option<String>,
    /// Each row's review mark (missing: none).
    pub reviews: &'a [String],
    /// Students as "Student 1", ….
    pub pseudonyms: bool,
    /// The library's kept texts ([`Library::texts`]; empty: none), which
    /// the pack shows beside the students' for matches compared in full.
    pub library_texts: &'a [Option<String>],
}

/// A cell that a spreadsheet would read as a formula — one beginning with
/// `=`, `+`, `-`, `@`, a tab or a carriage return — written after a `'`.
fn formula_safe(cell: String) -> String {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{cell}")
    } else {
        cell
    }
}

/// CSV records written by `csv-core` (quoting as RFC 4180 needs it).
struct Csv {
    writer: csv_core::Writer,
    out: Vec<u8>,
}

impl Csv {
    fn new() -> Csv {
        Csv {
            writer: csv_core::WriterBuilder::new()
                .terminator(csv_core::Terminator::Any(b'\n'))
                .build(),
            out: Vec::new(),
        }
    }

    /// Runs one `csv-core` step into a growing buffer until it is done.
    fn step(&mut self, mut f: impl FnMut(&mut csv_core::Writer, &mut [u8]) -> (bool, usize)) {
        let mut buf = [0u8; 256];
        loop {
            let (done, n) = f(&mut self.writer, &mut buf);
            self.out.extend_from_slice(&buf[..n]);
            if done {
                return;
            }
        }
    }

    fn record(&mut self, fields: &[&str]) {
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                self.step(|w, buf| {
                    let (r, n) = w.delimiter(buf);
                    (r == csv_core::WriteResult::InputEmpty, n)
                });
            }
            let mut input = field.as_bytes();
            self.step(|w, buf| {
                let (r, nin, nout) = w.field(input, buf);
                input = &input[nin..];
                (r == csv_core::WriteResult::InputEmpty, nout)
            });
        }
        self.step(|w, buf| {
            let (r, n) = w.terminator(buf);
            (r == csv_core::WriteResult::InputEmpty, n)
        });
    }

    fn finish(mut self) -> String {
        self.step(|w, buf| {
            let (r, n) = w.finish(buf);
            (r == csv_core::WriteResult::InputEmpty, n)
        });
        // Every field was UTF-8 and csv-core only adds ASCII.
        String::from_utf8(self.out).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run() -> (ClassRun, Vec<String>) {
        let copied = "the quick brown fox jumps over the lazy dog while the cat sleeps \
                      on the warm mat near the old kitchen door every single afternoon";
        let other = "a completely different answer about rivers and mountains that \
                     shares nothing at all with the others in this small class";
        let texts = [copied, copied, other];
        let run = ClassRun::new(&texts, &[], "", &[0, 2, 0], &ClassSetConfig::default()).unwrap();
        let names = [
            "=ann".to_string(),
            "bob, \"b\"".to_string(),
            "cy".to_string(),
        ];
        (run, names.to_vec())
    }

    /// RFC 4180 quoting, a formula-like name after a `'`, the hidden runs
    /// counted, the kind named; before the full comparison the class
    /// measure's figures.
    #[test]
    fn csv_quotes_names_and_says_the_kind() {
        let (run, names) = run();
        assert_eq!(run.rows.len(), 1);
        let csv = run.to_csv(
            &ClassNames {
                students: &names,
                ..ClassNames::default()
            },
            &["confirmed".to_string()],
            false,
        );
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "a,b,kind,containment_ab,containment_ba,similarity,verdict,review,obfuscation_a,obfuscation_b"
        );
        assert_eq!(
            lines[1],
            "'=ann,\"bob, \"\"b\"\" (group of 2 identical texts)\",students,1,1,1,,confirmed,0,2"
        );
        assert!(csv.ends_with('\n') && lines.len() == 2);
        let pseudo = run.to_csv(
            &ClassNames {
                students: &names,
                ..ClassNames::default()
            },
            &[],
            true,
        );
        assert!(
            pseudo.contains("\nStudent 1,Student 2 (group of 2 identical texts),students,"),
            "{pseudo}"
        );
    }

    /// After the full comparison the row carries its figures (word
    /// shingles: here every shingle of the one text is in the other) and
    /// its passages; a library match follows as a row of its own.
    #[test]
    fn compared_rows_and_library_rows() {
        let (mut run, names) = run();
        let copied = "the quick brown fox jumps over the lazy dog while the cat sleeps \
                      on the warm mat near the old kitchen door every single afternoon";
        run.compare(&[copied, copied, "x"], None, None);
        let row = &run.rows[0];
        assert!(row.compared && row.error.is_none());
        assert_eq!((row.containment_ab, row.containment_ba), (1.0, 1.0));
        assert_eq!(row.passages.len(), 1);
        run.add_library(&[LibraryMatch {
            student: 2,
            text: 0,
            shared: 3,
            containment: 0.5,
            containment_library: 0.25,
        }]);
        let library = ["+essay".to_string()];
        let names = ClassNames {
            students: &names,
            sources: &[],
            library: &library,
        };
        let csv = run.to_csv(&names, &[], false);
        assert!(
            csv.ends_with("\ncy,library: +essay,library,0.5,0.25,0.5,,,0,0\n"),
            "{csv}"
        );
        let json: serde_json::Value = serde_json::from_str(&run.to_json(&names).unwrap()).unwrap();
        assert_eq!(json["rows"][1]["kind"], "library");
        assert_eq!(json["libraryNames"][0], "+essay");
    }

    fn words(seed: u64, n: usize) -> String {
        let mut rng = crate::hash::SplitMix64::new(seed);
        let w: Vec<String> = (0..n).map(|_| format!("w{}", rng.next() % 3000)).collect();
        w.join(" ")
    }

    /// A library that keeps its texts: the match is compared in full as
    /// `compare` compares the two texts (the same containments), with its
    /// passages, and the evidence pack shows the library text beside the
    /// student's; the same library without texts keeps the library's
    /// figures and says it was not compared.
    #[test]
    fn a_library_match_with_a_kept_text_is_compared_in_full() {
        let kept_text = words(7, 300);
        let half: Vec<&str> = kept_text.split(' ').take(150).collect();
        let student = format!("{} {}", half.join(" "), words(8, 150));
        let others = [words(9, 300), words(10, 300)];
        let students = [student.as_str(), others[0].as_str(), others[1].as_str()];
        let config = ClassSetConfig::default();
        let mut with = Library::new(&config).unwrap();
        with.keep_texts(true);
        with.add(&[("past/essay", &kept_text), ("past/other", &words(11, 300))])
            .unwrap();
        let mut without = Library::new(&config).unwrap();
        without
            .add(&[("past/essay", &kept_text), ("past/other", &words(11, 300))])
            .unwrap();
        let expected = crate::compare(&student, &kept_text, &Default::default()).unwrap();
        for (lib, kept) in [(&with, true), (&without, false)] {
            let mut run = ClassRun::new(&students, &[], "", &[], &config).unwrap();
            run.add_library(&lib.check(&students, run.report.cut_off).unwrap());
            run.compare(&students, Some(lib), None);
            let rows: Vec<&ClassRow> = run
                .rows
                .iter()
                .filter(|r| r.kind == RowKind::Library)
                .collect();
            assert_eq!(rows.len(), 1, "{:?}", run.rows);
            let row = rows[0];
            assert_eq!((row.a, row.b), (0, 0));
            assert_eq!(row.compared, kept);
            let names = ["s0".to_string(), "s1".to_string(), "s2".to_string()];
            let lib_names = lib.names().to_vec();
            let pack = run.evidence_pack(PackInput {
                texts: &students,
                names: ClassNames {
                    students: &names,
                    sources: &[],
                    library: &lib_names,
                },
                library_texts: lib.texts(),
                ..PackInput::default()
            });
            pack.check().unwrap();
            let html = pack.to_html().unwrap();
            if kept {
                let m = &expected.measures;
                assert!((row.containment_ab - m.containment).abs() < 1e-12);
                assert!((row.containment_ba - m.containment_b_in_a).abs() < 1e-12);
                assert!((0.4..0.6).contains(&row.containment_ab), "{row:?}");
                assert_eq!(row.passages.len(), expected.passages.len());
                assert!(!row.passages.is_empty());
                assert!(html.contains("Library match 1: s0 and library: past/essay"));
                assert_eq!(pack.library[0].text, kept_text);
            } else {
                assert!(row.passages.is_empty());
                assert!(html.contains("not compared (the library keeps no text)"));
                assert!(!html.contains("Library match 1:"));
            }
        }
    }
}
