//! The dedup pipeline as a library: a collection's near-duplicate pairs, its
//! clusters, and what to keep — once, in the core, for the CLI, the npm
//! package, the edge Worker and every binding.
//!
//! ```text
//! text ─▶ Document ─▶ Sketch ─▶ bucket keys ─▶ candidates ─▶ verify ─▶ union–find ─▶ clusters, keep
//!          (Stages::sketch)    (Stages::keys)  (the index)   (Stages::verify)        (first added kept)
//! ```
//!
//! * [`DedupConfig`] (`config.rs`): method (`minhash`, `simhash`, `exact`,
//!   `multiref`), shingles, threshold and each method's options, with the
//!   defaults of `neardup dedup`, checked once.
//! * [`Deduplicator`] (`deduplicator.rs`): documents one at a time —
//!   [`Deduplicator::add`] answers with the near-duplicates already added —
//!   then pairs, clusters, `keep`, a summary and snapshot bytes.
//! * [`Stages`] (`stages.rs`): the same pipeline as pure, byte-stable stage
//!   functions for engines that process a collection in pieces (text →
//!   sketch bytes, sketch → bucket keys, pair → verified similarity), and
//!   [`clusters_of_edges`] for the last one (edges → clusters).
//!
//! Methods: Broder 1997 (shingles, resemblance, MinHash); Indyk & Motwani
//! 1998 (LSH banding); Shrivastava 2017 (one-permutation MinHash); Charikar
//! 2002 and Manku, Jain & Das Sarma 2007 (SimHash, permuted-block index);
//! Chaudhuri, Ganti & Kaushik 2006 (prefix filtering); Mohammadi & Khasteh
//! 2020 (multireference signatures); Tarjan 1975 (union–find).

mod config;
mod deduplicator;
mod stages;

pub use config::{
    DedupConfig, DedupMethod, DEFAULT_MULTIREF_K, DEFAULT_SIMHASH_K, DEFAULT_THRESHOLD,
};
pub use deduplicator::{DedupPair, DedupSummary, Deduplicator, Match};
pub use stages::{MultiRefModel, Sketch, Stages, Verified, MAX_DOCUMENT_BYTES};

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
