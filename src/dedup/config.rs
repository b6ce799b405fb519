//! [`DedupConfig`]: how a collection is deduplicated, in the crate's
//! configuration idiom (public fields, `Default`, by-value setters, one
//! [`DedupConfig::check`]).
//!
//! The defaults are those of `neardup dedup`, chosen on docs-bench and its
//! typo copies (EVALUATION.md, "Choosing dedup's defaults"): MinHash LSH
//! over character 5-grams, 128 one-permutation values, pairs kept when their
//! estimated Jaccard resemblance reaches 0.5.

use crate::error::Error;
use crate::index::snapshot::{corrupt, Reader, Writer};
use crate::minhash::{LshConfig, LshParams, MinHashScheme};
use crate::shingle::Shingling;
use crate::simhash::{SimHashIndexConfig, Weighting};
use alloc::format;

/// How candidate pairs are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub enum DedupMethod {
    /// MinHash signatures and LSH banding (Broder 1997; Indyk & Motwani
    /// 1998); a candidate is kept when its estimated Jaccard reaches the
    /// threshold. The default.
    #[default]
    MinHash,
    /// SimHash fingerprints in the permuted-block Hamming index (Charikar
    /// 2002; Manku, Jain & Das Sarma 2007); candidates within Hamming
    /// distance `k`, confirmed by their exact Jaccard unless `verify` is off.
    SimHash,
    /// Exact Jaccard of every pair sharing a prefix shingle (prefix
    /// filtering, Chaudhuri, Ganti & Kaushik 2006): the ground truth, slow.
    Exact,
    /// Multireference cosine signatures (Mohammadi & Khasteh 2020) of a
    /// trained reference text; candidates by the Hamming distance of their
    /// 64 random-projection bits, kept when the signatures' cosine reaches
    /// the reference's `t2`.
    MultiRef,
}

impl DedupMethod {
    /// The name used in JS, Python and on the command line: `"minhash"`,
    /// `"simhash"`, `"exact"` or `"multiref"`.
    pub fn name(self) -> &'static str {
        match self {
            DedupMethod::MinHash => "minhash",
            DedupMethod::SimHash => "simhash",
            DedupMethod::Exact => "exact",
            DedupMethod::MultiRef => "multiref",
        }
    }

    pub(crate) fn code(self) -> u8 {
        match self {
            DedupMethod::MinHash => 0,
            DedupMethod::SimHash => 1,
            DedupMethod::Exact => 2,
            DedupMethod::MultiRef => 3,
        }
    }
}

impl core::fmt::Display for DedupMethod {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for DedupMethod {
    type Err = Error;

    /// `"minhash"`, `"simhash"`, `"exact"` or `"multiref"`.
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "minhash" => Ok(DedupMethod::MinHash),
            "simhash" => Ok(DedupMethod::SimHash),
            "exact" => Ok(DedupMethod::Exact),
            "multiref" => Ok(DedupMethod::MultiRef),
            _ => Err(Error::option(
                "method",
                format!("must be minhash, simhash, exact or multiref, got {s:?}"),
            )),
        }
    }
}

/// Default Jaccard threshold of every method.
pub const DEFAULT_THRESHOLD: f64 = 0.5;
/// Default largest Hamming distance of a SimHash candidate pair.
pub const DEFAULT_SIMHASH_K: u32 = 12;
/// Default largest Hamming distance of a multireference candidate pair (of
/// the signatures' 64 random-projection bits).
pub const DEFAULT_MULTIREF_K: u32 = 8;

