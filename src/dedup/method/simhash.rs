//! The `simhash` method: a document's 64-bit SimHash fingerprint (Charikar
//! 2002) of its shingles weighted by term frequency, once each (binary), or
//! by tf-idf with the collection's document frequencies (Spärck Jones 1972;
//! [`crate::tfidf`]); keyed by the permuted-block tables (Manku, Jain &
//! Das Sarma 2007; SPEC.md §10), so that two fingerprints within Hamming
//! distance `k` share a key; a candidate is kept when its distance is at
//! most `k` (and its exact Jaccard reaches the threshold with `verify`, the
//! default).
//!
//! Body: the fingerprint's two words (low first) and an empty flag. Bytes:
//! `u64` fingerprint, `u8` empty; bare form: the fingerprint's 8 bytes,
//! big-endian.

use super::{word64, words, Extras, Method, Side, Verified};
use crate::dedup::config::{DedupConfig, DedupMethod, Weights};
use crate::document::Document;
use crate::error::Error;
use crate::index::snapshot::{corrupt, Reader, Writer};
use crate::simhash::{
    fingerprint_weighted, hamming_distance, Fingerprint, SimHashConfig, SimHashIndex,
};
use crate::tfidf::DocumentFrequencies;
use alloc::format;
use alloc::sync::Arc;
use alloc::vec::Vec;

#[derive(Debug)]
pub(crate) struct SimHash {
    config: SimHashConfig,
    /// The tables whose keys are the bucket keys (they hold no fingerprint).
    tables: SimHashIndex,
    k: u32,
    tfidf: bool,
    frequencies: Option<Arc<DocumentFrequencies>>,
}

impl SimHash {
    pub(crate) fn new(config: &DedupConfig, extras: &Extras) -> Result<Self, Error> {
        let tfidf = config.weighting() == Weights::Tfidf;
        Ok(SimHash {
            config: SimHashConfig {
                shingle: config.shingling(),
                weights: config.fingerprint_weighting(),
                seed: config.hash_seed(),
                spec: config.hash_spec(),
            },
            tables: SimHashIndex::new(&config.index_config())?,
            k: config.max_distance(),
            tfidf,
            frequencies: extras.frequencies.clone(),
        })
    }

    fn fingerprint(&self, body: &[u32]) -> Fingerprint {
        Fingerprint::new(word64(body), self.config, body[2] != 0)
    }

    fn body(fp: u64, empty: bool) -> Vec<u32> {
        let [lo, hi] = words(fp);
        alloc::vec![lo, hi, empty as u32]
    }
}

impl Method for SimHash {
    fn kind(&self) -> DedupMethod {
        DedupMethod::SimHash
    }

    fn width(&self) -> usize {
        3
    }

    fn sketch(&self, doc: &Document) -> Result<Vec<u32>, Error> {
        match &self.frequencies {
            Some(df) => {
                let weighted = df.tfidf(&doc.shingles(self.config.shingle));
                Ok(Self::body(fingerprint_weighted(&weighted)?, doc.is_empty()))
            }
            None if self.tfidf => Err(Error::option(
                "weights",
                "tfidf sketches need the collection's document frequencies: count them \
                 first (Stages::count) and give them (Stages::with_frequencies)",
            )),
            None => {
                let fp = self.config.fingerprint_of(doc)?;
                Ok(Self::body(fp.value(), fp.is_empty()))
            }
        }
    }

    fn is_empty(&self, side: Side<'_>) -> bool {
        side.body[2] != 0
    }

    fn write(&self, body: &[u32], w: &mut Writer) {
        w.u64(word64(body));
        w.u8(body[2] as u8);
    }

    fn read(&self, r: &mut Reader<'_>) -> Result<Vec<u32>, Error> {
        let value = r.u64()?;
        let empty = match r.u8()? {
            0 => false,
            1 => true,
            b => return Err(corrupt("dedup sketch", format!("empty flag {b}"))),
        };
        Ok(Self::body(value, empty))
    }

    /// The fingerprint's 8 bytes, big-endian (never empty: an empty one has
    /// no keys, so it was never stored as a candidate).
    fn read_bare(&self, bytes: &[u8]) -> Result<Option<Vec<u32>>, Error> {
        let Ok(v) = <[u8; 8]>::try_from(bytes) else {
            return Ok(None);
        };
        Ok(Some(Self::body(u64::from_be_bytes(v), false)))
    }

    fn key_count(&self) -> Option<usize> {
        Some(self.tables.tables())
    }

    fn keys(&self, side: Side<'_>) -> Result<Vec<u64>, Error> {
        // The tables hold no fingerprint, so they take any configuration's.
        self.tables.table_keys(&self.fingerprint(side.body))
    }

    fn far(&self, a: &[u32], b: &[u32]) -> bool {
        hamming_distance(word64(a), word64(b)) > self.k
    }

    fn word_distance(&self) -> Option<u32> {
        Some(self.k)
    }

    fn word(&self, body: &[u32]) -> u64 {
        word64(body)
    }

    fn key(&self, body: &[u32], j: usize) -> u64 {
        self.tables.table_key(j, word64(body))
    }

    fn verify(&self, a: Side<'_>, b: Side<'_>, v: &mut Verified) -> Result<bool, Error> {
        if self.is_empty(a) || self.is_empty(b) {
            return Ok(false);
        }
        let d = hamming_distance(word64(a.body), word64(b.body));
        if d > self.k {
            return Ok(false);
        }
        v.distance = Some(d);
        v.similarity = 1.0 - d as f64 / 64.0;
        Ok(true)
    }
}
