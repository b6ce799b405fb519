//! [`Deduplicator`]: the dedup pipeline over a stream of documents.
//!
//! Each document added is sketched ([`super::Stages`]), its bucket keys
//! ([`super::Stages::keys`]) find its candidates among the documents
//! already added (the bucket store of [`crate::index`], one for every method
//! and index), candidates
//! are verified by [`super::Stages::verify`], and the near-duplicates
//! already added are returned, best first: the streaming answer to "have I
//! seen this, or a near copy of it?" ([`Deduplicator::query`] asks it
//! without adding). Clusters grow by union–find (Tarjan 1975) as pairs are
//! found, so clusters, `keep` and `duplicates` never need the pairs: memory
//! follows the documents, not the pairs.
//!
//! **Which pairs.** Work and answers stay linear in a group of copies:
//!
//! * a document is paired with at most one document of each cluster
//!   already held — of its candidates in the order added, the first of each
//!   cluster that verifies; a candidate in a cluster it has already joined
//!   is not verified;
//! * a document whose sketch equals that of an earlier document held (its
//!   *holder*, the first held with that sketch) is paired with the holder
//!   only, and adds nothing to the buckets;
//! * with MinHash, multiref and exact, a document is a candidate of the
//!   first [`super::BUCKET_CAP`] documents of each bucket only.
//!
//! So a cluster of `n` documents has exactly `n − 1` pairs (a spanning tree
//! of its verified pairs), `n` copies of one text cost `O(n)`, and the
//! clusters are exactly the connected components of every verified
//! candidate pair (a pair left unverified joins nothing new).
//! [`Deduplicator::all_pairs`] lists every verified pair within clusters,
//! up to a bound the caller gives. After [`Deduplicator::remove`],
//! everything is as if the document had never been added: the next call
//! rebuilds the index from the documents held when the removal could change
//! what a later document found (as [`Deduplicator::from_bytes`] does).
//!
//! A cluster's representative is its first-added member; `keep` is every
//! representative and every document in no pair, in the order added.
//!
//! **Memory** per document with the defaults (MinHash LSH, 128 values): its
//! body (the signature's 132 words, 528 bytes, in one arena), per bucket
//! key 9–14 bytes (a 4-byte table entry with its spare room and a 4-byte
//! link: keys are recomputed from the bodies, never stored, for every
//! method but the exact join, whose keys vary in number), its id once (in
//! the id table, found by its hash) and about 40 bytes of bookkeeping:
//! about 1.1 KB, measured in `BENCHMARKS.md`. `exact` adds the shingle set
//! (8 bytes a distinct shingle). `verify` (SimHash's default) adds the
//! text of a document added as text until its set is first needed — to
//! verify a candidate pair that passed the method's own test, or to
//! compare with a holder of the same body — and the set from then on: a
//! document never met as a candidate costs its text, not its set (a set
//! of character 5-grams takes about four times a text's bytes; SimHash at
//! 1 M 70-word documents peaks at 1.0 GB instead of 4.9, BENCHMARKS.md
//! "Shingle sets made when first needed"). Everything it answers is what
//! sets made at once give: the same pairs, sketches and snapshots.

