//! `read_files(path, data, max_text=None)`: one of a class's files read by
//! the core's reader (`neardup::read::read_files`), as `neardup class` and
//! the page read them: the format by the bytes, a zip archive entry by
//! entry, hidden text left out and counted.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// Reads one of a class's files: ``path`` its path (with its folders, as
/// the page and ``neardup class`` name them), ``data`` its bytes (at most
/// 50 MiB), ``max_text`` the most bytes of UTF-8 of text to read (default:
/// no limit but 16 MiB a text). Returns a dict: ``texts`` (a list of dicts
/// ``path``, ``text``, ``format`` — "text", "markdown", "html", "docx" or
/// "odt" —, ``hidden_runs``, ``hidden_bytes``, ``sha256``), ``failed`` (a
/// list of ``(path, reason)``: files and archive entries not read and why;
/// a PDF's reason says it is read by the page only) and ``text_bytes``.
/// Never raises for bad bytes (they are in ``failed``); ``TypeError`` for
/// arguments of the wrong type. Runs without the GIL.
#[pyfunction]
#[pyo3(signature = (path, data, max_text = None))]
pub fn read_files<'py>(
    py: Python<'py>,
    path: &str,
    data: &[u8],
    max_text: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let data = data.to_vec();
    let path = path.to_string();
    let read = py.detach(|| neardup::read::read_files(&path, &data, max_text.unwrap_or(u64::MAX)));
    let texts = PyList::empty(py);
    for t in &read.texts {
        let d = PyDict::new(py);
        d.set_item("path", &t.path)?;
        d.set_item("text", &t.text)?;
        d.set_item("format", t.format.name())?;
        d.set_item("hidden_runs", t.hidden.runs)?;
        d.set_item("hidden_bytes", t.hidden.bytes)?;
        d.set_item("sha256", &t.sha256)?;
        texts.append(d)?;
    }
    let failed = PyList::empty(py);
    for p in &read.pdfs {
        failed.append((
            p.path.as_str(),
            "a PDF: read by the page only (pdf.js); give its text (.txt) here",
        ))?;
    }
    for f in &read.failed {
        failed.append((f.path.as_str(), f.reason.as_str()))?;
    }
    let out = PyDict::new(py);
    out.set_item("texts", texts)?;
    out.set_item("failed", failed)?;
    out.set_item("text_bytes", read.text_bytes)?;
    Ok(out)
}
