//! `neardup decode`: a text file's bytes as UTF-8, by the one rule every
//! surface reads text with (the core's `text::decode_text`).

use crate::input::{max_bytes, open};
use anyhow::{bail, Context, Result};
use clap::Args;
use serde::Serialize;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct DecodeArgs {
    /// The file ("-" for standard input; gzip and zstd are decompressed).
    file: PathBuf,
    /// Print `{"text": …, "encoding": …}` instead of the text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct DecodeOut<'a> {
    text: &'a str,
    encoding: &'static str,
}

pub fn run(args: DecodeArgs) -> Result<ExitCode> {
    let limit = max_bytes();
    let mut bytes = Vec::new();
    open(&args.file)?
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    if bytes.len() > limit {
        bail!(
            "{} is more than {limit} bytes long (after decompression), more than the limit (--max-bytes)",
            args.file.display()
        );
    }
    let d = neardup::text::decode_text(&bytes);
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer(
            &mut out,
            &DecodeOut {
                text: &d.text,
                encoding: d.encoding.name(),
            },
        )?;
        writeln!(out)?;
    } else {
        out.write_all(d.text.as_bytes())?;
        eprintln!("neardup: {}: {}", args.file.display(), d.encoding.name());
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
