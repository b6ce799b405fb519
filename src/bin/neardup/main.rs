//! `neardup`: the command-line tool for batch comparison, deduplication,
//! indexes, training and evaluation, a thin layer over the library.
//!
//! ```text
//! neardup compare A.txt B.txt [--json]        compare suspicious A with source B
//! neardup compare --pairs pairs.jsonl         one report per {"id","a","b"} line
//! neardup class essays/ --source ref.txt      pairs of a class set sharing passages
//! neardup decode old.txt                      a text file as UTF-8
//! neardup eval --clough DIR [--json] [--svm]  score the Clough–Stevenson pairs
//! neardup dedup docs.jsonl [--threshold 0.5]  near-duplicate pairs (MinHash LSH)
//! neardup dedup docs.jsonl --method simhash -k 3
//! neardup index build docs.jsonl -o idx.bin   save an index (SimHash or MinHash LSH)
//! neardup index query idx.bin queries.jsonl   look texts up in it
//! neardup train --clough DIR -o model.json    train the learned verdict
//! neardup multiref train --corpus docs.jsonl -o ref.json
//! neardup multiref pairs pairs.jsonl          estimate and exact cosine per pair
//! neardup phonetic -a soundex Robert Rupert   phonetic codes, word<TAB>code
//! neardup spell recieve seperate              dictionary correction, word<TAB>correction
//! ```
//! One file per subcommand. Files may be UTF-8 (with or without BOM), UTF-16
//! with a BOM, or Windows-1252 (`input`).
//!
//! Exit status: 0 on success, 1 when any input failed (the others are still
//! written), 2 on a usage error (an unknown option, a value out of range,
//! options that do not go together).

mod class;
mod compare;
mod decode;
mod dedup;
mod errors;
mod eval;
mod eval_library;
mod files;
mod index;
mod input;
mod library;
mod lines;
mod multiref;
mod options;
mod phonetic;
mod record;
mod spell;
mod train;
mod verdict;

pub(crate) use errors::{core, usage};

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "neardup",
    version,
    about = "Near-duplicate text detection and plagiarism scoring",
    after_help = "Exit status: 0 on success; 1 when an input failed (bad lines or files are \
                  named on standard error, the others still written); 2 on a usage error \
                  (an unknown option, a value out of range, options that do not go together)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Largest line, and so largest document, any command reads, in bytes
    /// (1 to 2^32 - 1; default 64 MiB): a longer line or a bigger file of a
    /// folder is reported and skipped, before it is held in memory.
    #[arg(long, global = true, value_name = "BYTES", default_value_t = input::DEFAULT_MAX_BYTES as u64,
          value_parser = clap::value_parser!(u64).range(1..=u32::MAX as u64))]
    max_bytes: u64,
}

#[derive(Subcommand)]
enum Command {
    /// Compare a suspicious text with a source, or many pairs from JSONL.
    Compare(compare::CompareArgs),
    /// The pairs of a class set that share passages, without comparing every
    /// pair (the page's class view): students, sources and a template.
    Class(Box<class::ClassArgs>),
    /// Decode a text file (byte-order mark, UTF-8, else Windows-1252) and
    /// write it as UTF-8.
    Decode(decode::DecodeArgs),
    /// Score every answer/source pair of the Clough–Stevenson corpus and
    /// report how the score (or the learned verdict) separates the categories.
    Eval(eval::EvalArgs),
    /// Find near-duplicate pairs or clusters in a collection.
    Dedup(Box<dedup::DedupArgs>),
    /// Save an index of a collection, or query a saved one.
    #[command(subcommand)]
    Index(index::IndexCommand),
    /// A reference library for class sets (sources, model answers, past
    /// classes as phrase postings): build one, add to one; check a class
    /// against it with `neardup class --library`.
    #[command(subcommand)]
    Library(library::LibraryCommand),
    /// Train the learned verdict (SVMs on similarity vectors) and write the
    /// model JSON.
    Train(train::TrainArgs),
    /// Multireference cosine signatures: train a reference, compare pairs.
    #[command(subcommand)]
    Multiref(multiref::MultirefCommand),
    /// Phonetic codes of words (Soundex, Phonex, DSound, SoundD, Phonix,
    /// Double Metaphone): one `word<TAB>code` line per word
    /// (metaphone: `word<TAB>primary<TAB>alternate`).
    Phonetic(phonetic::PhoneticArgs),
    /// Dictionary correction: `word<TAB>correction` per word (the word itself
    /// when known or when nothing is close), or build a dictionary.
    Spell(spell::SpellArgs),
}

fn main() -> ExitCode {
    if let Some(level) = neardup::missing_cpu_level() {
        eprintln!(
            "neardup: this build needs an {level} processor; rebuild with \
             RUSTFLAGS=\"-C target-cpu=x86-64\" cargo build --release --features cli"
        );
        return ExitCode::from(2);
    }
    let cli = Cli::parse();
    input::set_max_bytes(cli.max_bytes as usize);
    input::stop_on_interrupt();
    let result = match cli.command {
        Command::Compare(args) => compare::run(args),
        Command::Class(args) => class::run(*args),
        Command::Decode(args) => decode::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Dedup(args) => dedup::run(*args),
        Command::Index(cmd) => index::run(cmd),
        Command::Library(cmd) => library::run(cmd),
        Command::Train(args) => train::run(args),
        Command::Multiref(cmd) => multiref::run(cmd),
        Command::Phonetic(args) => phonetic::run(args),
        Command::Spell(args) => spell::run(args),
    };
    errors::exit_code(result)
}