/// How a collection is deduplicated: checked once by [`DedupConfig::check`]
/// (which [`super::Deduplicator::new`] and [`super::Stages::new`] call).
///
/// A method's own options are `Option`s: `None` takes the method's default,
/// and an option given to a method that does not use it is refused by name
/// (`num_perm` with `simhash`, `k` with `minhash`, …), never ignored.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", default, deny_unknown_fields)
)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct DedupConfig {
    /// How candidates are found (default `"minhash"`).
    pub method: DedupMethod,
    /// Shingles: `"char:Q"`, `"word:K"`, `"phonetic:K"` or
    /// `"phonetic:ALGO:K"` (default `"char:5"`). With `multiref` they serve
    /// only the exact Jaccard of `verify`.
    #[cfg_attr(feature = "wasm", tsify(type = "string"))]
    pub shingle: Shingling,
    /// Words are corrected by a dictionary before shingling
    /// (`word:K+correct`; word shingles only; the dictionary is given to
    /// [`super::Stages::with_dictionary`]). Default `false`.
    pub correct: bool,
    /// Jaccard resemblance threshold in (0, 1): of the MinHash estimate, of
    /// the exact Jaccard of `verify`, of the exact join (default 0.5).
    pub threshold: f64,
    /// Hash seed of shingles and sketches (default 0).
    pub seed: u64,
    /// Confirm each candidate by the exact Jaccard of the two shingle sets
    /// (keeps every document's shingle set: 8 bytes a distinct shingle).
    /// Default: on for `simhash`, off for `minhash` and `multiref`; `exact`
    /// is exact already and takes no value.
    #[cfg_attr(feature = "wasm", tsify(optional))]
    pub verify: Option<bool>,
    /// MinHash: values per signature, 1..=4096 (default 128).
    #[cfg_attr(feature = "wasm", tsify(optional))]
    pub num_perm: Option<u32>,
    /// MinHash: `"oph"` (one hash per shingle, the default) or `"classic"`.
    #[cfg_attr(feature = "wasm", tsify(optional, type = "\"oph\" | \"classic\""))]
    pub scheme: Option<MinHashScheme>,
    /// MinHash: explicit number of bands (with `rows`) instead of the
    /// advisor's choice.
    #[cfg_attr(feature = "wasm", tsify(optional))]
    pub bands: Option<u32>,
    /// MinHash: rows per band (with `bands`).
    #[cfg_attr(feature = "wasm", tsify(optional))]
    pub rows: Option<u32>,
    /// MinHash: the band advisor's weight of false positives, ≥ 0 (default 0.5).
    #[cfg_attr(feature = "wasm", tsify(optional))]
    pub fp_weight: Option<f64>,
    /// MinHash: the band advisor's weight of false negatives, ≥ 0 (default 0.5).
    #[cfg_attr(feature = "wasm", tsify(optional))]
    pub fn_weight: Option<f64>,
    /// MinHash: keep every LSH candidate pair, without the estimate filter
    /// (default `false`; not with `verify`).
    #[cfg_attr(feature = "wasm", tsify(optional))]
    pub candidates: Option<bool>,
    /// SimHash and multiref: largest Hamming distance of a candidate pair,
    /// 0..=16 (default 12 for `simhash`, 8 for `multiref`).
    #[cfg_attr(feature = "wasm", tsify(optional))]
    pub k: Option<u32>,
    /// SimHash and multiref: blocks of the permuted-block index, `k + 1 ..=
    /// 64` (default `k + 2`).
    #[cfg_attr(feature = "wasm", tsify(optional))]
    pub blocks: Option<u32>,
    /// SimHash: feature weights, `"tf"` (default) or `"binary"`.
    #[cfg_attr(feature = "wasm", tsify(optional))]
    pub weights: Option<Weighting>,
}

impl Default for DedupConfig {
    fn default() -> Self {
        DedupConfig {
            method: DedupMethod::MinHash,
            shingle: Shingling::Chars(5),
            correct: false,
            threshold: DEFAULT_THRESHOLD,
            seed: crate::hash::DEFAULT_SEED,
            verify: None,
            num_perm: None,
            scheme: None,
            bands: None,
            rows: None,
            fp_weight: None,
            fn_weight: None,
            candidates: None,
            k: None,
            blocks: None,
            weights: None,
        }
    }
}

