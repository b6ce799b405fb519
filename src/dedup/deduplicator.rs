//! [`Deduplicator`]: the dedup pipeline over a stream of documents.
//!
//! Each document added is sketched ([`super::Stages`]), its candidates are
//! found in the method's index (MinHash LSH, the permuted-block Hamming
//! index, or a prefix index for the exact join), each candidate is verified
//! by [`super::Stages::verify`], and the near-duplicates already added are
//! returned, best first: the streaming answer to "have I seen this, or a near
//! copy of it?". Clusters grow by union–find (Tarjan 1975) as pairs are found,
//! so clusters, `keep` and `duplicates` never need the pairs: memory follows
//! the documents, not the pairs, whatever the size of a group of copies.
//!
//! A cluster's representative is its first-added member; `keep` is every
//! representative and every document in no pair, in the order added.
//!
//! **Memory** per document with the defaults (MinHash LSH, 128 values):
//! the LSH index's (its signature, 512 bytes, its band entries and links,
//! about 28 bytes a band, its id twice) plus about 100 bytes and the id
//! twice here (position, union–find, id map); measured in `BENCHMARKS.md`.
//! `verify` and `exact` add the shingle set (8 bytes a distinct shingle).

use super::config::{DedupConfig, DedupMethod};
use super::stages::{prefix_len, Body, BodyRef, MultiRefModel, Sketch, Stages, Verified};
use crate::error::{Error, ErrorKind};
use crate::index::clusters::UnionFind;
use crate::index::snapshot::{corrupt, Reader, Writer};
use crate::minhash::MinHashLsh;
use crate::shingle::ShingleSet;
use crate::simhash::SimHashIndex;
use crate::spell::Dictionary;
use crate::NearDupIndex;
use alloc::boxed::Box;
use alloc::format;
use alloc::sync::Arc;
use alloc::vec::Vec;
use hashbrown::HashMap;

type Map<K, V> = HashMap<K, V, fnv::FnvBuildHasher>;

const MAGIC: &[u8; 4] = b"NDDP";
const FORMAT: u16 = 1;
const WHAT: &str = "deduplicator snapshot";

/// A near-duplicate already added, found for a new document.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Match<'a> {
    /// Its id.
    pub id: &'a str,
    /// Its position: the number of documents added before it (removed ones
    /// included).
    pub position: u32,
    /// How near it is.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub verified: Verified,
}

/// A pair of near-duplicates, `a` added before `b`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DedupPair<'a> {
    /// The id added first.
    pub a: &'a str,
    /// The id added second.
    pub b: &'a str,
    /// The position of `a` (see [`Match::position`]).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub a_position: u32,
    /// The position of `b`.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub b_position: u32,
    /// How near they are.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub verified: Verified,
}

/// What a deduplicator holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct DedupSummary {
    /// Documents held.
    pub documents: usize,
    /// Near-duplicate pairs among them.
    pub pairs: u64,
    /// Clusters (connected components of the pairs with two members or more).
    pub clusters: usize,
    /// Documents that are in a cluster but not its representative: what
    /// `keep` drops.
    pub duplicates: usize,
}

/// The method's candidate index.
enum Index {
    MinHash(MinHashLsh),
    Hamming(SimHashIndex),
    /// Prefix shingle → positions whose prefix holds it.
    Exact(Map<u64, Vec<u32>>),
}

struct Entry {
    id: Box<str>,
    /// The sketch's body, but a MinHash signature (kept by the LSH index).
    body: Option<Box<Body>>,
    set: Option<Arc<ShingleSet>>,
}

