//! `dedup()`, `DedupResult` and `Deduplicator`: the core's dedup pipeline
//! (`neardup::dedup`). Texts are read from Python while the GIL is held,
//! then given to the core's `Deduplicator::add_batch` (sketched on every
//! core, added in input order) batch by batch with the GIL released;
//! Ctrl-C (any pending signal) is checked between batches.

use crate::options;
use crate::speller::Speller;
use neardup::dedup::{DedupSummary, Deduplicator as Core, Stages};
use neardup::tfidf::DocumentFrequencies;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::sync::{Arc, Mutex, MutexGuard};

/// Documents per batch: the sketches of one batch are held at once, and
/// signals are checked between batches (well under a second each, even for
/// the exact join of long texts).
const BATCH: usize = 256;

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
    // Iterating these gives their keys or column names, not their texts.
    let kind = options::type_name(texts);
    if texts.cast::<pyo3::types::PyMapping>().is_ok()
        || matches!(
            kind.as_str(),
            "DataFrame" | "Table" | "RecordBatch" | "LazyFrame"
        )
    {
        return Err(PyTypeError::new_err(format!(
            "texts must be a sequence of str or a pyarrow string array, got {kind}: give its text column (e.g. df[\"text\"])"
        )));
    }
    let mut out = Vec::new();
    for (i, t) in texts
        .try_iter()
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "texts must be a sequence of str or a pyarrow string array, got {}",
                options::type_name(texts)
            ))
        })?
        .enumerate()
    {
        out.push(crate::str_of(&t?, &format!("texts[{i}]"))?);
    }
    Ok(out)
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
        return Err(crate::errors::InputError::new_err(format!(
            "ids has {} values for {n} texts",
            ids.len()
        )));
    }
    Ok(ids)
}