crate::config::setters!(DedupConfig {
    /// Sets the method.
    method: DedupMethod,
    /// Sets the shingling.
    shingle: Shingling,
    /// Sets dictionary correction of words before shingling.
    correct: bool,
    /// Sets the Jaccard threshold.
    threshold: f64,
    /// Sets the seed.
    seed: u64,
    /// Sets verification by exact Jaccard (`None`: the method's default).
    verify: Option<bool>,
    /// Sets MinHash's values per signature.
    num_perm: Option<u32>,
    /// Sets MinHash's scheme.
    scheme: Option<MinHashScheme>,
    /// Sets MinHash's keeping of every candidate.
    candidates: Option<bool>,
    /// Sets the largest Hamming distance of SimHash or multiref.
    k: Option<u32>,
    /// Sets the blocks of the permuted-block index.
    blocks: Option<u32>,
    /// Sets SimHash's feature weights.
    weights: Option<Weighting>,
});

impl DedupConfig {
    /// Checks every option once, before any work: ranges, and that each
    /// option given applies to the method.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] naming the option: a threshold
    /// outside (0, 1) or not finite, a shingle size outside 1..=32 or a
    /// custom shingling, `correct` with other than word shingles, `num_perm`
    /// outside 1..=4096, bands × rows over `num_perm`, a negative advisor
    /// weight, `k` over 16, blocks outside `k + 1 ..= 64`, `candidates` with
    /// `verify`, or an option of another method.
    pub fn check(&self) -> Result<(), Error> {
        self.shingle.check()?;
        if self.shingle == Shingling::Custom {
            return Err(Error::option(
                "shingle",
                "must be word:K, char:Q, phonetic:K or phonetic:ALGO:K",
            ));
        }
        if self.correct && !matches!(self.shingle, Shingling::Words(_)) {
            return Err(Error::option(
                "correct",
                format!("applies to word:K shingles, got {}", self.shingle),
            ));
        }
        if !(self.threshold > 0.0 && self.threshold < 1.0) {
            return Err(Error::option(
                "threshold",
                format!("must be in (0, 1), got {}", self.threshold),
            ));
        }
        let refuse = |given: bool, option: &'static str| -> Result<(), Error> {
            if given {
                return Err(Error::option(
                    option,
                    format!("does not apply to method {}", self.method),
                ));
            }
            Ok(())
        };
        let minhash = self.num_perm.is_some()
            || self.scheme.is_some()
            || self.bands.is_some()
            || self.rows.is_some()
            || self.fp_weight.is_some()
            || self.fn_weight.is_some();
        let minhash_name = match () {
            _ if self.num_perm.is_some() => "num_perm",
            _ if self.scheme.is_some() => "scheme",
            _ if self.bands.is_some() => "bands",
            _ if self.rows.is_some() => "rows",
            _ if self.fp_weight.is_some() => "fp_weight",
            _ => "fn_weight",
        };
        let hamming_name = if self.k.is_some() { "k" } else { "blocks" };
        let hamming = self.k.is_some() || self.blocks.is_some();
        match self.method {
            DedupMethod::MinHash => {
                refuse(hamming, hamming_name)?;
                refuse(self.weights.is_some(), "weights")?;
                if self.candidates == Some(true) && self.verify == Some(true) {
                    return Err(Error::option(
                        "candidates",
                        "keeps every candidate: it does not go with verify",
                    ));
                }
                self.lsh_config().params()?;
            }
            DedupMethod::SimHash => {
                refuse(minhash, minhash_name)?;
                refuse(self.candidates.is_some(), "candidates")?;
                self.index_config().check()?;
            }
            DedupMethod::MultiRef => {
                refuse(minhash, minhash_name)?;
                refuse(self.weights.is_some(), "weights")?;
                refuse(self.candidates.is_some(), "candidates")?;
                self.index_config().check()?;
            }
            DedupMethod::Exact => {
                refuse(minhash, minhash_name)?;
                refuse(hamming, hamming_name)?;
                refuse(self.weights.is_some(), "weights")?;
                refuse(self.candidates.is_some(), "candidates")?;
                refuse(self.verify.is_some(), "verify")?;
            }
        }
        Ok(())
    }

    /// Whether candidates are confirmed by their exact Jaccard: `verify`, or
    /// the method's default (on for SimHash). Always `false` for `exact`,
    /// whose pairs are exact already.
    pub fn verifies(&self) -> bool {
        match self.method {
            DedupMethod::SimHash => self.verify.unwrap_or(true),
            DedupMethod::Exact => false,
            _ => self.verify.unwrap_or(false),
        }
    }

    /// Whether every document's shingle set is kept (to verify, or for the
    /// exact join).
    pub fn keeps_sets(&self) -> bool {
        self.verifies() || self.method == DedupMethod::Exact
    }

    /// The LSH configuration of the MinHash method.
    pub fn lsh_config(&self) -> LshConfig {
        let d = LshConfig::default();
        LshConfig {
            threshold: self.threshold,
            num_perm: self.num_perm.unwrap_or(d.num_perm),
            fp_weight: self.fp_weight.unwrap_or(d.fp_weight),
            fn_weight: self.fn_weight.unwrap_or(d.fn_weight),
            bands: self.bands,
            rows: self.rows,
        }
    }

    /// The banding of the MinHash method.
    ///
    /// # Errors
    /// As [`LshConfig::check`].
    pub fn lsh_params(&self) -> Result<LshParams, Error> {
        self.lsh_config().params()
    }

    /// The largest Hamming distance of a candidate: `k`, or the method's
    /// default (12 for SimHash, 8 for multiref; 0 for the others).
    pub fn max_distance(&self) -> u32 {
        match self.method {
            DedupMethod::SimHash => self.k.unwrap_or(DEFAULT_SIMHASH_K),
            DedupMethod::MultiRef => self.k.unwrap_or(DEFAULT_MULTIREF_K),
            _ => 0,
        }
    }

    /// The permuted-block index of the SimHash and multiref methods.
    pub fn index_config(&self) -> SimHashIndexConfig {
        SimHashIndexConfig {
            max_k: self.max_distance(),
            blocks: self.blocks,
        }
    }

    /// SimHash's feature weights (tf unless given).
    pub fn weighting(&self) -> Weighting {
        self.weights.unwrap_or(Weighting::Tf)
    }

    /// Whether MinHash candidates are kept without the estimate filter.
    pub fn keeps_candidates(&self) -> bool {
        self.method == DedupMethod::MinHash && self.candidates.unwrap_or(false)
    }

    /// The stable 64-bit identity of every setting that changes a sketch,
    /// its keys or its verification (`reference` is the multireference id,
    /// 0 for other methods): recorded in every sketch's bytes, so that
    /// sketches of two configurations are never mixed. Hashed with the
    /// crate's `combine` (SPEC.md §2), never with `std::hash`.
    pub(crate) fn identity(&self, reference: u64) -> u64 {
        let (kind, size) = self.shingle.code();
        let lsh = self.lsh_config();
        let opt = |v: Option<u32>| v.map_or(u64::MAX, u64::from);
        let fields = [
            self.method.code() as u64,
            kind as u64,
            size as u64,
            self.correct as u64,
            self.threshold.to_bits(),
            self.seed,
            self.verifies() as u64,
            self.keeps_candidates() as u64,
            lsh.num_perm as u64,
            self.scheme.unwrap_or_default().code() as u64,
            opt(lsh.bands),
            opt(lsh.rows),
            lsh.fp_weight.to_bits(),
            lsh.fn_weight.to_bits(),
            self.max_distance() as u64,
            opt(self.blocks),
            (self.weighting() == Weighting::Binary) as u64,
            reference,
        ];
        crate::hash::combine(0x6e64_6465_6475_7031, &fields)
    }
}

