//! Reading and writing what the tool is given: text files in any common
//! encoding; collections of documents (JSONL with chosen fields, a folder of
//! `.txt`, or standard input; gzip or zstd compressed), streamed one record at
//! a time with bad lines reported and skipped; atomic file output; progress
//! bars.

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use neardup::multiref::{Reference, ReferenceFile};
use neardup::spell::Dictionary;
use std::collections::HashSet;
use std::fs;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

pub use crate::lines::{for_each_line, max_bytes, set_max_bytes, DEFAULT_MAX_BYTES};
use crate::record::parse_line;
pub use crate::record::Fields;

/// An id or word as shown in a message: at most 80 characters, then `…`
/// and its whole length in bytes.
pub fn shown(id: &str) -> String {
    match id.char_indices().nth(80) {
        None => id.to_string(),
        Some((cut, _)) => format!("{}… ({} bytes)", &id[..cut], id.len()),
    }
}

/// Reads a text file (or `-`, standard input), decompressing gzip and zstd
/// as [`open`] does, and decoding UTF-8, UTF-16 (by BOM) or Windows-1252;
/// says on standard error when it was not plain UTF-8. At most
/// [`max_bytes`] are read: a larger text (after decompression) is an error
/// naming the limit, before more is held.
pub fn read_text(path: &Path) -> Result<String> {
    let limit = max_bytes();
    let mut bytes = Vec::new();
    open(path)?
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() > limit {
        bail!(
            "{} is more than {limit} bytes long (after decompression), more than the limit (--max-bytes)",
            path.display()
        );
    }
    let (text, note) = decode(&bytes);
    if let Some(note) = note {
        eprintln!("neardup: note: {}: {note}", path.display());
    }
    Ok(text)
}

/// Decodes bytes by the core's rule (`neardup::text::decode_text`: BOM,
/// else UTF-8 when valid, else Windows-1252). Returns a note when the text
/// was not plain UTF-8.
pub fn decode(bytes: &[u8]) -> (String, Option<&'static str>) {
    use neardup::text::TextEncoding;
    let d = neardup::text::decode_text(bytes);
    let note = match d.encoding {
        TextEncoding::Utf8 => None,
        TextEncoding::Utf16Le | TextEncoding::Utf16Be => {
            Some("decoded as UTF-16 (byte-order mark)")
        }
        TextEncoding::Windows1252 => Some("not valid UTF-8; decoded as Windows-1252"),
    };
    (d.text, note)
}

/// Refuses what is not a regular file (or a link to one): a FIFO, a device
/// (`/dev/zero`), a socket or a folder would block or never end.
fn regular(path: &Path) -> Result<()> {
    let meta = fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    if !meta.is_file() {
        bail!(
            "cannot read {}: not a regular file (a pipe, device or folder); give a file, or `-` for standard input",
            path.display()
        );
    }
    Ok(())
}

/// Most bytes of a file read whole: a library, an index snapshot, a model,
/// a reference or a dictionary (4 GiB, the most a 32-bit offset in their
/// formats addresses).
pub const MAX_FILE_READ: u64 = 4 << 30;

/// Reads a whole file (not `-`) of at most `limit` bytes: a regular file
/// only, its size checked before anything is allocated and counted again
/// as it is read (a file that grows is cut at the limit and refused).
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>> {
    neardup::read::read_bounded(path, limit).map_err(|e| match e.kind() {
        io::ErrorKind::InvalidInput => anyhow::anyhow!(
            "cannot read {}: {e} (a pipe, device or folder); give a file",
            path.display()
        ),
        _ => anyhow::anyhow!("cannot read {}: {e}", path.display()),
    })
}

/// [`read_bounded`] as UTF-8 text.
pub fn read_bounded_text(path: &Path, limit: u64) -> Result<String> {
    String::from_utf8(read_bounded(path, limit)?)
        .with_context(|| format!("{} is not UTF-8 text", path.display()))
}

