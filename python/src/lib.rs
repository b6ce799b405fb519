//! The Python binding of neardup: a thin layer over the core's public API
//! (`neardup::dedup`), a file per class, no algorithm of its own. Every core
//! error becomes a Python exception (`ValueError`, `TypeError`) whose message
//! names the option or the document's position; no panic reaches Python.

mod arrow;
mod classset;
mod compare;
mod dedup;
mod minhash;
mod options;
mod phonetic;
mod simhash;
mod speller;
mod stages;
mod text;

use pyo3::prelude::*;

/// A core error as a `ValueError`, option names in snake_case.
pub(crate) fn value_error(e: neardup::Error) -> PyErr {
    pyo3::exceptions::PyValueError::new_err(e.to_string())
}

/// The native module `neardup._neardup`; `neardup/__init__.py` re-exports it.
#[pymodule]
fn _neardup(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(dedup::dedup, m)?)?;
    m.add_class::<dedup::DedupResult>()?;
    m.add_class::<dedup::Deduplicator>()?;
    m.add_class::<stages::Stages>()?;
    m.add_class::<minhash::MinHash>()?;
    m.add_class::<minhash::MinHashLSH>()?;
    m.add_function(wrap_pyfunction!(compare::compare, m)?)?;
    m.add_function(wrap_pyfunction!(classset::class_pairs, m)?)?;
    m.add_function(wrap_pyfunction!(stages::clusters_of_edges, m)?)?;
    m.add_function(wrap_pyfunction!(stages::components_batch, m)?)?;
    m.add_function(wrap_pyfunction!(stages::merge_frequencies, m)?)?;
    m.add_class::<simhash::SimHash>()?;
    m.add_class::<simhash::Fingerprint>()?;
    m.add_function(wrap_pyfunction!(phonetic::phonetic, m)?)?;
    m.add_function(wrap_pyfunction!(phonetic::double_metaphone, m)?)?;
    m.add_function(wrap_pyfunction!(phonetic::shingles, m)?)?;
    m.add_class::<speller::Speller>()?;
    m.add_function(wrap_pyfunction!(text::decode_text, m)?)?;
    m.add("SPEC_VERSION", neardup::SPEC_VERSION)?;
    Ok(())
}