/// The dedup pipeline over a stream of documents (module docs).
///
/// ```
/// use neardup::dedup::{DedupConfig, Deduplicator};
///
/// let mut d = Deduplicator::new(&DedupConfig::default())?;
/// let text = "The quick brown fox jumps over the lazy dog near the river bank today.";
/// assert!(d.add("a", text)?.is_empty());
/// assert!(d.add("b", "An unrelated sentence about database indexes and queries.")?.is_empty());
/// let found = d.add("c", &text.replace("today", "again"))?;
/// assert_eq!(found[0].id, "a");
/// assert_eq!(d.clusters(), [vec!["a", "c"]]);
/// assert_eq!(d.keep(), ["a", "b"]);
/// # Ok::<(), neardup::Error>(())
/// ```
pub struct Deduplicator {
    stages: Stages,
    index: Index,
    docs: Vec<Option<Entry>>,
    by_id: Map<Box<str>, u32>,
    uf: UnionFind,
    /// A removal broke pairs: clusters and the pair count are recomputed
    /// when next read.
    stale: bool,
    pairs: u64,
}

impl Deduplicator {
    /// An empty deduplicator (every method but multiref, which needs
    /// [`Deduplicator::with_reference`]).
    ///
    /// # Errors
    /// As [`Stages::new`].
    pub fn new(config: &DedupConfig) -> Result<Self, Error> {
        Self::from_stages(Stages::new(config)?)
    }

    /// An empty deduplicator of the multiref method.
    ///
    /// # Errors
    /// As [`Stages::with_reference`].
    pub fn with_reference(config: &DedupConfig, model: MultiRefModel) -> Result<Self, Error> {
        Self::from_stages(Stages::with_reference(config, model)?)
    }

    /// An empty deduplicator of these stages (e.g. with a dictionary for
    /// `correct`: [`Stages::with_dictionary`]).
    ///
    /// # Errors
    /// None for stages made by [`Stages::new`] (their configuration is
    /// checked); as [`DedupConfig::check`] otherwise.
    pub fn from_stages(stages: Stages) -> Result<Self, Error> {
        let index = match stages.config().method {
            DedupMethod::MinHash => {
                let mut lsh = MinHashLsh::with_params(stages.config().lsh_params()?, 0);
                if let Some(h) = stages.hasher() {
                    // Fixes the kind, so that a snapshot of an empty one records it.
                    lsh.set_signature_kind(h.kind())?;
                }
                Index::MinHash(lsh)
            }
            DedupMethod::SimHash | DedupMethod::MultiRef => {
                Index::Hamming(SimHashIndex::new(&stages.config().index_config())?)
            }
            DedupMethod::Exact => Index::Exact(Map::default()),
        };
        Ok(Deduplicator {
            stages,
            index,
            docs: Vec::new(),
            by_id: Map::default(),
            uf: UnionFind::new(0),
            stale: false,
            pairs: 0,
        })
    }

    /// Its stage functions (to sketch on other threads and
    /// [`Deduplicator::add_sketch`] here).
    pub fn stages(&self) -> &Stages {
        &self.stages
    }

    /// Its configuration.
    pub fn config(&self) -> &DedupConfig {
        self.stages.config()
    }

    /// The banding of the MinHash method.
    pub fn lsh_params(&self) -> Option<&crate::minhash::LshParams> {
        match &self.index {
            Index::MinHash(lsh) => Some(lsh.params()),
            _ => None,
        }
    }

    /// Number of documents held.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    /// `true` when it holds no document.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// `true` when `id` is held.
    pub fn contains(&self, id: &str) -> bool {
        self.by_id.contains_key(id)
    }

