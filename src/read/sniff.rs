//! The format of a file by its bytes (the name a hint), and the reading of
//! one document (module docs of [`crate::read`]).

use super::{
    archive, html, over_text, FileText, Format, Hidden, ReadError, ReadErrorKind, READING_LIMITS,
};
use alloc::string::String;

/// What a file's first bytes say it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Magic {
    Pdf,
    Zip,
    Legacy,
    Other,
}

/// The format by the bytes' signature.
pub(crate) fn magic(bytes: &[u8]) -> Magic {
    if bytes.starts_with(b"%PDF-") {
        Magic::Pdf
    } else if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        Magic::Zip
    } else if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) {
        Magic::Legacy
    } else {
        Magic::Other
    }
}

/// A name's extension, lower case (`""` for none).
pub(crate) fn extension(name: &str) -> String {
    let last = name.rsplit(['/', '\\']).next().unwrap_or(name);
    last.rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default()
}

pub(crate) fn pdf_error() -> ReadError {
    ReadError::new(
        ReadErrorKind::Pdf,
        "a PDF: read by the page only (pdf.js); give its text (.txt) here",
    )
}

pub(crate) fn legacy_error() -> ReadError {
    ReadError::new(
        ReadErrorKind::Unsupported,
        "an old Word (.doc) or other legacy Office file: save it as .docx or PDF, or paste its text",
    )
}

/// Text has no NUL and few other control characters (tab, line breaks and
/// form feed aside); binary data has many. Looks at the first 65,536
/// characters.
fn looks_binary(text: &str) -> bool {
    let mut chars = 0usize;
    let mut controls = 0usize;
    for c in text.chars().take(65_536) {
        chars += 1;
        match c {
            '\0' => return true,
            '\u{1}'..='\u{8}' | '\u{e}'..='\u{1f}' | '\u{7f}' => controls += 1,
            _ => {}
        }
    }
    controls * 100 > chars
}

/// Whether a text begins as an HTML document (`<!doctype html` or `<html`
/// in its first 1,024 characters, after white space; case ignored).
pub fn looks_like_html(text: &str) -> bool {
    let head: String = text
        .trim_start()
        .chars()
        .take(1024)
        .collect::<String>()
        .to_ascii_lowercase();
    ["<!doctype html", "<html"].iter().any(|start| {
        head.strip_prefix(start)
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_whitespace() || c == '>'))
    })
}

/// A text file's (or HTML page's) text, at most `max` bytes.
pub(crate) fn text_file(
    name: &str,
    bytes: &[u8],
    max: u64,
) -> Result<(String, Format, Option<&'static str>, Hidden), ReadError> {
    let decoded = crate::text::decode_text(bytes);
    if looks_binary(&decoded.text) {
        return Err(ReadError::new(
            ReadErrorKind::Unsupported,
            "not a text, .docx, .odt or PDF file (binary data)",
        ));
    }
    let ext = extension(name);
    if ext == "html" || ext == "htm" || looks_like_html(&decoded.text) {
        let (text, hidden) = html::html_text(&decoded.text, max)?;
        return Ok((text, Format::Html, None, hidden));
    }
    if decoded.text.len() as u64 > max {
        return Err(over_text(max));
    }
    let format = match ext.as_str() {
        "md" | "markdown" => Format::Markdown,
        _ => Format::Text,
    };
    Ok((
        decoded.text,
        format,
        Some(decoded.encoding.name()),
        Hidden::default(),
    ))
}

/// Refuses a text without a letter or digit.
pub(crate) fn has_words(text: &str) -> Result<(), ReadError> {
    if text.chars().any(char::is_alphanumeric) {
        Ok(())
    } else {
        Err(ReadError::new(ReadErrorKind::NoText, "it holds no words"))
    }
}

/// Reads one document's bytes: a text file, an HTML page, a `.docx` or an
/// `.odt`, its format decided by its bytes with `name` (a file name or
/// path) as a hint, its text at most `max_text` bytes of UTF-8 (and at most
/// [`READING_LIMITS`]`.text_bytes`). Time and memory linear in the bytes
/// and what they inflate to (bounded by the limits).
///
/// # Errors
///
/// A [`ReadError`] naming why: a file over `file_bytes`, a text over the
/// limit ([`ReadErrorKind::TooLarge`]); a damaged zip or XML
/// ([`ReadErrorKind::Damaged`]); a DTD or overlapping zip entries
/// ([`ReadErrorKind::Refused`]); binary data, a legacy `.doc`, a zip
/// archive of files ([`ReadErrorKind::Unsupported`]: read those with
/// [`super::read_files`]); a PDF ([`ReadErrorKind::Pdf`]); no letter or
/// digit ([`ReadErrorKind::NoText`]).
///
/// ```
/// use neardup::read::{read_file, Format};
/// let page = b"<!doctype html><p>Seen.</p><p style='display:none'>Padding no one sees.</p>";
/// let read = read_file("essay.txt", page, u64::MAX).unwrap();
/// assert_eq!((read.text.as_str(), read.format), ("Seen.", Format::Html));
/// assert_eq!((read.hidden.runs, read.hidden.bytes), (1, 20));
/// ```
pub fn read_file(name: &str, bytes: &[u8], max_text: u64) -> Result<FileText, ReadError> {
    if bytes.len() as u64 > READING_LIMITS.file_bytes {
        return Err(super::over_limit(
            Some(bytes.len() as u64),
            READING_LIMITS.file_bytes,
        ));
    }
    let max = max_text.min(READING_LIMITS.text_bytes);
    let (text, format, encoding, hidden) = match magic(bytes) {
        Magic::Pdf => return Err(pdf_error()),
        Magic::Legacy => return Err(legacy_error()),
        Magic::Zip => {
            let mut budget = archive::Budget::new(READING_LIMITS.archive_bytes);
            match archive::document(bytes, &mut budget, max)? {
                Some((text, format, hidden)) => (text, format, None, hidden),
                None => {
                    return Err(ReadError::new(
                        ReadErrorKind::Unsupported,
                        "a zip archive that is not a .docx or .odt document (give an archive of students' files as a class set)",
                    ))
                }
            }
        }
        Magic::Other => text_file(name, bytes, max)?,
    };
    has_words(&text)?;
    Ok(FileText {
        text,
        format,
        encoding,
        hidden,
        sha256: super::sha256_hex(bytes),
    })
}
