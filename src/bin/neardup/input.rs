//! Reading what the tool is given: text files in any common encoding, and
//! collections of documents (JSONL or a folder of `.txt`); progress bars.

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashSet;
use std::fs;
use std::io::{self, BufRead};
use std::path::{Path, PathBuf};

/// Reads a text file, decoding UTF-8, UTF-16 (by BOM) or Windows-1252, and
/// says on standard error when it was not plain UTF-8.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let (text, note) = decode(&bytes);
    if let Some(note) = note {
        eprintln!("neardup: note: {}: {note}", path.display());
    }
    Ok(text)
}

/// Decodes bytes: by BOM when there is one, else UTF-8 when valid, else
/// Windows-1252. Returns a note when the text was not plain UTF-8.
pub fn decode(bytes: &[u8]) -> (String, Option<&'static str>) {
    if let Some((enc, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, _) = enc.decode_without_bom_handling(&bytes[bom..]);
        let note = (enc != encoding_rs::UTF_8).then_some("decoded as UTF-16 (byte-order mark)");
        return (text.into_owned(), note);
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_owned(), None),
        Err(_) => {
            let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes);
            (
                text.into_owned(),
                Some("not valid UTF-8; decoded as Windows-1252"),
            )
        }
    }
}

/// A document of a collection.
pub struct Doc {
    pub id: String,
    pub text: String,
}

/// Reads a collection: a JSONL file of `{"id", "text"}` lines, or a folder
/// of `.txt` files (the id is the file name without `.txt`). Ids must be
/// unique.
pub fn read_docs(path: &Path) -> Result<Vec<Doc>> {
    let mut docs = Vec::new();
    if path.is_dir() {
        let mut files: Vec<PathBuf> = fs::read_dir(path)
            .with_context(|| format!("cannot read {}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            .collect();
        files.sort();
        for f in files {
            let bytes = fs::read(&f).with_context(|| format!("cannot read {}", f.display()))?;
            let id = f
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            docs.push(Doc {
                id,
                text: decode(&bytes).0,
            });
        }
        return Ok(docs);
    }
    let f = fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    #[derive(serde::Deserialize)]
    struct Line {
        id: serde_json::Value,
        text: String,
    }
    for (i, line) in io::BufReader::new(f).lines().enumerate() {
        let line = line.with_context(|| format!("{}: line {}", path.display(), i + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let l: Line = serde_json::from_str(&line).with_context(|| {
            format!(
                "{}: line {}: not a {{\"id\", \"text\"}} object",
                path.display(),
                i + 1
            )
        })?;
        let id = match l.id {
            serde_json::Value::String(s) => s,
            other => other.to_string(),
        };
        docs.push(Doc { id, text: l.text });
    }
    let mut seen = HashSet::new();
    for d in &docs {
        if !seen.insert(d.id.as_str()) {
            bail!("{}: duplicate id {:?}", path.display(), d.id);
        }
    }
    Ok(docs)
}

/// A progress bar of `len` steps with a rate and an ETA.
pub fn progress(len: usize, what: &str) -> ProgressBar {
    let pb = ProgressBar::new(len as u64);
    pb.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} ({per_sec}, eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    pb.set_message(what.to_string());
    pb
}
