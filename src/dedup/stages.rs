//! The stage functions of the dedup pipeline, each pure and byte-stable, so
//! that a collection can be processed in pieces on any engine and merged:
//!
//! 0. with tf-idf weights only: text → document frequencies
//!    ([`Stages::count`], merged with [`DocumentFrequencies::merge`]), given
//!    to the stages by [`Stages::with_frequencies`];
//! 1. text → [`Sketch`] ([`Stages::sketch`]) → bytes ([`Sketch::to_bytes`]);
//! 2. sketch → bucket keys ([`Stages::keys`]): two documents are candidates
//!    exactly when they share a key;
//! 3. (sketch, sketch) → verified similarity or none ([`Stages::verify`]);
//! 4. edges → clusters ([`super::clusters_of_edges`], [`super::labels`]).
//!
//! Sketching in parallel, grouping by key, verifying each candidate pair and
//! clustering the edges gives exactly the pairs and clusters of one
//! [`super::Deduplicator`] over the same documents in the same order (a
//! property test in `tests/dedup.rs`). What each method makes of a document
//! is in its own file under `method/`.
//!
//! **Sketch bytes** (format 1, the snapshot framing of `index/snapshot.rs`):
//! `"NDDS"`, `u16` 1, `u16` spec version, `u64` configuration identity, `u8`
//! method (0 minhash, 1 simhash, 2 exact, 3 multiref); then the method's
//! body (MinHash: `u32` length and the signature's bytes, SPEC.md §8;
//! SimHash: `u64` fingerprint, `u8` empty; multiref: `u32` length and the
//! signature's bytes, `u64` projection bits; exact: nothing); then `u8` 1 and
//! `u64` count and the shingle set's hashes ascending when shingle sets are
//! kept (`verify`, exact), else `u8` 0; `u32` CRC-32. Without a shingle set
//! a MinHash sketch has a fixed length: `56 + 4 · num_perm` bytes
//! (one-permutation) or `55 + 4 · num_perm` (classic).

use super::config::{DedupConfig, DedupMethod, Weights};
use super::method::{build, Extras, Method, MultiRefModel, Side, Verified};
use crate::document::Document;
use crate::error::Error;
use crate::hash::Spec;
use crate::index::snapshot::{corrupt, Reader, Writer};
use crate::minhash::LshParams;
use crate::shingle::ShingleSet;
use crate::spell::Dictionary;
use crate::tfidf::DocumentFrequencies;
use alloc::borrow::Cow;
use alloc::format;
use alloc::sync::Arc;
use alloc::vec::Vec;
use hashbrown::HashMap;

const MAGIC: &[u8; 4] = b"NDDS";
const FORMAT: u16 = 1;
const WHAT: &str = "dedup sketch";

/// A document's sketch for one [`DedupConfig`]: what its method makes of it
/// (a MinHash signature, a SimHash fingerprint, a multireference signature,
/// or nothing for the exact join), and its shingle set when the
/// configuration keeps them (to verify, or for the exact join).
#[derive(Clone, Debug)]
pub struct Sketch {
    pub(crate) identity: u64,
    /// The spec version of its shingle hashes (also in its identity).
    pub(crate) spec: Spec,
    pub(crate) method: Arc<dyn Method>,
    pub(crate) body: Vec<u32>,
    pub(crate) set: Option<Arc<ShingleSet>>,
    /// A deduplicator's own sketch whose shingle set is left to be made
    /// when first needed ([`Stages::sketch_deferred`]): the text it is
    /// made from (`set` is then `None`). Never in a sketch a caller holds.
    pub(crate) text: Option<Arc<str>>,
}

impl PartialEq for Sketch {
    fn eq(&self, other: &Sketch) -> bool {
        self.identity == other.identity && self.body == other.body && self.set == other.set
    }
}

