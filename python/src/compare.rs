//! `compare(a, b, **options)`: every measure of two texts and their shared
//! passages (the core's `neardup::compare_with`, Broder 1997; Clough &
//! Stevenson 2011), as a dict — the report the CLI writes with `--json`.

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Compares suspicious text `a` with source `b`: `score` (containment of
/// `a`'s word 3-shingles in `b`'s, in [0, 1]), resemblance, containment both
/// ways, Dice, cosine, and the shared passages with byte ranges. Options:
/// the core's `CompareConfig` in snake_case (`word_k`, `char_q`, `seed`,
/// `span_gap`, `max_bytes`, `phonetic`, `min_words`: the minimum match
/// length in words, 0..=1000, applied to the score and every passage-based
/// figure; `ignore_quotes`: leave `a`'s quotations out; `ignore_references`:
/// leave each text's trailing reference list out; `fold_diacritics`: é as
/// e, ä/ö/ü as ae/oe/ue, SPEC.md §1). `template`: the
/// assignment's text, whose phrases are left out of both; `exclude_a`,
/// `exclude_b`: `(start, end)` byte ranges to leave out. What was left out
/// is in `excluded_a` and `excluded_b`.
/// `ValueError` for an empty text or a bad option.
#[pyfunction]
#[pyo3(signature = (a, b, *, template=None, exclude_a=None, exclude_b=None, **options))]
pub fn compare<'py>(
    py: Python<'py>,
    a: &str,
    b: &str,
    template: Option<&str>,
    exclude_a: Option<Vec<(usize, usize)>>,
    exclude_b: Option<Vec<(usize, usize)>>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let config: neardup::CompareConfig = crate::options::serde_config(py, options)?;
    let (a, b) = (a.to_string(), b.to_string());
    let template = template.unwrap_or_default().to_string();
    let ranges = |v: Option<Vec<(usize, usize)>>| -> Vec<neardup::TextRange> {
        v.unwrap_or_default()
            .into_iter()
            .map(|(start, end)| neardup::TextRange {
                start,
                end: end.max(start),
            })
            .collect()
    };
    let (ra, rb) = (ranges(exclude_a), ranges(exclude_b));
    for (name, r, text) in [("exclude_a", &ra, &a), ("exclude_b", &rb, &b)] {
        if let Some(bad) = r.iter().find(|r| {
            r.end > text.len() || !text.is_char_boundary(r.start) || !text.is_char_boundary(r.end)
        }) {
            return Err(crate::errors::ConfigError::new_err(format!(
                "invalid option {name}: ({}, {}) is not a range of character boundaries in the text's {} bytes",
                bad.start,
                bad.end,
                text.len()
            )));
        }
    }
    let report = py
        .detach(|| {
            neardup::compare_with(
                &a,
                &b,
                &config,
                &neardup::Exclusions {
                    template: &template,
                    a: &ra,
                    b: &rb,
                },
            )
        })
        .map_err(crate::value_error)?;
    let text = serde_json::to_string(&report)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}
