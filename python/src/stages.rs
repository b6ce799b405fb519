//! `Stages` and `clusters_of_edges`: the core's stage functions
//! (`neardup::dedup::Stages`) for engines that process a collection in
//! pieces — text → sketch bytes, sketch → bucket keys, pair → verified
//! similarity, edges → clusters — byte-identical to the Rust and wasm ones
//! (SPEC.md §14). Each stage has a batch kernel on Arrow columns
//! (`*_batch`), for `mapInArrow` (Spark) and `map_batches` (Ray): columns in
//! and out through pyarrow's buffers, every core, the GIL released.

use crate::options;
use neardup::dedup::Stages as Core;
use neardup::tfidf::DocumentFrequencies;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use rayon::prelude::*;
use std::sync::Arc;

/// The stage functions of one configuration (options as `dedup()`, with
/// `dictionary` and `reference`).
#[pyclass(frozen, module = "neardup")]
pub struct Stages {
    inner: Core,
}

#[pymethods]
impl Stages {
    #[new]
    #[pyo3(signature = (*, dictionary=None, reference=None, **options))]
    fn new(
        py: Python<'_>,
        dictionary: Option<PyRef<'_, crate::speller::Speller>>,
        reference: Option<&str>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let config = options::config(py, options)?;
        Ok(Stages {
            inner: options::stages(&config, reference, dictionary.as_deref())?,
        })
    }

    /// True while the configuration's tf-idf weights still need the
    /// collection's document frequencies (`count`, then `with_frequencies`).
    #[getter]
    fn needs_frequencies(&self) -> bool {
        self.inner.config().needs().frequencies && self.inner.frequencies().is_none()
    }

