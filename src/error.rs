//! The crate's one error type: opaque [`Error`] with an inspectable, typed
//! [`ErrorKind`] (the regex-automata model).

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
    /// An option is outside its range.
    ///
    /// `option` is the option's name in `snake_case`, as in the Rust
    /// configuration types (e.g. `"word_k"`); a binding shows it in its own
    /// idiom (`wordK` in JavaScript, `--word-k` on the command line).
    InvalidOption {
        /// The option's `snake_case` name.
        option: &'static str,
        /// What is wrong, e.g. `"must be in 1..=32, got 0"`.
        reason: String,
    },
    /// Persisted bytes (a signature, a snapshot, a model) are damaged,
    /// truncated or inconsistent; `msg` says how.
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
    /// Two values cannot be used together: sketches of different length,
    /// seed or shingling, a sketch that does not fit an index, a vector of
    /// the wrong length for a model.
    Incompatible {
        /// What was refused, e.g. `"signature"`.
        what: &'static str,
        /// What the receiver takes.
        expected: String,
        /// What it was given.
        found: String,
    },
    /// An id is already in the index.
    DuplicateId {
        /// The id.
        id: String,
    },
    /// An index holds `2^32 - 1` documents and takes no more.
    IndexFull,
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

    /// An [`ErrorKind::InvalidOption`] for `option`.
    pub(crate) fn option(option: &'static str, reason: impl Into<String>) -> Self {
        Error::new(ErrorKind::InvalidOption {
            option,
            reason: reason.into(),
        })
    }

    pub(crate) fn corrupt(what: &'static str, msg: impl Into<String>) -> Self {
        Error::new(ErrorKind::Corrupt {
            what,
            msg: msg.into(),
        })
    }

    pub(crate) fn incompatible(
        what: &'static str,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        Error::new(ErrorKind::Incompatible {
            what,
            expected: expected.into(),
            found: found.into(),
        })
    }

    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The message with option names shown by `name` (e.g. camelCase for
    /// JavaScript, `--kebab-case` for a command line): the same sentence as
    /// `Display` otherwise.
    pub fn message_with(&self, name: impl Fn(&str) -> String) -> String {
        match &self.kind {
            ErrorKind::InvalidOption { option, reason } => {
                alloc::format!("invalid option {}: {reason}", name(option))
            }
            _ => alloc::format!("{self}"),
        }
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
            ErrorKind::InvalidOption { option, reason } => {
                write!(f, "invalid option {option}: {reason}")
            }
            ErrorKind::Corrupt { what, msg } => write!(f, "corrupt {what}: {msg}"),
            ErrorKind::Version {
                what,
                found,
                supported,
            } => write!(
                f,
                "{what} has format version {found}, but this build of neardup reads version {supported}"
            ),
            ErrorKind::Incompatible {
                what,
                expected,
                found,
            } => write!(
                f,
                "incompatible {what}: expected {expected}, got {found}"
            ),
            ErrorKind::DuplicateId { id } => write!(f, "id {id:?} is already in the index"),
            ErrorKind::IndexFull => write!(f, "the index is full (2^32 - 1 documents)"),
        }
    }
}

impl core::error::Error for Error {}

/// Checks `value` is in `range`, else an [`ErrorKind::InvalidOption`] for
/// `option` that states the range.
pub(crate) fn check_range<T>(
    option: &'static str,
    value: T,
    range: core::ops::RangeInclusive<T>,
) -> Result<(), Error>
where
    T: PartialOrd + fmt::Display,
{
    if range.contains(&value) {
        Ok(())
    } else {
        Err(Error::option(
            option,
            alloc::format!(
                "must be in {}..={}, got {value}",
                range.start(),
                range.end()
            ),
        ))
    }
}