/// Opens a file, or standard input for `-`, decompressing gzip (`.gz`) and
/// zstd (`.zst`) by the file's magic bytes. A file must be a regular one
/// (a FIFO or a device would block or never end).
pub fn open(path: &Path) -> Result<Box<dyn BufRead>> {
    let raw: Box<dyn Read> = if path == Path::new("-") {
        Box::new(io::stdin().lock())
    } else {
        regular(path)?;
        Box::new(fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?)
    };
    let mut reader = BufReader::with_capacity(1 << 16, raw);
    let head = reader
        .fill_buf()
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(match compression(head) {
        Some(Compression::Gzip) => {
            Box::new(BufReader::new(flate2::bufread::MultiGzDecoder::new(reader)))
        }
        Some(Compression::Zstd) => Box::new(BufReader::new(
            ruzstd::decoding::StreamingDecoder::new(reader)
                .map_err(|e| anyhow::anyhow!("{}: not a zstd stream: {e}", path.display()))?,
        )),
        _ => Box::new(reader),
    })
}

/// The compressed formats [`open`] reads.
enum Compression {
    Gzip,
    Zstd,
}

/// The compressed format whose magic bytes start `head`, if any.
fn compression(head: &[u8]) -> Option<Compression> {
    match head {
        [0x1f, 0x8b, ..] => Some(Compression::Gzip),
        [0x28, 0xb5, 0x2f, 0xfd, ..] => Some(Compression::Zstd),
        _ => None,
    }
}

/// How many records a JSONL file holds, estimated from its first mebibyte:
/// the lines there that are records with a text at `fields` (parsed as
/// [`for_each_record`] parses them), scaled by the file's size; exact for a
/// file that short. What `neardup dedup` and `neardup index` size the
/// core's index by before reading (`Deduplicator::reserve`): blank lines and
/// lines that are not records count for nothing, so that a file of them
/// reserves nothing. `None` for standard input, a folder, a compressed
/// file, a file that cannot be read, or a first mebibyte with no line end
/// (documents that long are too few for the index's size to matter).
pub fn estimate_records(path: &Path, fields: &Fields) -> Option<usize> {
    const SAMPLE: usize = 1 << 20;
    if path == Path::new("-") {
        return None;
    }
    let meta = fs::metadata(path).ok().filter(fs::Metadata::is_file)?;
    let mut head = Vec::with_capacity(SAMPLE);
    fs::File::open(path)
        .ok()?
        .take(SAMPLE as u64)
        .read_to_end(&mut head)
        .ok()?;
    if compression(&head).is_some() {
        return None;
    }
    let whole = (head.len() as u64) >= meta.len();
    // The complete lines (all of them, the last without its line end too,
    // when the sample is the whole file).
    let through = match whole {
        true => head.len(),
        false => memchr::memrchr(b'\n', &head)? + 1,
    };
    let mut records = 0;
    for_each_line(&mut &head[..through], |n, line| {
        let record = |line: &[u8]| !blank(line) && parse_line(line, n, fields).is_ok();
        records += usize::from(line.is_ok_and(record));
        Ok(())
    })
    .ok()?;
    if whole {
        return Some(records);
    }
    let estimate = records as f64 * meta.len() as f64 / through as f64;
    Some(estimate.round().min(u32::MAX as f64) as usize)
}

/// A document of a collection.
pub struct Record {
    /// Its line number (1-based) in a JSONL input, or its position among
    /// the files of a folder.
    pub line: usize,
    pub id: String,
    pub text: String,
}

/// What reading a collection met.
#[derive(Default, Clone, Copy, serde::Serialize)]
pub struct ReadStats {
    /// Records read.
    pub documents: usize,
    /// Lines reported and skipped.
    pub bad_lines: usize,
}

/// The `.txt` files of a folder (not its subfolders), in name order.
pub fn txt_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    Ok(files)
}