    /// With `weights="tfidf"`: the document frequencies of `texts` (a
    /// sequence of `str` or a pyarrow string array) as versioned bytes,
    /// counted on every core with the GIL released. Merge the bytes of every
    /// piece of a collection with `merge_frequencies`, then give them to
    /// `with_frequencies`.
    fn count<'py>(
        &self,
        py: Python<'py>,
        texts: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let texts = crate::dedup::texts_of(texts)?;
        let df = crate::dedup::count(py, &self.inner, &texts)?;
        Ok(PyBytes::new(py, &py.detach(|| df.to_bytes())))
    }

    /// These stages with the collection's document frequencies (the bytes
    /// of `count`, merged): the stages of tf-idf sketches. `ValueError` for
    /// damaged bytes or weights that are not tf-idf.
    fn with_frequencies(&self, py: Python<'_>, frequencies: &[u8]) -> PyResult<Stages> {
        let bytes = frequencies.to_vec();
        let df = py
            .detach(|| DocumentFrequencies::from_bytes(&bytes))
            .map_err(crate::value_error)?;
        Ok(Stages {
            inner: self
                .inner
                .clone()
                .with_frequencies(Arc::new(df))
                .map_err(crate::value_error)?,
        })
    }

    /// The sketch bytes of each text (a list of `bytes`), on every core with
    /// the GIL released. `texts`: a sequence of `str` or a pyarrow string
    /// array. `ValueError` naming `texts[i]` for a text that cannot be
    /// sketched (e.g. too large).
    fn sketch<'py>(
        &self,
        py: Python<'py>,
        texts: &Bound<'py, PyAny>,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let texts = crate::dedup::texts_of(texts)?;
        let out = self.sketch_all(py, &texts)?;
        Ok(out.iter().map(|b| PyBytes::new(py, b)).collect())
    }

    /// Batch kernel: the sketch bytes of a column of texts (a pyarrow string
    /// or large_string array, or a sequence of `str`) as one pyarrow column —
    /// `fixed_size_binary[w]` when every sketch has the same width `w` (a
    /// configuration that keeps no shingle set), else `binary` — row `i` the
    /// sketch of text `i`. Byte-identical to `sketch`.
    fn sketch_batch<'py>(
        &self,
        py: Python<'py>,
        texts: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let texts = crate::dedup::texts_of(texts)?;
        let out = self.sketch_all(py, &texts)?;
        crate::arrow::binary_array(py, &out)
    }

    /// Batch kernel: the bucket keys of a column of sketches (pyarrow
    /// `fixed_size_binary`, `binary` or `large_binary`) as a record batch of
    /// one row per key: `row` (int64, the sketch's row) and `key` (uint64),
    /// rows in order, each row's keys in the order of `keys`. `ValueError`
    /// naming `sketches[i]` for a damaged sketch or one of another
    /// configuration.
    fn keys_batch<'py>(
        &self,
        py: Python<'py>,
        sketches: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let keys = self.keys_all(py, sketches)?;
        let rows: Vec<u64> = keys
            .iter()
            .enumerate()
            .flat_map(|(i, k)| core::iter::repeat_n(i as u64, k.len()))
            .collect();
        let keys: Vec<u64> = keys.concat();
        crate::arrow::record_batch(
            py,
            vec![
                ("row", crate::arrow::u64_array(py, "int64", &rows)?),
                ("key", crate::arrow::u64_array(py, "uint64", &keys)?),
            ],
        )
    }

    /// Batch kernel: the bucket keys of a column of sketches as a pyarrow
    /// `list<uint64>` column, row `i` the keys of sketch `i` in the order of
    /// `keys` (empty for an empty sketch) — the shape of a dataframe column
    /// (`neardup.polars`, `neardup.duckdb`). Errors as `keys_batch`.
    fn keys_list_batch<'py>(
        &self,
        py: Python<'py>,
        sketches: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let keys = self.keys_all(py, sketches)?;
        let mut offsets = Vec::with_capacity(keys.len() + 1);
        offsets.push(0u64);
        for k in &keys {
            offsets.push(offsets[offsets.len() - 1] + k.len() as u64);
        }
        crate::arrow::list_array(
            py,
            &offsets,
            crate::arrow::u64_array(py, "uint64", &keys.concat())?,
        )
    }

    /// Batch kernel: candidate pairs given as two columns of sketches of the
    /// same length (row `i` pairs `a[i]` with `b[i]`) → a pyarrow `float64`
    /// column: the similarity where the pair is a near-duplicate pair, null
    /// where it is not. `ValueError` for columns of different lengths or a
    /// damaged sketch (naming `a[i]` or `b[i]`).
    fn verify_batch<'py>(
        &self,
        py: Python<'py>,
        a: &Bound<'py, PyAny>,
        b: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (a, b) = (
            crate::arrow::read_blobs(a, "a")?,
            crate::arrow::read_blobs(b, "b")?,
        );
        same_length(("a", a.len()), ("b", b.len()))?;
        let out: Result<Vec<Option<f64>>, Located> = py.detach(|| {
            (0..a.len())
                .into_par_iter()
                .map(|i| {
                    let x = self
                        .inner
                        .read_sketch(a.get(i))
                        .map_err(|e| (format!("a[{i}]"), e))?;
                    let y = self
                        .inner
                        .read_sketch(b.get(i))
                        .map_err(|e| (format!("b[{i}]"), e))?;
                    let v = self
                        .inner
                        .verify(&x, &y)
                        .map_err(|e| (format!("a[{i}]"), e))?;
                    Ok(v.map(|v| v.similarity))
                })
                .collect()
        });
        crate::arrow::f64_array(py, &out.map_err(located)?)
    }

    /// At most how many documents of each bucket are candidates of a new
    /// one (MinHash, multiref, exact: the first 64 added); None for every
    /// document of the bucket (SimHash).
    #[getter]
    fn bucket_cap(&self) -> Option<usize> {
        self.inner.bucket_cap()
    }

    /// Batch kernel: a 64-bit digest of each sketch as a pyarrow `int64`
    /// column (its bits), null for an empty sketch (a copy of nothing).
    /// Equal sketches have equal digests: group by it for `copies_batch`.
    /// `ValueError` naming `sketches[i]` for a damaged sketch.
    fn digest_batch<'py>(
        &self,
        py: Python<'py>,
        sketches: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let blobs = crate::arrow::read_blobs(sketches, "sketches")?;
        let out: Result<Vec<Option<u64>>, Located> = py.detach(|| {
            (0..blobs.len())
                .into_par_iter()
                .map(|i| {
                    self.inner
                        .read_sketch(blobs.get(i))
                        .map(|s| self.inner.digest(&s))
                        .map_err(|e| (format!("sketches[{i}]"), e))
                })
                .collect()
        });
        crate::arrow::opt_i64_array(py, &out.map_err(located)?)
    }

    /// Batch kernel: the copies among rows `pos[i]`, `sketches[i]` that hold
    /// every row of some digests (`digest_batch`): a record batch of `pos`
    /// and `holder` (int64), one row per sketch equal to one at a lower
    /// position, with the least such position, ascending. A copy is paired
    /// with its holder only; only holders need bucket keys. `ValueError` for
    /// columns of different lengths or a damaged sketch.
    fn copies_batch<'py>(
        &self,
        py: Python<'py>,
        pos: &Bound<'py, PyAny>,
        sketches: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let positions = crate::arrow::read_positions(pos, "pos")?;
        let blobs = crate::arrow::read_blobs(sketches, "sketches")?;
        same_length(("pos", positions.len()), ("sketches", blobs.len()))?;
        let copies: Result<Vec<(u64, u64)>, Located> = py.detach(|| {
            let read: Vec<_> = (0..blobs.len())
                .map(|i| {
                    self.inner
                        .read_sketch(blobs.get(i))
                        .map_err(|e| (format!("sketches[{i}]"), e))
                })
                .collect::<Result<_, _>>()?;
            let rows: Vec<(u64, &neardup::dedup::Sketch)> =
                positions.iter().copied().zip(read.iter()).collect();
            self.inner
                .copies(&rows)
                .map_err(|e| ("sketches".to_string(), e))
        });
        let (p, h): (Vec<u64>, Vec<u64>) = copies.map_err(located)?.into_iter().unzip();
        crate::arrow::record_batch(
            py,
            vec![
                ("pos", crate::arrow::u64_array(py, "int64", &p)?),
                ("holder", crate::arrow::u64_array(py, "int64", &h)?),
            ],
        )
    }

    /// Batch kernel: the candidate pairs of rows `key[i]`, `pos[i]` (int64
    /// or uint64 keys, as `keys_batch` gives them) that hold every row of
    /// some keys, as the deduplicator finds them: in each bucket, each
    /// position with every lower one among the bucket's first `bucket_cap`.
    /// A record batch of `a` and `b` (int64, `a < b`), each pair once. Give
    /// it the holders' keys only (`copies_batch`).
    fn bucket_pairs_batch<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
        pos: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (_, keys) = crate::arrow::read_words(key, "key")?;
        let positions = crate::arrow::read_positions(pos, "pos")?;
        same_length(("key", keys.len()), ("pos", positions.len()))?;
        let (a, b): (Vec<u64>, Vec<u64>) = py.detach(|| {
            let rows: Vec<(u64, u64)> = keys.into_iter().zip(positions).collect();
            self.inner.bucket_pairs(&rows).into_iter().unzip()
        });
        crate::arrow::record_batch(
            py,
            vec![
                ("a", crate::arrow::u64_array(py, "int64", &a)?),
                ("b", crate::arrow::u64_array(py, "int64", &b)?),
            ],
        )
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

