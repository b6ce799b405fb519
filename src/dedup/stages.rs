//! The stage functions of the dedup pipeline, each pure and byte-stable, so
//! that a collection can be processed in pieces on any engine and merged:
//!
//! 1. text → [`Sketch`] ([`Stages::sketch`]) → bytes ([`Sketch::to_bytes`]);
//! 2. sketch → bucket keys ([`Stages::keys`]): two documents are candidates
//!    exactly when they share a key;
//! 3. (sketch, sketch) → verified similarity or none ([`Stages::verify`]);
//! 4. edges → clusters ([`super::clusters_of_edges`]).
//!
//! Sketching in parallel, grouping by key, verifying each candidate pair and
//! clustering the edges gives exactly the pairs and clusters of one
//! [`super::Deduplicator`] over the same documents in the same order (a
//! property test in `tests/dedup.rs`).
//!
//! **Keys** per method: MinHash, the LSH band keys (SPEC.md §9); SimHash and
//! multiref, the permuted-block table keys of the fingerprint (SPEC.md §10);
//! exact, the prefix of the shingle set in hash order: its first
//! `n − ⌈t·n⌉ + 1` hashes (Chaudhuri, Ganti & Kaushik 2006: two sets of
//! Jaccard ≥ `t` share a shingle of their prefixes under any fixed order).
//!
//! **Sketch bytes** (format 1, the snapshot framing of `index/snapshot.rs`):
//! `"NDDS"`, `u16` 1, `u16` spec version, `u64` configuration identity, `u8`
//! method (0 minhash, 1 simhash, 2 exact, 3 multiref); then MinHash: `u32`
//! length and the signature's bytes (SPEC.md §8); SimHash: `u64`
//! fingerprint, `u8` empty; multiref: `u32` length and the signature's bytes,
//! `u64` projection bits; exact: nothing; then `u8` 1 and `u64` count and the
//! shingle set's hashes ascending when shingle sets are kept (`verify`,
//! exact), else `u8` 0; `u32` CRC-32. Without a shingle set a MinHash sketch
//! has a fixed length: `56 + 4 · num_perm` bytes (one-permutation) or
//! `55 + 4 · num_perm` (classic).

use super::config::{DedupConfig, DedupMethod};
use crate::document::Document;
use crate::error::Error;
use crate::index::snapshot::{corrupt, Reader, Writer};
use crate::minhash::{MinHashConfig, MinHashLsh, MinHasher, Signature};
use crate::multiref::{similarity, Decision, MultiRefSignature, Projector, Reference, Thresholds};
use crate::shingle::ShingleSet;
use crate::simhash::{Fingerprint, SimHashConfig, SimHashIndex};
use crate::spell::Dictionary;
use alloc::format;
use alloc::sync::Arc;
use alloc::vec::Vec;

const MAGIC: &[u8; 4] = b"NDDS";
const FORMAT: u16 = 1;
const WHAT: &str = "dedup sketch";

/// A reference text with its thresholds and projector: what the multiref
/// method needs (Mohammadi & Khasteh 2020).
#[derive(Clone, Debug)]
pub struct MultiRefModel {
    /// The reference text's partitions.
    pub reference: Reference,
    /// The decision thresholds; pairs below `t2` are dropped.
    pub thresholds: Thresholds,
    projector: Projector,
}

impl MultiRefModel {
    /// The model of a reference and its thresholds.
    ///
    /// # Errors
    /// As [`Thresholds::check`].
    pub fn new(reference: Reference, thresholds: Thresholds) -> Result<Self, Error> {
        thresholds.check()?;
        let projector = Projector::new(&reference);
        Ok(MultiRefModel {
            reference,
            thresholds,
            projector,
        })
    }
}

/// What the method makes of a document.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Body {
    MinHash(Signature),
    SimHash(Fingerprint),
    Exact,
    MultiRef(MultiRefSignature, Fingerprint),
}

impl Body {
    pub(crate) fn as_ref(&self) -> BodyRef<'_> {
        match self {
            Body::MinHash(s) => BodyRef::MinHash(s),
            Body::SimHash(f) => BodyRef::SimHash(f),
            Body::Exact => BodyRef::Exact,
            Body::MultiRef(s, b) => BodyRef::MultiRef(s, b),
        }
    }
}