/// Streams the records of a collection (a JSONL file or `-`, possibly
/// compressed, or a folder of `.txt` files whose ids are the file names)
/// into `each`. A line that is not a JSON object with a string at
/// `fields.text`, or whose id repeats an earlier one, is reported on
/// standard error with its number and skipped. A record without the id
/// field takes its line number as id.
pub fn for_each_record(
    path: &Path,
    fields: &Fields,
    mut each: impl FnMut(Record) -> Result<()>,
) -> Result<ReadStats> {
    let mut seen: HashSet<String> = HashSet::new();
    read_records(path, fields, |r| {
        if seen.contains(&r.id) {
            return Ok(Some(r));
        }
        seen.insert(r.id.clone());
        each(r)?;
        Ok(None)
    })
}

/// [`for_each_record`], with the ids' check left to `each`: it gives a
/// record back (`Ok(Some(record))`) when its id repeats one taken before,
/// and the record is then reported as a duplicate id and skipped (not
/// counted in [`ReadStats::documents`]). For a caller that holds the ids
/// taken already (the core's `Deduplicator`), so that they are not held
/// twice.
fn read_records(
    path: &Path,
    fields: &Fields,
    mut each: impl FnMut(Record) -> Result<Option<Record>>,
) -> Result<ReadStats> {
    let mut stats = ReadStats::default();
    if path.is_dir() {
        let files = txt_files(path)?;
        for (i, f) in files.iter().enumerate() {
            // Only regular files (and links to them): a FIFO or a device
            // would block or never end.
            let meta = fs::metadata(f).with_context(|| format!("cannot read {}", f.display()))?;
            let skip = if !meta.is_file() {
                Some("not a regular file".to_string())
            } else if meta.len() > max_bytes() as u64 {
                Some(format!(
                    "{} bytes, more than the limit of {} bytes (--max-bytes)",
                    meta.len(),
                    max_bytes()
                ))
            } else {
                None
            };
            if let Some(why) = skip {
                stats.bad_lines += 1;
                eprintln!("neardup: {}: {why}; skipped", f.display());
                continue;
            }
            let bytes = fs::read(f).with_context(|| format!("cannot read {}", f.display()))?;
            let id = f
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let record = Record {
                line: i + 1,
                id,
                text: decode(&bytes).0,
            };
            match each(record)? {
                None => stats.documents += 1,
                Some(r) => skip_repeated(&mut stats, &f.display(), &r.id),
            }
        }
        return Ok(stats);
    }
    let mut reader = open(path)?;
    for_each_line(&mut reader, |n, line| {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                stats.bad_lines += 1;
                eprintln!("neardup: {}: line {n}: {e}; skipped", path.display());
                return Ok(());
            }
        };
        if blank(line) {
            return Ok(());
        }
        match parse_line(line, n, fields) {
            Ok((id, text)) => match each(Record { line: n, id, text })? {
                None => stats.documents += 1,
                Some(r) => {
                    let at = format_args!("{}: line {n}", path.display());
                    skip_repeated(&mut stats, &at, &r.id)
                }
            },
            Err(e) => {
                stats.bad_lines += 1;
                eprintln!("neardup: {}: line {n}: {e:#}; skipped", path.display());
            }
        }
        Ok(())
    })
    .with_context(|| format!("{}", path.display()))?;
    Ok(stats)
}

/// A line of only ASCII whitespace: no record, and not reported.
fn blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// The most records handed to the worker threads at a time.
pub const BATCH: usize = 1024;

/// Reports the record at `at` (a file, or a file's line) as a repeated id
/// and counts it as a bad line.
fn skip_repeated(stats: &mut ReadStats, at: &dyn std::fmt::Display, id: &str) {
    stats.bad_lines += 1;
    eprintln!("neardup: {at}: duplicate id \"{}\"; skipped", shown(id));
}

/// The most bytes of ids and texts in a batch, past its first record: a
/// batch of long documents is cut short, so that the texts held at once
/// stay a few megabytes (1,024 documents of a megabyte each would be a
/// gigabyte), and fit the processor's caches better than 1,024 essays do
/// (`neardup dedup --shingle word:5` on docs-bench: peak 14.5 MB instead of 19.7, BENCHMARKS.md
/// "Batches bounded by their bytes").
pub const BATCH_BYTES: usize = 2 << 20;