impl Sketch {
    pub(crate) fn side(&self) -> Side<'_> {
        Side {
            body: &self.body,
            set: self.set.as_deref(),
        }
    }

    /// `true` for the sketch of a document without shingles: it has no keys
    /// and matches nothing.
    pub fn is_empty(&self) -> bool {
        self.method.is_empty(self.side())
    }

    /// The shingle set, when the configuration keeps it.
    pub fn shingle_set(&self) -> Option<&ShingleSet> {
        self.set.as_deref()
    }

    /// The stable identity of the configuration that made it.
    pub fn identity(&self) -> u64 {
        self.identity
    }

    /// The versioned bytes (module docs), the same on every platform.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_spec(MAGIC, FORMAT, self.spec);
        w.u64(self.identity);
        w.u8(self.method_code());
        self.method.write(&self.body, &mut w);
        match &self.set {
            Some(set) => {
                w.u8(1);
                w.u64(set.len() as u64);
                for &h in set.as_slice() {
                    w.u64(h);
                }
            }
            None => w.u8(0),
        }
        w.finish()
    }

    fn method_code(&self) -> u8 {
        self.method.kind().code()
    }
}

/// The stage functions of one [`DedupConfig`] (module docs): cheap to
/// clone, `Sync`, and the same bytes on every platform.
#[derive(Clone, Debug)]
pub struct Stages {
    config: DedupConfig,
    identity: u64,
    method: Arc<dyn Method>,
    extras: Extras,
    dictionary: Option<Arc<Dictionary>>,
    max_bytes: u64,
}

/// The largest text the stages sketch by default, in bytes of UTF-8: 64 MiB,
/// the default limit of [`crate::compare()`] and of the CLI's `--max-bytes`
/// (a document takes about 40–60 bytes of memory per byte while it is
/// normalised and shingled).
pub const MAX_DOCUMENT_BYTES: u64 = 64 << 20;

impl Stages {
    /// The stages of `config` (every method but multiref, which needs
    /// [`Stages::with_reference`]).
    ///
    /// # Errors
    /// As [`DedupConfig::check`]; [`crate::ErrorKind::InvalidOption`]
    /// (`reference`) for the multiref method.
    pub fn new(config: &DedupConfig) -> Result<Self, Error> {
        Self::build(config, Extras::default(), None)
    }

    /// The stages of `config` with a multireference model (method
    /// `multiref`).
    ///
    /// # Errors
    /// As [`Stages::new`]; [`crate::ErrorKind::InvalidOption`]
    /// (`reference`) for another method.
    pub fn with_reference(config: &DedupConfig, model: MultiRefModel) -> Result<Self, Error> {
        let extras = Extras {
            model: Some(Arc::new(model)),
            frequencies: None,
        };
        Self::build(config, extras, None)
    }

    /// These stages with a dictionary for `word:K+correct`.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] (`dictionary`) when the
    /// configuration does not correct words.
    pub fn with_dictionary(mut self, dictionary: Arc<Dictionary>) -> Result<Self, Error> {
        self.config.check_option("dictionary")?;
        self.dictionary = Some(dictionary);
        Ok(self)
    }

    /// These stages with the collection's document frequencies, for tf-idf
    /// weights (`weights: tfidf`): counted by [`Stages::count`] over the
    /// whole collection (in pieces, then merged). The sketches' identity
    /// records the frequencies' digest.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] (`weights`) when the weights are
    /// not tf-idf; [`crate::ErrorKind::Incompatible`] for frequencies
    /// counted under another spec version.
    pub fn with_frequencies(self, frequencies: Arc<DocumentFrequencies>) -> Result<Self, Error> {
        let spec = self.config.hash_spec();
        if frequencies.spec() != spec {
            return Err(Error::incompatible(
                "document frequencies",
                format!("{spec}"),
                format!("{}", frequencies.spec()),
            ));
        }
        let extras = Extras {
            frequencies: Some(frequencies),
            ..self.extras.clone()
        };
        let stages = Self::build(&self.config, extras, self.dictionary.clone())?;
        Ok(stages.with_max_bytes(self.max_bytes))
    }