impl Stages {
    /// The bucket keys of each sketch of an Arrow column, on every core with
    /// the GIL released; `ValueError` naming `sketches[i]`.
    fn keys_all(&self, py: Python<'_>, sketches: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<u64>>> {
        let blobs = crate::arrow::read_blobs(sketches, "sketches")?;
        let keys: Result<Vec<Vec<u64>>, Located> = py.detach(|| {
            (0..blobs.len())
                .into_par_iter()
                .map(|i| {
                    self.inner
                        .read_sketch(blobs.get(i))
                        .and_then(|s| self.inner.keys(&s))
                        .map_err(|e| (format!("sketches[{i}]"), e))
                })
                .collect()
        });
        keys.map_err(located)
    }

    /// The sketch bytes of `texts` (the core's `sketch_batch`, every core),
    /// with the GIL released.
    fn sketch_all(&self, py: Python<'_>, texts: &[String]) -> PyResult<Vec<Vec<u8>>> {
        self.inner.ready().map_err(crate::value_error)?;
        py.detach(|| {
            self.inner
                .sketch_batch(texts)
                .map(|s| s.into_par_iter().map(|s| s.to_bytes()).collect())
        })
        .map_err(|e| crate::errors::at(format!("texts[{}]", e.index), &e.error))
    }
}

