//! `ClassLibrary`: a reference library for class sets (the core's
//! `neardup::classset::library::Library`, as the npm package's
//! `ClassLibrary` and `neardup library build`): sources, model answers and
//! past classes as phrase postings, saved as bytes, a class checked one
//! way.

use neardup::classset::library::Library;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

/// A reference library: winnowed phrase fingerprints of named texts (and
/// the texts, as an option), checked one way (SPEC.md §15; Schleimer, Wilkerson & Aiken
/// 2003).
#[pyclass(module = "neardup")]
pub struct ClassLibrary {
    inner: Library,
}

#[pymethods]
impl ClassLibrary {
    /// An empty library fingerprinting texts as `class_pairs` does with
    /// these options (`char_q`, `window`, `word_k`, `seed`,
    /// `ignore_quotes`, `ignore_references`, `fold_diacritics`,
    /// `max_bytes`). `ValueError` for
    /// a bad option.
    #[new]
    #[pyo3(signature = (**options))]
    fn new(py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<ClassLibrary> {
        let config: neardup::classset::ClassSetConfig = crate::options::serde_config(py, options)?;
        Ok(ClassLibrary {
            inner: Library::new(&config).map_err(crate::value_error)?,
        })
    }

    /// Reads a library's bytes (`to_bytes`, `neardup library build`, or the
    /// page's "Save as reference library"). `ValueError` naming what is
    /// wrong for damaged, truncated or other-version bytes.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: &[u8]) -> PyResult<ClassLibrary> {
        let data = data.to_vec();
        let inner = py
            .detach(|| Library::from_bytes(&data))
            .map_err(crate::value_error)?;
        Ok(ClassLibrary { inner })
    }

    /// Adds texts under names (two sequences of str of one length).
    /// `ValueError` for lengths that differ or a text over `max_bytes`
    /// (nothing is added then).
    fn add(&mut self, py: Python<'_>, names: Vec<String>, texts: Vec<String>) -> PyResult<()> {
        if names.len() != texts.len() {
            return Err(crate::errors::InputError::new_err(format!(
                "invalid option texts: {} names for {} texts",
                names.len(),
                texts.len()
            )));
        }
        let inner = &mut self.inner;
        py.detach(|| {
            let pairs: Vec<(&str, &str)> = names
                .iter()
                .map(String::as_str)
                .zip(texts.iter().map(String::as_str))
                .collect();
            inner.add(&pairs)
        })
        .map_err(crate::value_error)
    }

    /// Checks `students` (a sequence of str) one way against every library
    /// text: a list of dicts `{"student", "text", "shared", "containment",
    /// "containmentLibrary"}` for the pairs whose containment (the share of
    /// the student's fingerprints in the library text, in [0, 1]) reaches
    /// `min_containment` and that share at least `min_shared` fingerprints
    /// (≥ 1; `None`: the core's `MIN_SHARED`, 3, chosen on data), highest
    /// first; `text` indexes `names`.
    #[pyo3(signature = (students, min_containment=0.05, min_shared=None))]
    fn check<'py>(
        &self,
        py: Python<'py>,
        students: Vec<String>,
        min_containment: f64,
        min_shared: Option<u32>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let inner = &self.inner;
        let min_shared = min_shared.unwrap_or(neardup::classset::library::MIN_SHARED);
        let found = py
            .detach(|| {
                let s: Vec<&str> = students.iter().map(String::as_str).collect();
                inner.check_sharing(&s, min_containment, min_shared)
            })
            .map_err(crate::value_error)?;
        let text = serde_json::to_string(&found)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        py.import("json")?.call_method1("loads", (text,))
    }

    /// Whether the texts added from now on are kept (default False; a
    /// library read from bytes keeps texts when it holds one). A kept text
    /// lets `class_set(..., library=...)` compare a match with it in full
    /// (verdict, passages), at the cost of its UTF-8 bytes in the file
    /// (format 2, SPEC.md §15).
    fn keep_texts(&mut self, keep: bool) {
        self.inner.keep_texts(keep);
    }

    /// Library text `i`'s kept text (`i` an index of `names`), or None when
    /// it was not kept or `i` is out of range.
    fn text(&self, i: usize) -> Option<String> {
        self.inner.text(i).map(String::from)
    }

    /// The library as bytes (SPEC.md §15), the same on every platform.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    /// The texts' names, in the order added.
    #[getter]
    fn names(&self) -> Vec<String> {
        self.inner.names().to_vec()
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }
}