/// [`for_each_record`] in batches of [`BATCH`] records or [`BATCH_BYTES`]
/// bytes, whichever comes first (at least one record), in input order, for
/// work spread over every core (the core's `Deduplicator::add_batch` and
/// `Stages::count_batch`, which give the result of one thread).
///
/// `held(state, id)` says whether `id` was taken in a batch given to
/// `each(state, batch)` before: the ids are kept by the caller's `state`
/// (a `Deduplicator` holds them already), and only the current batch's
/// here. A record whose id is held, or repeats one of its batch, is
/// reported and skipped as [`for_each_record`] does.
pub fn for_each_batch<S>(
    path: &Path,
    fields: &Fields,
    state: &mut S,
    held: impl Fn(&S, &str) -> bool,
    mut each: impl FnMut(&mut S, Vec<Record>) -> Result<()>,
) -> Result<ReadStats> {
    let mut batch: Vec<Record> = Vec::with_capacity(BATCH);
    let mut in_batch: HashSet<String> = HashSet::new();
    let mut bytes = 0usize;
    let stats = read_records(path, fields, |r| {
        if in_batch.contains(&r.id) || held(state, &r.id) {
            return Ok(Some(r));
        }
        in_batch.insert(r.id.clone());
        bytes = bytes.saturating_add(r.id.len() + r.text.len());
        batch.push(r);
        if batch.len() == BATCH || bytes >= BATCH_BYTES {
            bytes = 0;
            in_batch.clear();
            each(
                state,
                std::mem::replace(&mut batch, Vec::with_capacity(BATCH)),
            )?;
        }
        Ok(None)
    })?;
    if !batch.is_empty() {
        each(state, batch)?;
    }
    Ok(stats)
}

/// [`for_each_batch`] for a caller that holds no ids of its own (the
/// first pass of tf-idf weights; `index add`, whose index holds ids from
/// before that the core must refuse): the ids taken are kept here.
pub fn for_each_batch_keeping_ids(
    path: &Path,
    fields: &Fields,
    mut each: impl FnMut(Vec<Record>) -> Result<()>,
) -> Result<ReadStats> {
    let mut taken: HashSet<String> = HashSet::new();
    let held = |taken: &HashSet<String>, id: &str| taken.contains(id);
    for_each_batch(path, fields, &mut taken, held, |taken, batch| {
        taken.extend(batch.iter().map(|r| r.id.clone()));
        each(batch)
    })
}

/// Calls `f` with each word of `words`, or, when there are none, with each
/// non-empty line of standard input (trimmed; lines as [`for_each_line`]
/// reads them, a line over the limit or not UTF-8 is an error naming it):
/// the word source of `neardup phonetic` and `neardup spell`.
pub fn for_each_word(words: &[String], mut f: impl FnMut(&str) -> io::Result<()>) -> Result<()> {
    if !words.is_empty() {
        for w in words {
            f(w)?;
        }
        return Ok(());
    }
    let mut stdin = io::stdin().lock();
    for_each_line(&mut stdin, |n, line| {
        let line = line.with_context(|| format!("standard input: line {n}"))?;
        let line = std::str::from_utf8(line)
            .with_context(|| format!("standard input: line {n}: not valid UTF-8"))?;
        let word = line.trim();
        if !word.is_empty() {
            f(word)?;
        }
        Ok(())
    })
}

/// Checks, before any work, that `path` can be written: its folder
/// exists. `-` (standard output) always can.
pub fn check_output(path: &Path) -> Result<()> {
    if path == Path::new("-") {
        return Ok(());
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        bail!(
            "cannot write {}: the folder {} does not exist",
            path.display(),
            folder.display()
        );
    }
    if path.is_dir() {
        bail!("cannot write {}: it is a folder", path.display());
    }
    Ok(())
}