use super::config::{DedupConfig, Weights};
use super::method::{Method, MultiRefModel, Side, Verified};
use super::stages::{Sketch, Stages};
use crate::error::{Error, ErrorKind};
use crate::hash::Spec;
use crate::index::buckets::Buckets;
use crate::index::clusters::UnionFind;
use crate::index::ids::IdTable;
use crate::index::snapshot::{corrupt, Reader, Writer};
use crate::shingle::ShingleSet;
use crate::spell::Dictionary;
use crate::tfidf::DocumentFrequencies;
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
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
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
/// // A query finds the cluster of both copies (one match per cluster, its
/// // first document), and adds nothing.
/// let q: Vec<&str> = d.query(&text.replace("today", "anew"))?.iter().map(|m| m.id).collect();
/// assert_eq!(q, ["a"]);
/// assert_eq!(d.cluster_of("a"), Some(vec!["a", "c"]));
/// assert_eq!(d.len(), 3);
/// assert_eq!(d.clusters(), [vec!["a", "c"]]);
/// assert_eq!(d.keep(), ["a", "b"]);
/// # Ok::<(), neardup::Error>(())
/// ```
pub struct Deduplicator {
    stages: Stages,
    /// Words per body (the method's, for this configuration).
    width: usize,
    /// At most this many documents of a bucket are candidates.
    cap: usize,
    /// Every body in the order added, `width` words each (removed ones
    /// stay, unused).
    bodies: Vec<u32>,
    /// Per position, the shingle set when the configuration keeps them
    /// (`None` for a set not made yet: see `texts`).
    sets: Vec<Option<Arc<ShingleSet>>>,
    /// Per position, where sets are made when first needed
    /// ([`Stages::defers_sets`]), the text of a document whose set is not
    /// made yet (module docs).
    texts: Vec<Option<Arc<str>>>,
    /// Per position, the id (each once; dead once removed).
    ids: IdTable<()>,
    buckets: Buckets,
    /// Per position, its holder: the first document held with the same
    /// sketch (itself for a holder).
    holder: Vec<u32>,
    /// Per holder, the documents held with its sketch (itself included).
    copies: Vec<u32>,
    /// A digest → the last holder added with it; the others with it follow
    /// through `same_digest`.
    digests: Map<u64, u32>,
    /// Per position, the next holder with the same digest ([`NONE`]: the
    /// last).
    same_digest: Vec<u32>,
    uf: UnionFind,
    /// A removal changed what later documents found: the index, clusters
    /// and pair count are rebuilt when next used.
    stale: bool,
    pairs: u64,
}

/// No position: the end of a chain of holders.
const NONE: u32 = u32::MAX;

/// What adding a document does: the holder it copies, or its digest and
/// keys as a new holder; and the pairs it makes; the shingle sets it made
/// from texts (of documents held, and its own at its position).
struct Plan {
    copy_of: Option<u32>,
    digest: Option<u64>,
    keys: Vec<u64>,
    found: Vec<(u32, Verified)>,
    built: Vec<(u32, Arc<ShingleSet>)>,
}