/// Writes every field in order (the deduplicator snapshot, SPEC.md §14):
/// `u8` method, `u8` shingling kind, `u8` size, `u8` correct, `f64`
/// threshold, `u64` seed, then each optional field as a `u8` presence flag
/// (0 absent, 1 present) and its value: verify (`u8`), num_perm (`u32`),
/// scheme (`u8`), bands, rows (`u32`), fp_weight, fn_weight (`f64`),
/// candidates (`u8`), k, blocks (`u32`), weights (`u8`: 0 tf, 1 binary).
pub(crate) fn write_config(w: &mut Writer, c: &DedupConfig) {
    w.u8(c.method.code());
    let (kind, size) = c.shingle.code();
    w.u8(kind);
    w.u8(size);
    w.u8(c.correct as u8);
    w.f64(c.threshold);
    w.u64(c.seed);
    let flag = |w: &mut Writer, present: bool| w.u8(present as u8);
    flag(w, c.verify.is_some());
    if let Some(v) = c.verify {
        w.u8(v as u8);
    }
    flag(w, c.num_perm.is_some());
    if let Some(v) = c.num_perm {
        w.u32(v);
    }
    flag(w, c.scheme.is_some());
    if let Some(s) = c.scheme {
        w.u8(s.code());
    }
    for v in [c.bands, c.rows] {
        flag(w, v.is_some());
        if let Some(v) = v {
            w.u32(v);
        }
    }
    for v in [c.fp_weight, c.fn_weight] {
        flag(w, v.is_some());
        if let Some(v) = v {
            w.f64(v);
        }
    }
    flag(w, c.candidates.is_some());
    if let Some(v) = c.candidates {
        w.u8(v as u8);
    }
    for v in [c.k, c.blocks] {
        flag(w, v.is_some());
        if let Some(v) = v {
            w.u32(v);
        }
    }
    flag(w, c.weights.is_some());
    if let Some(v) = c.weights {
        w.u8((v == Weighting::Binary) as u8);
    }
}

