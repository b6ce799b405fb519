//! `Speller`: dictionary correction of misspelt words (Varol & Hari 2015's
//! phonetic candidates ranked by Damerau–Levenshtein distance and word
//! frequency; SPEC.md §13) — the core's `neardup::spell::Dictionary`, as the
//! npm package's `Speller`.

use neardup::spell::Dictionary;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Arc, OnceLock};

/// The English dictionary the page and the npm package ship
/// (`assets/dictionary-en.bin`, 0.9 MB; its licence in
/// `assets/dictionary-en.LICENSE`).
static ENGLISH: &[u8] = neardup::assets::DICTIONARY_EN;

/// A dictionary with word frequencies and its correction indexes.
#[pyclass(frozen, module = "neardup")]
pub struct Speller {
    dict: Arc<Dictionary>,
}

/// The bundled English dictionary, read once per process (shared by every
/// `Speller.english()` and every `word:K+correct` configuration).
pub fn english() -> PyResult<Arc<Dictionary>> {
    static ONCE: OnceLock<Result<Arc<Dictionary>, String>> = OnceLock::new();
    ONCE.get_or_init(|| {
        Dictionary::from_bytes(ENGLISH)
            .map(Arc::new)
            .map_err(|e| e.to_string())
    })
    .clone()
    .map_err(PyValueError::new_err)
}

impl Speller {
    /// The dictionary, shared.
    pub fn dictionary(&self) -> Arc<Dictionary> {
        self.dict.clone()
    }
}

#[pymethods]
impl Speller {
    /// Reads a dictionary (written by `neardup spell --from-counts`) and
    /// builds its indexes. `ValueError` for corrupt or other-version bytes.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: &[u8]) -> PyResult<Speller> {
        let data = data.to_vec();
        let dict = py
            .detach(|| Dictionary::from_bytes(&data))
            .map_err(crate::value_error)?;
        Ok(Speller {
            dict: Arc::new(dict),
        })
    }

    /// The English dictionary bundled with the package (about 0.3 s and 40
    /// MB to build its indexes).
    #[staticmethod]
    fn english(py: Python<'_>) -> PyResult<Speller> {
        let dict = py.detach(english)?;
        Ok(Speller { dict })
    }

    /// Number of words.
    fn __len__(&self) -> usize {
        self.dict.len()
    }

    /// True when `word` is a dictionary word.
    fn __contains__(&self, word: &str) -> bool {
        self.dict.contains(word)
    }

    /// The correction of `word`, or `word` itself when it is known, has no
    /// Latin letter, or nothing is close.
    fn correct(&self, word: &str) -> String {
        self.dict.correct(word).unwrap_or_else(|| word.to_string())
    }

    /// `text` with every misspelt word replaced by its correction and
    /// everything else kept (the correction of the `word:K+correct`
    /// shingles). Time: one correction per distinct unknown word.
    fn correct_text(&self, py: Python<'_>, text: &str) -> String {
        let text = text.to_string();
        py.detach(|| self.dict.correct_text(&text))
    }

    /// Up to `max` (1..=100, default 10) candidate corrections, best first,
    /// as dicts `{"word", "distance", "cost"}`; empty for a known word.
    #[pyo3(signature = (word, max=10))]
    fn candidates<'py>(
        &self,
        py: Python<'py>,
        word: &str,
        max: usize,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        if !(1..=100).contains(&max) {
            return Err(crate::errors::ConfigError::new_err(format!(
                "max must be in 1..=100, got {max}"
            )));
        }
        self.dict
            .candidates(word, max)
            .into_iter()
            .map(|c| {
                let d = PyDict::new(py);
                d.set_item("word", c.word)?;
                d.set_item("distance", c.distance)?;
                d.set_item("cost", c.cost)?;
                Ok(d)
            })
            .collect()
    }
}
