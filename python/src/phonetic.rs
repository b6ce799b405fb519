//! `phonetic`, `double_metaphone` and `shingles`: the core's phonetic codes
//! (Soundex, Phonex, DSound, SoundD, Phonix — Varol & Hari 2015; Double
//! Metaphone — Philips 2000; SPEC.md §13) and shingle hashes (SPEC.md §3),
//! as the npm package's functions of the same names.

use neardup::phonetic::Algorithm;
use neardup::Shingling;
use pyo3::prelude::*;

/// The phonetic code of `word` by `algorithm` (`"soundex"`, `"phonex"`,
/// `"dsound"`, `"soundd"`, `"phonix"` or `"metaphone"` — Double Metaphone's
/// primary code). A word with no Latin letter is its own code. `ValueError`
/// for an unknown algorithm.
#[pyfunction]
pub fn phonetic(word: &str, algorithm: &str) -> PyResult<String> {
    let algorithm = Algorithm::from_name(algorithm).map_err(crate::value_error)?;
    Ok(neardup::phonetic::encode(algorithm, word))
}

/// The Double Metaphone codes of `word` as `(primary, alternate)`, full
/// length, or each cut to `max_length` characters (1..=64; 4 gives the codes
/// of commons-codec). `ValueError` for a bad `max_length`.
#[pyfunction]
#[pyo3(signature = (word, max_length=None))]
pub fn double_metaphone(word: &str, max_length: Option<u32>) -> PyResult<(String, String)> {
    if let Some(m) = max_length.filter(|m| !(1..=64).contains(m)) {
        return Err(crate::errors::ConfigError::new_err(format!(
            "max_length must be in 1..=64, got {m}"
        )));
    }
    Ok(neardup::phonetic::double_metaphone_of(
        word,
        max_length.map(|m| m as usize),
    ))
}

/// The shingle hashes of `text` by position (64-bit unsigned ints) for a
/// shingle spec: `"word:K"`, `"char:Q"`, `"phonetic:K"` or
/// `"phonetic:ALGO:K"`; `seed` defaults to 0; `spec`, the hash
/// specification's version (SPEC.md §3, §3a), 1 (default) or 2.
/// `ValueError` for a bad shingle spec or version.
#[pyfunction]
#[pyo3(signature = (text, shingle, seed=0, spec=1))]
pub fn shingles(
    py: Python<'_>,
    text: &str,
    shingle: &str,
    seed: u64,
    spec: u64,
) -> PyResult<Vec<u64>> {
    let shingling: Shingling = shingle.parse().map_err(crate::value_error)?;
    shingling.check().map_err(crate::value_error)?;
    let spec = neardup::hash::Spec::from_number(spec).map_err(crate::value_error)?;
    let text = text.to_string();
    Ok(py.detach(|| {
        neardup::Document::with_spec(&text, seed, Default::default(), spec)
            .shingles(shingling)
            .to_vec()
    }))
}
