//! `MinHash` and `MinHashLSH` shaped like datasketch's (Zhu's datasketch,
//! the API data engineers port from) over the core's `MinHasher`,
//! `Signature` and `MinHashLsh` (Broder 1997; Indyk & Motwani 1998). Tokens
//! given to `update` are hashed as the core hashes a token under the
//! chosen spec version (SPEC.md §2–3: keyed FNV-1a + fmix64 in version 1,
//! XXH3-64 in version 2), so signatures are the same bytes as in Rust and
//! JavaScript.

use neardup::hash::Spec;
use neardup::minhash::{
    LshConfig, MinHashConfig, MinHashLsh as Lsh, MinHashScheme, MinHasher, Signature,
};
use neardup::{NearDupIndex, Shingling};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

fn token_hash(spec: Spec, seed: u64, token: &Bound<'_, PyAny>) -> PyResult<u64> {
    if let Ok(b) = token.cast::<PyBytes>() {
        return Ok(spec.bytes_hash(seed, b.as_bytes()));
    }
    if token.is_instance_of::<pyo3::types::PyString>() {
        let s = crate::str_of(token, "a token")?;
        return Ok(spec.bytes_hash(seed, s.as_bytes()));
    }
    Err(PyTypeError::new_err(format!(
        "a token must be bytes or str, got {}",
        token
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default()
    )))
}

/// A MinHash signature of a set of tokens (datasketch's `MinHash`):
/// `num_perm` values, `seed`, and `scheme` ("classic", datasketch's
/// `num_perm` hashes per token, the default here; or "oph", one hash per
/// token with optimal densification, Shrivastava 2017), and `spec`, the
/// version of the token hash (1, the default, or 2: XXH3-64; SPEC.md §3).
/// Tokens are `bytes` or `str`.
#[pyclass(module = "neardup")]
#[derive(Clone)]
pub struct MinHash {
    hasher: MinHasher,
    pub(crate) sig: Signature,
}

#[pymethods]
impl MinHash {
    #[new]
    #[pyo3(signature = (num_perm=128, seed=0, scheme="classic", spec=1))]
    fn new(num_perm: u32, seed: u64, scheme: &str, spec: u64) -> PyResult<Self> {
        let scheme: MinHashScheme = scheme.parse().map_err(crate::value_error)?;
        let spec = Spec::from_number(spec).map_err(crate::value_error)?;
        let hasher = MinHasher::new(&MinHashConfig {
            num_perm,
            seed,
            shingle: Shingling::Custom,
            scheme,
            spec,
        })
        .map_err(crate::value_error)?;
        let sig = hasher.empty();
        Ok(MinHash { hasher, sig })
    }

    /// Adds one token (`bytes` or `str`).
    fn update(&mut self, token: &Bound<'_, PyAny>) -> PyResult<()> {
        let h = token_hash(self.hasher.spec(), self.hasher.seed(), token)?;
        self.hasher
            .update(&mut self.sig, &[h])
            .map_err(crate::value_error)
    }

    /// Adds many tokens: an iterable of `bytes` or `str` (not one `str` or
    /// `bytes`, which would add its characters: `TypeError`).
    fn update_batch(&mut self, tokens: &Bound<'_, PyAny>) -> PyResult<()> {
        if tokens.is_instance_of::<pyo3::types::PyString>() || tokens.is_instance_of::<PyBytes>() {
            return Err(PyTypeError::new_err(format!(
                "update_batch takes an iterable of tokens (bytes or str), got one {}: use update() for one token",
                crate::options::type_name(tokens)
            )));
        }
        let (spec, seed) = (self.hasher.spec(), self.hasher.seed());
        let hashes = tokens
            .try_iter()?
            .map(|t| token_hash(spec, seed, &t?))
            .collect::<PyResult<Vec<u64>>>()?;
        // The tokens are read with the GIL (they are Python objects); the
        // signature is updated without it.
        let (hasher, sig) = (&self.hasher, &mut self.sig);
        tokens
            .py()
            .detach(|| hasher.update(sig, &hashes))
            .map_err(crate::value_error)
    }

    /// Estimated Jaccard resemblance with `other`, in [0, 1]. Raises
    /// `ValueError` for signatures of another `num_perm`, seed or scheme.
    fn jaccard(&self, other: &MinHash) -> PyResult<f64> {
        self.sig.jaccard(&other.sig).map_err(crate::value_error)
    }

    /// The signature's values.
    fn digest(&self) -> Vec<u32> {
        self.sig.values().to_vec()
    }

