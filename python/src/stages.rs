//! `Stages` and `clusters_of_edges`: the core's stage functions
//! (`neardup::dedup::Stages`) for engines that process a collection in
//! pieces — text → sketch bytes, sketch → bucket keys, pair → verified
//! similarity, edges → clusters — byte-identical to the Rust and wasm ones
//! (SPEC.md §14).

use crate::options;
use neardup::dedup::Stages as Core;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use rayon::prelude::*;

/// The stage functions of one configuration (options as `dedup()`).
#[pyclass(frozen, module = "neardup")]
pub struct Stages {
    inner: Core,
}

#[pymethods]
impl Stages {
    #[new]
    #[pyo3(signature = (**options))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let config = options::config(options)?;
        Ok(Stages {
            inner: Core::new(&config).map_err(crate::value_error)?,
        })
    }

    /// The sketch bytes of each text (a list of `bytes`), on every core with
    /// the GIL released.
    fn sketch<'py>(
        &self,
        py: Python<'py>,
        texts: Vec<String>,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let out: Result<Vec<Vec<u8>>, String> = py.detach(|| {
            texts
                .par_iter()
                .enumerate()
                .map(|(i, t)| {
                    self.inner
                        .sketch(t)
                        .map(|s| s.to_bytes())
                        .map_err(|e| format!("texts[{i}]: {e}"))
                })
                .collect()
        });
        let out = out.map_err(pyo3::exceptions::PyValueError::new_err)?;
        Ok(out.iter().map(|b| PyBytes::new(py, b)).collect())
    }

    /// The bucket keys of a sketch (unsigned 64-bit integers).
    fn keys(&self, sketch: &[u8]) -> PyResult<Vec<u64>> {
        let s = self.inner.read_sketch(sketch).map_err(crate::value_error)?;
        self.inner.keys(&s).map_err(crate::value_error)
    }

    /// The similarity of a candidate pair when it is a near-duplicate pair,
    /// else `None`.
    fn verify(&self, a: &[u8], b: &[u8]) -> PyResult<Option<f64>> {
        let a = self.inner.read_sketch(a).map_err(crate::value_error)?;
        let b = self.inner.read_sketch(b).map_err(crate::value_error)?;
        Ok(self
            .inner
            .verify(&a, &b)
            .map_err(crate::value_error)?
            .map(|v| v.similarity))
    }
}

/// Clusters of a graph of pairs of document positions: each sorted (its
/// first, least position is its representative), ordered by representative.
#[pyfunction]
pub fn clusters_of_edges(edges: Vec<(u64, u64)>) -> Vec<Vec<u64>> {
    neardup::dedup::clusters_of_edges(&edges)
}