    /// These stages with another largest text, in bytes (default
    /// [`MAX_DOCUMENT_BYTES`]; at least 1). Not part of the configuration:
    /// it changes which texts are refused, never a sketch.
    pub fn with_max_bytes(mut self, max_bytes: u64) -> Self {
        self.max_bytes = max_bytes.max(1);
        self
    }

    /// The largest text these stages sketch, in bytes.
    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    fn build(
        config: &DedupConfig,
        extras: Extras,
        dictionary: Option<Arc<Dictionary>>,
    ) -> Result<Self, Error> {
        config.check()?;
        if extras.model.is_some() {
            config.check_option("reference")?;
        }
        if extras.frequencies.is_some() && config.weighting() != Weights::Tfidf {
            return Err(Error::option(
                "weights",
                "document frequencies are given but the weights are not tfidf",
            ));
        }
        let method = build(config, &extras)?;
        let reference = extras.model.as_ref().map_or(0, |m| m.reference.id());
        let frequencies = extras.frequencies.as_ref().map_or(0, |f| f.digest());
        Ok(Stages {
            config: *config,
            identity: config.identity(reference, frequencies),
            method,
            extras,
            dictionary,
            max_bytes: MAX_DOCUMENT_BYTES,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &DedupConfig {
        &self.config
    }

    /// The multireference model (method `multiref`).
    pub fn model(&self) -> Option<&MultiRefModel> {
        self.extras.model.as_deref()
    }

    /// The document frequencies of tf-idf weights, once given.
    pub fn frequencies(&self) -> Option<&Arc<DocumentFrequencies>> {
        self.extras.frequencies.as_ref()
    }

    /// The dictionary of `word:K+correct`, once given.
    pub fn dictionary(&self) -> Option<&Arc<Dictionary>> {
        self.dictionary.as_ref()
    }

    /// The banding of the MinHash method.
    pub fn lsh_params(&self) -> Option<LshParams> {
        match self.config.method {
            DedupMethod::MinHash => self.config.lsh_params().ok(),
            _ => None,
        }
    }

    /// Checks that the stages can sketch a text: the dictionary of
    /// `+correct` and the document frequencies of tf-idf weights are given.
    /// What a binding asks before it reads a collection.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] (`dictionary`, `weights`) naming
    /// what is missing.
    pub fn ready(&self) -> Result<(), Error> {
        if self.config.corrects() && self.dictionary.is_none() {
            return Err(Error::option(
                "dictionary",
                "word:K+correct needs a dictionary to correct words with",
            ));
        }
        if self.config.weighting() == Weights::Tfidf && self.extras.frequencies.is_none() {
            return Err(Error::option(
                "weights",
                "tfidf needs the collection's document frequencies, counted by a first pass",
            ));
        }
        Ok(())
    }

    /// How many bucket keys a document with shingles has, when it is the
    /// same for every document: the MinHash bands, the SimHash and multiref
    /// tables; `None` for the exact join (a prefix of each set). What a
    /// store of `key → ids` holds per document.
    pub fn key_count(&self) -> Option<usize> {
        self.method.key_count()
    }

    /// The stable identity of the configuration, recorded in every sketch.
    pub fn identity(&self) -> u64 {
        self.identity
    }

    pub(crate) fn method(&self) -> &Arc<dyn Method> {
        &self.method
    }

    /// Stage 0 of tf-idf weights: counts a text's shingles (each distinct
    /// one once) into `frequencies`, as the sketches will read them (an
    /// empty table takes the configuration's spec version).
    ///
    /// # Errors
    /// As [`Stages::document`]; [`crate::ErrorKind::Incompatible`] for a
    /// table of another spec version.
    pub fn count(&self, frequencies: &mut DocumentFrequencies, text: &str) -> Result<(), Error> {
        frequencies.set_spec(self.config.hash_spec())?;
        let doc = self.document(text)?;
        frequencies.add_document(&doc.shingles(self.config.shingling()));
        Ok(())
    }

    /// Stage 1: the sketch of a text: normalised once into a [`Document`]
    /// (after dictionary correction with `+correct`), then sketched.
    ///
    /// # Errors
    /// [`crate::ErrorKind::TooLarge`] for a text over
    /// [`Stages::max_bytes`], before any work;
    /// [`crate::ErrorKind::InvalidOption`] (`dictionary`) when words are to
    /// be corrected and no dictionary was given, (`weights`) for tf-idf
    /// weights before their frequencies are given.
    pub fn sketch(&self, text: &str) -> Result<Sketch, Error> {
        self.sketch_document(&self.document(text)?)
    }

    /// Whether a deduplicator of these stages leaves a document's shingle
    /// set to be made when first needed ([`Stages::sketch_deferred`]):
    /// when sets are kept only to verify candidate pairs (not for the
    /// exact join, whose bucket keys are made from the set).
    pub(crate) fn defers_sets(&self) -> bool {
        self.config.keeps_sets() && self.config.method != DedupMethod::Exact
    }

    /// [`Stages::sketch`] for a deduplicator's own use: where
    /// [`Stages::defers_sets`], the sketch without its shingle set but with
    /// the text the set is made from ([`Stages::set_of_text`]), so that a
    /// document never paired costs its text rather than its set (a set of
    /// character 5-grams holds about four times a text's bytes) and the set
    /// is made only for documents whose candidates are verified.
    ///
    /// # Errors
    /// As [`Stages::sketch`].
    pub(crate) fn sketch_deferred(&self, text: &str) -> Result<Sketch, Error> {
        if !self.defers_sets() {
            return self.sketch(text);
        }
        let read = self.document_text(text)?;
        let doc = self.document_of(&read);
        Ok(Sketch {
            identity: self.identity,
            spec: self.config.hash_spec(),
            method: self.method.clone(),
            body: self.method.sketch(&doc)?,
            set: None,
            text: Some(Arc::from(read.as_ref())),
        })
    }

    /// The shingle set of a text kept by [`Stages::sketch_deferred`]: the
    /// set [`Stages::sketch`] would have made.
    pub(crate) fn set_of_text(&self, text: &str) -> Arc<ShingleSet> {
        self.document_of(text).shingle_set(self.config.shingling())
    }

    /// The [`Document`] the stages sketch a text as: normalised once with
    /// the configuration's seed, after dictionary correction with
    /// `+correct`.
    ///
    /// # Errors
    /// As [`Stages::sketch`].
    pub fn document(&self, text: &str) -> Result<Document, Error> {
        Ok(self.document_of(&self.document_text(text)?))
    }

    /// The text a document is made from: `text`, or its dictionary
    /// correction with `+correct`.
    ///
    /// # Errors
    /// As [`Stages::sketch`].
    fn document_text<'a>(&self, text: &'a str) -> Result<Cow<'a, str>, Error> {
        if text.len() as u64 > self.max_bytes {
            return Err(Error::new(crate::ErrorKind::TooLarge {
                which: "document",
                len: text.len() as u64,
                max: self.max_bytes,
            }));
        }
        if self.config.corrects() {
            let d = self.dictionary.as_ref().ok_or_else(|| {
                Error::option(
                    "dictionary",
                    "word:K+correct needs a dictionary (Stages::with_dictionary)",
                )
            })?;
            return Ok(Cow::Owned(d.correct_text(text)));
        }
        Ok(Cow::Borrowed(text))
    }

    /// The document of a text [`Stages::document_text`] gave.
    fn document_of(&self, text: &str) -> Document {
        Document::for_shingling(
            text,
            self.config.hash_seed(),
            self.config.normalization(),
            self.config.hash_spec(),
            self.config.shingling(),
        )
    }

    /// Stage 1 from a [`Document`] (normalised with the configuration's
    /// seed; with `+correct`, from the corrected text).
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] when the document's seed or
    /// normalisation is not the configuration's; as [`Stages::sketch`].
    pub fn sketch_document(&self, doc: &Document) -> Result<Sketch, Error> {
        let (seed, spec) = (self.config.hash_seed(), self.config.hash_spec());
        if doc.seed() != seed || doc.spec() != spec {
            return Err(Error::incompatible(
                "document",
                format!("seed {seed}, {spec}"),
                format!("seed {}, {}", doc.seed(), doc.spec()),
            ));
        }
        let how = self.config.normalization();
        if doc.normalization() != how {
            return Err(Error::incompatible(
                "document",
                format!("normalisation {}", how.name()),
                format!("normalisation {}", doc.normalization().name()),
            ));
        }
        let body = self.method.sketch(doc)?;
        let set = self
            .config
            .keeps_sets()
            .then(|| doc.shingle_set(self.config.shingling()));
        Ok(Sketch {
            identity: self.identity,
            spec: self.config.hash_spec(),
            method: self.method.clone(),
            body,
            set,
            text: None,
        })
    }

