//! `neardup class`: the pairs of a class set that share passages (the
//! core's `classset::class_pairs`, what the page's class view runs), with
//! sources, a template, and quotations and reference lists left out.

use crate::files::Texts;
use crate::input::{max_bytes, read_text, write_atomic};
use anyhow::Result;
use clap::Args;
use neardup::classset::evidence::{
    compare_pair, pseudonym, shown_name, EvidencePack, PackPair, PackSettings, PackText,
};
use neardup::classset::library::LibraryMatch;
use neardup::classset::{class_pairs, ClassPair, ClassSetConfig, ClassSetReport};
use neardup::compare::Report;
use neardup::verdict::Verdict;
use rayon::prelude::*;
use serde::Serialize;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct ClassArgs {
    /// The students' texts: files (each a student, named by its file name
    /// without the extension), or folders whose files are read at any
    /// depth by the core's reader, as the page reads them (the format told
    /// by the bytes: `.txt`, `.md`, `.html`, `.docx`, `.odt`, `.zip`
    /// archives of them; hidden text left out and counted; any other file,
    /// and `.pdf`, which the page reads, named as skipped), a sub-folder per
    /// student (its files joined, said on standard error; see
    /// `--each-file`).
    #[arg(required = true, value_name = "PATH")]
    students: Vec<PathBuf>,
    /// A source (a file or a folder, read as the students' are): a
    /// reference text or an earlier year's answer. A passage found in a source pairs the student
    /// with the source, not with other students. Repeatable.
    #[arg(long = "source", value_name = "PATH")]
    sources: Vec<PathBuf>,
    /// A reference library (`neardup library build`): every student's text
    /// is also checked one way against each of its texts (listed with kind
    /// `library`).
    #[arg(long, value_name = "FILE")]
    library: Option<PathBuf>,
    /// The assignment's template or prompt (a file): its phrases count for
    /// no pair.
    #[arg(long, value_name = "FILE")]
    template: Option<PathBuf>,
    /// Words per shingle (1..=32), when --char-q is 0.
    #[arg(long, default_value_t = ClassSetConfig::default().word_k)]
    word_k: u32,
    /// Characters per shingle (1..=32): character q-grams of the
    /// normalised words instead of word shingles; 0 for word shingles.
    #[arg(long, default_value_t = ClassSetConfig::default().char_q)]
    char_q: u32,
    /// Hash seed.
    #[arg(long, default_value_t = ClassSetConfig::default().seed)]
    seed: u64,
    /// A shingle in more than this share of the students' texts (and in at
    /// least 5 of them) is a stock phrase of the class, in (0, 1], unless
    /// it lies in a passage of 10 words or more that other texts share.
    #[arg(long, default_value_t = ClassSetConfig::default().stock_share)]
    stock_share: f64,
    /// A pair is listed when the larger of its containments reaches this,
    /// in [0, 1] — or the cut-off for the class's size, when higher (0.05
    /// up to 20 texts, +0.15 per tenfold more, at most 0.5).
    #[arg(long, default_value_t = ClassSetConfig::default().min_containment)]
    min_containment: f64,
    /// The cut-off is --min-containment whatever the class's size.
    #[arg(long)]
    fixed_cut_off: bool,
    /// A pair is listed only when it shares at least this many shingles
    /// (1..=1000).
    #[arg(long, default_value_t = ClassSetConfig::default().min_shared)]
    min_shared: u32,
    /// Count quotations ("…", “…”, «…») as every other passage (by default
    /// they are left out: quoting with attribution is not copying).
    #[arg(long)]
    keep_quotes: bool,
    /// Count a trailing reference list as every other passage (by default
    /// it is left out).
    #[arg(long)]
    keep_references: bool,
    /// Fold diacritics (é as e, ñ as n, ä/ö/ü as ae/oe/ue; SPEC.md §1), so
    /// a text typed without accents, or German with ae/oe/ue, matches.
    #[arg(long)]
    fold_diacritics: bool,
    /// Keep invisible characters and look-alike letters of other scripts
    /// as they are (by default they are undone: zero-width spaces, soft
    /// hyphens and joiners removed, Cyrillic а for Latin a read as a;
    /// SPEC.md §1 step 0).
    #[arg(long)]
    no_unmask: bool,
    /// Print the core's whole report as JSON: `studentNames`,
    /// `sourceNames`, then the report (texts with counts and excluded byte
    /// ranges, pairs, cutOff, each student's strongest match, shared
    /// passages), and with --library, `library` (`names`, `matches`).
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print the pairs at or above the cut-off as CSV with the page's
    /// header (`a,b,containment_ab,containment_ba,similarity,verdict,review,
    /// obfuscation_a,obfuscation_b`; the verdict the learned model's grade
    /// after each pair's full comparison, `shared source` for a source;
    /// review empty; each text's count of look-alike letters, invisible
    /// characters and hidden runs undone to read it), a cell
    /// beginning with =, +, -, @ written after a '.
    #[arg(long)]
    csv: bool,
    /// Write the evidence pack to this file (atomically): one
    /// self-contained HTML file with every setting, every file's SHA-256
    /// and each pair at or above the cut-off with both texts, shared
    /// passages highlighted — the page's "Evidence pack", by the same
    /// builder.
    #[arg(long, value_name = "FILE")]
    evidence: Option<PathBuf>,
    /// In the CSV and the evidence pack, name students "Student 1",
    /// "Student 2", … (by their order in the class) and their files
    /// "Student 1, file 1", … (only the hashes identify the files).
    #[arg(long)]
    pseudonyms: bool,
    /// Make every file a student of its own, named by its path inside the
    /// folder given without the extension (`period1/anna`), instead of
    /// joining the files of one sub-folder into one student's (a folder
    /// of class sections, each a sub-folder of students' files).
    #[arg(long)]
    each_file: bool,
}

