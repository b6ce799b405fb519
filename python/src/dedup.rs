//! `dedup()`, `DedupResult` and `Deduplicator`: the core's dedup pipeline
//! (`neardup::dedup`). Texts are read from Python while the GIL is held, then
//! sketched on every core and added in input order with the GIL released.

use crate::options;
use neardup::dedup::{DedupSummary, Deduplicator as Core, Sketch, Stages};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use rayon::prelude::*;

/// Texts of documents as Rust strings: a sequence of `str`, or a pyarrow
/// `string` / `large_string` array, read from its buffers (no Python object
/// per string).
pub(crate) fn texts_of(texts: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Some(kind) = crate::arrow::type_of(texts) {
        if matches!(
            kind.as_str(),
            "string" | "large_string" | "utf8" | "large_utf8"
        ) {
            return crate::arrow::read_strings(texts, "texts");
        }
    }
    if texts.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyTypeError::new_err(
            "texts must be a sequence of str or a pyarrow string array, got str",
        ));
    }
    let mut out = Vec::new();
    for (i, t) in texts
        .try_iter()
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "texts must be a sequence of str or a pyarrow string array, got {}",
                type_name(texts)
            ))
        })?
        .enumerate()
    {
        let t = t?;
        out.push(t.extract::<String>().map_err(|_| {
            PyTypeError::new_err(format!("texts[{i}] must be str, got {}", type_name(&t)))
        })?);
    }
    Ok(out)
}

fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// Ids: given (a sequence of `str`, as many as the texts), else the
/// positions as strings.
fn ids_of(ids: Option<&Bound<'_, PyAny>>, n: usize) -> PyResult<Vec<String>> {
    let Some(ids) = ids.filter(|i| !i.is_none()) else {
        return Ok((0..n).map(|i| i.to_string()).collect());
    };
    let ids =
        texts_of(ids).map_err(|e| PyTypeError::new_err(e.to_string().replace("texts", "ids")))?;
    if ids.len() != n {
        return Err(PyValueError::new_err(format!(
            "ids has {} values for {n} texts",
            ids.len()
        )));
    }
    Ok(ids)
}

/// Sketches every text on every core (rayon), in order.
fn sketch_all(stages: &Stages, texts: &[String]) -> Result<Vec<Sketch>, (usize, neardup::Error)> {
    texts
        .par_iter()
        .enumerate()
        .map(|(i, t)| stages.sketch(t).map_err(|e| (i, e)))
        .collect()
}

/// What `dedup()` found: `pairs` (`(a, b, similarity)` tuples, `a` before
/// `b` in input order), `clusters` (lists of ids, each in input order; its
/// first member is kept), `keep` (ids, in input order) and `summary` (a dict:
/// documents, pairs, clusters, duplicates).
#[pyclass(frozen, module = "neardup")]
pub struct DedupResult {
    #[pyo3(get)]
    pairs: Py<PyList>,
    #[pyo3(get)]
    clusters: Py<PyList>,
    #[pyo3(get)]
    keep: Py<PyList>,
    #[pyo3(get)]
    summary: Py<PyDict>,
}

#[pymethods]
impl DedupResult {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "DedupResult(summary={})",
            self.summary
                .bind(py)
                .repr()
                .map(|r| r.to_string())
                .unwrap_or_default()
        )
    }
}

fn summary_dict<'py>(py: Python<'py>, s: &DedupSummary) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("documents", s.documents)?;
    d.set_item("pairs", s.pairs)?;
    d.set_item("clusters", s.clusters)?;
    d.set_item("duplicates", s.duplicates)?;
    Ok(d)
}

