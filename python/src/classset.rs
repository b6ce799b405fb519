//! `class_pairs(students, sources=(), template="", **options)`: the pairs of
//! a class set that share passages (the core's
//! `neardup::classset::class_pairs`, what the page's class view and
//! `neardup class` run), as a dict.

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Finds the pairs of a class set that share passages without comparing
/// every pair: character 20-grams of the normalised words, winnowed
/// (Schleimer, Wilkerson & Aiken 2003, as MOSS and Dolos), or word
/// k-shingles (Broder 1997); an inverted index of them (Sarawagi & Kirpal
/// 2004); stock phrases — short phrases in more than a share of the texts
/// — left out, a passage of ten words or more never. `students` and
/// `sources` are sequences of str; a source is compared one way, and a
/// passage found in it pairs the student with the source, not with other
/// students. `template`: the assignment's text, whose phrases count for no
/// pair. Options: the core's `ClassSetConfig` in snake_case — `char_q`
/// (0 for word shingles, or 1–32, default 20), `window` (1–64, default 8),
/// `word_k` (1–32, default 3, with `char_q` 0), `seed`, `stock_share`
/// ((0, 1], default 0.5), `min_containment` ([0, 1], default 0.05),
/// `adaptive_cut_off` (default True: the cut-off rises with the class's
/// size, 0.05 up to 20 texts, +0.15 per tenfold more, at most 0.5),
/// `min_shared` (1–1000, default 5), `max_bytes`, `ignore_quotes` and
/// `ignore_references` (default True, as the page), `fold_diacritics`
/// (default False: é as e, ä/ö/ü as ae/oe/ue, SPEC.md §1).
///
/// Returns the report as a dict: `texts` (students then sources: `tokens`,
/// `shingles`, `templateShingles`, `stockShingles`, `quotations`,
/// `referenceList`, `shared` — the share of the text found in another
/// text, `excluded` and `common` ranges in UTF-8 bytes), `pairs` (`a`, `b`
/// indices into students then sources, `source`, `shared`,
/// `containmentAb`, `containmentBa`, `resemblance`, `score`; highest score
/// first, every pair reaching `min_containment`), `cutOff` (the pairs at or
/// above it are flagged), `students` (each student's strongest match:
/// `best`, `covered`, `source`), `candidates`, `stockLimit`,
/// `stockPhrases`, `sharedPassages` (passages of ten words or more in three
/// or more students' texts: `texts`, `words`), `options`. `TypeError` for a
/// text that is not a str; `ValueError` for a bad option, a text over
/// `max_bytes`, or fewer than two texts.
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
