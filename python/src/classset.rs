//! `class_pairs(students, sources=(), template="", **options)`: the pairs of
//! a class set that share passages (the core's
//! `neardup::classset::class_pairs`, what the page's class view and
//! `neardup class` run), as a dict.

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Finds the pairs of a class set that share passages without comparing
/// every pair (word k-shingles, Broder 1997; an inverted index of shingles,
/// Sarawagi & Kirpal 2004; stock phrases as in MOSS, Schleimer et al.
/// 2003). `students` and `sources` are sequences of str; a source is
/// compared one way, and a passage found in it pairs the student with the
/// source, not with other students. `template`: the assignment's text,
/// whose phrases count for no pair. Options: the core's `ClassSetConfig`
/// in snake_case — `word_k` (1–32, default 3), `seed`, `stock_share` (a
/// shingle in more than this share of the students' texts is a stock
/// phrase, (0, 1], default 0.2), `min_containment` ([0, 1], default 0.1),
/// `min_shared` (1–1000, default 5), `max_bytes`, `ignore_quotes` and
/// `ignore_references` (default True, as the page).
///
/// Returns the report as a dict: `texts` (students then sources: `tokens`,
/// `shingles`, `templateShingles`, `stockShingles`, `quotations`,
/// `referenceList`, `excluded` and `common` ranges in UTF-8 bytes),
/// `pairs` (`a`, `b` indices into students then sources, `source`,
/// `shared`, `containmentAb`, `containmentBa`, `resemblance`, `score`;
/// highest score first), `candidates`, `stockLimit`, `stockPhrases`,
/// `stockPassages` (long passages the stock-phrase rule left out: `texts`,
/// `words` — a copy ring, or a template not given), `options`. `TypeError` for a text that is not a str; `ValueError` for a
/// bad option, a text over `max_bytes`, or fewer than two texts.
#[pyfunction]
#[pyo3(signature = (students, sources=Vec::new(), template="", **options))]
pub fn class_pairs<'py>(
    py: Python<'py>,
    students: Vec<String>,
    sources: Vec<String>,
    template: &str,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let config: neardup::classset::ClassSetConfig = crate::options::serde_config(py, options)?;
    let template = template.to_string();
    let report = py
        .detach(|| {
            let s: Vec<&str> = students.iter().map(String::as_str).collect();
            let r: Vec<&str> = sources.iter().map(String::as_str).collect();
            neardup::classset::class_pairs(&s, &r, &template, &config)
        })
        .map_err(crate::value_error)?;
    let text = serde_json::to_string(&report)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}
