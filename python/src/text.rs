//! `decode_text(data)`: a text file's bytes to text by the core's one rule
//! (`neardup::text::decode_text`), as the CLI, the page and npm read them.

use pyo3::prelude::*;

/// Decodes a text file's bytes: by byte-order mark (UTF-8, UTF-16 LE/BE),
/// else UTF-8 when valid, else Windows-1252 (WHATWG Encoding Standard).
/// Returns `(text, encoding)`, `encoding` one of `"UTF-8"`, `"UTF-16LE"`,
/// `"UTF-16BE"`, `"windows-1252"`. Never fails on bytes; `TypeError` for
/// anything else.
#[pyfunction]
pub fn decode_text(py: Python<'_>, data: &[u8]) -> (String, &'static str) {
    let data = data.to_vec();
    let d = py.detach(|| neardup::text::decode_text(&data));
    (d.text, d.encoding.name())
}