/// The temporary files of atomic writes under way, removed on Ctrl-C.
static UNFINISHED: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Stops on Ctrl-C (SIGINT) with exit status 130, "neardup:
/// interrupted" on standard error and no partial output: the temporary file
/// of an atomic write under way is removed, so the previous file stays as
/// it was (or none is left). Installed once, by `main`.
pub fn stop_on_interrupt() {
    let installed = ctrlc::set_handler(|| {
        let files = UNFINISHED.lock().map(|f| f.clone()).unwrap_or_default();
        for f in files {
            let _ = fs::remove_file(f);
        }
        eprintln!("neardup: interrupted");
        std::process::exit(130);
    });
    if let Err(e) = installed {
        eprintln!("neardup: warning: Ctrl-C will leave unfinished files behind ({e})");
    }
}

/// Writes a file atomically: into a temporary file in the same folder,
/// synced, then renamed over `path`. A failed or interrupted write leaves
/// the previous file as it was.
///
/// Only regular files are replaced: a path naming a device, a FIFO or a
/// socket (`-o /dev/null`, `-o /dev/stdout`, a named pipe) is written to in
/// place — renaming over it would replace the device itself with a regular
/// file (as root, `/dev/null` for the whole machine) — and a symbolic link is
/// followed, so the link stays and its target is replaced. `-` is standard
/// output, as [`check_output`] takes it (never a file named `-`).
pub fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    if path == Path::new("-") {
        let mut out = io::BufWriter::new(io::stdout().lock());
        return write(&mut out)
            .and_then(|()| out.flush())
            .context("cannot write to standard output");
    }
    let target = match fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            let result = (|| -> io::Result<()> {
                let f = fs::OpenOptions::new().write(true).open(path)?;
                let mut w = io::BufWriter::new(f);
                write(&mut w)?;
                w.flush()
            })();
            return result.with_context(|| format!("cannot write {}", path.display()));
        }
        Ok(_) if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) => {
            fs::canonicalize(path).with_context(|| format!("cannot resolve {}", path.display()))?
        }
        _ => path.to_path_buf(),
    };
    let path = target.as_path();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let unfinished = |on: bool| {
        if let Ok(mut files) = UNFINISHED.lock() {
            match on {
                true => files.push(tmp.clone()),
                false => files.retain(|f| f != &tmp),
            }
        }
    };
    unfinished(true);
    let result = (|| -> io::Result<()> {
        let f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        let mut w = io::BufWriter::new(f);
        write(&mut w)?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    unfinished(false);
    result.with_context(|| format!("cannot write {}", path.display()))
}

/// A progress bar of `len` steps (0: unknown) with a rate and an ETA.
pub fn progress(len: usize, what: &str) -> ProgressBar {
    let pb = if len == 0 {
        let pb = ProgressBar::new_spinner();
        pb.set_style(
            ProgressStyle::with_template("{msg} {pos} ({per_sec})")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        pb
    } else {
        let pb = ProgressBar::new(len as u64);
        pb.set_style(
            ProgressStyle::with_template(
                "{msg} [{bar:40}] {human_pos}/{human_len} ({per_sec}, eta {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        pb
    };
    pb.set_message(what.to_string());
    pb
}

/// The reference trained on docs-bench, shipped with the CLI and the package.
pub const DEFAULT_REFERENCE: &str = neardup::assets::REFERENCE_JSON;

/// The reference at `path`, or the built-in one.
pub fn load_reference(path: Option<&Path>) -> Result<(ReferenceFile, Reference)> {
    let text = match path {
        Some(p) => read_bounded_text(p, MAX_FILE_READ)?,
        None => DEFAULT_REFERENCE.to_string(),
    };
    ReferenceFile::from_json(&text).map_err(crate::core)
}

/// The built-in English dictionary (`scripts/make-dictionary.sh`).
pub const DEFAULT_DICTIONARY: &[u8] = neardup::assets::DICTIONARY_EN;

/// Loads the dictionary of `--dictionary`, else the built-in one.
pub fn load_dictionary(path: Option<&PathBuf>) -> Result<Dictionary> {
    match path {
        Some(p) => {
            let bytes = read_bounded(p, MAX_FILE_READ)?;
            Dictionary::from_bytes(&bytes)
                .map_err(crate::core)
                .with_context(|| format!("{}", p.display()))
        }
        None => Dictionary::from_bytes(DEFAULT_DICTIONARY).map_err(crate::core),
    }
}

/// What is known of a verified pair, as `dedup` and `index query` write it:
/// each measure the method gave (the estimate, the exact Jaccard, the
/// Hamming distance, the multireference cosine and decision), the others
/// left out.
#[derive(serde::Serialize)]
pub struct Measured {
    #[serde(skip_serializing_if = "Option::is_none")]
    jaccard: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exact: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    distance: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    estimate: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    decision: Option<neardup::multiref::Decision>,
}

impl From<&neardup::dedup::Verified> for Measured {
    fn from(v: &neardup::dedup::Verified) -> Self {
        Measured {
            jaccard: v.jaccard,
            exact: v.exact,
            distance: v.distance,
            estimate: v.estimate,
            decision: v.decision,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of this test's own in the temporary folder.
    fn file(name: &str, bytes: &[u8]) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("neardup-estimate-{}-{name}", std::process::id()));
        fs::write(&path, bytes).unwrap();
        path
    }

    /// Exact for a file under a mebibyte (a last line with or without its
    /// line end, an empty file, blank lines and lines that are not records
    /// among the records); within 2 % for a long one whose lines vary in
    /// length; nothing for a long file of blank or bad lines; none where
    /// nothing can be estimated.
    #[test]
    fn records_are_counted_or_estimated_from_the_first_mebibyte() {
        let line = |i: usize| {
            format!(
                "{{\"id\": \"{i}\", \"text\": \"{}\"}}\n",
                "word ".repeat(5 + i % 40)
            )
        };
        let fields = Fields::default();
        let short: String = (0..300).map(line).collect();
        let mixed: String = (0..300)
            .map(|i| match i % 3 {
                0 => line(i),
                1 => "\n".to_string(),
                _ => format!("{{\"id\": \"{i}\", \"body\": \"no text field\"}}\n"),
            })
            .collect();
        let cases = [
            ("short", short.clone().into_bytes(), 300),
            ("unended", short.trim_end().as_bytes().to_vec(), 300),
            ("empty", Vec::new(), 0),
            ("mixed", mixed.into_bytes(), 100),
            ("blank", "\n".repeat(3 << 20).into_bytes(), 0),
        ];
        for (name, bytes, want) in cases {
            let path = file(name, &bytes);
            assert_eq!(estimate_records(&path, &fields), Some(want), "{name}");
            fs::remove_file(&path).unwrap();
        }
        let long: String = (0..40_000).map(line).collect();
        assert!(long.len() > 3 << 20, "the test's file is not long enough");
        let path = file("long", long.as_bytes());
        let got = estimate_records(&path, &fields).unwrap() as f64;
        assert!(
            (got / 40_000.0 - 1.0).abs() < 0.02,
            "estimated {got} of 40,000"
        );
        fs::remove_file(&path).unwrap();
        // Compressed, one line longer than the sample, standard input, a
        // folder: no estimate.
        let gz = file("gz", &[0x1f, 0x8b, 8, 0, 1, 2, 3]);
        let huge = file("huge", "x".repeat(3 << 20).as_bytes());
        assert_eq!(estimate_records(&gz, &fields), None);
        assert_eq!(estimate_records(&huge, &fields), None);
        assert_eq!(estimate_records(Path::new("-"), &fields), None);
        assert_eq!(estimate_records(&std::env::temp_dir(), &fields), None);
        fs::remove_file(&gz).unwrap();
        fs::remove_file(&huge).unwrap();
    }
}
