//! Index files written by `neardup index` before it kept [`Deduplicator`]
//! snapshots — a [`SimHashIndex`] (`"NDSH"`) or a [`MinHashLsh`]
//! (`"NDLS"`) — read and converted: the same ids, in the same order, with
//! the same sketches, in a deduplicator whose configuration finds the same
//! near-duplicates (SimHash: Hamming distance ≤ the index's `k`, unverified;
//! MinHash: the index's banding and threshold, by the estimate).

use super::config::{DedupConfig, DedupMethod, Weights};
use super::{Deduplicator, MultiRefModel};
use crate::error::Error;
use crate::index::snapshot::corrupt;
use crate::minhash::{LshConfig, MinHashLsh};
use crate::shingle::Shingling;
use crate::simhash::{SimHashIndex, Weighting};
use crate::spell::Dictionary;
use alloc::format;
use alloc::sync::Arc;

const WHAT: &str = "index file";

impl Deduplicator {
    /// A deduplicator from index bytes: its own snapshot
    /// ([`Deduplicator::from_bytes`], with the `model` and `dictionary` it
    /// needs), or an index file of the formats
    /// `neardup index` wrote before (a SimHash index or a MinHash LSH
    /// index), converted (module docs).
    ///
    /// # Errors
    /// As [`Deduplicator::from_bytes`] and the older indexes' `from_bytes`;
    /// [`crate::ErrorKind::Corrupt`] for bytes of none of these formats, and
    /// for an older index that does not record how its sketches were made
    /// (custom shingles) or whose banding came from advisor weights it does
    /// not record.
    pub fn from_index_bytes(
        bytes: &[u8],
        model: Option<MultiRefModel>,
        dictionary: Option<Arc<Dictionary>>,
    ) -> Result<Self, Error> {
        match bytes.get(..4) {
            Some(b"NDSH") => from_simhash(&SimHashIndex::from_bytes(bytes)?),
            Some(b"NDLS") => from_minhash(&MinHashLsh::from_bytes(bytes)?),
            Some(b"NDDP") => Deduplicator::from_bytes(bytes, model, dictionary),
            _ => Err(corrupt(
                WHAT,
                "it is not a neardup index (a deduplicator snapshot, or an older SimHash or \
                 MinHash index)"
                    .into(),
            )),
        }
    }
}

fn given_shingle(s: Shingling) -> Result<Shingling, Error> {
    if s == Shingling::Custom {
        return Err(corrupt(
            WHAT,
            "it does not record how its sketches were made (custom shingles)".into(),
        ));
    }
    Ok(s)
}

fn from_simhash(index: &SimHashIndex) -> Result<Deduplicator, Error> {
    let c = index.config().ok_or_else(|| {
        corrupt(
            WHAT,
            "it does not record how its fingerprints were made".into(),
        )
    })?;
    let config = DedupConfig::default()
        .method(DedupMethod::SimHash)
        .shingle(given_shingle(c.shingle)?)
        .seed(c.seed)
        // The version it was made under (a new configuration's default is 2).
        .spec(c.spec)
        .verify(false)
        .k(index.max_k())
        .blocks(index.blocks() as u32)
        .weights(match c.weights {
            Weighting::Tf => Weights::Tf,
            Weighting::Binary => Weights::Binary,
        });
    let mut d = Deduplicator::new(&config)?;
    d.reserve(crate::NearDupIndex::len(index));
    let empty = d.stages().sketch("")?;
    for (id, fp) in index.iter() {
        let sketch = match fp.is_empty() {
            true => empty.clone(),
            false => d.stages().read_sketch(&fp.value().to_be_bytes())?,
        };
        d.insert(id, sketch)?;
    }
    Ok(d)
}

fn from_minhash(lsh: &MinHashLsh) -> Result<Deduplicator, Error> {
    let params = lsh.params();
    let kind = lsh.signature_kind().ok_or_else(|| {
        corrupt(
            WHAT,
            "it does not record how its signatures were made".into(),
        )
    })?;
    let t = params.threshold();
    let advised = LshConfig {
        threshold: t,
        num_perm: params.num_perm() as u32,
        ..LshConfig::default()
    }
    .params()?;
    let rows = params.rows();
    let (bands, per_band) = if advised.rows() == rows {
        (None, None)
    } else if rows.iter().all(|&r| r == rows[0]) {
        (Some(rows.len() as u32), Some(rows[0]))
    } else {
        return Err(corrupt(
            WHAT,
            format!(
                "its banding ({rows:?}) came from band-advisor weights it does not record: \
                 build the index again"
            ),
        ));
    };
    let config = DedupConfig::default()
        .shingle(given_shingle(kind.shingling)?)
        .seed(kind.seed)
        .spec(kind.spec)
        .threshold(t)
        .num_perm(params.num_perm() as u32)
        .scheme(kind.scheme)
        .bands(bands)
        .rows(per_band);
    let mut d = Deduplicator::new(&config)?;
    d.reserve(crate::NearDupIndex::len(lsh));
    for (id, sig) in lsh.iter() {
        let sketch = d.stages().read_sketch(&sig.to_bytes())?;
        d.insert(id, sketch)?;
    }
    Ok(d)
}