/// The JSON written with `--json`: the texts' names, then the core's report
/// and, with `--library`, the library's matches.
#[derive(Serialize)]
struct ClassOut<'a> {
    #[serde(rename = "studentNames")]
    students: &'a [String],
    #[serde(rename = "sourceNames")]
    sources: &'a [String],
    #[serde(flatten)]
    report: &'a ClassSetReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    library: Option<LibraryOut<'a>>,
}

/// A library check: its texts' names, and each student's matches.
#[derive(Serialize)]
struct LibraryOut<'a> {
    names: &'a [String],
    matches: &'a [LibraryMatch],
}

/// The CSV's header, the page's ("Export CSV").
const CSV_COLUMNS: [&str; 9] = [
    "a",
    "b",
    "containment_ab",
    "containment_ba",
    "similarity",
    "verdict",
    "review",
    "obfuscation_a",
    "obfuscation_b",
];

/// A text's CSV count of what was undone to read it: look-alike letters,
/// invisible characters and hidden runs together (SPEC.md §1 step 0).
fn obfuscation_count(t: &neardup::classset::ClassText) -> u64 {
    let o = &t.obfuscation;
    o.lookalikes + o.invisible + o.hidden
}

/// A CSV cell of a name: one that begins with =, +, -, @, a tab or a
/// carriage return is written after a ' (OWASP's rule against formula
/// injection, as the page's CSV).
fn csv_cell(name: &str) -> String {
    if name.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{name}")
    } else {
        name.to_string()
    }
}

/// Text `i`'s name as the page shows it: a student's, or `source: ` and
/// the source's, bidirectional controls escaped.
fn name_of(students: &Texts, sources: &Texts, i: u32) -> String {
    let i = i as usize;
    match students.names.get(i) {
        Some(n) => shown_name(n),
        None => sources
            .names
            .get(i - students.names.len())
            .map_or_else(String::new, |n| format!("source: {}", shown_name(n))),
    }
}

/// `time` as `YYYY-MM-DD HH:MM` in UTC (the evidence pack's date, as the
/// page writes it).
fn utc_minute(time: std::time::SystemTime) -> String {
    let rfc3339 = humantime::format_rfc3339_seconds(time).to_string();
    rfc3339.get(..16).unwrap_or(&rfc3339).replace('T', " ")
}

