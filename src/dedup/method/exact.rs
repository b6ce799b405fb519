//! The `exact` method: no body; a document's keys are the prefix of its
//! shingle set in hash order, its first `n − ⌈t·n⌉ + 1` hashes, so that two
//! sets of Jaccard ≥ `t` share a key (prefix filtering, Chaudhuri, Ganti &
//! Kaushik 2006); every candidate is verified by its exact Jaccard (the
//! pipeline's `verify` step, always on for this method).

use super::{Method, Side, Verified};
use crate::dedup::config::{DedupConfig, DedupMethod};
use crate::document::Document;
use crate::error::Error;
use crate::index::snapshot::{Reader, Writer};
use alloc::vec::Vec;

#[derive(Debug)]
pub(crate) struct Exact {
    threshold: f64,
}

impl Exact {
    pub(crate) fn new(config: &DedupConfig) -> Self {
        Exact {
            threshold: config.jaccard_threshold(),
        }
    }
}

/// The prefix length of prefix filtering at threshold `t` for a set of `n`
/// shingles: `n − ⌈t·n⌉ + 1`, at most `n`.
pub(crate) fn prefix_len(n: usize, t: f64) -> usize {
    if n == 0 {
        return 0;
    }
    (n - (libm::ceil(t * n as f64) as usize).min(n) + 1).min(n)
}

impl Method for Exact {
    fn kind(&self) -> DedupMethod {
        DedupMethod::Exact
    }

    fn width(&self) -> usize {
        0
    }

    fn sketch(&self, _doc: &Document) -> Result<Vec<u32>, Error> {
        Ok(Vec::new())
    }

    fn is_empty(&self, side: Side<'_>) -> bool {
        side.set.is_none_or(|s| s.is_empty())
    }

    fn write(&self, _body: &[u32], _w: &mut Writer) {}

    fn read(&self, _r: &mut Reader<'_>) -> Result<Vec<u32>, Error> {
        Ok(Vec::new())
    }

    fn bucket_cap(&self) -> Option<usize> {
        Some(crate::dedup::BUCKET_CAP)
    }

    fn key_count(&self) -> Option<usize> {
        None
    }

    /// Never asked: prefixes vary in number, so their keys are stored.
    fn key(&self, _body: &[u32], _j: usize) -> u64 {
        0
    }

    fn keys(&self, side: Side<'_>) -> Result<Vec<u64>, Error> {
        Ok(side.set.map_or(Vec::new(), |s| {
            s.as_slice()[..prefix_len(s.len(), self.threshold)].to_vec()
        }))
    }

    /// Only the length filter, `min / max ≥ t` (the Jaccard of two sets is
    /// at most the ratio of their sizes, and so is its floating-point value:
    /// the filter never drops a pair the pipeline's Jaccard would keep).
    fn verify(&self, a: Side<'_>, b: Side<'_>, _v: &mut Verified) -> Result<bool, Error> {
        let (Some(x), Some(y)) = (a.set, b.set) else {
            return Ok(false);
        };
        let (lo, hi) = (x.len().min(y.len()), x.len().max(y.len()));
        Ok(hi > 0 && lo as f64 / hi as f64 >= self.threshold)
    }
}
