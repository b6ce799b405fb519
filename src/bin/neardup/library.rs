//! `neardup library build|add`: a reference library of sources, model
//! answers and past classes (the core's `classset::library::Library`),
//! checked one way by `neardup class --library`.

use crate::files::read_class;
use crate::input::write_atomic;
use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use neardup::classset::library::Library;
use neardup::classset::ClassSetConfig;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum LibraryCommand {
    /// Build a library from texts (files, or folders whose `.txt` files are
    /// read), kept as phrase postings and, unless --no-texts, the texts
    /// themselves (so that `neardup class --library` compares a match in
    /// full: its verdict and passages).
    Build(BuildArgs),
    /// Add texts to a library (the file is replaced atomically); their texts
    /// are kept when the library keeps texts.
    Add(AddArgs),
}

#[derive(Args)]
pub struct BuildArgs {
    /// The library file to write.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// The texts: files, or folders (a sub-folder per student, their `.txt`
    /// and `.md` files joined), named as `neardup class` names students.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Characters per shingle (0: word shingles of --word-k).
    #[arg(long, default_value_t = ClassSetConfig::default().char_q)]
    char_q: u32,
    /// The winnowing window, in grams (1..=64).
    #[arg(long, default_value_t = ClassSetConfig::default().window)]
    window: u32,
    /// Words per shingle (1..=32), when --char-q is 0.
    #[arg(long, default_value_t = ClassSetConfig::default().word_k)]
    word_k: u32,
    /// Hash seed.
    #[arg(long, default_value_t = ClassSetConfig::default().seed)]
    seed: u64,
    /// Count quotations as every other passage.
    #[arg(long)]
    keep_quotes: bool,
    /// Count a trailing reference list as every other passage.
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
    /// Keep phrase postings only, not the texts: a smaller file (about 2 KB
    /// of a 1,000-word essay rather than its text besides), whose matches
    /// carry the library's figures only (no verdict, no passages).
    #[arg(long)]
    no_texts: bool,
}

#[derive(Args)]
pub struct AddArgs {
    /// The library file.
    #[arg(value_name = "LIBRARY")]
    library: PathBuf,
    /// The texts to add: files, or folders, as for `build`.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
}

pub fn run(cmd: LibraryCommand) -> Result<ExitCode> {
    let (mut lib, paths, out) = match cmd {
        LibraryCommand::Build(a) => {
            let config = ClassSetConfig::default()
                .char_q(a.char_q)
                .window(a.window)
                .word_k(a.word_k)
                .seed(a.seed)
                .ignore_quotes(!a.keep_quotes)
                .ignore_references(!a.keep_references)
                .fold_diacritics(a.fold_diacritics)
                .unmask(!a.no_unmask)
                .max_bytes(crate::input::max_bytes() as u64);
            let mut lib = Library::new(&config).map_err(crate::core)?;
            lib.keep_texts(!a.no_texts);
            (lib, a.paths, a.output)
        }
        LibraryCommand::Add(a) => (load(&a.library)?, a.paths, a.library),
    };
    let texts = read_class(&paths, false)?;
    let named: Vec<(&str, &str)> = texts
        .names
        .iter()
        .map(String::as_str)
        .zip(texts.texts.iter().map(String::as_str))
        .collect();
    lib.add(&named).map_err(crate::core)?;
    let bytes = lib.to_bytes();
    write_atomic(&out, |w| w.write_all(&bytes))?;
    eprintln!(
        "neardup: {}: {} texts ({} added), {} postings, {} bytes ({} a text)",
        out.display(),
        lib.len(),
        named.len(),
        lib.postings(),
        bytes.len(),
        bytes.len() / lib.len().max(1)
    );
    Ok(if texts.failed() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Reads a library file, with a clear error for a damaged one.
pub fn load(path: &Path) -> Result<Library> {
    let bytes = crate::input::read_bounded(path, crate::input::MAX_FILE_READ)?;
    Library::from_bytes(&bytes)
        .map_err(crate::core)
        .with_context(|| format!("{} is not a library neardup can read", path.display()))
}