    /// Merges `other` in: this becomes the signature of the union.
    fn merge(&mut self, other: &MinHash) -> PyResult<()> {
        self.sig.merge(&other.sig).map_err(crate::value_error)
    }

    /// A copy.
    fn copy(&self) -> MinHash {
        self.clone()
    }

    /// `True` when no token was added.
    fn is_empty(&self) -> bool {
        self.sig.is_empty()
    }

    /// Values per signature.
    #[getter]
    fn num_perm(&self) -> usize {
        self.sig.num_perm()
    }

    /// The seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.sig.seed()
    }

    /// The spec version of the token hash: 1 or 2.
    #[getter]
    fn spec(&self) -> u16 {
        self.sig.spec().number()
    }

    fn __len__(&self) -> usize {
        self.sig.num_perm()
    }

    fn __eq__(&self, other: &MinHash) -> bool {
        self.sig == other.sig
    }

    /// The signature's versioned, checksummed bytes (SPEC.md §8).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.sig.to_bytes())
    }

    /// Reads `to_bytes()` output; `ValueError` for damaged bytes or a
    /// signature not made by this class.
    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<MinHash> {
        let sig = Signature::from_bytes(data).map_err(crate::value_error)?;
        if sig.shingling() != Shingling::Custom {
            return Err(crate::errors::InputError::new_err(
                "the signature was made from texts, not tokens: not a MinHash of this class",
            ));
        }
        let hasher = MinHasher::new(&MinHashConfig {
            num_perm: sig.num_perm() as u32,
            seed: sig.seed(),
            shingle: Shingling::Custom,
            scheme: sig.scheme(),
            spec: sig.spec(),
        })
        .map_err(crate::value_error)?;
        Ok(MinHash { hasher, sig })
    }

    fn __getstate__<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        self.to_bytes(py)
    }

    fn __setstate__(&mut self, state: &[u8]) -> PyResult<()> {
        *self = MinHash::from_bytes(state)?;
        Ok(())
    }

    fn __getnewargs__(&self) -> (usize, u64, &'static str, u16) {
        (
            self.sig.num_perm(),
            self.sig.seed(),
            self.sig.scheme().name(),
            self.sig.spec().number(),
        )
    }
}

/// A MinHash LSH index (datasketch's `MinHashLSH`): `threshold` in (0, 1),
/// `num_perm`, `weights` of false positives and negatives for the band
/// advisor, or explicit `params=(bands, rows)`. `query` returns the keys of
/// every candidate (sharing a band), as datasketch does.
#[pyclass(module = "neardup")]
pub struct MinHashLSH {
    inner: Lsh,
}

#[pymethods]
impl MinHashLSH {
    #[new]
    #[pyo3(signature = (threshold=0.5, num_perm=128, weights=(0.5, 0.5), params=None))]
    fn new(
        threshold: f64,
        num_perm: u32,
        weights: (f64, f64),
        params: Option<(u32, u32)>,
    ) -> PyResult<Self> {
        let mut config = LshConfig::default()
            .threshold(threshold)
            .num_perm(num_perm)
            .weights(weights.0, weights.1);
        if let Some((b, r)) = params {
            config = config.bands(b, r);
        }
        Ok(MinHashLSH {
            inner: Lsh::new(&config).map_err(crate::value_error)?,
        })
    }

    /// Adds `key` with `minhash`. `ValueError` for a key already present or a
    /// signature of another `num_perm` or seed.
    fn insert(&mut self, key: &str, minhash: &MinHash) -> PyResult<()> {
        self.inner
            .insert(key, minhash.sig.clone())
            .map_err(crate::value_error)
    }

    /// The keys of every candidate sharing a band with `minhash`, best
    /// estimate first.
    fn query(&self, minhash: &MinHash) -> PyResult<Vec<String>> {
        Ok(self
            .inner
            .query_with(&minhash.sig, None)
            .map_err(crate::value_error)?
            .into_iter()
            .map(|h| h.id.to_string())
            .collect())
    }

    /// Removes `key`; `ValueError` when it is not present (as datasketch).
    fn remove(&mut self, key: &str) -> PyResult<()> {
        if !self.inner.remove(key) {
            return Err(crate::errors::InputError::new_err(format!(
                "the key {key:?} does not exist"
            )));
        }
        Ok(())
    }

    fn __contains__(&self, key: &str) -> bool {
        self.inner.contains(key)
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// `True` when it holds no key.
    fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// `(bands, rows)` of the banding.
    #[getter]
    fn params(&self) -> (usize, Vec<u32>) {
        (
            self.inner.params().bands(),
            self.inner.params().rows().to_vec(),
        )
    }
}
