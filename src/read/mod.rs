//! A file's bytes to the text a reader sees (feature `read`): the one reader
//! of every surface — `neardup class`, the page's reader worker through
//! WebAssembly, Python — so that one class folder gives the same students,
//! texts and skipped files everywhere.
//!
//! The format is decided by the bytes, the name only a hint (a `.txt` that
//! is a PDF is a PDF; a `.docx` that is not a zip is damaged):
//!
//! | bytes begin with      | format                                              |
//! |-----------------------|-----------------------------------------------------|
//! | `%PDF-`               | PDF: [`Format::Pdf`], read by the caller (the page's pdf.js), refused by [`read_file`] with that reason |
//! | `PK\x03\x04` / `PK\x05\x06` | a zip: `.docx` when it holds `word/document.xml` (ECMA-376 WordprocessingML), `.odt` when `content.xml` and the OpenDocument text `mimetype` (OASIS ODF 1.3), else an archive of files ([`read_files`]) |
//! | `D0 CF 11 E0`         | a legacy Office file (`.doc`): refused, saying what to do |
//! | anything else         | text, decoded by [`crate::text::decode_text`]; refused as binary when it holds NUL or many control characters; HTML when named `.html`/`.htm` or when it begins as an HTML document; Markdown when named `.md`/`.markdown` |
//!
//! Text a reader hides from the eye — WordprocessingML's `w:vanish`, text
//! whose colour is (nearly) that of its background, text of 2 pt or less;
//! OpenDocument's hidden paragraphs, hidden text fields, `text:display="none"`
//! styles and sections; HTML's `hidden` attribute and inline `display:none`,
//! `visibility:hidden`, `opacity:0` or a font of 2 pt or less — is left out
//! of the text and counted in [`Hidden`] (`hidden.rs`): it is used to pad a
//! copy with words no one sees, so that its share of copied phrases falls.
//!
//! Every limit ([`READING_LIMITS`]) counts bytes actually produced —
//! inflated, decoded — never the sizes a file declares, and a limit is
//! checked before its bytes are held. Archives (`archive.rs`) are charged
//! for every byte they inflate, and entries whose data overlap another's
//! (the overlapping-entry zip bomb, Fifield 2019) are refused before any is
//! inflated.

mod archive;
mod folder;
mod hidden;
mod html;
mod office;
mod sniff;

pub use archive::{read_files, ClassFiles, PdfFile, ReadEntry, Skipped};
pub use folder::{read_bounded, ClassTexts, MAX_DEPTH};
pub use hidden::Hidden;
pub use sniff::read_file;

use alloc::string::String;
use core::fmt;

/// What the reader produces at most, in bytes actually produced (never as
/// declared). One set of limits for every surface; the page, the CLI and
/// Python read them from here ([`READING_LIMITS`], npm's `readingLimits()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct ReadingLimits {
    /// Largest file read, or file taken out of an archive: 50 MiB.
    pub file_bytes: u64,
    /// Largest XML part of a `.docx` or `.odt`, as inflated: 64 MiB.
    pub xml_bytes: u64,
    /// Largest text of one file, in bytes of UTF-8: 16 MiB (the core's
    /// limit of one text).
    pub text_bytes: u64,
    /// Most bytes one archive may inflate, every entry together, skipped
    /// and refused ones included: 500 MiB.
    pub archive_bytes: u64,
    /// Most entries one archive may list: 5,000.
    pub archive_files: u64,
    /// Most archives inside one another: 2 (an archive in an archive is
    /// read; a third level is refused).
    pub archive_depth: u64,
    /// Most text a class set reads, every file together, in bytes of UTF-8:
    /// 64 MiB (some 3,000 essays of 20 KB).
    pub class_text_bytes: u64,
    /// Most pages read from a PDF (by the page's pdf.js): 2,000.
    pub pdf_pages: u64,
}

/// The reading limits of every surface (see [`ReadingLimits`]).
pub const READING_LIMITS: ReadingLimits = ReadingLimits {
    file_bytes: 50 << 20,
    xml_bytes: 64 << 20,
    text_bytes: 16 << 20,
    archive_bytes: 500 << 20,
    archive_files: 5000,
    archive_depth: 2,
    class_text_bytes: 64 << 20,
    pdf_pages: 2000,
};

/// The format a file was read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub enum Format {
    /// Plain text (decoded by byte-order mark, else UTF-8, else Windows-1252).
    Text,
    /// Markdown (`.md`, `.markdown`): its text as it is.
    Markdown,
    /// An HTML document: the text of its body, a line per block.
    Html,
    /// A WordprocessingML document: its paragraphs.
    Docx,
    /// An OpenDocument text: its paragraphs and headings.
    Odt,
    /// A PDF: read by the caller's PDF reader (the page's pdf.js).
    Pdf,
}

