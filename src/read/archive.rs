//! Zip archives (PKWARE APPNOTE 6.3, read by the `zip` crate): the
//! containers of `.docx` and `.odt`, and archives of students' files.
//!
//! Bounded before anything is inflated: at most
//! [`READING_LIMITS`]`.archive_files` entries listed; entries whose local
//! records overlap one another's are refused, in O(n log n) over the
//! directory (the overlapping-entry zip bomb, Fifield 2019, points
//! thousands of entries at one deflated stream). Then every byte inflated
//! is charged to one budget per reading ([`READING_LIMITS`]`.archive_bytes`)
//! — entries refused for their size included — and an entry is never
//! inflated past its own limit (a file, or an XML part) plus one byte.

use super::office;
use super::sniff::{self, Magic};
use super::{mib, over_text, Format, Hidden, ReadError, ReadErrorKind, READING_LIMITS};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use std::io::{Cursor, Read};

type Zip<'a> = zip::ZipArchive<Cursor<&'a [u8]>>;

/// Bytes that may still be inflated in one reading.
pub(crate) struct Budget {
    left: u64,
    limit: u64,
}

impl Budget {
    pub(crate) fn new(limit: u64) -> Budget {
        Budget { left: limit, limit }
    }

    fn spent(&self) -> bool {
        self.left == 0
    }

    fn over(&self) -> ReadError {
        ReadError::new(
            ReadErrorKind::TooLarge,
            alloc::format!(
                "expands to more than {} in all, over the limit",
                mib(self.limit)
            ),
        )
    }
}

fn damaged(e: impl core::fmt::Display) -> ReadError {
    ReadError::new(
        ReadErrorKind::Damaged,
        alloc::format!("a damaged zip archive ({e})"),
    )
}

/// Opens a zip archive: its directory read, its entries counted and
/// checked not to overlap.
fn open(bytes: &[u8]) -> Result<Zip<'_>, ReadError> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(damaged)?;
    if zip.len() as u64 > READING_LIMITS.archive_files {
        return Err(ReadError::new(
            ReadErrorKind::TooLarge,
            alloc::format!(
                "it lists {} entries, more than {}",
                zip.len(),
                READING_LIMITS.archive_files
            ),
        ));
    }
    // Each entry's record: from its local header to the end of its data.
    let mut spans: Vec<(u64, u64, usize)> = Vec::with_capacity(zip.len());
    for i in 0..zip.len() {
        let entry = zip.by_index_raw(i).map_err(damaged)?;
        let start = entry.header_start();
        let data = entry.data_start().unwrap_or(start);
        spans.push((start, data.saturating_add(entry.compressed_size()), i));
    }
    spans.sort_unstable();
    for pair in spans.windows(2) {
        if pair[1].0 < pair[0].1 {
            let name = |i: usize| {
                zip.name_for_index(i)
                    .and_then(|n| n.ok())
                    .map(|n| n.into_owned())
                    .unwrap_or_else(|| alloc::format!("entry {i}"))
            };
            return Err(ReadError::new(
                ReadErrorKind::Refused,
                alloc::format!(
                    "its entries {} and {} overlap (one entry's data inside another's: a known zip bomb): refused",
                    name(pair[0].2),
                    name(pair[1].2)
                ),
            ));
        }
    }
    Ok(zip)
}

/// Inflates entry `i`, at most `limit` bytes, charged to `budget`.
fn inflate(
    zip: &mut Zip<'_>,
    i: usize,
    limit: u64,
    budget: &mut Budget,
) -> Result<Vec<u8>, ReadError> {
    let entry = zip.by_index(i).map_err(|e| match e {
        zip::result::ZipError::UnsupportedArchive(why) => ReadError::new(
            ReadErrorKind::Unsupported,
            alloc::format!("an entry neardup cannot read ({why})"),
        ),
        e => damaged(e),
    })?;
    if entry.size() > limit {
        return Err(super::over_limit(Some(entry.size()), limit));
    }
    if budget.spent() {
        return Err(budget.over());
    }
    let cap = limit.min(budget.left);
    let declared = entry.size();
    let mut out = Vec::with_capacity(declared.min(cap) as usize);
    let read = entry.take(cap + 1).read_to_end(&mut out);
    budget.left = budget.left.saturating_sub(out.len() as u64);
    // The zip crate stops an entry at the size it declares (its error
    // names the declared size): a lie told to pass a size check.
    read.map_err(|e| match e.to_string().contains("declared") {
        true => ReadError::new(
            ReadErrorKind::Refused,
            alloc::format!("expands past the {declared} bytes it declares (a zip bomb?): refused"),
        ),
        false => damaged(e),
    })?;
    if out.len() as u64 > limit {
        return Err(ReadError::new(
            ReadErrorKind::TooLarge,
            alloc::format!("expands to more than {}, over the limit", mib(limit)),
        ));
    }
    if out.len() as u64 > cap {
        budget.left = 0;
        return Err(budget.over());
    }
    Ok(out)
}

