//! `neardup class`: the pairs of a class set that share passages (the
//! core's `classset::run::ClassRun`, what the page's class view and
//! Python's `class_set` run), with sources, a template, a library, and
//! quotations and reference lists left out. A driver in three steps, a file
//! each: [`read`] the files, [`run`] the class in the core, [`write`] what
//! was asked for.

mod read;
mod run;
mod write;

use crate::input::max_bytes;
use anyhow::Result;
use clap::Args;
use neardup::classset::ClassSetConfig;
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
    /// page shows when the pair is opened; a library match is compared in
    /// full the same way when the library keeps its text (`neardup library
    /// build` keeps texts unless --no-texts), else it keeps the library's
    /// sampled figures.
    /// Students whose texts are identical after normalisation and
    /// exclusions are one row, its `b` "NAME (group of N identical texts)"
    /// (the members in --json's `groups`, named on standard error).
    /// `kind` is `students`, `source` or `library`; the verdict the learned
    /// model's grade, `shared source` for a source, empty for a library
    /// match whose text the library does not keep; review empty; each text's count of look-alike letters,
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

impl ClassArgs {
    /// The core's configuration of the options given.
    fn config(&self) -> ClassSetConfig {
        ClassSetConfig::default()
            .word_k(self.word_k)
            .char_q(self.char_q)
            .seed(self.seed)
            .stock_share(self.stock_share)
            .min_containment(self.min_containment)
            .adaptive_cut_off(!self.fixed_cut_off)
            .min_shared(self.min_shared)
            .ignore_quotes(!self.keep_quotes)
            .ignore_references(!self.keep_references)
            .fold_diacritics(self.fold_diacritics)
            .unmask(!self.no_unmask)
            // A class text is at most the class's own limit (16 MiB, the
            // page's and Python's), --max-bytes lowering it.
            .max_bytes((max_bytes() as u64).min(ClassSetConfig::default().max_bytes))
    }
}

pub fn run(args: ClassArgs) -> Result<ExitCode> {
    let config = args.config();
    config.check().map_err(crate::core)?;
    let inputs = read::Inputs::of(&args)?;
    let run = run::run(&args, &inputs, &config)?;
    write::write(&args, &inputs, &run)?;
    Ok(if inputs.failed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
