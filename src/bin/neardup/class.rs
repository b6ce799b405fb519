//! `neardup class`: the pairs of a class set that share passages (the
//! core's `classset::class_pairs`, what the page's class view runs), with
//! sources, a template, and quotations and reference lists left out.

use crate::files::read_class;
use crate::input::{max_bytes, read_text, write_atomic};
use anyhow::Result;
use clap::Args;
use neardup::classset::run::{ClassNames, ClassRun, PackInput, RowKind};
use neardup::classset::ClassSetConfig;
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
    /// Print the class run as JSON (the core's `ClassRun::to_json`, what
    /// Python's `class_set(...).to_json()` gives): `studentNames`,
    /// `sourceNames`, the report (texts with counts and excluded byte
    /// ranges, every pair the class measure found, cutOff, each student's
    /// strongest match, shared passages), `rows` (the pairs at or above the
    /// cut-off and the library's matches, each with its figures, verdict and
    /// passages after its full comparison) and, with --library,
    /// `libraryNames`.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print the pairs at or above the cut-off, then the library's matches,
    /// as CSV with the page's header (`a,b,kind,containment_ab,
    /// containment_ba,similarity,verdict,review,obfuscation_a,obfuscation_b`;
    /// the core's `ClassRun::to_csv`, what the page's "Export CSV" and
    /// Python's `class_set(...).to_csv()` write). Which figure is which: the
    /// class measure (winnowed character grams) finds and ranks the pairs
    /// and meets the cut-off — `similarity`; the two containments are the
    /// pair's full comparison's (word shingles, the class's exclusions —
    /// quotations, reference lists, template and stock phrases — left out
    /// of both texts; with --keep-quotes and --keep-references and no
    /// stock phrase, what `neardup compare A B` and `B A` give), what the
    /// page shows when the pair is opened; a library match keeps the
    /// library's figures.
    /// Students whose texts are identical after normalisation and
    /// exclusions are one row, its `b` "NAME (group of N identical texts)"
    /// (the members in --json's `groups`, named on standard error).
    /// `kind` is `students`, `source` or `library`; the verdict the learned
    /// model's grade, `shared source` for a source, empty for a library
    /// match; review empty; each text's count of look-alike letters,
    /// invisible characters and hidden runs undone to read it. A cell
    /// beginning with =, +, -, @ is written after a '.
    #[arg(long)]
    csv: bool,
    /// Write the evidence pack to this file (atomically): one
    /// self-contained HTML file with every setting, every file's SHA-256
    /// and each pair at or above the cut-off with both texts, shared
    /// passages highlighted, and the library's matches — the page's
    /// "Evidence pack", by the same builder.
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