/// A core error with where it happened (`sketches[3]`, `pieces[0]`).
type Located = (String, neardup::Error);

/// A located core error as the exception of its kind, named.
fn located((at, e): Located) -> PyErr {
    crate::errors::at(at, &e)
}

/// Two columns that pair row by row (`a[i]` with `b[i]`) must be as long.
fn same_length((x, a): (&str, usize), (y, b): (&str, usize)) -> PyResult<()> {
    if a != b {
        return Err(crate::errors::InputError::new_err(format!(
            "{x} has {a} rows and {y} {b}: they must be as long"
        )));
    }
    Ok(())
}

/// Batch kernel: the connected components of edges given as two pyarrow
/// int64 (or uint64) columns of document positions, `a[i]`–`b[i]`, as a
/// record batch of `pos` and `cluster` (both int64): every position in an
/// edge, ascending, with the least position of its component (its
/// representative). Positions in no edge are absent. `ValueError` for
/// columns of different lengths, nulls or negative positions.
#[pyfunction]
pub fn components_batch<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let (a, b) = (
        crate::arrow::read_positions(a, "a")?,
        crate::arrow::read_positions(b, "b")?,
    );
    same_length(("a", a.len()), ("b", b.len()))?;
    let (pos, cluster) = py.detach(|| {
        let edges: Vec<(u64, u64)> = a.into_iter().zip(b).collect();
        neardup::dedup::labels(&edges)
            .into_iter()
            .unzip::<u64, u64, Vec<u64>, Vec<u64>>()
    });
    crate::arrow::record_batch(
        py,
        vec![
            ("pos", crate::arrow::u64_array(py, "int64", &pos)?),
            ("cluster", crate::arrow::u64_array(py, "int64", &cluster)?),
        ],
    )
}

/// Clusters of a graph of pairs of document positions: each sorted (its
/// first, least position is its representative), ordered by representative.
#[pyfunction]
pub fn clusters_of_edges(edges: Vec<(u64, u64)>) -> Vec<Vec<u64>> {
    neardup::dedup::clusters_of_edges(&edges)
}

/// Merges document-frequency bytes (of `Stages.count` on pieces of a
/// collection) into the bytes of the whole. `ValueError` for damaged bytes.
#[pyfunction]
pub fn merge_frequencies<'py>(
    py: Python<'py>,
    pieces: Vec<Vec<u8>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let merged = py.detach(|| {
        let mut df = DocumentFrequencies::new();
        for (i, p) in pieces.iter().enumerate() {
            let part =
                DocumentFrequencies::from_bytes(p).map_err(|e| (format!("pieces[{i}]"), e))?;
            df.merge(&part).map_err(|e| (format!("pieces[{i}]"), e))?;
        }
        Ok::<_, Located>(df.to_bytes())
    });
    Ok(PyBytes::new(py, &merged.map_err(located)?))
}