/// Finds the near-duplicates of a collection with the core's pipeline (the
/// defaults of `neardup dedup`: MinHash LSH over character 5-grams, 128
/// one-permutation values, estimated Jaccard ≥ 0.5; Broder 1997, Indyk &
/// Motwani 1998, Shrivastava 2017).
///
/// `texts`: a sequence of `str` or a pyarrow string array; `ids`: as many
/// `str` (default: the positions as strings). Options: `method` ("minhash",
/// "simhash", "exact"), `shingle` ("char:5", "word:K", "phonetic:K"),
/// `threshold` in (0, 1), `seed`, `verify`, `num_perm`, `scheme` ("oph",
/// "classic"), `bands`, `rows`, `fp_weight`, `fn_weight`, `candidates`, `k`,
/// `blocks`, `weights` ("tf", "binary"). The GIL is released while it works,
/// and texts are sketched on every core.
///
/// Raises `TypeError` for a text or id that is not a `str` (naming its
/// position) or an unknown option, `ValueError` for a bad option value or a
/// duplicate id (naming its position).
#[pyfunction]
#[pyo3(signature = (texts, ids=None, **options))]
pub fn dedup(
    py: Python<'_>,
    texts: &Bound<'_, PyAny>,
    ids: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<DedupResult> {
    let config = options::config(options)?;
    let stages = Stages::new(&config).map_err(crate::value_error)?;
    let texts = texts_of(texts)?;
    let ids = ids_of(ids, texts.len())?;
    type Found = (Vec<(u32, u32, f64)>, Vec<Vec<u32>>, Vec<u32>, DedupSummary);
    let work = || -> Result<Found, String> {
        let sketches = sketch_all(&stages, &texts).map_err(|(i, e)| format!("texts[{i}]: {e}"))?;
        let mut d = Core::from_stages(stages.clone()).map_err(|e| e.to_string())?;
        let mut pairs = Vec::new();
        for (b, (id, s)) in ids.iter().zip(sketches).enumerate() {
            let found = d.add_sketch(id, s).map_err(|e| format!("ids[{b}]: {e}"))?;
            pairs.extend(
                found
                    .iter()
                    .map(|m| (m.position, b as u32, m.verified.similarity)),
            );
        }
        let clusters = d.cluster_positions();
        let keep_ids = d.keep();
        let mut keep = Vec::with_capacity(keep_ids.len());
        // Positions are input indexes: nothing is removed here.
        let mut next = 0usize;
        for k in keep_ids {
            while ids[next] != k {
                next += 1;
            }
            keep.push(next as u32);
            next += 1;
        }
        Ok((pairs, clusters, keep, d.summary()))
    };
    let (pairs, clusters, keep, summary) = py.detach(work).map_err(PyValueError::new_err)?;
    let id = |i: u32| ids[i as usize].as_str();
    Ok(DedupResult {
        pairs: PyList::new(py, pairs.iter().map(|&(a, b, s)| (id(a), id(b), s)))?.unbind(),
        clusters: PyList::new(
            py,
            clusters
                .iter()
                .map(|c| c.iter().map(|&i| id(i)).collect::<Vec<_>>()),
        )?
        .unbind(),
        keep: PyList::new(py, keep.iter().map(|&i| id(i)))?.unbind(),
        summary: summary_dict(py, &summary)?.unbind(),
    })
}

/// The dedup pipeline over a stream of documents: `add(id, text)` answers
/// "have I seen this, or a near copy of it?" with the near-duplicates
/// already added, best first, as `(id, similarity)` tuples; `remove`,
/// `pairs`, `clusters`, `keep`, `duplicates`, `summary`; pickled through its
/// versioned snapshot bytes (`to_bytes` / `from_bytes`, the same bytes as
/// in Rust and JavaScript). Options as `dedup()`.
#[pyclass(module = "neardup")]
pub struct Deduplicator {
    inner: Core,
}

#[pymethods]
impl Deduplicator {
    #[new]
    #[pyo3(signature = (**options))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let config = options::config(options)?;
        Ok(Deduplicator {
            inner: Core::new(&config).map_err(crate::value_error)?,
        })
    }

    /// Adds `id` with `text`; returns `[(id, similarity)]` of the
    /// near-duplicates already added, best first. Raises `ValueError` for an
    /// id already held.
    fn add(&mut self, py: Python<'_>, id: &str, text: &str) -> PyResult<Vec<(String, f64)>> {
        let (id, text) = (id.to_string(), text.to_string());
        let inner = &mut self.inner;
        py.detach(|| {
            inner.add(&id, &text).map(|found| {
                found
                    .into_iter()
                    .map(|m| (m.id.to_string(), m.verified.similarity))
                    .collect()
            })
        })
        .map_err(crate::value_error)
    }

    /// Removes `id`; `False` when it was not held.
    fn remove(&mut self, id: &str) -> bool {
        self.inner.remove(id)
    }

    fn __contains__(&self, id: &str) -> bool {
        self.inner.contains(id)
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// Every pair once, `(a, b, similarity)`, `a` added before `b`.
    fn pairs(&self) -> PyResult<Vec<(String, String, f64)>> {
        Ok(self
            .inner
            .pairs()
            .map_err(crate::value_error)?
            .into_iter()
            .map(|p| (p.a.to_string(), p.b.to_string(), p.verified.similarity))
            .collect())
    }

    /// Clusters (lists of ids in the order added; the first is kept).
    fn clusters(&mut self) -> Vec<Vec<String>> {
        self.inner
            .clusters()
            .into_iter()
            .map(|c| c.into_iter().map(String::from).collect())
            .collect()
    }

    /// The ids to keep, in the order added.
    fn keep(&mut self) -> Vec<String> {
        self.inner.keep().into_iter().map(String::from).collect()
    }

    /// The ids `keep()` drops, in the order added.
    fn duplicates(&mut self) -> Vec<String> {
        self.inner
            .duplicates()
            .into_iter()
            .map(String::from)
            .collect()
    }

    /// `{documents, pairs, clusters, duplicates}`.
    fn summary<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        summary_dict(py, &self.inner.summary())
    }

    /// The versioned, checksummed snapshot bytes.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    /// Reads `to_bytes()` output. Raises `ValueError` for damaged bytes.
    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<Self> {
        Ok(Deduplicator {
            inner: Core::from_bytes(data, None, None).map_err(crate::value_error)?,
        })
    }

    fn __getstate__<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        self.to_bytes(py)
    }

    fn __setstate__(&mut self, state: &[u8]) -> PyResult<()> {
        self.inner = Core::from_bytes(state, None, None).map_err(crate::value_error)?;
        Ok(())
    }

    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, pyo3::types::PyTuple>, Bound<'py, PyDict>)> {
        Ok((pyo3::types::PyTuple::empty(py), PyDict::new(py)))
    }
}