/// Which document a zip is: `.docx`, `.odt`, or neither (`None`).
fn office_kind(zip: &mut Zip<'_>, budget: &mut Budget) -> Result<Option<Format>, ReadError> {
    if zip.index_for_name("word/document.xml").is_some() {
        return Ok(Some(Format::Docx));
    }
    if zip.index_for_name("content.xml").is_some() {
        if let Some(i) = zip.index_for_name("mimetype") {
            let mime = inflate(zip, i, 256, budget)?;
            if mime.trim_ascii() == b"application/vnd.oasis.opendocument.text" {
                return Ok(Some(Format::Odt));
            }
        }
    }
    Ok(None)
}

/// An XML part of a document, at most `xml_bytes`.
fn part(zip: &mut Zip<'_>, name: &str, budget: &mut Budget) -> Result<Option<Vec<u8>>, ReadError> {
    match zip.index_for_name(name) {
        Some(i) => inflate(zip, i, READING_LIMITS.xml_bytes, budget)
            .map(Some)
            .map_err(|e| ReadError::new(e.kind(), alloc::format!("{name}: {e}"))),
        None => Ok(None),
    }
}

/// The text of a `.docx` or `.odt`, or `None` for a zip that is neither.
pub(crate) fn document(
    bytes: &[u8],
    budget: &mut Budget,
    max: u64,
) -> Result<Option<(String, Format, Hidden)>, ReadError> {
    let mut zip = open(bytes)?;
    document_of(&mut zip, budget, max)
}

fn document_of(
    zip: &mut Zip<'_>,
    budget: &mut Budget,
    max: u64,
) -> Result<Option<(String, Format, Hidden)>, ReadError> {
    let Some(format) = office_kind(zip, budget)? else {
        return Ok(None);
    };
    let (text, hidden) = match format {
        Format::Docx => {
            let styles = match part(zip, "word/styles.xml", budget)? {
                Some(xml) => office::word_styles(&xml)?,
                None => Default::default(),
            };
            let xml = part(zip, "word/document.xml", budget)?.unwrap_or_default();
            office::word_text(&xml, &styles, max)?
        }
        _ => {
            let styles = match part(zip, "styles.xml", budget)? {
                Some(xml) => office::odf_style_part(&xml)?,
                None => Default::default(),
            };
            let xml = part(zip, "content.xml", budget)?.unwrap_or_default();
            office::odf_text(&xml, styles, max)?
        }
    };
    Ok(Some((text, format, hidden)))
}

/// One document read from a class's files.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct ReadEntry {
    /// Its path: the file's, or inside an archive the archive's folder and
    /// the entry's path in it (`/`-separated; `.` and `..` dropped).
    pub path: String,
    /// Its text (UTF-8).
    pub text: String,
    /// The format it was read as.
    pub format: Format,
    /// Text left out as hidden from the eye.
    pub hidden: Hidden,
    /// SHA-256 of its bytes, lower-case hex.
    pub sha256: String,
}

/// A file (or archive entry) that was not read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct Skipped {
    /// Its path, as [`ReadEntry::path`].
    pub path: String,
    /// Why, in plain words.
    pub reason: String,
}

/// A PDF found among a class's files: the caller reads it with a PDF
/// reader (the page's pdf.js) or refuses it (the CLI, Python).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct PdfFile {
    /// Its path, as [`ReadEntry::path`].
    pub path: String,
    /// Its bytes (at most `file_bytes`); a `Uint8Array` in JavaScript.
    #[cfg_attr(feature = "serde", serde(with = "serde_bytes"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(type = "Uint8Array"))]
    pub bytes: Vec<u8>,
}

/// What one of a class's files gave: the documents read, the files not
/// read with their reasons, the PDFs left to the caller, and the bytes of
/// text read (UTF-8), in the order the files and entries come.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct ClassFiles {
    /// The documents read.
    pub texts: Vec<ReadEntry>,
    /// The files and entries not read, with why.
    pub failed: Vec<Skipped>,
    /// PDFs, for the caller's PDF reader.
    pub pdfs: Vec<PdfFile>,
    /// Bytes of text read, every document together (at most the
    /// `max_text` given).
    pub text_bytes: u64,
}

