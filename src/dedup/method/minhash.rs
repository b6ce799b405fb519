//! The `minhash` method: a document's MinHash signature (one-permutation
//! with optimal densification, or classic; Broder 1997; Shrivastava 2017),
//! keyed by its LSH bands (Indyk & Motwani 1998; SPEC.md §9), a candidate
//! kept when the estimated Jaccard reaches the threshold (any candidate with
//! `candidates`, the exact Jaccard with `verify`).
//!
//! Body: the signature's words — `num_perm` values, then for the
//! one-permutation scheme the mask of filled bins. Bytes: `u32` length and
//! the signature's own bytes (SPEC.md §8).

use super::{read_nested, write_nested, Method, Side, Verified};
use crate::dedup::config::{DedupConfig, DedupMethod};
use crate::document::Document;
use crate::error::Error;
use crate::index::snapshot::{corrupt, Reader, Writer};
use crate::minhash::signature::estimate;
use crate::minhash::{LshParams, MinHashConfig, MinHasher, Signature, EMPTY_VALUE};
use alloc::format;
use alloc::vec::Vec;

const WHAT: &str = "dedup sketch";

#[derive(Debug)]
pub(crate) struct MinHash {
    hasher: MinHasher,
    bands: LshParams,
    /// Per band, the range of values that are its rows.
    spans: Vec<(usize, usize)>,
    /// Candidates are kept by their estimate (neither `verify` nor
    /// `candidates`).
    filter: bool,
    threshold: f64,
}

impl MinHash {
    pub(crate) fn new(config: &DedupConfig) -> Result<Self, Error> {
        let bands = config.lsh_params()?;
        let hasher = MinHasher::new(&MinHashConfig {
            num_perm: bands.num_perm() as u32,
            seed: config.hash_seed(),
            shingle: config.shingling(),
            scheme: config.scheme.unwrap_or_default(),
            spec: config.hash_spec(),
        })?;
        let spans = bands.spans();
        Ok(MinHash {
            hasher,
            bands,
            spans,
            filter: !config.verifies() && !config.keeps_candidates(),
            threshold: config.jaccard_threshold(),
        })
    }

    fn values<'a>(&self, body: &'a [u32]) -> &'a [u32] {
        &body[..self.hasher.num_perm()]
    }

    fn signature(&self, body: &[u32]) -> Option<Signature> {
        Signature::from_data(self.hasher.kind(), self.hasher.num_perm(), body.to_vec())
    }

    /// The body of a signature of this configuration's kind and length.
    fn body_of(&self, sig: Signature, incompatible: bool) -> Result<Vec<u32>, Error> {
        if sig.kind() != self.hasher.kind() || sig.num_perm() != self.hasher.num_perm() {
            return Err(if incompatible {
                Error::incompatible(
                    "signature",
                    format!(
                        "num_perm {}, {}",
                        self.hasher.num_perm(),
                        self.hasher.kind()
                    ),
                    format!("num_perm {}, {}", sig.num_perm(), sig.kind()),
                )
            } else {
                corrupt(WHAT, "its signature is of another kind".into())
            });
        }
        Ok(sig.data().to_vec())
    }
}

impl Method for MinHash {
    fn kind(&self) -> DedupMethod {
        DedupMethod::MinHash
    }

    fn width(&self) -> usize {
        self.hasher.empty().data().len()
    }

    fn sketch(&self, doc: &Document) -> Result<Vec<u32>, Error> {
        Ok(self.hasher.signature_of(doc)?.data().to_vec())
    }

    fn is_empty(&self, side: Side<'_>) -> bool {
        self.values(side.body).iter().all(|&v| v == EMPTY_VALUE)
    }

    fn write(&self, body: &[u32], w: &mut Writer) {
        let bytes = self
            .signature(body)
            .map(|s| s.to_bytes())
            .unwrap_or_default();
        write_nested(w, &bytes);
    }

    fn read(&self, r: &mut Reader<'_>) -> Result<Vec<u32>, Error> {
        let sig = Signature::from_bytes(&read_nested(r, WHAT)?)?;
        self.body_of(sig, false)
    }

    fn read_bare(&self, bytes: &[u8]) -> Result<Option<Vec<u32>>, Error> {
        if !bytes.starts_with(b"NDMH") {
            return Ok(None);
        }
        self.body_of(Signature::from_bytes(bytes)?, true).map(Some)
    }

    fn key_count(&self) -> Option<usize> {
        Some(self.bands.bands())
    }

    fn keys(&self, side: Side<'_>) -> Result<Vec<u64>, Error> {
        if self.is_empty(side) {
            return Ok(Vec::new());
        }
        Ok(self.bands.band_keys(self.values(side.body)))
    }

    fn key(&self, body: &[u32], j: usize) -> u64 {
        let (start, end) = self.spans[j];
        crate::minhash::bands::band_key(j, &body[start..end])
    }

    fn bucket_cap(&self) -> Option<usize> {
        Some(crate::dedup::BUCKET_CAP)
    }

    fn verify(&self, a: Side<'_>, b: Side<'_>, v: &mut Verified) -> Result<bool, Error> {
        if self.is_empty(a) || self.is_empty(b) {
            return Ok(false);
        }
        let j = estimate(self.values(a.body), self.values(b.body));
        v.jaccard = Some(j);
        v.similarity = j;
        Ok(!(self.filter && j < self.threshold))
    }
}
