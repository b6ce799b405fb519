//! `neardup phonetic`: the phonetic code of each word.

use crate::options::AlgorithmArg;
use anyhow::Result;
use clap::Args;
use neardup::phonetic::{double_metaphone_of, encode_into, Algorithm};
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

#[derive(Args)]
pub struct PhoneticArgs {
    /// The encoder.
    #[arg(long, short, value_enum, default_value = "soundd")]
    algorithm: AlgorithmArg,
    /// Cut Double Metaphone codes to this many characters (4 gives the
    /// codes of commons-codec); full length by default.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    max_length: Option<u16>,
    /// Words to code; without any, one word per line is read from standard
    /// input (the whole line, trimmed).
    words: Vec<String>,
}

/// Writes `word<TAB>code` per word (Double Metaphone:
/// `word<TAB>primary<TAB>alternate`). A word with no Latin letter is its own
/// code.
pub fn run(args: PhoneticArgs) -> Result<ExitCode> {
    let algorithm = Algorithm::from(args.algorithm);
    if args.max_length.is_some() && algorithm != Algorithm::Metaphone {
        return Err(crate::usage(
            "--max-length applies to --algorithm metaphone only",
        ));
    }
    let max_length = args.max_length.map(usize::from);
    let mut out = BufWriter::new(io::stdout().lock());
    let (mut letters, mut code) = (Vec::new(), String::new());
    let write = |word: &str| -> io::Result<()> {
        if algorithm == Algorithm::Metaphone {
            let (primary, alternate) = double_metaphone_of(word, max_length);
            return writeln!(out, "{word}\t{primary}\t{alternate}");
        }
        code.clear();
        encode_into(algorithm, word, &mut letters, &mut code);
        writeln!(out, "{word}\t{code}")
    };
    crate::input::for_each_word(&args.words, write)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
