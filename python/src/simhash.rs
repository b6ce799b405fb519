//! `SimHash` and `Fingerprint`: 64-bit SimHash fingerprints of texts
//! (Charikar, "Similarity estimation techniques from rounding algorithms",
//! STOC 2002; SPEC.md §10) — the core's `neardup::simhash`, as the npm
//! package's `SimHash` and `Fingerprint`.

use neardup::simhash::{Fingerprint as CoreFingerprint, SimHashConfig};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A 64-bit SimHash fingerprint with the configuration that made it, so
/// fingerprints of different shinglings are never compared.
#[pyclass(frozen, eq, module = "neardup")]
#[derive(PartialEq)]
pub struct Fingerprint {
    inner: CoreFingerprint,
}

#[pymethods]
impl Fingerprint {
    /// A fingerprint computed elsewhere, from custom features (compared only
    /// with other custom fingerprints); `value` in 0..2**64.
    #[staticmethod]
    fn from_value(value: u64) -> Fingerprint {
        Fingerprint {
            inner: CoreFingerprint::from_value(value),
        }
    }

    /// The 64 bits as an int in 0..2**64.
    #[getter]
    fn value(&self) -> u64 {
        self.inner.value()
    }

    /// The 64 bits as 16 lowercase hex digits.
    #[getter]
    fn hex(&self) -> String {
        format!("{:016x}", self.inner.value())
    }

    /// True for the fingerprint of a text without features: it matches
    /// nothing.
    #[getter]
    fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// The configuration that made it: `{"shingle", "weights", "seed"}`.
    #[getter]
    fn config<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json::to_string(&self.inner.config())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        py.import("json")?.call_method1("loads", (text,))
    }

    /// Hamming distance to `other`, 0..=64. `ValueError` when the
    /// configurations differ.
    fn distance(&self, other: &Fingerprint) -> PyResult<u32> {
        self.inner
            .distance(&other.inner)
            .map_err(crate::value_error)
    }

    fn __repr__(&self) -> String {
        format!("Fingerprint(0x{:016x})", self.inner.value())
    }
}

/// 64-bit SimHash fingerprints of texts.
#[pyclass(frozen, module = "neardup")]
pub struct SimHash {}

#[pymethods]
impl SimHash {
    /// The fingerprint of `text`. Options: `shingle` (`"word:1"`,
    /// `"word:K"` or `"char:Q"`, default `"word:3"`), `weights` (`"tf"`,
    /// default, or `"binary"`), `seed` (default 0). `ValueError` for a bad
    /// option.
    #[staticmethod]
    #[pyo3(signature = (text, **options))]
    fn fingerprint(
        py: Python<'_>,
        text: &str,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Fingerprint> {
        let config: SimHashConfig = crate::options::serde_config(py, options)?;
        // The GIL released while the text is normalised and hashed.
        let inner = py
            .detach(|| config.fingerprint(text))
            .map_err(crate::value_error)?;
        Ok(Fingerprint { inner })
    }

    /// The fingerprint of shingle hashes (64-bit unsigned ints), each
    /// occurrence weighing 1 (custom features). No hashes give the empty
    /// fingerprint, which matches nothing.
    #[staticmethod]
    fn from_shingles(hashes: Vec<u64>) -> Fingerprint {
        Fingerprint {
            inner: CoreFingerprint::from_shingles(&hashes),
        }
    }

    /// Number of differing bits of two 64-bit values, 0..=64.
    #[staticmethod]
    fn hamming_distance(a: u64, b: u64) -> u32 {
        neardup::simhash::hamming_distance(a, b)
    }

    /// Charikar's cosine estimate from a Hamming distance `d` (0..=64):
    /// cos(π d / 64). `ValueError` outside 0..=64.
    #[staticmethod]
    fn cosine_estimate(distance: u32) -> PyResult<f64> {
        if distance > 64 {
            return Err(crate::errors::ConfigError::new_err(format!(
                "distance must be in 0..=64, got {distance}"
            )));
        }
        Ok(neardup::simhash::cosine_estimate(distance))
    }
}