impl Plan {
    fn empty() -> Self {
        Plan {
            copy_of: None,
            digest: None,
            keys: Vec::new(),
            found: Vec::new(),
            built: Vec::new(),
        }
    }
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
        let method = stages.method();
        let buckets = match (method.key_count(), method.word_distance()) {
            (Some(_), Some(k)) => Buckets::parts(k),
            (Some(k), None) => Buckets::tables(k),
            (None, _) => Buckets::keyed(),
        };
        Ok(Deduplicator {
            width: stages.method().width(),
            cap: stages.bucket_cap().unwrap_or(usize::MAX),
            stages,
            bodies: Vec::new(),
            sets: Vec::new(),
            texts: Vec::new(),
            ids: IdTable::with_capacity(0, false),
            buckets,
            holder: Vec::new(),
            copies: Vec::new(),
            digests: Map::default(),
            same_digest: Vec::new(),
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
        self.ids.len()
    }

    /// `true` when it holds no document.
    pub fn is_empty(&self) -> bool {
        self.ids.len() == 0
    }

    /// `true` when `id` is held.
    pub fn contains(&self, id: &str) -> bool {
        self.ids.slot_of(id).is_some()
    }

    /// Number of documents added, removed ones included: the next position.
    pub fn positions(&self) -> u32 {
        self.ids.slots() as u32
    }

    /// Makes room for `additional` more documents, for a caller that knows
    /// or can estimate how many it will add (`neardup dedup` and `neardup
    /// index` estimate it from the input file; Python's `dedup()`, the npm
    /// `dedup()` of an array and a snapshot read know it). The results are
    /// the same with or without it; only the work and the memory differ:
    /// - MinHash, SimHash at small distances and multiref: each table of
    ///   the index is sized once for all the documents, where it is
    ///   otherwise rebuilt at every doubling, its keys recomputed from every
    ///   sketch held — at 300,000 documents about a fifth of the whole job's
    ///   CPU (BENCHMARKS.md, "Tables sized before a collection is read");
    /// - every method: the ids' table and the per-document arrays.
    ///
    /// Best effort: what cannot be allocated is left to grow as documents
    /// are added. An overestimate costs room that is never used: 5 to 11
    /// bytes a table and missing document (MinHash at the defaults has 25
    /// tables), of which only 1 to 2 are written, and so resident, before
    /// use; an underestimate costs only the rebuilds past it.
    /// `additional` counts from [`Deduplicator::positions`]; 0 does
    /// nothing.
    pub fn reserve(&mut self, additional: usize) {
        if additional == 0 {
            return;
        }
        let total = self
            .ids
            .slots()
            .saturating_add(additional)
            .min(u32::MAX as usize - 1);
        let more = total.saturating_sub(self.ids.slots());
        self.ids.reserve(more);
        let method = self.stages.method().as_ref();
        let key = body_keys(method, &self.bodies, self.width);
        self.buckets.reserve(total, key);
        let _ = self.bodies.try_reserve(more.saturating_mul(self.width));
        let _ = self.holder.try_reserve(more);
        let _ = self.copies.try_reserve(more);
        let _ = self.digests.try_reserve(more);
        let _ = self.same_digest.try_reserve(more);
    }

    /// Adds document `id` with `text` and returns the near-duplicates already
    /// added that it is paired with (at most one per cluster: module docs),
    /// best first (highest similarity, then first added).
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateId`] when `id` is held; as [`Stages::sketch`];
    /// [`ErrorKind::IndexFull`] past `2^32 − 2` documents added.
    pub fn add(&mut self, id: &str, text: &str) -> Result<Vec<Match<'_>>, Error> {
        if self.contains(id) {
            return Err(Error::new(ErrorKind::DuplicateId { id: id.into() }));
        }
        let sketch = self.stages.sketch_deferred(text)?;
        let found = self.insert(id, sketch)?;
        Ok(self.matches_of(found))
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

    /// Adds a sketch and returns the pairs it makes, unsorted.
    pub(crate) fn insert(
        &mut self,
        id: &str,
        sketch: Sketch,
    ) -> Result<Vec<(u32, Verified)>, Error> {
        self.stages.check(&sketch)?;
        if self.contains(id) {
            return Err(Error::new(ErrorKind::DuplicateId { id: id.into() }));
        }
        self.refresh();
        let x = self.ids.slots() as u32;
        let plan = self.plan(sketch.side(), sketch.text.as_deref(), x, &self.uf)?;
        if x >= u32::MAX - 1 || !self.buckets.has_room(x, plan.keys.len()) {
            return Err(Error::new(ErrorKind::IndexFull));
        }
        let Sketch {
            body, set, text, ..
        } = sketch;
        self.bodies.extend_from_slice(&body);
        if self.config().keeps_sets() {
            self.sets.push(set);
        }
        if self.stages.defers_sets() {
            self.texts.push(text);
        }
        self.ids.insert(id, ())?;
        self.uf.push();
        self.holder.push(x);
        self.copies.push(0);
        self.same_digest.push(NONE);
        let found = plan.found.clone();
        self.commit(x, plan);
        Ok(found)
    }

    /// The keys the buckets read of `side`: the method's, or none for the
    /// parts layout (SimHash, placed by its fingerprint).
    fn bucket_keys(&self, side: Side<'_>) -> Result<Vec<u64>, Error> {
        match self.buckets.reads_keys() {
            true => self.stages.keys_of(side),
            false => Ok(Vec::new()),
        }
    }

    /// The digest that finds a document's holder ([`super::stages::digest_of`]):
    /// of its body and set, or of its body alone where sets are made when
    /// first needed (two documents with the same body then have their sets
    /// made and compared).
    fn digest_for(&self, side: Side<'_>) -> Option<u64> {
        let method = self.stages.method().as_ref();
        match self.stages.defers_sets() {
            true => super::stages::digest_of(
                method,
                Side {
                    body: side.body,
                    set: None,
                },
            ),
            false => super::stages::digest_of(method, side),
        }
    }

    /// The shingle set of the document held at `y`: the one kept, or made
    /// from its text (then also put on `built`, where a set made before is
    /// found again). `None` when the configuration keeps no sets.
    fn held_set(&self, y: u32, built: &mut Vec<(u32, Arc<ShingleSet>)>) -> Option<Arc<ShingleSet>> {
        let p = y as usize;
        if let Some(s) = self.sets.get(p).and_then(|s| s.clone()) {
            return Some(s);
        }
        let text = self.texts.get(p)?.as_deref()?;
        if let Some((_, s)) = built.iter().find(|(q, _)| *q == y) {
            return Some(s.clone());
        }
        let s = self.stages.set_of_text(text);
        built.push((y, s.clone()));
        Some(s)
    }

    /// Keeps the sets a plan made, in place of their texts (a position
    /// not held, a query's, is passed over).
    fn keep_built(&mut self, built: Vec<(u32, Arc<ShingleSet>)>) {
        for (y, s) in built {
            let p = y as usize;
            if self.texts.get_mut(p).and_then(Option::take).is_some() {
                self.sets[p] = Some(s);
            }
        }
    }

    /// What adding the document `side` at position `x` does, among the
    /// documents held before `x`, with the clusters `uf` (module docs).
    /// `text`: where its set is not made yet, the text it is made from,
    /// when first needed (to compare with a holder of the same body, or to
    /// verify a candidate that passed the method's own test).
    fn plan(
        &self,
        side: Side<'_>,
        text: Option<&str>,
        x: u32,
        uf: &UnionFind,
    ) -> Result<Plan, Error> {
        let mut plan = Plan::empty();
        plan.digest = self.digest_for(side);
        let Some(digest) = plan.digest else {
            return Ok(plan);
        };
        // This document's set, made here when first needed.
        let mut made: Option<Arc<ShingleSet>> = None;
        let needs = self.config().keeps_sets() && side.set.is_none();
        let make = |made: &mut Option<Arc<ShingleSet>>| {
            if let (true, None, Some(t)) = (needs, &made, text) {
                *made = Some(self.stages.set_of_text(t));
            }
        };
        let mut h = self.digests.get(&digest).copied().unwrap_or(NONE);
        while h != NONE {
            if let Some(held) = self
                .side_at(h)
                .filter(|held| h < x && held.body == side.body)
            {
                make(&mut made);
                let held_set = self.held_set(h, &mut plan.built);
                let (me, held) = (with_set(side, &made), with_set(held, &held_set));
                if same(me, held) {
                    plan.copy_of = Some(h);
                    if let Some(v) = self.stages.verify_sides(me, held)? {
                        plan.found.push((h, v));
                    }
                    plan.built.extend(made.map(|s| (x, s)));
                    return Ok(plan);
                }
            }
            h = self.same_digest.get(h as usize).copied().unwrap_or(NONE);
        }
        plan.keys = self.bucket_keys(side)?;
        let mut candidates = Vec::new();
        let method = self.stages.method().as_ref();
        let key = body_keys(method, &self.bodies, self.width);
        let keep = |q: u32| !method.far(side.body, body(&self.bodies, self.width, q));
        // SimHash's buckets hold each fingerprint beside its position: a
        // bucket is filtered by them in one read, and `keep` (the same
        // test) reads a document only for the fingerprints kept.
        let (w, k) = (method.word(side.body), method.word_distance());
        self.buckets.candidates(
            &plan.keys,
            w,
            x,
            self.cap,
            key,
            keep,
            k.unwrap_or(64),
            &mut candidates,
        );
        candidates.sort_unstable();
        candidates.dedup();
        // The clusters paired so far: a candidate in one of them is not
        // verified (it joins nothing new).
        let mut joined: Vec<u32> = Vec::new();
        let defers = self.stages.defers_sets();
        for y in candidates {
            let Some(other) = self.side_at(y) else {
                continue;
            };
            let root = uf.root(y);
            if joined.contains(&root) {
                continue;
            }
            // Where sets are made when first needed: the method's own test
            // first (it reads no set), then both sets.
            let mut other_set = None;
            if defers {
                let bare = |body| Side { body, set: None };
                let mut test = Verified::NONE;
                if !method.verify(bare(side.body), bare(other.body), &mut test)? {
                    continue;
                }
                make(&mut made);
                other_set = self.held_set(y, &mut plan.built);
            }
            let pair = (with_set(side, &made), with_set(other, &other_set));
            if let Some(v) = self.stages.verify_sides(pair.0, pair.1)? {
                plan.found.push((y, v));
                joined.push(root);
            }
        }
        plan.built.extend(made.map(|s| (x, s)));
        Ok(plan)
    }

    /// Records document `x` (its body, set and id already stored) as `plan`
    /// says.
    fn commit(&mut self, x: u32, plan: Plan) {
        self.keep_built(plan.built);
        match plan.copy_of {
            Some(h) => {
                self.holder[x as usize] = h;
                self.copies[h as usize] += 1;
            }
            None => {
                self.copies[x as usize] = 1;
                // An empty document (no digest) is kept out of the buckets:
                // it never matches anything.
                if let Some(d) = plan.digest {
                    let next = self.digests.insert(d, x).unwrap_or(NONE);
                    self.same_digest[x as usize] = next;
                    let method = self.stages.method().as_ref();
                    let word = method.word(body(&self.bodies, self.width, x));
                    let key = body_keys(method, &self.bodies, self.width);
                    self.buckets.add(x, &plan.keys, key, word);
                }
            }
        }
        for &(y, _) in &plan.found {
            self.uf.union(x, y);
        }
        self.pairs += plan.found.len() as u64;
    }

    /// Found pairs as matches, best first.
    pub(crate) fn matches_of(&self, mut found: Vec<(u32, Verified)>) -> Vec<Match<'_>> {
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
    /// without adding it: "have I seen this, or a near copy of it?" — as
    /// [`Deduplicator::add`] would answer (at most one document of each
    /// cluster; [`Deduplicator::cluster_of`] gives the others).
    ///
    /// # Errors
    /// As [`Stages::sketch`].
    pub fn query(&mut self, text: &str) -> Result<Vec<Match<'_>>, Error> {
        let sketch = self.stages.sketch(text)?;
        self.query_sketch(&sketch)
    }

    /// [`Deduplicator::query`] with a sketch.
    ///
    /// # Errors
    /// [`ErrorKind::Incompatible`] for a sketch of another configuration.
    pub fn query_sketch(&mut self, sketch: &Sketch) -> Result<Vec<Match<'_>>, Error> {
        self.stages.check(sketch)?;
        self.refresh();
        let plan = self.plan(sketch.side(), sketch.text.as_deref(), u32::MAX, &self.uf)?;
        self.keep_built(plan.built);
        Ok(self.matches_of(plan.found))
    }

    /// The id of the document at `position` (0 for the first added),
    /// `None` past the last or once removed.
    pub fn id(&self, position: u32) -> Option<&str> {
        self.id_at(position)
    }

    fn id_at(&self, position: u32) -> Option<&str> {
        self.ids.get(position).map(|(id, _)| id)
    }

    /// The body and set of the document at `position`, when it is held.
    fn side_at(&self, position: u32) -> Option<Side<'_>> {
        let p = position as usize;
        self.ids.get(position)?;
        Some(Side {
            body: body(&self.bodies, self.width, position),
            set: self.sets.get(p).and_then(|s| s.as_deref()),
        })
    }

    /// Removes `id`; `false` when it was not held. Everything is then as if
    /// it had never been added (module docs): removing a document in no
    /// pair and with no copy costs the length of its buckets; otherwise the
    /// next call rebuilds the index (one pass over the documents held, as
    /// loading a snapshot).
    pub fn remove(&mut self, id: &str) -> bool {
        let Some(x) = self.ids.slot_of(id) else {
            return false;
        };
        let h = self.holder[x as usize];
        if self.uf.set_size(x) > 1 || self.copies[h as usize] > 1 {
            self.stale = true;
        }
        if !self.stale {
            // Alone: out of the buckets and the digests.
            if let Some(side) = self.side_at(x) {
                let keys = self.bucket_keys(side).unwrap_or_default();
                let digest = self.digest_for(side);
                let method = self.stages.method().as_ref();
                let word = method.word(side.body);
                let key = body_keys(method, &self.bodies, self.width);
                if self.buckets.remove(x, &keys, word, self.cap, key) {
                    self.stale = true;
                }
                if let Some(d) = digest {
                    self.unlink_digest(d, x);
                }
            }
            self.copies[x as usize] = 0;
        }
        self.ids.remove(id);
        if let Some(s) = self.sets.get_mut(x as usize) {
            *s = None;
        }
        if let Some(t) = self.texts.get_mut(x as usize) {
            *t = None;
        }
        true
    }

    /// Takes holder `x` out of the chain of digest `d`.
    fn unlink_digest(&mut self, d: u64, x: u32) {
        let next = self.same_digest.get(x as usize).copied().unwrap_or(NONE);
        let Some(&head) = self.digests.get(&d) else {
            return;
        };
        if head == x {
            match next {
                NONE => self.digests.remove(&d),
                n => self.digests.insert(d, n),
            };
            return;
        }
        let mut h = head;
        while h != NONE {
            let n = self.same_digest[h as usize];
            if n == x {
                self.same_digest[h as usize] = next;
                return;
            }
            h = n;
        }
    }

    /// Rebuilds the index, clusters and pair count after removals: every
    /// document held added again in order (no sketching).
    fn refresh(&mut self) {
        if !self.stale {
            return;
        }
        let n = self.ids.slots();
        self.buckets = self.buckets.emptied();
        self.digests.clear();
        self.same_digest = alloc::vec![NONE; n];
        self.holder = (0..n as u32).collect();
        self.copies = alloc::vec![0; n];
        self.uf = UnionFind::new(n);
        self.pairs = 0;
        self.stale = false;
        for x in 0..n as u32 {
            let Some(side) = self.side_at(x) else {
                continue;
            };
            // Sketches held share one configuration, so planning cannot
            // fail; a failure would only leave the document unpaired.
            let text = self.texts.get(x as usize).and_then(|t| t.as_deref());
            let plan = self.plan(side, text, x, &self.uf).unwrap_or(Plan::empty());
            self.commit(x, plan);
        }
    }

    /// The pairs made (module docs: at most one per cluster for each
    /// document, `n − 1` in a cluster of `n`), each once, `a` added before
    /// `b`, sorted by the positions of `a` then `b`: what [`Deduplicator::add`]
    /// returned, for the documents still held. Recomputed from the index
    /// (the pairs are not stored: time of a second pass, memory the pairs
    /// returned).
    ///
    /// # Errors
    /// None in practice (the sketches held share one configuration).
    pub fn pairs(&mut self) -> Result<Vec<DedupPair<'_>>, Error> {
        self.refresh();
        let mut uf = UnionFind::new(self.ids.slots());
        let mut found = Vec::new();
        for x in 0..self.ids.slots() as u32 {
            let Some(side) = self.side_at(x) else {
                continue;
            };
            let text = self.texts.get(x as usize).and_then(|t| t.as_deref());
            let plan = self.plan(side, text, x, &uf)?;
            for &(y, v) in &plan.found {
                uf.union(x, y);
                found.push((y, x, v));
            }
            self.keep_built(plan.built);
        }
        Ok(self.pairs_of(found))
    }

    /// Every near-duplicate pair within clusters — each two members of a
    /// cluster whose verification passes, whether or not they share a
    /// bucket — sorted as [`Deduplicator::pairs`]. Time and memory grow as
    /// the square of a cluster's size: refused, before any work, when the
    /// clusters hold more than `max_pairs` pairs of members.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] (`max_pairs`) naming how many pairs the
    /// clusters hold.
    pub fn all_pairs(&mut self, max_pairs: u64) -> Result<Vec<DedupPair<'_>>, Error> {
        let clusters = self.cluster_positions();
        let total: u64 = clusters
            .iter()
            .map(|c| c.len() as u64 * (c.len() as u64 - 1) / 2)
            .sum();
        if total > max_pairs {
            return Err(Error::option(
                "max_pairs",
                format!(
                    "the clusters hold {total} pairs of members, more than {max_pairs}: raise it, or read the clusters"
                ),
            ));
        }
        // Every member's set, made now where not made yet.
        let mut built = Vec::new();
        for &p in clusters.iter().filter(|c| c.len() > 1).flatten() {
            self.held_set(p, &mut built);
        }
        self.keep_built(built);
        let mut found = Vec::new();
        for c in &clusters {
            for (j, &b) in c.iter().enumerate() {
                for &a in &c[..j] {
                    let (Some(x), Some(y)) = (self.side_at(a), self.side_at(b)) else {
                        continue;
                    };
                    if let Some(v) = self.stages.verify_sides(x, y)? {
                        found.push((a, b, v));
                    }
                }
            }
        }
        Ok(self.pairs_of(found))
    }

    /// `(a, b, verified)` position pairs as sorted pairs of ids.
    fn pairs_of(&self, found: Vec<(u32, u32, Verified)>) -> Vec<DedupPair<'_>> {
        let mut out: Vec<DedupPair<'_>> = found
            .into_iter()
            .filter_map(|(a_position, b_position, verified)| {
                Some(DedupPair {
                    a: self.id_at(a_position)?,
                    b: self.id_at(b_position)?,
                    a_position,
                    b_position,
                    verified,
                })
            })
            .collect();
        out.sort_by_key(|p| (p.a_position, p.b_position));
        out
    }

    /// The members of `id`'s cluster, in the order added (`[id]` when in no
    /// pair); `None` when `id` is not held. Time `O(documents)`.
    pub fn cluster_of(&mut self, id: &str) -> Option<Vec<&str>> {
        let x = self.ids.slot_of(id)?;
        self.refresh();
        let r = self.uf.find(x);
        let members: Vec<u32> = (0..self.ids.slots() as u32)
            .filter(|&y| self.ids.get(y).is_some() && self.uf.find(y) == r)
            .collect();
        Some(members.into_iter().filter_map(|y| self.id_at(y)).collect())
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
        let x = self.ids.slot_of(id)?;
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
        for x in 0..self.ids.slots() as u32 {
            if self.ids.get(x).is_some() && (self.uf.least(x) == x) == keep {
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
        self.sketch_at(self.ids.slot_of(id)?)
    }

    fn sketch_at(&self, position: u32) -> Option<Sketch> {
        let side = self.side_at(position)?;
        Some(Sketch {
            identity: self.stages.identity(),
            spec: self.config().hash_spec(),
            method: self.stages.method().clone(),
            body: side.body.to_vec(),
            set: self.held_set(position, &mut Vec::new()),
            text: None,
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
        let mut w = Writer::with_spec(MAGIC, format, self.config().hash_spec());
        super::config::write_config(&mut w, self.config());
        w.u64(self.stages.model().map_or(0, |m| m.reference.id()));
        if let Some(f) = frequencies {
            super::method::write_nested(&mut w, &f.to_bytes());
        }
        w.u64(self.len() as u64);
        for (p, id, _) in self.ids.iter() {
            w.str(id);
            let bytes = self.sketch_at(p).map(|s| s.to_bytes()).unwrap_or_default();
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
        let formats = FORMAT..=FORMAT_FREQUENCIES;
        let (mut r, _) = Reader::open_specs(bytes, MAGIC, formats, WHAT, Spec::V2)?;
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
        let formats = FORMAT..=FORMAT_FREQUENCIES;
        let (mut r, format) = Reader::open_specs(bytes, MAGIC, formats, WHAT, Spec::V2)?;
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
        // Room for the documents the snapshot can hold: each indexed one
        // stores its body, `width` words (a damaged count sizes nothing
        // beyond the bytes given).
        dedup.reserve(count.min(r.remaining() / (4 * dedup.width).max(1)));
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

/// The body at `position` in an arena of `width`-word bodies.
fn body(bodies: &[u32], width: usize, position: u32) -> &[u32] {
    let p = position as usize;
    &bodies[p * width..(p + 1) * width]
}

/// Key `j` of the body at a position: the keys the bucket store
/// recomputes (never stored, for the methods with a fixed key count).
fn body_keys<'a>(
    method: &'a dyn Method,
    bodies: &'a [u32],
    width: usize,
) -> impl Fn(u32, usize) -> u64 + 'a {
    move |q, j| method.key(body(bodies, width, q), j)
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

/// `side`, with `made` (a set made from its text) where it has no set.
fn with_set<'a>(side: Side<'a>, made: &'a Option<Arc<ShingleSet>>) -> Side<'a> {
    Side {
        body: side.body,
        set: side.set.or(made.as_deref()),
    }
}

/// Two sketches' parts are the same.
fn same(a: Side<'_>, b: Side<'_>) -> bool {
    a.body == b.body && a.set.map(|s| s.as_slice()) == b.set.map(|s| s.as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dedup::DedupMethod;
    use alloc::string::String;

    /// With SimHash at its defaults (sets only to verify), a document's
    /// set is made when first needed: documents never a candidate keep
    /// their text and no set; the two of a near pair and of an exact copy
    /// (whose holder has the same body) get theirs.
    #[test]
    fn only_documents_met_as_candidates_get_their_sets() {
        let config = DedupConfig::default().method(DedupMethod::SimHash);
        let mut d = Deduplicator::new(&config).unwrap();
        let mut rng = crate::hash::SplitMix64::new(3);
        let text = |rng: &mut crate::hash::SplitMix64| -> String {
            (0..60)
                .map(|_| alloc::format!("w{}x", rng.next() % 5000))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let lone: Vec<String> = (0..40).map(|_| text(&mut rng)).collect();
        for (i, t) in lone.iter().enumerate() {
            d.add(&alloc::format!("d{i}"), t).unwrap();
        }
        let made = |d: &Deduplicator| d.sets.iter().filter(|s| s.is_some()).count();
        let kept = |d: &Deduplicator| d.texts.iter().filter(|t| t.is_some()).count();
        assert_eq!((made(&d), kept(&d)), (0, 40));
        // A near copy of d5 (one word changed) and an exact copy of d9.
        let near = lone[5].replacen("w", "v", 1);
        assert_eq!(d.add("near", &near).unwrap()[0].id, "d5");
        assert_eq!(d.add("copy", &lone[9]).unwrap()[0].id, "d9");
        assert_eq!((made(&d), kept(&d)), (4, 38));
        assert!(d.sets[5].is_some() && d.sets[9].is_some() && d.texts[5].is_none());
    }
}
