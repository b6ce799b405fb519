//! The dedup methods, one file each behind one trait, [`Method`]: what a
//! method makes of a document (its sketch *body*: a fixed number of 32-bit
//! words for one configuration), the body's bytes, its bucket keys, and how
//! a candidate pair is verified. [`super::Stages`] and
//! [`super::Deduplicator`] hold one `Arc<dyn Method>` and dispatch once; the
//! candidate index, the exact Jaccard of `verify`, the clusters and the
//! snapshots are the pipeline's, the same for every method.
//!
//! * `minhash.rs`: MinHash signatures and LSH band keys (Broder 1997;
//!   Indyk & Motwani 1998; Shrivastava 2017);
//! * `simhash.rs`: SimHash fingerprints and permuted-block table keys
//!   (Charikar 2002; Manku, Jain & Das Sarma 2007), tf, binary or tf-idf
//!   weights;
//! * `exact.rs`: no body; prefix-filter keys of the shingle set
//!   (Chaudhuri, Ganti & Kaushik 2006);
//! * `multiref.rs`: multireference cosine signatures and their 64
//!   random-projection bits in the table keys (Mohammadi & Khasteh 2020).
//!
//! **A new method** is a file here implementing [`Method`], a variant of
//! [`DedupMethod`] (its name and code) and one line in [`build`]; then its
//! options in `DedupConfig::applies` and its section of SPEC.md §14.

mod exact;
mod minhash;
mod multiref;
mod simhash;

pub use multiref::MultiRefModel;

use super::config::{DedupConfig, DedupMethod};
use crate::document::Document;
use crate::error::Error;
use crate::index::snapshot::{Reader, Writer};
use crate::shingle::ShingleSet;
use crate::tfidf::DocumentFrequencies;
use alloc::sync::Arc;
use alloc::vec::Vec;

/// A candidate pair that passed verification, with what is known of it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct Verified {
    /// The pair's similarity in [0, 1], the measure it was kept by: the
    /// exact Jaccard when known, else the MinHash estimate, else the
    /// multireference cosine, else `1 − d / 64` of the Hamming distance.
    pub similarity: f64,
    /// MinHash: the estimated Jaccard resemblance.
    pub jaccard: Option<f64>,
    /// The exact Jaccard resemblance of the shingle sets (`verify`, exact).
    pub exact: Option<f64>,
    /// SimHash and multiref: the Hamming distance of the fingerprints.
    pub distance: Option<u32>,
    /// Multiref: the signatures' cosine.
    pub estimate: Option<f64>,
    /// Multiref: the reference's decision (duplicate or near duplicate).
    pub decision: Option<crate::multiref::Decision>,
}

impl Verified {
    pub(crate) const NONE: Verified = Verified {
        similarity: 0.0,
        jaccard: None,
        exact: None,
        distance: None,
        estimate: None,
        decision: None,
    };
}

/// One side of a candidate pair: its body and, when the configuration keeps
/// them, its shingle set.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Side<'a> {
    pub body: &'a [u32],
    pub set: Option<&'a ShingleSet>,
}

/// A dedup method (module docs). Bodies are `width()` words; every method
/// writes them in the sketch bytes of SPEC.md §14.
pub(crate) trait Method: core::fmt::Debug + Send + Sync {
    /// Which method it is.
    fn kind(&self) -> DedupMethod;

    /// Words in a body of this configuration.
    fn width(&self) -> usize;

    /// The body of a document (normalised with the configuration's seed).
    fn sketch(&self, doc: &Document) -> Result<Vec<u32>, Error>;