    /// Reads [`Sketch::to_bytes`] output made with this configuration (or,
    /// without shingle sets, the bare forms stores made before the dedup
    /// sketch existed: a MinHash signature's own bytes, SPEC.md §8, of this
    /// configuration's kind; a SimHash fingerprint as its 8 bytes,
    /// big-endian).
    ///
    /// # Errors
    /// [`crate::ErrorKind::Corrupt`] or [`crate::ErrorKind::Version`] as
    /// every decoder; [`crate::ErrorKind::Incompatible`] for a sketch of
    /// another configuration.
    pub fn read_sketch(&self, bytes: &[u8]) -> Result<Sketch, Error> {
        let sketch = |body, set| Sketch {
            identity: self.identity,
            spec: self.config.hash_spec(),
            method: self.method.clone(),
            body,
            set,
            text: None,
        };
        if !self.config.keeps_sets() && !bytes.starts_with(MAGIC) {
            if let Some(body) = self.method.read_bare(bytes)? {
                return Ok(sketch(body, None));
            }
        }
        let (mut r, _) = Reader::open_specs(bytes, MAGIC, FORMAT..=FORMAT, WHAT, Spec::V2)?;
        let identity = r.u64()?;
        if identity != self.identity || r.spec() != self.config.hash_spec() {
            return Err(Error::incompatible(
                "dedup sketch",
                format!("configuration {:016x}", self.identity),
                format!("configuration {identity:016x}"),
            ));
        }
        let code = r.u8()?;
        if code != self.config.method.code() {
            return Err(corrupt(
                WHAT,
                format!("method {code} for {}", self.config.method),
            ));
        }
        let body = self.method.read(&mut r)?;
        let set = match r.u8()? {
            0 => None,
            1 => {
                let n = r.count(8)?;
                let hashes = (0..n).map(|_| r.u64()).collect::<Result<Vec<u64>, _>>()?;
                if hashes.windows(2).any(|w| w[0] >= w[1]) {
                    return Err(corrupt(WHAT, "its shingle set is not ascending".into()));
                }
                Some(Arc::new(ShingleSet::from_hashes(hashes)))
            }
            b => return Err(corrupt(WHAT, format!("set flag {b}"))),
        };
        r.end()?;
        if set.is_some() != self.config.keeps_sets() {
            return Err(corrupt(
                WHAT,
                "its shingle set does not fit the configuration".into(),
            ));
        }
        Ok(sketch(body, set))
    }

