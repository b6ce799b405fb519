//! The Python binding of neardup: a thin layer over the core's public API
//! (`neardup::dedup`), a file per class, no algorithm of its own. Every core
//! error becomes a Python exception (`ValueError`, `TypeError`) whose message
//! names the option or the document's position; no panic reaches Python.

mod arrow;
mod classset;
mod compare;
mod dedup;
mod errors;
mod library;
mod minhash;
mod options;
mod phonetic;
mod read;
mod simhash;
mod speller;
mod stages;
mod text;

use pyo3::prelude::*;

/// A core error as a `ValueError`, option names in snake_case.
/// A Python `str` as a Rust `String`, named `what` in errors: `TypeError`
/// for another type, `ValueError` for a str that is not valid Unicode (a
/// lone surrogate, which UTF-8 cannot hold).
pub(crate) fn str_of(v: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let s = v.cast::<pyo3::types::PyString>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "{what} must be str, got {}",
            options::type_name(v)
        ))
    })?;
    s.to_cow().map(|c| c.into_owned()).map_err(|_| {
        errors::InputError::new_err(format!(
            "{what} holds a lone surrogate, which is not valid Unicode: \
             encode it first (e.g. .encode('utf-8', 'replace').decode())"
        ))
    })
}

/// A core error as the exception of its kind (`errors`): every one a
/// `neardup.Error`, itself a `ValueError`.
pub(crate) fn value_error(e: neardup::Error) -> PyErr {
    errors::core(&e)
}

/// The native module `neardup._neardup`; `neardup/__init__.py` re-exports it.
#[pymodule]
fn _neardup(m: &Bound<'_, PyModule>) -> PyResult<()> {
    if let Some(level) = neardup::missing_cpu_level() {
        return Err(pyo3::exceptions::PyImportError::new_err(format!(
            "neardup: this build needs an {level} processor; build the wheel with \
             RUSTFLAGS=\"-C target-cpu=x86-64\""
        )));
    }
    errors::register(m)?;
    m.add_function(wrap_pyfunction!(dedup::dedup, m)?)?;
    m.add_function(wrap_pyfunction!(dedup::dedup_batch, m)?)?;
    m.add_class::<dedup::DedupResult>()?;
    m.add_class::<dedup::Deduplicator>()?;
    m.add_class::<stages::Stages>()?;
    m.add_class::<minhash::MinHash>()?;
    m.add_class::<minhash::MinHashLSH>()?;
    m.add_function(wrap_pyfunction!(compare::compare, m)?)?;
    m.add_function(wrap_pyfunction!(classset::class_pairs, m)?)?;
    m.add_function(wrap_pyfunction!(classset::class_set, m)?)?;
    m.add_class::<classset::ClassSet>()?;
    m.add_class::<library::ClassLibrary>()?;
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
    m.add_function(wrap_pyfunction!(read::read_files, m)?)?;
    m.add("SPEC_VERSION", neardup::SPEC_VERSION)?;
    Ok(())
}
