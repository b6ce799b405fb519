//! What every near-duplicate index shares: one contract ([`NearDupIndex`]),
//! one result type ([`Hit`], [`Pair`] with a [`Score`]), one id/slot table,
//! one snapshot framing, and clustering of pairs.
//!
//! **The contract**, for the MinHash LSH index ([`crate::minhash::MinHashLsh`]),
//! the SimHash permuted-block index ([`crate::simhash::SimHashIndex`]) and
//! those to come:
//!
//! * an index holds documents by string id, each with one sketch (a MinHash
//!   signature, a SimHash fingerprint) that carries its configuration; the
//!   first sketch fixes the configuration, and a sketch of another one is
//!   refused ([`crate::ErrorKind::Incompatible`]);
//! * [`insert`](NearDupIndex::insert) refuses an id already present
//!   ([`crate::ErrorKind::DuplicateId`]); [`remove`](NearDupIndex::remove)
//!   returns whether the id was there;
//! * [`query`](NearDupIndex::query) returns the documents within the index's
//!   threshold of a sketch (LSH: candidates whose estimated Jaccard reaches
//!   the threshold; SimHash: fingerprints within Hamming distance `max_k`),
//!   best first (highest Jaccard, smallest distance), ties by id;
//! * [`all_pairs`](NearDupIndex::all_pairs) returns every such pair once,
//!   `a < b`, sorted by `(a, b)`; [`clusters`](NearDupIndex::clusters) their
//!   connected components, each sorted, ordered by first id, singletons left
//!   out;
//! * the sketch of an empty document (no shingles) is stored and counted but
//!   never matches anything: empty documents never fill one bucket;
//! * [`to_bytes`](NearDupIndex::to_bytes) writes a versioned, checksummed
//!   snapshot (one framing, `index/snapshot.rs`) that the index's `from_bytes`
//!   reads back, bit-identical on every platform.

#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod avx512;
pub(crate) mod buckets;
pub mod clusters;
pub mod exact;
pub(crate) mod ids;
mod prefetch;
pub(crate) mod snapshot;

use crate::error::Error;
use alloc::vec::Vec;

/// How near a match is: the measure its index estimates.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub enum Score {
    /// Estimated Jaccard resemblance in [0, 1] (MinHash).
    Jaccard(f64),
    /// Hamming distance of 64-bit fingerprints, 0..=64 (SimHash).
    #[cfg_attr(feature = "serde", serde(rename = "distance"))]
    Hamming(u32),
}

impl Score {
    /// A similarity in [0, 1]: the Jaccard estimate, or `1 − d / 64` for a
    /// Hamming distance `d`. Higher is nearer.
    pub fn similarity(&self) -> f64 {
        match *self {
            Score::Jaccard(j) => j,
            Score::Hamming(d) => 1.0 - d.min(64) as f64 / 64.0,
        }
    }
}

/// A document found by a query.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
#[cfg_attr(
    feature = "wasm-bindings",
    tsify(type = "{ id: string } & ({ jaccard: number } | { distance: number })")
)]
pub struct Hit<'a> {
    /// Its id.
    pub id: &'a str,
    /// How near it is to the query.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub score: Score,
}

/// A pair of near-duplicate documents in an index, `a < b`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
#[cfg_attr(
    feature = "wasm-bindings",
    tsify(type = "{ a: string; b: string } & ({ jaccard: number } | { distance: number })")
)]
pub struct Pair<'a> {
    /// The smaller id.
    pub a: &'a str,
    /// The larger id.
    pub b: &'a str,
    /// How near they are.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub score: Score,
}

/// Sorts hits best first (highest similarity), ties by id.
pub(crate) fn sort_hits(hits: &mut [Hit<'_>]) {
    hits.sort_by(|x, y| {
        y.score
            .similarity()
            .total_cmp(&x.score.similarity())
            .then(x.id.cmp(y.id))
    });
}

/// Sorts pairs by `(a, b)`.
pub(crate) fn sort_pairs(pairs: &mut [Pair<'_>]) {
    pairs.sort_by(|p, q| (p.a, p.b).cmp(&(q.a, q.b)));
}

/// The contract every near-duplicate index keeps (see the module docs).
pub trait NearDupIndex {
    /// What it stores per document: a sketch carrying its configuration.
    type Sketch;

    /// Adds document `id` with `sketch`.
    ///
    /// # Errors
    /// [`crate::ErrorKind::DuplicateId`] when `id` is present;
    /// [`crate::ErrorKind::Incompatible`] for a sketch of another
    /// configuration; [`crate::ErrorKind::IndexFull`] past `2^32 − 1`.
    fn insert(&mut self, id: &str, sketch: Self::Sketch) -> Result<(), Error>;

    /// Removes `id`; `false` when it was not present.
    fn remove(&mut self, id: &str) -> bool;

    /// `true` when `id` is present.
    fn contains(&self, id: &str) -> bool;

    /// Number of documents.
    fn len(&self) -> usize;

    /// `true` when it holds no document.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The documents within the index's threshold of `sketch`, best first,
    /// ties by id.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] for a sketch of another
    /// configuration.
    fn query(&self, sketch: &Self::Sketch) -> Result<Vec<Hit<'_>>, Error>;

    /// Every pair within the index's threshold once, sorted by `(a, b)`.
    fn all_pairs(&self) -> Vec<Pair<'_>>;

    /// Connected components of [`NearDupIndex::all_pairs`].
    fn clusters(&self) -> Vec<Vec<&str>> {
        clusters::cluster_pairs(&self.all_pairs())
    }

    /// A versioned, checksummed snapshot.
    fn to_bytes(&self) -> Vec<u8>;
}