/// Reads what [`write_config`] wrote, and checks it.
pub(crate) fn read_config(r: &mut Reader<'_>, what: &'static str) -> Result<DedupConfig, Error> {
    let bad = |msg: &str| corrupt(what, msg.into());
    let method = match r.u8()? {
        0 => DedupMethod::MinHash,
        1 => DedupMethod::SimHash,
        2 => DedupMethod::Exact,
        3 => DedupMethod::MultiRef,
        _ => return Err(bad("unknown method")),
    };
    let (kind, size) = (r.u8()?, r.u8()?);
    let shingle = Shingling::from_code(kind, size).ok_or_else(|| bad("unknown shingling"))?;
    let boolean = |r: &mut Reader<'_>| -> Result<bool, Error> {
        match r.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(bad("a flag is neither 0 nor 1")),
        }
    };
    let correct = boolean(r)?;
    let threshold = r.f64()?;
    let seed = r.u64()?;
    let verify = if boolean(r)? { Some(boolean(r)?) } else { None };
    let num_perm = if boolean(r)? { Some(r.u32()?) } else { None };
    let scheme = if boolean(r)? {
        Some(MinHashScheme::from_code(r.u8()?).ok_or_else(|| bad("unknown scheme"))?)
    } else {
        None
    };
    let bands = if boolean(r)? { Some(r.u32()?) } else { None };
    let rows = if boolean(r)? { Some(r.u32()?) } else { None };
    let fp_weight = if boolean(r)? { Some(r.f64()?) } else { None };
    let fn_weight = if boolean(r)? { Some(r.f64()?) } else { None };
    let candidates = if boolean(r)? { Some(boolean(r)?) } else { None };
    let k = if boolean(r)? { Some(r.u32()?) } else { None };
    let blocks = if boolean(r)? { Some(r.u32()?) } else { None };
    let weights = if boolean(r)? {
        Some(if boolean(r)? {
            Weighting::Binary
        } else {
            Weighting::Tf
        })
    } else {
        None
    };
    let c = DedupConfig {
        method,
        shingle,
        correct,
        threshold,
        seed,
        verify,
        num_perm,
        scheme,
        bands,
        rows,
        fp_weight,
        fn_weight,
        candidates,
        k,
        blocks,
        weights,
    };
    c.check()
        .map_err(|e| corrupt(what, format!("its configuration: {e}")))?;
    Ok(c)
}