/// A [`Body`] borrowed (the deduplicator keeps MinHash signatures in its
/// LSH index, the others beside it).
#[derive(Clone, Copy, Debug)]
pub(crate) enum BodyRef<'a> {
    MinHash(&'a Signature),
    SimHash(&'a Fingerprint),
    Exact,
    MultiRef(&'a MultiRefSignature, &'a Fingerprint),
}

/// A document's sketch for one [`DedupConfig`]: its MinHash signature,
/// SimHash fingerprint or multireference signature, and its shingle set
/// when the configuration keeps them (to verify, or for the exact join).
#[derive(Clone, Debug, PartialEq)]
pub struct Sketch {
    pub(crate) identity: u64,
    pub(crate) body: Body,
    pub(crate) set: Option<Arc<ShingleSet>>,
}

impl Sketch {
    /// `true` for the sketch of a document without shingles: it has no keys
    /// and matches nothing.
    pub fn is_empty(&self) -> bool {
        match &self.body {
            Body::MinHash(s) => s.is_empty(),
            Body::SimHash(f) => f.is_empty(),
            Body::Exact => self.set.as_ref().is_none_or(|s| s.is_empty()),
            Body::MultiRef(..) => false,
        }
    }

    /// The shingle set, when the configuration keeps it.
    pub fn shingle_set(&self) -> Option<&ShingleSet> {
        self.set.as_deref()
    }

    /// The versioned bytes (module docs), the same on every platform.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(MAGIC, FORMAT);
        w.u64(self.identity);
        let nested = |w: &mut Writer, bytes: &[u8]| {
            w.u32(bytes.len() as u32);
            for &b in bytes {
                w.u8(b);
            }
        };
        match &self.body {
            Body::MinHash(s) => {
                w.u8(DedupMethod::MinHash.code());
                nested(&mut w, &s.to_bytes());
            }
            Body::SimHash(f) => {
                w.u8(DedupMethod::SimHash.code());
                w.u64(f.value());
                w.u8(f.is_empty() as u8);
            }
            Body::Exact => w.u8(DedupMethod::Exact.code()),
            Body::MultiRef(s, bits) => {
                w.u8(DedupMethod::MultiRef.code());
                nested(&mut w, &s.to_bytes());
                w.u64(bits.value());
            }
        }
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
}

/// A candidate pair that passed verification, with what is known of it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct Verified {
    /// The pair's similarity in [0, 1], the measure it was kept by: the
    /// exact Jaccard when known, else the MinHash estimate, else the
    /// multireference cosine, else `1 − d / 64` of the Hamming distance.
    pub similarity: f64,
    /// MinHash: the estimated Jaccard resemblance.
    pub jaccard: Option<f64>,
    /// The exact Jaccard resemblance of the shingle sets (`verify`, exact).
    pub exact: Option<f64>,
    /// SimHash and multiref: the Hamming distance of the fingerprints.
    pub distance: Option<u32>,
    /// Multiref: the signatures' cosine.
    pub estimate: Option<f64>,
    /// Multiref: the reference's decision (duplicate or near duplicate).
    pub decision: Option<Decision>,
}

/// What each method resolves to once, from its configuration.
#[derive(Clone, Debug)]
enum Method {
    MinHash {
        hasher: MinHasher,
        lsh: Arc<MinHashLsh>,
    },
    SimHash {
        config: SimHashConfig,
        tables: Arc<SimHashIndex>,
    },
    Exact,
    MultiRef {
        model: Arc<MultiRefModel>,
        tables: Arc<SimHashIndex>,
    },
}

/// The stage functions of one [`DedupConfig`] (module docs): cheap to
/// clone, `Sync`, and the same bytes on every platform.
#[derive(Clone, Debug)]
pub struct Stages {
    config: DedupConfig,
    identity: u64,
    method: Method,
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
    /// (`reference`) for the multiref method, and (`correct`) when words are
    /// to be corrected (that needs [`Stages::with_dictionary`]).
    pub fn new(config: &DedupConfig) -> Result<Self, Error> {
        Self::build(config, None, None)
    }

    /// The stages of `config` with a multireference model (method
    /// `multiref`).
    ///
    /// # Errors
    /// As [`Stages::new`].
    pub fn with_reference(config: &DedupConfig, model: MultiRefModel) -> Result<Self, Error> {
        Self::build(config, Some(Arc::new(model)), None)
    }