    /// `true` for a document without shingles: no keys, matches nothing.
    fn is_empty(&self, side: Side<'_>) -> bool;

    /// Writes a body as the sketch bytes hold it.
    fn write(&self, body: &[u32], w: &mut Writer);

    /// Reads what [`Method::write`] wrote.
    fn read(&self, r: &mut Reader<'_>) -> Result<Vec<u32>, Error>;

    /// A body from a bare form written before the dedup sketch existed (a
    /// signature's or a fingerprint's own bytes), when the method has one.
    fn read_bare(&self, _bytes: &[u8]) -> Result<Option<Vec<u32>>, Error> {
        Ok(None)
    }

    /// The bucket keys: two documents are candidates exactly when they
    /// share one. None for an empty document.
    fn keys(&self, side: Side<'_>) -> Result<Vec<u64>, Error>;

    /// Key `j` of the body of a document with keys (the `j`-th of
    /// [`Method::keys`]), for the methods whose key count is fixed: the
    /// bucket store recomputes keys rather than storing them.
    fn key(&self, body: &[u32], j: usize) -> u64;

    /// A cheap test on two bodies of documents with keys: `true` only when
    /// [`Method::verify`] would refuse the pair (SimHash and multiref: the
    /// Hamming distance over `k`), so that candidates are filtered as they
    /// are met, before they are gathered. Default: never.
    fn far(&self, _a: &[u32], _b: &[u32]) -> bool {
        false
    }

    /// For a method whose [`Method::far`] is "the Hamming distance of two
    /// 64-bit words over `k`" (SimHash: the fingerprints): `k`. Its buckets
    /// are then the bucket store's parts layout (multi-index hashing of
    /// the words; its keys are not computed), each document's word beside
    /// its position, filtered by one sequential scan.
    /// Default: `None`.
    fn word_distance(&self) -> Option<u32> {
        None
    }

    /// The word of a body that [`Method::word_distance`] compares (read
    /// only when that is `Some`). Default: 0.
    fn word(&self, _body: &[u32]) -> u64 {
        0
    }

    /// How many keys a document with shingles has, when it is the same for
    /// every document (bands, tables); `None` when it varies (prefixes).
    fn key_count(&self) -> Option<usize>;

    /// At most how many documents of each bucket are candidates of a new
    /// one (the first added); `None`: every document of the bucket.
    fn bucket_cap(&self) -> Option<usize> {
        None
    }

    /// Whether a candidate pair passes the method's own test (before the
    /// exact Jaccard of `verify`, which the pipeline adds); fills in what
    /// it measured.
    fn verify(&self, a: Side<'_>, b: Side<'_>, v: &mut Verified) -> Result<bool, Error>;
}

/// What some methods need besides the configuration.
#[derive(Clone, Debug, Default)]
pub(crate) struct Extras {
    /// Multiref: the reference.
    pub model: Option<Arc<MultiRefModel>>,
    /// SimHash with tf-idf weights: the collection's document frequencies.
    pub frequencies: Option<Arc<DocumentFrequencies>>,
}

/// The method of a checked configuration: the registry, one line a method.
pub(crate) fn build(config: &DedupConfig, extras: &Extras) -> Result<Arc<dyn Method>, Error> {
    Ok(match config.method {
        DedupMethod::MinHash => Arc::new(minhash::MinHash::new(config)?),
        DedupMethod::SimHash => Arc::new(simhash::SimHash::new(config, extras)?),
        DedupMethod::Exact => Arc::new(exact::Exact::new(config)),
        DedupMethod::MultiRef => Arc::new(multiref::MultiRef::new(config, extras)?),
    })
}

/// Writes `bytes` nested: `u32` length, then the bytes.
pub(crate) fn write_nested(w: &mut Writer, bytes: &[u8]) {
    w.u32(bytes.len() as u32);
    for &b in bytes {
        w.u8(b);
    }
}

/// Reads what [`write_nested`] wrote.
pub(crate) fn read_nested(r: &mut Reader<'_>, what: &'static str) -> Result<Vec<u8>, Error> {
    let n = r.u32()? as usize;
    if n > r.remaining() {
        return Err(crate::index::snapshot::corrupt(
            what,
            alloc::format!("{n} bytes cannot fit in the data"),
        ));
    }
    (0..n).map(|_| r.u8()).collect()
}

/// A `u64` as two words, low first.
pub(crate) fn words(v: u64) -> [u32; 2] {
    [v as u32, (v >> 32) as u32]
}

/// Two words (low first) as a `u64`.
pub(crate) fn word64(w: &[u32]) -> u64 {
    w[0] as u64 | (w[1] as u64) << 32
}