impl Format {
    /// The lower-case name: `"text"`, `"markdown"`, `"html"`, `"docx"`,
    /// `"odt"` or `"pdf"`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Markdown => "markdown",
            Format::Html => "html",
            Format::Docx => "docx",
            Format::Odt => "odt",
            Format::Pdf => "pdf",
        }
    }
}

/// Why a file could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadErrorKind {
    /// Over one of [`READING_LIMITS`].
    TooLarge,
    /// A damaged file: a zip or XML that cannot be parsed, an archive cut
    /// short.
    Damaged,
    /// Refused on purpose: a DTD in a document's XML, zip entries whose
    /// data overlap, archives nested too deep.
    Refused,
    /// Not a format neardup reads (binary data, a legacy `.doc`, a zip that
    /// is neither a document nor an archive of files here).
    Unsupported,
    /// A PDF, read by the page only (pdf.js).
    Pdf,
    /// Read, but it holds no words.
    NoText,
}

/// A file that cannot be read as text: [`ReadError::kind`] says which way,
/// the message why in plain words (without the file's name, which the
/// caller adds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    kind: ReadErrorKind,
    reason: String,
}

impl ReadError {
    pub(crate) fn new(kind: ReadErrorKind, reason: impl Into<String>) -> ReadError {
        ReadError {
            kind,
            reason: reason.into(),
        }
    }

    /// Which way the file could not be read.
    pub fn kind(&self) -> ReadErrorKind {
        self.kind
    }

    /// Why, in plain words.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for ReadError {}

/// `n` bytes in MiB, for messages: `"50 MiB"`, `"0.50 MiB"`.
pub(crate) fn mib(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        alloc::format!("{} MiB", n >> 20)
    } else {
        alloc::format!("{:.2} MiB", n as f64 / (1u64 << 20) as f64)
    }
}

/// Appends `s` to `out` with each run of white space as one space (the
/// text of HTML and OpenDocument text nodes).
pub(crate) fn collapse_into(s: &str, out: &mut String) {
    let mut space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            if !space {
                out.push(' ');
            }
            space = true;
        } else {
            out.push(c);
            space = false;
        }
    }
}

/// `size` bytes (or, with `None`, an unknown number) over a limit of
/// `limit` bytes: the one message of a file or entry too large
/// ([`ReadErrorKind::TooLarge`]), e.g. `"57671680 bytes, over the 50 MiB
/// limit"` — what a caller that checks a file's size before reading it
/// (the page, the CLI's folders) says too.
pub fn over_limit(size: Option<u64>, limit: u64) -> ReadError {
    ReadError::new(
        ReadErrorKind::TooLarge,
        match size {
            Some(n) => alloc::format!("{n} bytes, over the {} limit", mib(limit)),
            None => alloc::format!("over the {} limit", mib(limit)),
        },
    )
}

/// A text over `max` bytes: the one message of it, saying which limit
/// (`max` under `READING_LIMITS.text_bytes`: what was left of the class
/// set's), [`ReadErrorKind::TooLarge`] — what a caller reading a format of
/// its own (the page's PDFs) says too.
pub fn over_text(max: u64) -> ReadError {
    ReadError::new(
        ReadErrorKind::TooLarge,
        if max < READING_LIMITS.text_bytes {
            alloc::format!(
                "its text is over the {} left of the class set's limit",
                mib(max)
            )
        } else {
            alloc::format!("its text is over the {} limit of one text", mib(max))
        },
    )
}

/// The SHA-256 of `bytes` (FIPS 180-4), lower-case hex: the evidence pack's
/// file hashes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use core::fmt::Write;
    use sha2::{Digest, Sha256};
    let mut out = String::with_capacity(64);
    for b in Sha256::digest(bytes) {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// What one document gave: its text, the format it was read as, the
/// encoding of a text file, the text left out as hidden, and the SHA-256 of
/// the file's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct FileText {
    /// The text, at most the `max_text` given (UTF-8 bytes).
    pub text: String,
    /// The format it was read as (never [`Format::Pdf`]).
    pub format: Format,
    /// The WHATWG name of a text file's encoding (`"UTF-8"`, `"UTF-16LE"`,
    /// `"UTF-16BE"`, `"windows-1252"`); absent for other formats.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub encoding: Option<&'static str>,
    /// Text left out as hidden from the eye (runs and bytes).
    pub hidden: Hidden,
    /// SHA-256 of the file's bytes, lower-case hex (64 digits).
    pub sha256: String,
}