    /// These stages with a dictionary for `correct` (`word:K+correct`).
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] (`correct`) when the
    /// configuration does not correct words.
    pub fn with_dictionary(mut self, dictionary: Arc<Dictionary>) -> Result<Self, Error> {
        if !self.config.correct {
            return Err(Error::option(
                "correct",
                "a dictionary is given but words are not corrected (word:K+correct)",
            ));
        }
        self.dictionary = Some(dictionary);
        Ok(self)
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
        model: Option<Arc<MultiRefModel>>,
        dictionary: Option<Arc<Dictionary>>,
    ) -> Result<Self, Error> {
        config.check()?;
        let tables = || -> Result<Arc<SimHashIndex>, Error> {
            Ok(Arc::new(SimHashIndex::new(&config.index_config())?))
        };
        let method = match config.method {
            DedupMethod::MinHash => {
                let params = config.lsh_params()?;
                let hasher = MinHasher::new(&MinHashConfig {
                    num_perm: params.num_perm() as u32,
                    seed: config.seed,
                    shingle: config.shingle,
                    scheme: config.scheme.unwrap_or_default(),
                })?;
                let mut lsh = MinHashLsh::with_params(params, 0);
                lsh.set_signature_kind(hasher.kind())?;
                Method::MinHash {
                    hasher,
                    lsh: Arc::new(lsh),
                }
            }
            DedupMethod::SimHash => Method::SimHash {
                config: SimHashConfig {
                    shingle: config.shingle,
                    weights: config.weighting(),
                    seed: config.seed,
                },
                tables: tables()?,
            },
            DedupMethod::Exact => Method::Exact,
            DedupMethod::MultiRef => Method::MultiRef {
                model: model.clone().ok_or_else(|| {
                    Error::option(
                        "reference",
                        "method multiref needs a reference text (Stages::with_reference)",
                    )
                })?,
                tables: tables()?,
            },
        };
        if model.is_some() && config.method != DedupMethod::MultiRef {
            return Err(Error::option(
                "reference",
                format!("does not apply to method {}", config.method),
            ));
        }
        let reference = model.as_ref().map_or(0, |m| m.reference.id());
        Ok(Stages {
            config: *config,
            identity: config.identity(reference),
            method,
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
        match &self.method {
            Method::MultiRef { model, .. } => Some(model),
            _ => None,
        }
    }

    /// The MinHash hasher (method `minhash`).
    pub fn hasher(&self) -> Option<&MinHasher> {
        match &self.method {
            Method::MinHash { hasher, .. } => Some(hasher),
            _ => None,
        }
    }

    /// The stable identity of the configuration, recorded in every sketch.
    pub fn identity(&self) -> u64 {
        self.identity
    }

    /// Stage 1: the sketch of a text: normalised once into a [`Document`]
    /// (after dictionary correction with `correct`), then sketched.
    ///
    /// # Errors
    /// [`crate::ErrorKind::TooLarge`] for a text over
    /// [`Stages::max_bytes`], before any work;
    /// [`crate::ErrorKind::InvalidOption`] (`correct`) when words are to be
    /// corrected and no dictionary was given.
    pub fn sketch(&self, text: &str) -> Result<Sketch, Error> {
        self.sketch_document(&self.document(text)?)
    }

    /// The [`Document`] the stages sketch a text as: normalised once with
    /// the configuration's seed, after dictionary correction with `correct`.
    ///
    /// # Errors
    /// As [`Stages::sketch`].
    pub fn document(&self, text: &str) -> Result<Document, Error> {
        if text.len() as u64 > self.max_bytes {
            return Err(Error::new(crate::ErrorKind::TooLarge {
                which: "document",
                len: text.len() as u64,
                max: self.max_bytes,
            }));
        }
        if self.config.correct {
            let d = self.dictionary.as_ref().ok_or_else(|| {
                Error::option(
                    "correct",
                    "word:K+correct needs a dictionary (Stages::with_dictionary)",
                )
            })?;
            return Ok(Document::new(&d.correct_text(text), self.config.seed));
        }
        Ok(Document::new(text, self.config.seed))
    }

    /// Stage 1 from a [`Document`] (normalised with the configuration's
    /// seed; with `correct`, from the corrected text).
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] when the document's seed is not the
    /// configuration's.
    pub fn sketch_document(&self, doc: &Document) -> Result<Sketch, Error> {
        if doc.seed() != self.config.seed {
            return Err(Error::incompatible(
                "document",
                format!("seed {}", self.config.seed),
                format!("seed {}", doc.seed()),
            ));
        }
        let body = match &self.method {
            Method::MinHash { hasher, .. } => Body::MinHash(hasher.signature_of(doc)?),
            Method::SimHash { config, .. } => Body::SimHash(config.fingerprint_of(doc)?),
            Method::Exact => Body::Exact,
            Method::MultiRef { model, .. } => {
                let sig = model.reference.signature_of(doc);
                let bits = Fingerprint::from_value(model.projector.bits(&sig)?);
                Body::MultiRef(sig, bits)
            }
        };
        let set = self
            .config
            .keeps_sets()
            .then(|| doc.shingle_set(self.config.shingle));
        Ok(Sketch {
            identity: self.identity,
            body,
            set,
        })
    }

    /// A SimHash sketch from a fingerprint made elsewhere (e.g. tf-idf
    /// weights, which need the whole collection's document frequencies),
    /// with the document's shingle set when the configuration keeps them.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] (`method`) for another method;
    /// (`verify`) when a set is needed and missing.
    pub fn fingerprint_sketch(
        &self,
        fingerprint: Fingerprint,
        set: Option<Arc<ShingleSet>>,
    ) -> Result<Sketch, Error> {
        if self.config.method != DedupMethod::SimHash {
            return Err(Error::option(
                "method",
                format!(
                    "a fingerprint is a simhash sketch, not {}",
                    self.config.method
                ),
            ));
        }
        if self.config.keeps_sets() != set.is_some() {
            return Err(Error::option(
                "verify",
                "a shingle set must be given exactly when candidates are verified",
            ));
        }
        Ok(Sketch {
            identity: self.identity,
            body: Body::SimHash(fingerprint),
            set,
        })
    }

    /// Reads [`Sketch::to_bytes`] output made with this configuration.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Corrupt`] or [`crate::ErrorKind::Version`] as
    /// every decoder; [`crate::ErrorKind::Incompatible`] for a sketch of
    /// another configuration.
    pub fn read_sketch(&self, bytes: &[u8]) -> Result<Sketch, Error> {
        if let Some(body) = self.legacy(bytes)? {
            return Ok(Sketch {
                identity: self.identity,
                body,
                set: None,
            });
        }
        let mut r = Reader::open(bytes, MAGIC, FORMAT, WHAT)?;
        let identity = r.u64()?;
        if identity != self.identity {
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
        let nested = |r: &mut Reader<'_>| -> Result<Vec<u8>, Error> {
            let n = r.u32()? as usize;
            if n > r.remaining() {
                return Err(corrupt(WHAT, format!("{n} bytes cannot fit in the data")));
            }
            (0..n).map(|_| r.u8()).collect()
        };
        let body = match &self.method {
            Method::MinHash { hasher, .. } => {
                let sig = Signature::from_bytes(&nested(&mut r)?)?;
                if sig.kind() != hasher.kind() || sig.num_perm() != hasher.num_perm() {
                    return Err(corrupt(WHAT, "its signature is of another kind".into()));
                }
                Body::MinHash(sig)
            }
            Method::SimHash { config, .. } => {
                let value = r.u64()?;
                let empty = match r.u8()? {
                    0 => false,
                    1 => true,
                    b => return Err(corrupt(WHAT, format!("empty flag {b}"))),
                };
                Body::SimHash(Fingerprint::new(value, *config, empty))
            }
            Method::Exact => Body::Exact,
            Method::MultiRef { model, .. } => {
                let sig = MultiRefSignature::from_bytes(&nested(&mut r)?)?;
                if sig.reference() != model.reference.id() {
                    return Err(corrupt(
                        WHAT,
                        "its signature is of another reference".into(),
                    ));
                }
                Body::MultiRef(sig, Fingerprint::from_value(r.u64()?))
            }
        };
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
        Ok(Sketch {
            identity,
            body,
            set,
        })
    }

    /// The two bare forms a sketch without a shingle set may also take
    /// (what stores made before the dedup sketch existed hold): a MinHash
    /// signature's own bytes (SPEC.md §8), of this configuration's kind; a
    /// SimHash fingerprint as its 8 bytes, big-endian (never empty: an empty
    /// one has no keys, so it is never a candidate).
    fn legacy(&self, bytes: &[u8]) -> Result<Option<Body>, Error> {
        if self.config.keeps_sets() {
            return Ok(None);
        }
        match &self.method {
            Method::MinHash { hasher, .. } if bytes.starts_with(b"NDMH") => {
                let sig = Signature::from_bytes(bytes)?;
                if sig.kind() != hasher.kind() || sig.num_perm() != hasher.num_perm() {
                    return Err(Error::incompatible(
                        "signature",
                        format!("num_perm {}, {}", hasher.num_perm(), hasher.kind()),
                        format!("num_perm {}, {}", sig.num_perm(), sig.kind()),
                    ));
                }
                Ok(Some(Body::MinHash(sig)))
            }
            Method::SimHash { config, .. } if bytes.len() == 8 => {
                let mut v = [0u8; 8];
                v.copy_from_slice(bytes);
                Ok(Some(Body::SimHash(Fingerprint::new(
                    u64::from_be_bytes(v),
                    *config,
                    false,
                ))))
            }
            _ => Ok(None),
        }
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
        match (&self.method, &sketch.body) {
            (Method::MinHash { lsh, .. }, Body::MinHash(sig)) => lsh.band_keys(sig),
            // The tables hold no fingerprint, so they take any
            // configuration's (tf-idf ones are custom).
            (Method::SimHash { tables, .. }, Body::SimHash(fp)) => tables.table_keys(fp),
            (Method::MultiRef { tables, .. }, Body::MultiRef(_, bits)) => tables.table_keys(bits),
            (Method::Exact, Body::Exact) => Ok(sketch.set.as_deref().map_or(Vec::new(), |s| {
                s.as_slice()[..prefix_len(s.len(), self.config.threshold)].to_vec()
            })),
            _ => Err(corrupt(WHAT, "its kind does not fit the method".into())),
        }
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
        self.verify_parts(
            a.body.as_ref(),
            a.set.as_deref(),
            b.body.as_ref(),
            b.set.as_deref(),
        )
    }

    /// [`Stages::verify`] on the parts of two sketches (the deduplicator
    /// keeps them apart).
    pub(crate) fn verify_parts(
        &self,
        a: BodyRef<'_>,
        a_set: Option<&ShingleSet>,
        b: BodyRef<'_>,
        b_set: Option<&ShingleSet>,
    ) -> Result<Option<Verified>, Error> {
        let t = self.config.threshold;
        let mut v = Verified {
            similarity: 0.0,
            jaccard: None,
            exact: None,
            distance: None,
            estimate: None,
            decision: None,
        };
        match (a, b) {
            (BodyRef::MinHash(x), BodyRef::MinHash(y)) => {
                if x.is_empty() || y.is_empty() {
                    return Ok(None);
                }
                let j = x.jaccard(y)?;
                v.jaccard = Some(j);
                v.similarity = j;
                if !self.config.verifies() && !self.config.keeps_candidates() && j < t {
                    return Ok(None);
                }
            }
            (BodyRef::SimHash(x), BodyRef::SimHash(y)) => {
                if x.is_empty() || y.is_empty() {
                    return Ok(None);
                }
                let d = crate::simhash::hamming_distance(x.value(), y.value());
                if d > self.config.max_distance() {
                    return Ok(None);
                }
                v.distance = Some(d);
                v.similarity = 1.0 - d as f64 / 64.0;
            }
            (BodyRef::MultiRef(x, xb), BodyRef::MultiRef(y, yb)) => {
                let d = crate::simhash::hamming_distance(xb.value(), yb.value());
                if d > self.config.max_distance() {
                    return Ok(None);
                }
                let Some(model) = self.model() else {
                    return Ok(None);
                };
                let e = similarity(x, y)?;
                let decision = model.thresholds.decide(e);
                if decision == Decision::Different {
                    return Ok(None);
                }
                v.distance = Some(d);
                v.estimate = Some(e);
                v.decision = Some(decision);
                v.similarity = e;
            }
            (BodyRef::Exact, BodyRef::Exact) => {}
            _ => return Err(corrupt(WHAT, "two sketches of different kinds".into())),
        }
        if self.config.keeps_sets() {
            let (Some(x), Some(y)) = (a_set, b_set) else {
                return Err(corrupt(WHAT, "a shingle set is missing".into()));
            };
            if x.is_empty() || y.is_empty() {
                return Ok(None);
            }
            let e = x.counts(y).resemblance();
            if e < t {
                return Ok(None);
            }
            v.exact = Some(e);
            v.similarity = e;
        }
        Ok(Some(v))
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