/// The names of texts `ids`, at most ten of them, then how many more.
fn some_names(names: &[String], ids: &[u32]) -> String {
    let shown: Vec<&str> = ids
        .iter()
        .take(10)
        .map(|&i| names[i as usize].as_str())
        .collect();
    match ids.len() {
        n if n > 10 => format!("{}, and {} more", shown.join(", "), n - 10),
        _ => shown.join(", "),
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
        // A class text is at most the class's own limit (16 MiB, the
        // page's and Python's), --max-bytes lowering it.
        .max_bytes((max_bytes() as u64).min(ClassSetConfig::default().max_bytes));
    config.check().map_err(crate::core)?;
    let template = match &args.template {
        Some(t) => read_text(t)?,
        None => String::new(),
    };
    let students = read_class(&args.students, args.each_file)?;
    let sources = read_class(&args.sources, args.each_file)?;
    let library = match &args.library {
        Some(path) => Some(crate::library::load(path)?),
        None => None,
    };
    let (n_students, n_sources) = (students.texts.len(), sources.texts.len());
    let mut run = ClassRun::of_files(&students, &sources, &template, &config, library.as_ref())
        .map_err(|e| {
            if n_students + n_sources < 2 || n_students == 0 {
                crate::usage(format!(
                    "give at least two texts, one of them a student's \
                     ({n_students} students and {n_sources} sources read)"
                ))
            } else {
                crate::core(e)
            }
        })?;
    let all = ClassRun::texts_of(&students, &sources);
    let names = ClassNames {
        students: &students.names,
        sources: &sources.names,
        library: library.as_ref().map_or(&[], |l| l.names()),
    };
    // The full comparison of each pair listed, as the page runs it: its
    // containments, verdict and passages are what the CSV, the JSON and the
    // evidence pack show.
    if args.csv || args.json || args.evidence.is_some() {
        let model = crate::compare::load_model(None)?;
        run.compare(&all, Some(&model));
        for row in &run.rows {
            if let Some(e) = &row.error {
                eprintln!(
                    "neardup: the pair {} and {} could not be compared in full: {e}",
                    names.text(row.a),
                    names.b_of(row)
                );
            }
        }
    }
    if let Some(path) = &args.evidence {
        let files: Vec<_> = students
            .files
            .iter()
            .chain(&sources.files)
            .cloned()
            .collect();
        let made = format!(
            "Made {} UTC by neardup class; nothing was uploaded.",
            utc_minute(std::time::SystemTime::now())
        );
        let pack = run.evidence_pack(PackInput {
            texts: &all,
            names,
            files: &files,
            made: &made,
            template_sha256: (!template.trim().is_empty())
                .then(|| neardup::read::sha256_hex(template.as_bytes())),
            reviews: &[],
            pseudonyms: args.pseudonyms,
        });
        let html = pack.to_html().map_err(crate::core)?;
        write_atomic(path, |w| w.write_all(html.as_bytes()))?;
    }
    let mut out = BufWriter::new(io::stdout().lock());
    if args.json {
        writeln!(out, "{}", run.to_json(&names).map_err(crate::core)?)?;
    } else if args.csv {
        out.write_all(run.to_csv(&names, &[], args.pseudonyms).as_bytes())?;
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
        let report = &run.report;
        for p in report.pairs.iter().filter(|p| p.score >= report.cut_off) {
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
        for m in run.rows.iter().filter(|m| m.kind == RowKind::Library) {
            writeln!(
                out,
                "{:.4}\t{}\t{:.4}\t{:.4}\t\tlibrary\t{}\t{}",
                m.similarity,
                m.shared,
                m.containment_ab,
                m.containment_ba,
                name(m.a),
                names.library[m.b as usize]
            )?;
        }
    }
    out.flush()?;
    let report = &run.report;
    let quotations: u32 = report.texts.iter().map(|t| t.quotations).sum();
    let references = report.texts.iter().filter(|t| t.reference_list).count();
    let listed = run
        .rows
        .iter()
        .filter(|r| r.kind != RowKind::Library)
        .count();
    eprintln!(
        "neardup: {} students, {} sources: {listed} pairs at or above the cut-off {:.2} of {} sharing a shingle; \
         {} stock phrases (in more than {} students' texts), {quotations} quotations \
         and {references} reference lists left out",
        n_students,
        n_sources,
        report.cut_off,
        report.candidates,
        report.stock_phrases,
        report.stock_limit,
    );
    for g in &report.groups {
        eprintln!(
            "neardup: note: {} students handed in identical texts (after normalisation and \
             exclusions): {}; listed once, as {} and {}",
            g.len(),
            some_names(&students.names, g),
            students.names[g[0] as usize],
            students.names[g[1] as usize]
        );
    }
    for p in report.shared_passages.iter().take(10) {
        eprintln!(
            "neardup: note: a passage of {} words is in {} students' texts ({}): \
             give it as --template if the assignment holds it, as --source if it is a common source",
            p.words,
            p.texts.len(),
            some_names(&students.names, &p.texts)
        );
    }
    Ok(if students.failed() + sources.failed() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
