//! The crate's one error type.

use alloc::string::String;
use core::fmt;

/// What went wrong, for callers that want to branch on it.
///
/// Marked `#[non_exhaustive]`: later methods add kinds.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A text had no word tokens after normalisation (empty, whitespace or
    /// punctuation only). `which` names the text: `"a"` or `"b"`.
    EmptyText {
        /// Which input: `"a"` or `"b"`.
        which: &'static str,
    },
    /// A text is longer than the configured limit, in bytes of UTF-8.
    TooLarge {
        /// Which input: `"a"` or `"b"`.
        which: &'static str,
        /// The text's length in bytes.
        len: u64,
        /// The limit in bytes.
        max: u64,
    },
    /// An option is outside its range; the message names it and the range.
    InvalidOption(String),
    /// Persisted bytes (a signature, a snapshot) are damaged, truncated or
    /// inconsistent; `msg` says how.
    Corrupt {
        /// What was being read, e.g. `"MinHash signature"`.
        what: &'static str,
        /// What is wrong.
        msg: String,
    },
    /// Persisted bytes are of a format version this build does not read.
    Version {
        /// What was being read.
        what: &'static str,
        /// The version found.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// Two values cannot be used together (signatures of different length,
    /// seed or shingling; a signature that does not fit an index).
    Incompatible(String),
    /// An id is already in the index.
    DuplicateId(String),
}

/// The error of every fallible operation in `neardup`.
///
/// Opaque but inspectable through [`Error::kind`]; its `Display` is a
/// complete sentence fit to show a user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind) -> Self {
        Error { kind }
    }

    pub(crate) fn invalid_option(msg: impl Into<String>) -> Self {
        Error::new(ErrorKind::InvalidOption(msg.into()))
    }

    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::EmptyText { which } => write!(
                f,
                "text {which} has no words after normalisation (it is empty, or only whitespace, punctuation or symbols)"
            ),
            ErrorKind::TooLarge { which, len, max } => write!(
                f,
                "text {which} is {len} bytes long, more than the limit of {max} bytes"
            ),
            ErrorKind::InvalidOption(msg) => write!(f, "invalid option: {msg}"),
            ErrorKind::Corrupt { what, msg } => write!(f, "corrupt {what}: {msg}"),
            ErrorKind::Version {
                what,
                found,
                supported,
            } => write!(
                f,
                "{what} has format version {found}, but this build of neardup reads version {supported}"
            ),
            ErrorKind::Incompatible(msg) => write!(f, "incompatible values: {msg}"),
            ErrorKind::DuplicateId(id) => write!(f, "id {id:?} is already in the index"),
        }
    }
}

impl core::error::Error for Error {}
