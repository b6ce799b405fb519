//! [`Deduplicator`]: the dedup pipeline over a stream of documents.
//!
//! Each document added is sketched ([`super::Stages`]), its bucket keys
//! ([`super::Stages::keys`]) find its candidates among the documents
//! already added (`buckets.rs`: one index for every method), each candidate
//! is verified by [`super::Stages::verify`], and the near-duplicates already
//! added are returned, best first: the streaming answer to "have I seen
//! this, or a near copy of it?" ([`Deduplicator::query`] asks it without
//! adding). Clusters grow by union–find (Tarjan 1975) as pairs are found,
//! so clusters, `keep` and `duplicates` never need the pairs: memory follows
//! the documents, not the pairs.
//!
//! A cluster's representative is its first-added member; `keep` is every
//! representative and every document in no pair, in the order added.
//!
//! **Memory** per document with the defaults (MinHash LSH, 128 values): its
//! body (the signature's 132 words, 528 bytes, in one arena), per bucket
//! key about 30 bytes (a table entry and a link), its id twice (the id map
//! and the list in order) and about 40 bytes of bookkeeping; measured in
//! `BENCHMARKS.md`. `verify` and `exact` add the shingle set (8 bytes a
//! distinct shingle).

use super::buckets::Buckets;
use super::config::{DedupConfig, Weights};
use super::method::{MultiRefModel, Side, Verified};
use super::stages::{Sketch, Stages};
use crate::error::{Error, ErrorKind};
use crate::index::clusters::UnionFind;
use crate::index::snapshot::{corrupt, Reader, Writer};
use crate::shingle::ShingleSet;
use crate::spell::Dictionary;
use crate::tfidf::DocumentFrequencies;
use alloc::boxed::Box;
use alloc::format;
use alloc::sync::Arc;
use alloc::vec::Vec;
use hashbrown::HashMap;

type Map<K, V> = HashMap<K, V, fnv::FnvBuildHasher>;

const MAGIC: &[u8; 4] = b"NDDP";
/// Format 1; format 2 adds the document frequencies of tf-idf weights.
const FORMAT: u16 = 1;
const FORMAT_FREQUENCIES: u16 = 2;
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
/// // A query finds both copies, and adds nothing.
/// let q: Vec<&str> = d.query(&text.replace("today", "anew"))?.iter().map(|m| m.id).collect();
/// assert!(q.contains(&"a") && q.contains(&"c"));
/// assert_eq!(d.len(), 3);
/// assert_eq!(d.clusters(), [vec!["a", "c"]]);
/// assert_eq!(d.keep(), ["a", "b"]);
/// # Ok::<(), neardup::Error>(())
/// ```
pub struct Deduplicator {
    stages: Stages,
    /// Words per body (the method's, for this configuration).
    width: usize,
    /// Every body in the order added, `width` words each (removed ones
    /// stay, unused).
    bodies: Vec<u32>,
    /// Per position, the shingle set when the configuration keeps them.
    sets: Vec<Option<Arc<ShingleSet>>>,
    /// Per position, the id (`None` once removed).
    ids: Vec<Option<Box<str>>>,
    by_id: Map<Box<str>, u32>,
    buckets: Buckets,
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
    /// `+correct`: [`Stages::with_dictionary`]; with document frequencies
    /// for tf-idf weights: [`Stages::with_frequencies`]).
    ///
    /// # Errors
    /// None: the stages' configuration is checked.
    pub fn from_stages(stages: Stages) -> Result<Self, Error> {
        Ok(Deduplicator {
            width: stages.method().width(),
            stages,
            bodies: Vec::new(),
            sets: Vec::new(),
            ids: Vec::new(),
            by_id: Map::default(),
            buckets: Buckets::default(),
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

    /// Number of documents added, removed ones included: the next position.
    pub fn positions(&self) -> u32 {
        self.ids.len() as u32
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
        let found = self.insert(id, sketch)?;
        Ok(self.matches_of(found))
    }

    /// Adds a sketch and returns its verified candidates, unsorted.
    pub(crate) fn insert(
        &mut self,
        id: &str,
        sketch: Sketch,
    ) -> Result<Vec<(u32, Verified)>, Error> {
        self.stages.check(&sketch)?;
        if self.contains(id) {
            return Err(Error::new(ErrorKind::DuplicateId { id: id.into() }));
        }
        let keys = self.stages.keys_of(sketch.side())?;
        if self.ids.len() >= (u32::MAX - 1) as usize || !self.buckets.has_room(keys.len()) {
            return Err(Error::new(ErrorKind::IndexFull));
        }
        let x = self.ids.len() as u32;
        let mut candidates = Vec::new();
        self.buckets.insert(x, &keys, &mut candidates);
        let found = self.verified(sketch.side(), candidates)?;
        let Sketch { body, set, .. } = sketch;
        self.bodies.extend_from_slice(&body);
        if self.config().keeps_sets() {
            self.sets.push(set);
        }
        self.ids.push(Some(id.into()));
        self.by_id.insert(id.into(), x);
        self.uf.push();
        for &(y, _) in &found {
            self.uf.union(x, y);
        }
        if !self.stale {
            self.pairs += found.len() as u64;
        }
        Ok(found)
    }

    /// Found pairs as matches, best first.
    fn matches_of(&self, mut found: Vec<(u32, Verified)>) -> Vec<Match<'_>> {
        sort_found(&mut found);
        found
            .into_iter()
            .filter_map(|(y, verified)| {
                Some(Match {
                    id: self.id_at(y)?,
                    position: y,
                    verified,
                })
            })
            .collect()
    }

    /// The near-duplicates of `text` among the documents held, best first,
    /// without adding it: "have I seen this, or a near copy of it?".
    ///
    /// # Errors
    /// As [`Stages::sketch`].
    pub fn query(&self, text: &str) -> Result<Vec<Match<'_>>, Error> {
        self.query_sketch(&self.stages.sketch(text)?)
    }

    /// [`Deduplicator::query`] with a sketch.
    ///
    /// # Errors
    /// [`ErrorKind::Incompatible`] for a sketch of another configuration.
    pub fn query_sketch(&self, sketch: &Sketch) -> Result<Vec<Match<'_>>, Error> {
        self.stages.check(sketch)?;
        let found = self.matches(sketch.side(), u32::MAX)?;
        Ok(self.matches_of(found))
    }