pub fn run(args: ClassArgs) -> Result<ExitCode> {
    let config = ClassSetConfig::default()
        .word_k(args.word_k)
        .char_q(args.char_q)
        .seed(args.seed)
        .stock_share(args.stock_share)
        .min_containment(args.min_containment)
        .adaptive_cut_off(!args.fixed_cut_off)
        .min_shared(args.min_shared)
        .ignore_quotes(!args.keep_quotes)
        .ignore_references(!args.keep_references)
        .fold_diacritics(args.fold_diacritics)
        .unmask(!args.no_unmask)
        .max_bytes(max_bytes() as u64);
    config.check().map_err(crate::core)?;
    let template = match &args.template {
        Some(t) => read_text(t)?,
        None => String::new(),
    };
    let mut students = Texts::new(args.each_file);
    for p in &args.students {
        students.read(p)?;
    }
    let mut sources = Texts::new(args.each_file);
    for p in &args.sources {
        sources.read(p)?;
    }
    let s: Vec<&str> = students.texts.iter().map(String::as_str).collect();
    let r: Vec<&str> = sources.texts.iter().map(String::as_str).collect();
    let mut report = class_pairs(&s, &r, &template, &config).map_err(|e| {
        if s.len() + r.len() < 2 || s.is_empty() {
            crate::usage(format!(
                "give at least two texts, one of them a student's ({} students and {} sources read)",
                s.len(),
                r.len()
            ))
        } else {
            crate::core(e)
        }
    })?;
    // Hidden text the reader left out counts with the tricks undone.
    let hidden: Vec<u64> = students
        .hidden_runs
        .iter()
        .chain(&sources.hidden_runs)
        .copied()
        .collect();
    report.add_hidden(&hidden);
    let library = match &args.library {
        Some(path) => {
            let lib = crate::library::load(path)?;
            let matches = lib.check(&s, report.cut_off).map_err(crate::core)?;
            Some((lib, matches))
        }
        None => None,
    };
    let all: Vec<&str> = s.iter().chain(r.iter()).copied().collect();
    let listed: Vec<&ClassPair> = report
        .pairs
        .iter()
        .filter(|p| p.score >= report.cut_off)
        .collect();
    // The full comparison of each pair listed, as the page runs it, for the
    // verdicts of the CSV and the evidence pack.
    let compared: Vec<Option<(Report, Option<Verdict>)>> = if args.csv || args.evidence.is_some() {
        let model = crate::compare::load_model(None)?;
        listed
            .par_iter()
            .map(|p| match compare_pair(&all, &report, p, Some(&model)) {
                Ok(c) => Some(c),
                Err(e) => {
                    eprintln!(
                        "neardup: the pair {} and {} could not be compared in full: {e}",
                        name_of(&students, &sources, p.a),
                        name_of(&students, &sources, p.b)
                    );
                    None
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    if let Some(path) = &args.evidence {
        let texts = all
            .iter()
            .enumerate()
            .map(|(i, text)| PackText {
                name: name_of(&students, &sources, i as u32),
                text: (*text).to_string(),
                excluded: report.texts[i].excluded.clone(),
                obfuscation: report.texts[i].obfuscation.clone(),
                files: students
                    .files
                    .iter()
                    .chain(&sources.files)
                    .nth(i)
                    .cloned()
                    .unwrap_or_default(),
            })
            .collect();
        let pack = EvidencePack {
            made: format!(
                "Made {} UTC by neardup class; nothing was uploaded.",
                utc_minute(std::time::SystemTime::now())
            ),
            students: s.len() as u32,
            texts,
            pairs: listed
                .iter()
                .zip(&compared)
                .map(|(p, c)| PackPair::of(p, c.as_ref(), ""))
                .collect(),
            settings: PackSettings::of(
                &report,
                report.cut_off,
                config.adaptive_cut_off,
                (!template.trim().is_empty())
                    .then(|| neardup::read::sha256_hex(template.as_bytes())),
            ),
            pseudonyms: args.pseudonyms,
        };
        let html = pack.to_html().map_err(crate::core)?;
        write_atomic(path, |w| w.write_all(html.as_bytes()))?;
    }
    let mut out = BufWriter::new(io::stdout().lock());
    if args.json {
        serde_json::to_writer(
            &mut out,
            &ClassOut {
                students: &students.names,
                sources: &sources.names,
                report: &report,
                library: library.as_ref().map(|(lib, matches)| LibraryOut {
                    names: lib.names(),
                    matches,
                }),
            },
        )?;
        writeln!(out)?;
    } else if args.csv {
        let mut w = csv::WriterBuilder::new()
            .terminator(csv::Terminator::Any(b'\n'))
            .from_writer(&mut out);
        w.write_record(CSV_COLUMNS)?;
        for (p, c) in listed.iter().zip(&compared) {
            let verdict = if p.source {
                "shared source".to_string()
            } else {
                match c {
                    Some((_, Some(v))) => v.class.clone().unwrap_or_default(),
                    Some((_, None)) => String::new(),
                    None => "error".to_string(),
                }
            };
            let name = |i: u32| {
                if args.pseudonyms && (i as usize) < students.names.len() {
                    pseudonym(i as usize)
                } else {
                    csv_cell(&name_of(&students, &sources, i))
                }
            };
            w.write_record([
                name(p.a),
                name(p.b),
                p.containment_ab.to_string(),
                p.containment_ba.to_string(),
                p.score.to_string(),
                verdict,
                String::new(),
                obfuscation_count(&report.texts[p.a as usize]).to_string(),
                obfuscation_count(&report.texts[p.b as usize]).to_string(),
            ])?;
        }
        w.flush()?;
    } else {
        let name = |i: u32| {
            let i = i as usize;
            students
                .names
                .get(i)
                .or_else(|| sources.names.get(i - students.names.len()))
                .map_or("", String::as_str)
        };
        writeln!(
            out,
            "score\tshared\tcontainment_ab\tcontainment_ba\tresemblance\tkind\ta\tb"
        )?;
        for p in &listed {
            writeln!(
                out,
                "{:.4}\t{}\t{:.4}\t{:.4}\t{:.4}\t{}\t{}\t{}",
                p.score,
                p.shared,
                p.containment_ab,
                p.containment_ba,
                p.resemblance,
                if p.source { "source" } else { "students" },
                name(p.a),
                name(p.b)
            )?;
        }
        if let Some((lib, matches)) = &library {
            for m in matches {
                writeln!(
                    out,
                    "{:.4}\t{}\t{:.4}\t{:.4}\t\tlibrary\t{}\t{}",
                    m.containment,
                    m.shared,
                    m.containment,
                    m.containment_library,
                    name(m.student),
                    lib.names()[m.text as usize]
                )?;
            }
        }
    }
    out.flush()?;
    let quotations: u32 = report.texts.iter().map(|t| t.quotations).sum();
    let references = report.texts.iter().filter(|t| t.reference_list).count();
    let listed = listed.len();
    eprintln!(
        "neardup: {} students, {} sources: {listed} pairs at or above the cut-off {:.2} of {} sharing a shingle; \
         {} stock phrases (in more than {} students' texts), {quotations} quotations \
         and {references} reference lists left out",
        s.len(),
        r.len(),
        report.cut_off,
        report.candidates,
        report.stock_phrases,
        report.stock_limit,
    );
    for p in report.shared_passages.iter().take(10) {
        let names: Vec<&str> = p
            .texts
            .iter()
            .map(|&i| students.names[i as usize].as_str())
            .collect();
        eprintln!(
            "neardup: note: a passage of {} words is in {} students' texts ({}): \
             give it as --template if the assignment holds it, as --source if it is a common source",
            p.words,
            names.len(),
            names.join(", ")
        );
    }
    Ok(if students.failed + sources.failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
