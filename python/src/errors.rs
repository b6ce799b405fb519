//! The module's exceptions: `neardup.Error`, a `ValueError`, and one
//! subclass per kind of problem, mapped from the core's `ErrorKind` (so that
//! code catching `ValueError` keeps working and code that wants to tell a
//! bad option from a damaged file can). Wrong Python types stay `TypeError`.
//!
//! | exception | raised for | the core's kinds |
//! |---|---|---|
//! | `ConfigError` | an option out of range, unknown, or of another method | `InvalidOption` |
//! | `InputError` | a text or id that cannot be used: empty, a duplicate id, a sketch of another configuration, invalid Arrow data | `EmptyText`, `DuplicateId`, `Incompatible` |
//! | `CorruptError` | bytes that are not what they claim (a snapshot, a library, a sketch) | `Corrupt` |
//! | `VersionError` | bytes of another format or spec version | `Version` |
//! | `LimitError` | a text over `max_bytes`, an index full | `TooLarge`, `IndexFull` |

use neardup::ErrorKind;
use pyo3::create_exception;
use pyo3::prelude::*;

create_exception!(
    neardup,
    Error,
    pyo3::exceptions::PyValueError,
    "Every error of neardup's own (a ValueError): catch this, or one of its kinds."
);
create_exception!(
    neardup,
    ConfigError,
    Error,
    "An option out of range, unknown, or of another method; the message names it."
);
create_exception!(
    neardup,
    InputError,
    Error,
    "A text, id, sketch or column that cannot be used; the message names which."
);
create_exception!(
    neardup,
    CorruptError,
    Error,
    "Bytes (a snapshot, a library, a sketch) that are damaged or not what they claim."
);
create_exception!(
    neardup,
    VersionError,
    Error,
    "Bytes of another format or spec version than this build reads."
);
create_exception!(
    neardup,
    LimitError,
    Error,
    "A text over max_bytes, or an index that is full."
);

/// A core error as the exception of its kind, with the core's message.
pub(crate) fn core(e: &neardup::Error) -> PyErr {
    let msg = e.to_string();
    match e.kind() {
        ErrorKind::InvalidOption { .. } => ConfigError::new_err(msg),
        ErrorKind::Corrupt { .. } => CorruptError::new_err(msg),
        ErrorKind::Version { .. } => VersionError::new_err(msg),
        ErrorKind::TooLarge { .. } | ErrorKind::IndexFull => LimitError::new_err(msg),
        _ => InputError::new_err(msg),
    }
}

/// A core error about one text of a batch: the exception of its kind, its
/// message prefixed with where the text is (`texts[i]: …`).
pub(crate) fn at(where_: String, e: &neardup::Error) -> PyErr {
    let err = core(e);
    Python::attach(|py| {
        let msg = format!("{where_}: {e}");
        let ty = err.get_type(py);
        PyErr::from_type(ty, msg)
    })
}

/// Registers the exceptions in the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("ConfigError", py.get_type::<ConfigError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("CorruptError", py.get_type::<CorruptError>())?;
    m.add("VersionError", py.get_type::<VersionError>())?;
    m.add("LimitError", py.get_type::<LimitError>())?;
    Ok(())
}