    /// The verified candidates of a document among `candidates` (with
    /// repeats, in any order).
    fn verified(
        &self,
        side: Side<'_>,
        mut candidates: Vec<u32>,
    ) -> Result<Vec<(u32, Verified)>, Error> {
        candidates.sort_unstable();
        candidates.dedup();
        let mut out = Vec::new();
        for y in candidates {
            let Some(other) = self.side_at(y) else {
                continue;
            };
            if let Some(v) = self.stages.verify_sides(side, other)? {
                out.push((y, v));
            }
        }
        Ok(out)
    }

    /// The near-duplicates of a document among those held before position
    /// `before`, each verified, unsorted.
    fn matches(&self, side: Side<'_>, before: u32) -> Result<Vec<(u32, Verified)>, Error> {
        let keys = self.stages.keys_of(side)?;
        let mut candidates = Vec::new();
        self.buckets.candidates(&keys, before, &mut candidates);
        self.verified(side, candidates)
    }

    fn id_at(&self, position: u32) -> Option<&str> {
        self.ids.get(position as usize)?.as_deref()
    }

    /// The body and set of the document at `position`, when it is held.
    fn side_at(&self, position: u32) -> Option<Side<'_>> {
        let p = position as usize;
        self.ids.get(p)?.as_ref()?;
        Some(Side {
            body: &self.bodies[p * self.width..(p + 1) * self.width],
            set: self.sets.get(p).and_then(|s| s.as_deref()),
        })
    }

    /// Removes `id`; `false` when it was not held. The pairs it was in go;
    /// clusters it held together split (recomputed when next read: time of
    /// a second pass over the documents, only when it was in a pair).
    pub fn remove(&mut self, id: &str) -> bool {
        let Some(&x) = self.by_id.get(id) else {
            return false;
        };
        // Its keys, as inserted (sketches held share one configuration).
        let keys = self
            .side_at(x)
            .and_then(|s| self.stages.keys_of(s).ok())
            .unwrap_or_default();
        self.buckets.remove(x, &keys);
        self.by_id.remove(id);
        self.ids[x as usize] = None;
        if let Some(s) = self.sets.get_mut(x as usize) {
            *s = None;
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
        let mut uf = UnionFind::new(self.ids.len());
        let mut pairs = 0u64;
        for x in 0..self.ids.len() as u32 {
            let Some(side) = self.side_at(x) else {
                continue;
            };
            // Sketches held here share one configuration, so verification
            // cannot fail; a failure would only drop the pair.
            let found = self.matches(side, x).unwrap_or_default();
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
        for x in 0..self.ids.len() as u32 {
            let Some(side) = self.side_at(x) else {
                continue;
            };
            for (y, verified) in self.matches(side, x)? {
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
        let kept = self.keep_positions();
        kept.into_iter().filter_map(|x| self.id_at(x)).collect()
    }

    /// The documents [`Deduplicator::keep`] drops, in the order added.
    pub fn duplicates(&mut self) -> Vec<&str> {
        let dropped = self.duplicate_positions();
        dropped.into_iter().filter_map(|x| self.id_at(x)).collect()
    }

    /// The positions of [`Deduplicator::keep`], ascending.
    pub fn keep_positions(&mut self) -> Vec<u32> {
        self.split(true)
    }

    /// The positions of [`Deduplicator::duplicates`], ascending.
    pub fn duplicate_positions(&mut self) -> Vec<u32> {
        self.split(false)
    }

    fn split(&mut self, keep: bool) -> Vec<u32> {
        self.refresh();
        let mut out: Vec<u32> = Vec::new();
        for x in 0..self.ids.len() as u32 {
            if self.ids[x as usize].is_some() && (self.uf.least(x) == x) == keep {
                out.push(x);
            }
        }
        out
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
        self.sketch_at(*self.by_id.get(id)?)
    }

    fn sketch_at(&self, position: u32) -> Option<Sketch> {
        let side = self.side_at(position)?;
        Some(Sketch {
            identity: self.stages.identity(),
            method: self.stages.method().clone(),
            body: side.body.to_vec(),
            set: self.sets.get(position as usize).cloned().flatten(),
        })
    }

    /// The deduplicator as versioned, checksummed bytes, the same on every
    /// platform: `"NDDP"`, `u16` format (1; 2 with tf-idf weights), `u16`
    /// spec version, the configuration ([`DedupConfig`]'s fields in order,
    /// SPEC.md §14), `u64` multireference id (0 for other methods), with
    /// format 2 the document frequencies' bytes (`u32` length, then
    /// [`DocumentFrequencies::to_bytes`]), `u64` count, then per document
    /// in the order added its id (`u32` length, UTF-8) and its sketch (`u32`
    /// length, [`Sketch::to_bytes`]); `u32` CRC-32. Removed documents are
    /// left out; clusters are rebuilt on load, with the same
    /// representatives.
    pub fn to_bytes(&self) -> Vec<u8> {
        let frequencies = self.stages.frequencies();
        let format = match frequencies {
            Some(_) => FORMAT_FREQUENCIES,
            None => FORMAT,
        };
        let mut w = Writer::new(MAGIC, format);
        super::config::write_config(&mut w, self.config());
        w.u64(self.stages.model().map_or(0, |m| m.reference.id()));
        if let Some(f) = frequencies {
            super::method::write_nested(&mut w, &f.to_bytes());
        }
        w.u64(self.len() as u64);
        for (p, id) in self.ids.iter().enumerate() {
            let Some(id) = id else {
                continue;
            };
            w.str(id);
            let bytes = self
                .sketch_at(p as u32)
                .map(|s| s.to_bytes())
                .unwrap_or_default();
            super::method::write_nested(&mut w, &bytes);
        }
        w.finish()
    }

    /// The configuration recorded in a snapshot ([`Deduplicator::to_bytes`]),
    /// read without its documents: to know what [`Deduplicator::from_bytes`]
    /// will need (a reference, a dictionary).
    ///
    /// # Errors
    /// As [`Deduplicator::from_bytes`] (its checksum is checked whole).
    pub fn snapshot_config(bytes: &[u8]) -> Result<DedupConfig, Error> {
        let (mut r, _) = Reader::open_versions(bytes, MAGIC, FORMAT..=FORMAT_FREQUENCIES, WHAT)?;
        super::config::read_config(&mut r, WHAT)
    }

    /// Reads [`Deduplicator::to_bytes`] output. The multiref method needs
    /// the same reference (`model`), `+correct` a dictionary to add texts
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
        let (mut r, format) =
            Reader::open_versions(bytes, MAGIC, FORMAT..=FORMAT_FREQUENCIES, WHAT)?;
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
        if (format == FORMAT_FREQUENCIES) != (config.weighting() == Weights::Tfidf) {
            return Err(corrupt(
                WHAT,
                "its document frequencies do not fit its weights".into(),
            ));
        }
        let mut stages = match model {
            Some(m) => Stages::with_reference(&config, m),
            None => Stages::new(&config),
        }
        .map_err(|e| corrupt(WHAT, format!("{e}")))?;
        if format == FORMAT_FREQUENCIES {
            let f = DocumentFrequencies::from_bytes(&super::method::read_nested(&mut r, WHAT)?)?;
            stages = stages.with_frequencies(Arc::new(f))?;
        }
        if let Some(d) = dictionary {
            stages = stages.with_dictionary(d)?;
        }
        let mut dedup = Deduplicator::from_stages(stages)?;
        let count = r.count(8)?;
        for _ in 0..count {
            let id = r.str()?;
            let bytes = super::method::read_nested(&mut r, WHAT)?;
            let sketch = dedup
                .stages
                .read_sketch(&bytes)
                .map_err(|e| corrupt(WHAT, format!("{id:?}: {e}")))?;
            dedup
                .insert(&id, sketch)
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
