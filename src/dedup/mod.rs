//! The dedup pipeline as a library: a collection's near-duplicate pairs, its
//! clusters, and what to keep — once, in the core, for the CLI, the npm
//! package, the edge Worker, Python and its engines.
//!
//! ```text
//! text ─▶ Document ─▶ Sketch ─▶ bucket keys ─▶ candidates ─▶ verify ─▶ union–find ─▶ clusters, keep
//!          (Stages::sketch)    (Stages::keys)  (buckets)     (Stages::verify)        (first added kept)
//! ```
//!
//! * [`DedupConfig`] (`config.rs`): method (`minhash`, `simhash`, `exact`,
//!   `multiref`), shingles, threshold and each method's options, with the
//!   defaults of `neardup dedup`: every range and every rule between
//!   options, checked once; the bindings only map names.
//! * `method/`: one file per method behind one trait (what a method makes
//!   of a document, its bytes, its bucket keys, its verification).
//! * [`Deduplicator`] (`deduplicator.rs`): documents one at a time —
//!   [`Deduplicator::add`] answers with the near-duplicates already added,
//!   [`Deduplicator::query`] without adding — then pairs, clusters, `keep`,
//!   a summary and snapshot bytes; its candidate index is the bucket store
//!   every index shares (`index/buckets.rs`).
//! * [`Stages`] (`stages.rs`): the same pipeline as pure, byte-stable stage
//!   functions for engines that process a collection in pieces (text →
//!   sketch bytes, sketch → bucket keys, pair → verified similarity), and
//!   [`clusters_of_edges`] and [`labels`] for the last one (edges →
//!   clusters).
//! * `batch.rs` (feature `parallel`): a batch of documents sketched on
//!   every core and added in order, the one loop of the CLI and Python.
//!
//! Methods: Broder 1997 (shingles, resemblance, MinHash); Indyk & Motwani
//! 1998 (LSH banding); Shrivastava 2017 (one-permutation MinHash); Charikar
//! 2002 and Manku, Jain & Das Sarma 2007 (SimHash, permuted-block index);
//! Spärck Jones 1972 (tf-idf weights); Chaudhuri, Ganti & Kaushik 2006
//! (prefix filtering); Mohammadi & Khasteh 2020 (multireference
//! signatures); Tarjan 1975 (union–find).

#[cfg(feature = "parallel")]
mod batch;
mod config;
mod deduplicator;
mod legacy;
mod method;
mod stages;

#[cfg(feature = "parallel")]
pub use batch::BatchError;
pub use config::{
    DedupConfig, DedupMethod, DedupNeeds, Weights, DEFAULT_MULTIREF_K, DEFAULT_SHINGLE,
    DEFAULT_SIMHASH_K, DEFAULT_SPEC, DEFAULT_THRESHOLD, LEGACY_SIMHASH_K, MAX_K,
};
pub use deduplicator::{DedupPair, DedupSummary, Deduplicator, Match};
pub use method::{MultiRefModel, Verified};
pub use stages::{Sketch, Stages, MAX_DOCUMENT_BYTES};

/// The index of MinHash, multireference signatures and the exact join: a
/// new document is a candidate of at most the first 64 documents (in the
/// order added) of each bucket it falls in (a MinHash band, a
/// multireference table, a prefix shingle of the exact join). A bucket held
/// by more documents than that is a group of near copies (or of texts too
/// short to tell apart, or a shingle too common to tell anything): its
/// first 64 stand for it, so a group of `n` near copies costs `O(n)`
/// candidates, not `O(n²)`, and a pair that shares a crowded bucket still
/// meets in the other buckets it shares. SimHash is not capped: at distance 12
/// its permuted blocks are about 5 bits wide, so every bucket holds about a
/// thirtieth of the corpus, and capping them cost a fifth of the recall on
/// docs-bench (EVALUATION.md, "Candidates capped").
pub const BUCKET_CAP: usize = 64;

/// [`BUCKET_CAP`], under its name from when MinHash alone was capped.
pub const MINHASH_BUCKET_CAP: usize = BUCKET_CAP;

use crate::index::clusters::UnionFind;
use alloc::vec::Vec;
use hashbrown::HashMap;

/// Stage 4: the clusters of a graph of near-duplicate pairs, as
/// [`Deduplicator::clusters`] makes them. Nodes are the documents'
/// positions in the collection's order (any `u64`s: a row number, an
/// offset); each cluster is sorted, so its first node is its
/// representative (the least position: the document first added), and
/// clusters are ordered by representative. Nodes in no edge are in no
/// cluster; an edge from a node to itself is ignored. Time
/// `O(E log E)`, memory `O(E)`.
///
/// ```
/// use neardup::dedup::clusters_of_edges;
///
/// let clusters = clusters_of_edges(&[(7, 3), (9, 12), (3, 5)]);
/// assert_eq!(clusters, [vec![3, 5, 7], vec![9, 12]]);
/// ```
pub fn clusters_of_edges(edges: &[(u64, u64)]) -> Vec<Vec<u64>> {
    let mut nodes: Vec<u64> = edges.iter().flat_map(|&(a, b)| [a, b]).collect();
    nodes.sort_unstable();
    nodes.dedup();
    let dense: HashMap<u64, u32, fnv::FnvBuildHasher> = nodes
        .iter()
        .enumerate()
        .map(|(i, &n)| (n, i as u32))
        .collect();
    let mut uf = UnionFind::new(nodes.len());
    for (a, b) in edges {
        if let (Some(&x), Some(&y)) = (dense.get(a), dense.get(b)) {
            uf.union(x, y);
        }
    }
    uf.clusters()
        .into_iter()
        .map(|c| c.into_iter().map(|i| nodes[i as usize]).collect())
        .collect()
}

/// Stage 4 as labels, for engines that join them back to their rows: every
/// node of an edge with its cluster's representative (the least position),
/// ascending by node. A row whose position is not here is in no pair: its
/// own representative, kept. A row is kept exactly when its representative
/// is itself.
///
/// ```
/// use neardup::dedup::labels;
///
/// assert_eq!(labels(&[(7, 3), (3, 5), (9, 12)]), [(3, 3), (5, 3), (7, 3), (9, 9), (12, 9)]);
/// ```
pub fn labels(edges: &[(u64, u64)]) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = clusters_of_edges(edges)
        .into_iter()
        .flat_map(|c| {
            let r = c[0];
            c.into_iter().map(move |p| (p, r))
        })
        .collect();
    out.sort_unstable();
    out
}
