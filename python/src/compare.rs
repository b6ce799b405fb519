//! `compare(a, b, **options)`: every measure of two texts and their shared
//! passages (the core's `neardup::compare`, Broder 1997; Clough & Stevenson
//! 2011), as a dict — the report the CLI writes with `--json`.

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Compares suspicious text `a` with source `b`: `score` (containment of
/// `a`'s word 3-shingles in `b`'s, in [0, 1]), resemblance, containment both
/// ways, Dice, cosine, and the shared passages with byte ranges. Options:
/// the core's `CompareConfig` in snake_case (`word_k`, `char_q`, `seed`,
/// `span_gap`, `max_bytes`, `phonetic`, `min_words`: the minimum match
/// length in words, 0..=1000, applied to the score and every passage-based
/// figure).
/// `ValueError` for an empty text or a bad option.
#[pyfunction]
#[pyo3(signature = (a, b, **options))]
pub fn compare<'py>(
    py: Python<'py>,
    a: &str,
    b: &str,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let config: neardup::CompareConfig = crate::options::serde_config(py, options)?;
    let (a, b) = (a.to_string(), b.to_string());
    let report = py
        .detach(|| neardup::compare(&a, &b, &config))
        .map_err(crate::value_error)?;
    let text = serde_json::to_string(&report)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}