    /// Adds document `id` with `text` and returns the near-duplicates already
    /// added, best first (highest similarity, then first added).
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateId`] when `id` is held; as [`Stages::sketch`];
    /// [`ErrorKind::IndexFull`] past `2^32 − 2` documents added.
    pub fn add(&mut self, id: &str, text: &str) -> Result<Vec<Match<'_>>, Error> {
        if self.contains(id) {
            return Err(Error::new(ErrorKind::DuplicateId { id: id.into() }));
        }
        let sketch = self.stages.sketch(text)?;
        self.add_sketch(id, sketch)
    }

    /// [`Deduplicator::add`] with a sketch made by [`Stages::sketch`] (on
    /// any thread) or read by [`Stages::read_sketch`].
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateId`]; [`ErrorKind::Incompatible`] for a sketch
    /// of another configuration; [`ErrorKind::IndexFull`].
    pub fn add_sketch(&mut self, id: &str, sketch: Sketch) -> Result<Vec<Match<'_>>, Error> {
        self.stages.check(&sketch)?;
        if self.contains(id) {
            return Err(Error::new(ErrorKind::DuplicateId { id: id.into() }));
        }
        if self.docs.len() >= (u32::MAX - 1) as usize {
            return Err(Error::new(ErrorKind::IndexFull));
        }
        let x = self.docs.len() as u32;
        let Sketch { body, set, .. } = sketch;
        let mut found = match (&mut self.index, body) {
            (Index::MinHash(lsh), Body::MinHash(sig)) => {
                // One bucket operation per band inserts and finds candidates.
                let slots = lsh.insert_candidates(id, sig)?;
                let lsh = &*lsh;
                let mut found = Vec::new();
                if let Some((_, new)) = lsh.signature(id).map(|s| (id, s)) {
                    for slot in slots {
                        let Some((cid, other)) = lsh.at(slot) else {
                            continue;
                        };
                        let Some(&y) = self.by_id.get(cid) else {
                            continue;
                        };
                        let other_set = self.docs[y as usize]
                            .as_ref()
                            .and_then(|e| e.set.as_deref());
                        if let Some(v) = self.stages.verify_parts(
                            BodyRef::MinHash(new),
                            set.as_deref(),
                            BodyRef::MinHash(other),
                            other_set,
                        )? {
                            found.push((y, v));
                        }
                    }
                }
                self.docs.push(Some(Entry {
                    id: id.into(),
                    body: None,
                    set,
                }));
                found
            }
            (_, body) => {
                let found = self.matches(body.as_ref(), set.as_deref(), None)?;
                self.insert_other(id, x, body, set)?;
                found
            }
        };
        self.by_id.insert(id.into(), x);
        self.uf.push();
        for &(y, _) in &found {
            self.uf.union(x, y);
        }
        if !self.stale {
            self.pairs += found.len() as u64;
        }
        sort_found(&mut found);
        Ok(found
            .into_iter()
            .filter_map(|(y, verified)| {
                Some(Match {
                    id: self.id_at(y)?,
                    position: y,
                    verified,
                })
            })
            .collect())
    }

    /// Inserts a SimHash, multiref or exact sketch into its index.
    fn insert_other(
        &mut self,
        id: &str,
        x: u32,
        body: Body,
        set: Option<Arc<ShingleSet>>,
    ) -> Result<(), Error> {
        match (&mut self.index, body) {
            (Index::Hamming(index), body) => {
                let fp = match &body {
                    Body::SimHash(fp) => *fp,
                    Body::MultiRef(_, bits) => *bits,
                    _ => return Err(corrupt("dedup sketch", "a sketch of another method".into())),
                };
                index.insert(id, fp)?;
                self.docs.push(Some(Entry {
                    id: id.into(),
                    body: Some(Box::new(body)),
                    set,
                }));
            }
            (Index::Exact(postings), Body::Exact) => {
                if let Some(s) = &set {
                    let t = self.stages.config().threshold;
                    for &h in &s.as_slice()[..prefix_len(s.len(), t)] {
                        postings.entry(h).or_default().push(x);
                    }
                }
                self.docs.push(Some(Entry {
                    id: id.into(),
                    body: Some(Box::new(Body::Exact)),
                    set,
                }));
            }
            _ => return Err(corrupt("dedup sketch", "a sketch of another method".into())),
        }
        Ok(())
    }

    /// The near-duplicates of a sketch among those held (before position
    /// `before` when given), each verified, unsorted.
    fn matches(
        &self,
        body: BodyRef<'_>,
        set: Option<&ShingleSet>,
        before: Option<u32>,
    ) -> Result<Vec<(u32, Verified)>, Error> {
        let mut candidates: Vec<u32> = Vec::new();
        match (&self.index, body) {
            (Index::MinHash(lsh), BodyRef::MinHash(sig)) => {
                for hit in lsh.query_with(sig, None)? {
                    candidates.extend(self.by_id.get(hit.id).copied());
                }
            }
            (Index::Hamming(index), BodyRef::SimHash(fp) | BodyRef::MultiRef(_, fp)) => {
                for hit in index.query_within(fp, index.max_k())? {
                    candidates.extend(self.by_id.get(hit.id).copied());
                }
            }
            (Index::Exact(postings), BodyRef::Exact) => {
                if let Some(s) = set {
                    let t = self.stages.config().threshold;
                    for h in &s.as_slice()[..prefix_len(s.len(), t)] {
                        if let Some(list) = postings.get(h) {
                            candidates.extend(list.iter().copied().filter(|&y| {
                                self.set_at(y).is_some_and(|o| {
                                    let (a, b) = (o.len().min(s.len()), o.len().max(s.len()));
                                    a as f64 >= t * b as f64
                                })
                            }));
                        }
                    }
                    candidates.sort_unstable();
                    candidates.dedup();
                }
            }
            _ => return Err(corrupt("dedup sketch", "a sketch of another method".into())),
        }
        let mut out = Vec::new();
        for y in candidates {
            if before.is_some_and(|b| y >= b) {
                continue;
            }
            let Some(Some(entry)) = self.docs.get(y as usize) else {
                continue;
            };
            let other = match (&entry.body, &self.index) {
                (Some(b), _) => b.as_ref().as_ref(),
                (None, Index::MinHash(lsh)) => match lsh.signature(&entry.id) {
                    Some(sig) => BodyRef::MinHash(sig),
                    None => continue,
                },
                _ => continue,
            };
            if let Some(v) = self
                .stages
                .verify_parts(body, set, other, entry.set.as_deref())?
            {
                out.push((y, v));
            }
        }
        Ok(out)
    }

    fn id_at(&self, position: u32) -> Option<&str> {
        self.docs.get(position as usize)?.as_ref().map(|e| &*e.id)
    }

    fn set_at(&self, position: u32) -> Option<&ShingleSet> {
        self.docs.get(position as usize)?.as_ref()?.set.as_deref()
    }

    /// The body of the document at `position`, borrowed.
    fn body_at(&self, position: u32) -> Option<BodyRef<'_>> {
        let entry = self.docs.get(position as usize)?.as_ref()?;
        match (&entry.body, &self.index) {
            (Some(b), _) => Some(b.as_ref().as_ref()),
            (None, Index::MinHash(lsh)) => lsh.signature(&entry.id).map(BodyRef::MinHash),
            _ => None,
        }
    }

    /// Removes `id`; `false` when it was not held. The pairs it was in go;
    /// clusters it held together split (recomputed when next read: time of
    /// a second pass over the documents, only when it was in a pair).
    pub fn remove(&mut self, id: &str) -> bool {
        let Some(x) = self.by_id.remove(id) else {
            return false;
        };
        let entry = self.docs[x as usize].take();
        match &mut self.index {
            Index::MinHash(lsh) => {
                lsh.remove(id);
            }
            Index::Hamming(index) => {
                index.remove(id);
            }
            Index::Exact(postings) => {
                if let Some(s) = entry.as_ref().and_then(|e| e.set.as_deref()) {
                    let t = self.stages.config().threshold;
                    for h in &s.as_slice()[..prefix_len(s.len(), t)] {
                        if let Some(list) = postings.get_mut(h) {
                            list.retain(|&y| y != x);
                            if list.is_empty() {
                                postings.remove(h);
                            }
                        }
                    }
                }
            }
        }
        if self.uf.set_size(x) > 1 {
            self.stale = true;
        }
        true
    }

    /// Recomputes clusters and the pair count after removals.
    fn refresh(&mut self) {
        if !self.stale {
            return;
        }
        let mut uf = UnionFind::new(self.docs.len());
        let mut pairs = 0u64;
        for x in 0..self.docs.len() as u32 {
            let Some(body) = self.body_at(x) else {
                continue;
            };
            // Sketches held here share one configuration, so verification
            // cannot fail; a failure would only drop the pair.
            let found = self
                .matches(body, self.set_at(x), Some(x))
                .unwrap_or_default();
            pairs += found.len() as u64;
            for (y, _) in found {
                uf.union(x, y);
            }
        }
        self.uf = uf;
        self.pairs = pairs;
        self.stale = false;
    }

    /// Every near-duplicate pair held, each once, `a` added before `b`,
    /// sorted by the positions of `a` then `b`. Recomputed from the index
    /// (the pairs are not stored: time of a second pass, memory the pairs
    /// returned).
    ///
    /// # Errors
    /// None in practice (the sketches held share one configuration).
    pub fn pairs(&self) -> Result<Vec<DedupPair<'_>>, Error> {
        let mut out = Vec::new();
        for x in 0..self.docs.len() as u32 {
            let Some(body) = self.body_at(x) else {
                continue;
            };
            for (y, verified) in self.matches(body, self.set_at(x), Some(x))? {
                if let (Some(a), Some(b)) = (self.id_at(y), self.id_at(x)) {
                    out.push(DedupPair {
                        a,
                        b,
                        a_position: y,
                        b_position: x,
                        verified,
                    });
                }
            }
        }
        out.sort_by_key(|p| (p.a_position, p.b_position));
        Ok(out)
    }

    /// The clusters: connected components of the pairs with two members or
    /// more, each in the order added (its representative first), ordered
    /// by representative.
    pub fn clusters(&mut self) -> Vec<Vec<&str>> {
        self.refresh();
        let clusters = self.uf.clusters();
        clusters
            .into_iter()
            .map(|c| c.into_iter().filter_map(|x| self.id_at(x)).collect())
            .filter(|c: &Vec<&str>| c.len() > 1)
            .collect()
    }

    /// The cluster positions, as [`Deduplicator::clusters`].
    pub fn cluster_positions(&mut self) -> Vec<Vec<u32>> {
        self.refresh();
        self.uf.clusters()
    }

    /// The representative of `id`'s cluster (`id` itself when in no pair).
    pub fn representative(&mut self, id: &str) -> Option<&str> {
        let x = *self.by_id.get(id)?;
        self.refresh();
        let r = self.uf.least(x);
        self.id_at(r)
    }

    /// The documents to keep, in the order added: every document but the
    /// duplicates (the first of each cluster is kept).
    pub fn keep(&mut self) -> Vec<&str> {
        self.split(true)
    }

    /// The documents [`Deduplicator::keep`] drops, in the order added.
    pub fn duplicates(&mut self) -> Vec<&str> {
        self.split(false)
    }

    fn split(&mut self, keep: bool) -> Vec<&str> {
        self.refresh();
        let mut out: Vec<u32> = Vec::new();
        for x in 0..self.docs.len() as u32 {
            if self.docs[x as usize].is_none() {
                continue;
            }
            if (self.uf.least(x) == x) == keep {
                out.push(x);
            }
        }
        out.into_iter().filter_map(|x| self.id_at(x)).collect()
    }

    /// Documents, pairs, clusters and duplicates held.
    pub fn summary(&mut self) -> DedupSummary {
        self.refresh();
        let clusters = self.uf.clusters();
        DedupSummary {
            documents: self.len(),
            pairs: self.pairs,
            clusters: clusters.len(),
            duplicates: clusters.iter().map(|c| c.len() - 1).sum(),
        }
    }

    /// The sketch of `id`, as [`Stages::sketch`] made it.
    pub fn sketch(&self, id: &str) -> Option<Sketch> {
        let x = *self.by_id.get(id)?;
        let entry = self.docs[x as usize].as_ref()?;
        let body = match (&entry.body, &self.index) {
            (Some(b), _) => (**b).clone(),
            (None, Index::MinHash(lsh)) => Body::MinHash(lsh.signature(id)?.clone()),
            _ => return None,
        };
        Some(Sketch {
            identity: self.stages.identity(),
            body,
            set: entry.set.clone(),
        })
    }

    /// The deduplicator as versioned, checksummed bytes, the same on every
    /// platform: `"NDDP"`, `u16` 1, `u16` spec version, the configuration
    /// ([`DedupConfig`]'s fields in order, SPEC.md §14), `u64` multireference
    /// id (0 for other methods), `u64` count, then per document in the order
    /// added its id (`u32` length, UTF-8) and its sketch (`u32` length,
    /// [`Sketch::to_bytes`]); `u32` CRC-32. Removed documents are left out;
    /// clusters are rebuilt on load, with the same representatives.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(MAGIC, FORMAT);
        super::config::write_config(&mut w, self.config());
        w.u64(self.stages.model().map_or(0, |m| m.reference.id()));
        w.u64(self.len() as u64);
        for entry in self.docs.iter().flatten() {
            w.str(&entry.id);
            let bytes = self
                .sketch(&entry.id)
                .map(|s| s.to_bytes())
                .unwrap_or_default();
            w.u32(bytes.len() as u32);
            for b in bytes {
                w.u8(b);
            }
        }
        w.finish()
    }

    /// Reads [`Deduplicator::to_bytes`] output. The multiref method needs
    /// the same reference (`model`), `correct` a dictionary to add texts
    /// afterwards (it may be given later through new stages).
    ///
    /// # Errors
    /// [`ErrorKind::Corrupt`] or [`ErrorKind::Version`] as every decoder
    /// (a bad checksum, a truncated or inconsistent value, a duplicate id);
    /// [`ErrorKind::Incompatible`] when `model` is missing or is not the
    /// reference the snapshot was made with.
    pub fn from_bytes(
        bytes: &[u8],
        model: Option<MultiRefModel>,
        dictionary: Option<Arc<Dictionary>>,
    ) -> Result<Self, Error> {
        let mut r = Reader::open(bytes, MAGIC, FORMAT, WHAT)?;
        let config = super::config::read_config(&mut r, WHAT)?;
        let reference = r.u64()?;
        let found = model.as_ref().map_or(0, |m| m.reference.id());
        if found != reference {
            return Err(Error::incompatible(
                "multireference model",
                format!("reference {reference:016x}"),
                format!("reference {found:016x}"),
            ));
        }
        let mut stages = match model {
            Some(m) => Stages::with_reference(&config, m),
            None => Stages::new(&config),
        }
        .map_err(|e| corrupt(WHAT, format!("{e}")))?;
        if let Some(d) = dictionary {
            stages = stages.with_dictionary(d)?;
        }
        let mut dedup = Deduplicator::from_stages(stages)?;
        let count = r.count(8)?;
        for _ in 0..count {
            let id = r.str()?;
            let n = r.u32()? as usize;
            if n > r.remaining() {
                return Err(corrupt(WHAT, format!("{n} bytes cannot fit in the data")));
            }
            let bytes: Vec<u8> = (0..n).map(|_| r.u8()).collect::<Result<_, _>>()?;
            let sketch = dedup
                .stages
                .read_sketch(&bytes)
                .map_err(|e| corrupt(WHAT, format!("{id:?}: {e}")))?;
            dedup
                .add_sketch(&id, sketch)
                .map_err(|e| corrupt(WHAT, format!("{e}")))?;
        }
        r.end()?;
        Ok(dedup)
    }
}

/// Best first: highest similarity, then first added.
fn sort_found(found: &mut [(u32, Verified)]) {
    found.sort_by(|x, y| {
        y.1.similarity
            .total_cmp(&x.1.similarity)
            .then(x.0.cmp(&y.0))
    });
}

impl core::fmt::Debug for Deduplicator {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Deduplicator")
            .field("config", self.config())
            .field("documents", &self.len())
            .finish_non_exhaustive()
    }
}