    pub(crate) fn check(&self, s: &Sketch) -> Result<(), Error> {
        if s.identity != self.identity {
            return Err(Error::incompatible(
                "dedup sketch",
                format!("configuration {:016x}", self.identity),
                format!("configuration {:016x}", s.identity),
            ));
        }
        Ok(())
    }

    /// Stage 2: the bucket keys of a sketch (module docs); none for an empty
    /// sketch. Two sketches are candidates exactly when they share a key.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] for a sketch of another
    /// configuration.
    pub fn keys(&self, sketch: &Sketch) -> Result<Vec<u64>, Error> {
        self.check(sketch)?;
        self.keys_of(sketch.side())
    }

    pub(crate) fn keys_of(&self, side: Side<'_>) -> Result<Vec<u64>, Error> {
        if self.method.is_empty(side) {
            return Ok(Vec::new());
        }
        self.method.keys(side)
    }

    /// At most how many documents of each bucket are candidates of a new
    /// one: the first added ([`crate::dedup::BUCKET_CAP`] for MinHash,
    /// multiref and exact); `None` for every document of the bucket
    /// (SimHash).
    pub fn bucket_cap(&self) -> Option<usize> {
        self.method.bucket_cap()
    }

    /// A 64-bit digest of a sketch's body and shingle set, to find identical
    /// sketches quickly (equal sketches have equal digests; equal digests
    /// are checked byte for byte). `None` for an empty sketch, which is a
    /// copy of nothing. Deterministic on every platform; not stored.
    pub fn digest(&self, sketch: &Sketch) -> Option<u64> {
        digest_of(self.method.as_ref(), sketch.side())
    }

