//! `neardup spell`: dictionary correction of words, and building a
//! dictionary from a word-frequency list.

use crate::input::{load_dictionary, open, write_atomic};
use anyhow::{bail, Context, Result};
use clap::Args;
use neardup::spell::Dictionary;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub struct SpellArgs {
    /// A dictionary written by `neardup spell --from-counts` (default: the
    /// built-in English one).
    #[arg(long)]
    dictionary: Option<PathBuf>,
    /// Show up to this many candidates per word, best first
    /// (`word<TAB>candidate:distance<TAB>…`) instead of the correction;
    /// 1 to 100, as in JavaScript.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=100))]
    candidates: Option<u8>,
    /// Build a dictionary from a `word count` list (one per line, separated
    /// by whitespace) and write it to `-o` instead of correcting words.
    #[arg(long, requires = "output")]
    from_counts: Option<PathBuf>,
    /// Where `--from-counts` writes the dictionary (atomically).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Words to correct; without any, one word per line is read from
    /// standard input.
    words: Vec<String>,
}

pub fn run(args: SpellArgs) -> Result<ExitCode> {
    if let Some(counts) = &args.from_counts {
        return build(counts, args.output.as_ref().expect("required by clap"));
    }
    let dict = load_dictionary(args.dictionary.as_ref())?;
    let mut out = BufWriter::new(io::stdout().lock());
    let write = |word: &str| -> io::Result<()> {
        match args.candidates {
            Some(n) => {
                write!(out, "{word}")?;
                for c in dict.candidates(word, usize::from(n)) {
                    write!(out, "\t{}:{}", c.word, c.distance)?;
                }
                writeln!(out)
            }
            None => {
                let fixed = dict.correct(word);
                writeln!(out, "{word}\t{}", fixed.as_deref().unwrap_or(word))
            }
        }
    };
    crate::input::for_each_word(&args.words, write)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `--from-counts`: reads `word count` lines, builds, checks and writes.
fn build(counts: &Path, output: &Path) -> Result<ExitCode> {
    crate::input::check_output(output)?;
    let mut pairs: Vec<(String, u64)> = Vec::new();
    crate::input::for_each_line(&mut open(counts)?, |n, line| {
        let line = line.with_context(|| format!("{}: line {n}", counts.display()))?;
        let line = std::str::from_utf8(line)
            .with_context(|| format!("{}: line {n}: not valid UTF-8", counts.display()))?;
        let mut parts = line.split_whitespace();
        let (Some(word), Some(count), None) = (parts.next(), parts.next(), parts.next()) else {
            if line.trim().is_empty() {
                return Ok(());
            }
            bail!("{}: line {n}: expected `word count`", counts.display());
        };
        let count: u64 = count
            .parse()
            .with_context(|| format!("{}: line {n}: bad count {count:?}", counts.display()))?;
        pairs.push((word.to_string(), count));
        Ok(())
    })?;
    let dict = Dictionary::from_counts(pairs.iter().map(|(w, c)| (w.as_str(), *c)))
        .map_err(crate::core)?;
    let bytes = dict.to_bytes();
    write_atomic(output, |w| w.write_all(&bytes))?;
    eprintln!(
        "neardup: {} words ({} lines read) written to {} ({} bytes)",
        dict.len(),
        pairs.len(),
        output.display(),
        bytes.len()
    );
    Ok(ExitCode::SUCCESS)
}