/// The document frequencies of `texts` (tf-idf's first pass), counted on
/// every core batch by batch, signals checked between batches.
pub(crate) fn count(
    py: Python<'_>,
    stages: &Stages,
    texts: &[String],
) -> PyResult<DocumentFrequencies> {
    let mut df = DocumentFrequencies::new();
    for (b, chunk) in texts.chunks(BATCH).enumerate() {
        let part = py
            .detach(|| stages.count_batch(chunk))
            .map_err(|e| crate::errors::at(format!("texts[{}]", b * BATCH + e.index), &e.error))?;
        df.merge(&part).map_err(crate::value_error)?;
        py.check_signals()?;
    }
    Ok(df)
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
/// `str` (default: the positions as strings). Options: the core's dedup
/// options in snake_case (`method`, `shingle`, `threshold`, `seed`,
/// `verify`, `num_perm`, `scheme`, `bands`, `rows`, `fp_weight`,
/// `fn_weight`, `candidates`, `k`, `blocks`, `weights`, `fold_diacritics`, `spec`); `dictionary` (a
/// `Speller`, for `"word:K+correct"`; default: the bundled English one) and
/// `reference` (a reference JSON text, for `method="multiref"`; default:
/// the bundled one). With `weights="tfidf"` the document frequencies are
/// counted first (a second pass). The GIL is released while it works,
/// texts are sketched on every core, and Ctrl-C stops it between batches.
///
/// Raises `TypeError` for a text or id that is not a `str` (naming its
/// position), an unknown option or a value of the wrong type; `ValueError`
/// for a bad option value or a duplicate id (naming its position).
#[pyfunction]
#[pyo3(signature = (texts, ids=None, *, dictionary=None, reference=None, **options))]
pub fn dedup(
    py: Python<'_>,
    texts: &Bound<'_, PyAny>,
    ids: Option<&Bound<'_, PyAny>>,
    dictionary: Option<PyRef<'_, Speller>>,
    reference: Option<&str>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<DedupResult> {
    let config = options::config(py, options)?;
    let stages = options::stages(&config, reference, dictionary.as_deref())?;
    let texts = texts_of(texts)?;
    let ids = ids_of(ids, texts.len())?;
    let (mut d, pairs) = run(py, stages, &ids, &texts)?;
    let (clusters, keep, summary) =
        py.detach(|| (d.cluster_positions(), d.keep_positions(), d.summary()));
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

/// A pair found: `(earlier position, later position, similarity)`.
type Pair = (u32, u32, f64);

/// The core's deduplicator over `texts` (tf-idf frequencies counted first
/// when the configuration needs them), added batch by batch with the GIL
/// released, signals checked between batches; with the pairs found as
/// `(earlier position, later position, similarity)`.
fn run(
    py: Python<'_>,
    mut stages: Stages,
    ids: &[String],
    texts: &[String],
) -> PyResult<(Core, Vec<Pair>)> {
    if stages.config().needs().frequencies {
        let df = count(py, &stages, texts)?;
        stages = stages
            .with_frequencies(Arc::new(df))
            .map_err(crate::value_error)?;
    }
    stages.ready().map_err(crate::value_error)?;
    let mut d = Core::from_stages(stages).map_err(crate::value_error)?;
    // The index sized once for every text (Deduplicator::reserve).
    d.reserve(texts.len());
    let mut pairs: Vec<Pair> = Vec::new();
    let mut pace = Pace::new();
    let mut at = 0;
    while at < texts.len() {
        let end = (at + pace.size).min(texts.len());
        let (first, ids, texts) = (at as u32, &ids[at..end], &texts[at..end]);
        at = end;
        let started = std::time::Instant::now();
        py.detach(|| {
            d.add_batch(ids, texts, |i, found| {
                pairs.extend(
                    found
                        .iter()
                        .map(|m| (m.position, first + i as u32, m.verified.similarity)),
                )
            })
        })
        .map_err(|e| {
            let which = match e.error.kind() {
                neardup::ErrorKind::DuplicateId { .. } => "ids",
                _ => "texts",
            };
            crate::errors::at(format!("{which}[{}]", first as usize + e.index), &e.error)
        })?;
        pace.took(started.elapsed());
        py.check_signals()?;
    }
    Ok((d, pairs))
}

/// The size of the next batch, so that signals are checked about every
/// [`Pace::TARGET`] of work whatever one text costs (a text added by the
/// exact method to a collection of overlapping texts is verified against
/// every earlier one that shares a shingle): at most [`BATCH`] texts, at
/// least one.
struct Pace {
    size: usize,
}

impl Pace {
    /// The work between two checks for Ctrl-C.
    const TARGET: std::time::Duration = std::time::Duration::from_millis(100);

    fn new() -> Pace {
        Pace { size: BATCH }
    }

    /// A batch of the current size took `elapsed`: the next is sized to
    /// take about [`Pace::TARGET`] at the same cost a text.
    fn took(&mut self, elapsed: std::time::Duration) {
        let per_text = elapsed.as_secs_f64() / self.size as f64;
        let fits = if per_text > 0.0 {
            (Self::TARGET.as_secs_f64() / per_text) as usize
        } else {
            BATCH
        };
        // Grow at most twofold a batch: a cheap batch says little of the next.
        self.size = fits.clamp(1, (self.size * 2).min(BATCH));
    }
}

/// Batch kernel of the whole pipeline, for dataframes (`neardup.polars`,
/// `neardup.duckdb`): the clusters of `dedup(texts, ids, **options)` as a
/// pyarrow record batch of one row per text, in input order — `cluster`
/// (int64: the position of the cluster's representative, its first row; a
/// row in no cluster is its own) and `keep` (bool: the row is its cluster's
/// representative) — with no Python object per row. `texts` and `ids`:
/// pyarrow string columns or sequences of `str`; ids (default: positions)
/// only name rows in errors and must be unique. Errors as `dedup`.
#[pyfunction]
#[pyo3(signature = (texts, ids=None, *, dictionary=None, reference=None, **options))]
pub fn dedup_batch<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    ids: Option<&Bound<'py, PyAny>>,
    dictionary: Option<PyRef<'py, Speller>>,
    reference: Option<&str>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let config = options::config(py, options)?;
    let stages = options::stages(&config, reference, dictionary.as_deref())?;
    let texts = texts_of(texts)?;
    let ids = ids_of(ids, texts.len())?;
    let (mut d, _) = run(py, stages, &ids, &texts)?;
    let cluster: Vec<u64> = py.detach(|| {
        let mut label: Vec<u64> = (0..texts.len() as u64).collect();
        for c in d.cluster_positions() {
            for &i in &c {
                label[i as usize] = u64::from(c[0]);
            }
        }
        label
    });
    let keep: Vec<bool> = cluster
        .iter()
        .enumerate()
        .map(|(i, &c)| c == i as u64)
        .collect();
    crate::arrow::record_batch(
        py,
        vec![
            ("cluster", crate::arrow::u64_array(py, "int64", &cluster)?),
            ("keep", crate::arrow::bool_array(py, &keep)?),
        ],
    )
}

/// The dedup pipeline over a stream of documents: `add(id, text)` answers
/// "have I seen this, or a near copy of it?" with the near-duplicates
/// already added, best first, as `(id, similarity)` tuples; `query(text)`
/// asks without adding; `remove`, `pairs`, `clusters`, `keep`,
/// `duplicates`, `summary`; pickled through its versioned snapshot bytes
/// (`to_bytes` / `from_bytes`, the same bytes as in Rust and JavaScript).
/// Options as `dedup()`, but `weights="tfidf"` (a stream has no collection
/// to count).
///
/// Safe to share between threads: calls on one deduplicator take turns (a
/// lock), each with the GIL released while it works.
#[pyclass(frozen, module = "neardup")]
pub struct Deduplicator {
    inner: Mutex<Core>,
}

impl Deduplicator {
    /// The deduplicator, locked for this call (a call that panicked left
    /// it as it was: no call changes it halfway).
    fn lock(&self) -> MutexGuard<'_, Core> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl Deduplicator {
    #[new]
    #[pyo3(signature = (*, dictionary=None, reference=None, **options))]
    fn new(
        py: Python<'_>,
        dictionary: Option<PyRef<'_, Speller>>,
        reference: Option<&str>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let config = options::config(py, options)?;
        let stages = options::stages(&config, reference, dictionary.as_deref())?;
        stages.ready().map_err(crate::value_error)?;
        Ok(Deduplicator {
            inner: Mutex::new(Core::from_stages(stages).map_err(crate::value_error)?),
        })
    }

    /// Adds `id` with `text`; returns `[(id, similarity)]` of the
    /// near-duplicates already added, best first. Raises `ValueError` for an
    /// id already held.
    fn add(&self, py: Python<'_>, id: &str, text: &str) -> PyResult<Vec<(String, f64)>> {
        let (id, text) = (id.to_string(), text.to_string());
        py.detach(|| {
            let mut d = self.lock();
            d.add(&id, &text).map(|found| {
                found
                    .into_iter()
                    .map(|m| (m.id.to_string(), m.verified.similarity))
                    .collect()
            })
        })
        .map_err(crate::value_error)
    }

    /// The near-duplicates of `text` among the documents held, best first,
    /// as `(id, similarity)`, without adding it.
    fn query(&self, py: Python<'_>, text: &str) -> PyResult<Vec<(String, f64)>> {
        let text = text.to_string();
        py.detach(|| {
            let mut d = self.lock();
            d.query(&text).map(|found| {
                found
                    .into_iter()
                    .map(|m| (m.id.to_string(), m.verified.similarity))
                    .collect()
            })
        })
        .map_err(crate::value_error)
    }

    /// Removes `id`; `False` when it was not held.
    fn remove(&self, py: Python<'_>, id: &str) -> bool {
        py.detach(|| self.lock().remove(id))
    }

    fn __contains__(&self, id: &str) -> bool {
        self.lock().contains(id)
    }

    fn __len__(&self) -> usize {
        self.lock().len()
    }

    /// The pairs made, `(a, b, similarity)`, `a` added before `b`: a
    /// document is paired with at most one document of each cluster (a copy
    /// with the first copy), so a cluster of `n` has `n − 1` pairs — what
    /// `add` returned.
    fn pairs(&self, py: Python<'_>) -> PyResult<Vec<(String, String, f64)>> {
        py.detach(|| triples(self.lock().pairs()))
            .map_err(crate::value_error)
    }

    /// Every near-duplicate pair within clusters (each two members whose
    /// verification passes), as `pairs`. Time and memory grow as the square
    /// of a cluster's size: `ValueError`, before any work, when the clusters
    /// hold more than `max_pairs` pairs of members.
    #[pyo3(signature = (max_pairs=10_000_000))]
    fn all_pairs(&self, py: Python<'_>, max_pairs: u64) -> PyResult<Vec<(String, String, f64)>> {
        py.detach(|| triples(self.lock().all_pairs(max_pairs)))
            .map_err(crate::value_error)
    }

    /// Clusters (lists of ids in the order added; the first is kept).
    fn clusters(&self, py: Python<'_>) -> Vec<Vec<String>> {
        py.detach(|| {
            self.lock()
                .clusters()
                .into_iter()
                .map(|c| c.into_iter().map(String::from).collect())
                .collect()
        })
    }

    /// The ids to keep, in the order added.
    fn keep(&self, py: Python<'_>) -> Vec<String> {
        py.detach(|| self.lock().keep().into_iter().map(String::from).collect())
    }

    /// The ids `keep()` drops, in the order added.
    fn duplicates(&self, py: Python<'_>) -> Vec<String> {
        py.detach(|| {
            self.lock()
                .duplicates()
                .into_iter()
                .map(String::from)
                .collect()
        })
    }

    /// `{documents, pairs, clusters, duplicates}`.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = py.detach(|| self.lock().summary());
        summary_dict(py, &s)
    }

    /// The versioned, checksummed snapshot bytes.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let bytes = py.detach(|| self.lock().to_bytes());
        PyBytes::new(py, &bytes)
    }

    /// Reads `to_bytes()` output (a multiref one with its reference JSON, a
    /// `+correct` one with its dictionary; the bundled ones by default).
    /// Raises `ValueError` for damaged bytes.
    #[staticmethod]
    #[pyo3(signature = (data, *, dictionary=None, reference=None))]
    fn from_bytes(
        py: Python<'_>,
        data: &[u8],
        dictionary: Option<PyRef<'_, Speller>>,
        reference: Option<&str>,
    ) -> PyResult<Self> {
        Ok(Deduplicator {
            inner: Mutex::new(read(py, data, dictionary.as_deref(), reference)?),
        })
    }

    fn __getstate__<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        self.to_bytes(py)
    }

    fn __setstate__(&self, py: Python<'_>, state: &[u8]) -> PyResult<()> {
        *self.lock() = read(py, state, None, None)?;
        Ok(())
    }

    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, pyo3::types::PyTuple>, Bound<'py, PyDict>)> {
        Ok((pyo3::types::PyTuple::empty(py), PyDict::new(py)))
    }
}

/// A snapshot read with the reference and dictionary its configuration
/// needs (given, else bundled).
fn read(
    py: Python<'_>,
    data: &[u8],
    dictionary: Option<&Speller>,
    reference: Option<&str>,
) -> PyResult<Core> {
    let config = Core::snapshot_config(data).map_err(crate::value_error)?;
    let model = match config.needs().reference {
        true => Some(options::model(reference)?),
        false => None,
    };
    let dictionary = match config.needs().dictionary {
        true => Some(options::dictionary(dictionary)?),
        false => None,
    };
    let data = data.to_vec();
    py.detach(|| Core::from_bytes(&data, model, dictionary))
        .map_err(crate::value_error)
}

/// Pairs as `(a, b, similarity)` tuples.
fn triples(
    pairs: Result<Vec<neardup::dedup::DedupPair<'_>>, neardup::Error>,
) -> Result<Vec<(String, String, f64)>, neardup::Error> {
    pairs.map(|pairs| {
        pairs
            .into_iter()
            .map(|p| (p.a.to_string(), p.b.to_string(), p.verified.similarity))
            .collect()
    })
}