    /// Stage 2a, for engines: among rows `(position, sketch)` — every row
    /// of some groups of equal [`Stages::digest`]s, in any order — each row
    /// whose sketch equals that of a row at a lower position, with the least
    /// such position (its *holder*), ascending by position. Rows not listed
    /// are holders (or empty). A copy is paired with its holder only, and
    /// only holders have bucket keys ([`super::Deduplicator`]'s rule).
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] for a sketch of another
    /// configuration.
    pub fn copies(&self, rows: &[(u64, &Sketch)]) -> Result<Vec<(u64, u64)>, Error> {
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.sort_by_key(|&i| rows[i].0);
        let mut holders: HashMap<u64, Vec<usize>, fnv::FnvBuildHasher> = HashMap::default();
        let mut out = Vec::new();
        for i in order {
            let (pos, sketch) = rows[i];
            self.check(sketch)?;
            let Some(d) = self.digest(sketch) else {
                continue;
            };
            let same = holders.entry(d).or_default();
            match same.iter().find(|&&h| rows[h].1 == sketch) {
                Some(&h) => out.push((pos, rows[h].0)),
                None => same.push(i),
            }
        }
        Ok(out)
    }

    /// Stage 2b, for engines: the candidate pairs of rows `(key, position)`
    /// — every row of some keys, in any order — as the deduplicator finds
    /// them: in each bucket, each position with every lower one among the
    /// bucket's first [`Stages::bucket_cap`] positions. Each pair once,
    /// `(a, b)` with `a < b`, ascending. Give it holders' keys only
    /// ([`Stages::copies`]).
    pub fn bucket_pairs(&self, rows: &[(u64, u64)]) -> Vec<(u64, u64)> {
        let cap = self.bucket_cap().unwrap_or(usize::MAX);
        let mut rows = rows.to_vec();
        rows.sort_unstable();
        rows.dedup();
        let mut out = Vec::new();
        for bucket in rows.chunk_by(|x, y| x.0 == y.0) {
            for (j, &(_, b)) in bucket.iter().enumerate() {
                for &(_, a) in &bucket[..j.min(cap)] {
                    out.push((a, b));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Stage 3: whether a candidate pair (two sketches sharing a key) is a
    /// near-duplicate pair, and how near; symmetric in `a` and `b`.
    ///
    /// MinHash: estimated Jaccard ≥ threshold (any candidate with
    /// `candidates`; exact Jaccard ≥ threshold with `verify`). SimHash:
    /// Hamming distance ≤ k, and exact Jaccard ≥ threshold unless `verify`
    /// is off. Multiref: distance ≤ k and cosine ≥ `t2` (and exact Jaccard
    /// with `verify`). Exact: exact Jaccard ≥ threshold. Empty sketches
    /// match nothing.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] for a sketch of another
    /// configuration.
    pub fn verify(&self, a: &Sketch, b: &Sketch) -> Result<Option<Verified>, Error> {
        self.check(a)?;
        self.check(b)?;
        self.verify_sides(a.side(), b.side())
    }

    /// [`Stages::verify`] on the parts of two sketches (the deduplicator
    /// keeps them apart).
    pub(crate) fn verify_sides(&self, a: Side<'_>, b: Side<'_>) -> Result<Option<Verified>, Error> {
        let mut v = Verified::NONE;
        if !self.method.verify(a, b, &mut v)? {
            return Ok(None);
        }
        if self.config.keeps_sets() {
            let (Some(x), Some(y)) = (a.set, b.set) else {
                return Err(corrupt(WHAT, "a shingle set is missing".into()));
            };
            if x.is_empty() || y.is_empty() {
                return Ok(None);
            }
            let t = self.config.jaccard_threshold();
            let Some(e) = crate::measures::sets::resemblance_at_least(x, y, t) else {
                return Ok(None);
            };
            v.exact = Some(e);
            v.similarity = e;
        }
        Ok(Some(v))
    }
}

/// A 64-bit digest of a sketch's body: its values two at a time as 64-bit
/// words, on four independent `fmix64` chains (a chain of one `fmix64` per
/// value made this a thirtieth of the pipeline's time), then the chains and
/// the length. Equal bodies give equal digests; digests are only ever
/// compared within one run (never stored), and equal ones are confirmed by
/// comparing the sketches.
fn body_digest(body: &[u32]) -> u64 {
    use crate::hash::fmix64;
    let word = |p: &[u32]| u64::from(p[0]) | (u64::from(p.get(1).copied().unwrap_or(0)) << 32);
    let mut lanes = [1u64, 2, 3, 4].map(|i| crate::hash::FNV_OFFSET_BASIS ^ i);
    let mut chunks = body.chunks_exact(8);
    for c in &mut chunks {
        for (lane, pair) in lanes.iter_mut().zip(c.chunks_exact(2)) {
            *lane = fmix64(*lane ^ word(pair));
        }
    }
    for (lane, pair) in lanes.iter_mut().zip(chunks.remainder().chunks(2)) {
        *lane = fmix64(*lane ^ word(pair));
    }
    let mut h = fmix64(body.len() as u64);
    for lane in lanes {
        h = fmix64(h ^ lane);
    }
    h
}

/// [`Stages::digest`] of a sketch's parts.
pub(crate) fn digest_of(method: &dyn Method, side: Side<'_>) -> Option<u64> {
    if method.is_empty(side) {
        return None;
    }
    let mut h = body_digest(side.body);
    if let Some(set) = side.set {
        // The set's size and at most 128 of its hashes, evenly spaced: two
        // sets that differ almost always differ there, and equal digests
        // are compared in full anyway. Hashing every shingle cost a
        // twentieth of a SimHash dedup.
        let s = set.as_slice();
        h = crate::hash::fmix64(h ^ s.len() as u64);
        for &x in s.iter().step_by((s.len() / 128).max(1)) {
            h = crate::hash::fmix64(h ^ x);
        }
    }
    Some(h)
}

#[cfg(test)]
mod tests {
    use super::body_digest;
    use alloc::vec::Vec;

    /// Equal bodies give equal digests; a change of any one value, at any
    /// position (in a whole chunk of eight or in the rest), or of the
    /// length, gives another.
    #[test]
    fn a_body_digest_sees_every_value_and_the_length() {
        for n in [0usize, 1, 2, 7, 8, 9, 64, 128, 131] {
            let body: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
            assert_eq!(body_digest(&body), body_digest(&body.clone()));
            let mut seen = alloc::collections::BTreeSet::new();
            seen.insert(body_digest(&body));
            for i in 0..n {
                let mut other = body.clone();
                other[i] ^= 1 << (i % 32);
                assert!(seen.insert(body_digest(&other)), "value {i} of {n}");
            }
            let mut longer = body.clone();
            longer.push(0);
            assert!(seen.insert(body_digest(&longer)), "length {n} + 1");
        }
    }
}