/// A path inside an archive made safe: `\` read as `/`, empty, `.` and
/// `..` parts dropped (an entry never names a place outside its archive);
/// `None` when nothing is left.
fn clean(name: &str) -> Option<String> {
    let parts: Vec<&str> = name
        .split(['/', '\\'])
        .filter(|p| !p.is_empty() && *p != "." && *p != "..")
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Whether an archive entry is one no one means as a student's file: a
/// folder, a hidden file (a name beginning with `.`), macOS's `__MACOSX/`.
fn passed_over(name: &str) -> bool {
    name.ends_with('/')
        || name
            .rsplit('/')
            .next()
            .is_none_or(|last| last.is_empty() || last.starts_with('.'))
        || name.starts_with("__MACOSX/")
}

/// Reads one of a class's files, `path` its path (in a picked folder, with
/// the folders; the name at least): a document, a PDF (returned for the
/// caller), or a zip archive of files read entry by entry — archives
/// inside it too, to [`READING_LIMITS`]`.archive_depth` — an entry's path
/// the archive's folder and its path inside (the archive stands for the
/// files it holds, where it lies). Every text is at most `text_bytes`, all
/// together at most `max_text`; every byte inflated is charged to one
/// budget of `archive_bytes`. What cannot be read is in
/// [`ClassFiles::failed`] with its reason, never an error: what was read
/// before a failure stays read. Time and memory linear in the bytes and
/// what they inflate to (bounded by the limits).
///
/// ```
/// use neardup::read::read_files;
/// let out = read_files("class/anna.txt", b"Anna's essay.", u64::MAX);
/// assert_eq!(out.texts[0].path, "class/anna.txt");
/// assert_eq!(out.texts[0].text, "Anna's essay.");
/// assert!(out.failed.is_empty() && out.pdfs.is_empty());
/// ```
pub fn read_files(path: &str, bytes: &[u8], max_text: u64) -> ClassFiles {
    let mut out = ClassFiles::default();
    let mut budget = Budget::new(READING_LIMITS.archive_bytes);
    let mut left = max_text;
    if bytes.len() as u64 > READING_LIMITS.file_bytes {
        out.failed.push(Skipped {
            path: path.to_string(),
            reason: super::over_limit(Some(bytes.len() as u64), READING_LIMITS.file_bytes)
                .reason()
                .to_string(),
        });
        return out;
    }
    one(&mut out, path, bytes, 0, &mut budget, &mut left);
    out.text_bytes = out.texts.iter().map(|t| t.text.len() as u64).sum();
    out
}

/// Reads one file or entry into `out` (see [`read_files`]).
fn one(
    out: &mut ClassFiles,
    path: &str,
    bytes: &[u8],
    depth: u64,
    budget: &mut Budget,
    left: &mut u64,
) {
    let fail = |out: &mut ClassFiles, e: ReadError| {
        out.failed.push(Skipped {
            path: path.to_string(),
            reason: e.reason().to_string(),
        })
    };
    let max = (*left).min(READING_LIMITS.text_bytes);
    let read = match sniff::magic(bytes) {
        Magic::Pdf => {
            out.pdfs.push(PdfFile {
                path: path.to_string(),
                bytes: bytes.to_vec(),
            });
            return;
        }
        Magic::Legacy => Err(sniff::legacy_error()),
        Magic::Other => sniff::text_file(path, bytes, max).map(|(t, f, _, h)| (t, f, h)),
        Magic::Zip => {
            let mut zip = match open(bytes) {
                Ok(zip) => zip,
                Err(e) => return fail(out, e),
            };
            match document_of(&mut zip, budget, max) {
                Ok(Some(read)) => Ok(read),
                Ok(None) => return entries(out, path, &mut zip, depth, budget, left),
                Err(e) => Err(e),
            }
        }
    };
    let read = read.and_then(|(text, format, hidden)| {
        sniff::has_words(&text)?;
        if text.len() as u64 > max {
            return Err(over_text(max));
        }
        Ok((text, format, hidden))
    });
    match read {
        Ok((text, format, hidden)) => {
            *left -= text.len() as u64;
            out.texts.push(ReadEntry {
                path: path.to_string(),
                text,
                format,
                hidden,
                sha256: super::sha256_hex(bytes),
            })
        }
        Err(e) => fail(out, e),
    }
}

/// Reads every entry of an archive of files (see [`read_files`]).
fn entries(
    out: &mut ClassFiles,
    path: &str,
    zip: &mut Zip<'_>,
    depth: u64,
    budget: &mut Budget,
    left: &mut u64,
) {
    if depth >= READING_LIMITS.archive_depth {
        out.failed.push(Skipped {
            path: path.to_string(),
            reason: alloc::format!(
                "an archive inside {} archives is not read",
                READING_LIMITS.archive_depth
            ),
        });
        return;
    }
    let folder = match path.rfind(['/', '\\']) {
        Some(at) => &path[..=at],
        None => "",
    };
    for i in 0..zip.len() {
        let Some(raw) = zip
            .name_for_index(i)
            .and_then(|n| n.ok())
            .map(|n| n.into_owned())
        else {
            continue;
        };
        if passed_over(&raw) {
            continue;
        }
        let Some(name) = clean(&raw) else { continue };
        let at = alloc::format!("{folder}{name}");
        match inflate(zip, i, READING_LIMITS.file_bytes, budget) {
            Ok(data) => one(out, &at, &data, depth + 1, budget, left),
            Err(e) => {
                let spent = budget.spent();
                out.failed.push(Skipped {
                    path: at,
                    reason: e.reason().to_string(),
                });
                if spent {
                    out.failed.push(Skipped {
                        path: path.to_string(),
                        reason: alloc::format!(
                            "{}; the files before it were read",
                            budget.over().reason()
                        ),
                    });
                    return;
                }
            }
        }
    }
}
