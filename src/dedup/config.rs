//! [`DedupConfig`]: how a collection is deduplicated, in the crate's
//! configuration idiom (public fields, `Default`, by-value setters, one
//! [`DedupConfig::check`]) — the one place where every option's range,
//! default and every rule between options live. The CLI, the npm package,
//! Python and the edge Worker only map their option names onto these fields
//! (`--num-perm` ↔ `numPerm` ↔ `num_perm`) and add no rule of their own.
//!
//! Every option is `None` until given, so the configuration knows what was
//! given: an option that does not apply to the method (`num_perm` with
//! `simhash`, `shingle` with `multiref` unverified, …) is refused by name,
//! never ignored.
//!
//! The defaults are those of `neardup dedup`, chosen on docs-bench and its
//! typo copies (EVALUATION.md, "Choosing dedup's defaults"): MinHash LSH
//! over character 5-grams, 128 one-permutation values, pairs kept when their
//! estimated Jaccard resemblance reaches 0.5.

use crate::error::{check_range, Error};
use crate::hash::Spec;
use crate::index::snapshot::{corrupt, Reader, Writer};
use crate::minhash::{LshConfig, LshParams, MinHashScheme};
use crate::shingle::{ShingleSpec, Shingling};
use crate::simhash::{SimHashIndexConfig, Weighting};
use alloc::format;

/// How candidate pairs are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
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
    /// Every method, in the order of their codes.
    pub const ALL: [DedupMethod; 4] = [
        DedupMethod::MinHash,
        DedupMethod::SimHash,
        DedupMethod::Exact,
        DedupMethod::MultiRef,
    ];

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

    /// The method's code in persisted bytes (SPEC.md §14).
    pub(crate) fn code(self) -> u8 {
        self as u8
    }

    pub(crate) fn from_code(code: u8) -> Option<DedupMethod> {
        DedupMethod::ALL.get(code as usize).copied()
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
        DedupMethod::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                Error::option(
                    "method",
                    format!("must be minhash, simhash, exact or multiref, got {s:?}"),
                )
            })
    }
}

/// How SimHash weighs a document's shingles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub enum Weights {
    /// Term frequency: each occurrence counts (the default).
    #[default]
    Tf,
    /// Each distinct shingle counts once.
    Binary,
    /// Term frequency times smoothed idf (Spärck Jones 1972), with the
    /// collection's document frequencies counted by a first pass
    /// ([`super::Stages::count`], [`crate::tfidf::DocumentFrequencies`]).
    Tfidf,
}

impl Weights {
    /// `"tf"`, `"binary"` or `"tfidf"`.
    pub fn name(self) -> &'static str {
        match self {
            Weights::Tf => "tf",
            Weights::Binary => "binary",
            Weights::Tfidf => "tfidf",
        }
    }

    fn code(self) -> u8 {
        self as u8
    }
}

impl core::str::FromStr for Weights {
    type Err = Error;

    /// `"tf"`, `"binary"` or `"tfidf"`.
    fn from_str(s: &str) -> Result<Self, Error> {
        [Weights::Tf, Weights::Binary, Weights::Tfidf]
            .into_iter()
            .find(|w| w.name() == s)
            .ok_or_else(|| {
                Error::option("weights", format!("must be tf, binary or tfidf, got {s:?}"))
            })
    }
}

/// Default shingles of every method: character 5-grams.
pub const DEFAULT_SHINGLE: Shingling = Shingling::Chars(5);
/// Default Jaccard threshold of every method.
pub const DEFAULT_THRESHOLD: f64 = 0.5;
/// Default largest Hamming distance of a SimHash candidate pair: 10, chosen
/// by measurement on docs-bench (EVALUATION.md, "SimHash on docs-bench":
/// F1 0.994 against 0.997 at 12, for 0.55–0.6 of the CPU; issue 50). It was 12
/// before 2026-11-28: a snapshot of then that does not record its `k` is
/// read at [`LEGACY_SIMHASH_K`].
pub const DEFAULT_SIMHASH_K: u32 = 10;
/// The SimHash default before 2026-11-28, for snapshots written then.
pub const LEGACY_SIMHASH_K: u32 = 12;
/// The shingle hash specification of a new configuration (issue 50): version
/// 2, the faster; every stored value records its version and reads back at
/// it, and `spec: 1` stays selectable.
pub const DEFAULT_SPEC: Spec = Spec::V2;
/// Default largest Hamming distance of a multireference candidate pair (of
/// the signatures' 64 random-projection bits).
pub const DEFAULT_MULTIREF_K: u32 = 8;
/// Largest Hamming distance of a candidate pair.
pub const MAX_K: u32 = 16;

/// How a collection is deduplicated: checked once by [`DedupConfig::check`]
/// (which [`super::Deduplicator::new`] and [`super::Stages::new`] call).
///
/// Every option but `method` is an `Option`: `None` takes the default, and
/// an option given where it does not apply is refused by name (module
/// docs). The `serde` spelling is camelCase (`numPerm`), as in JavaScript;
/// Python and the CLI use the snake_case names.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", default, deny_unknown_fields)
)]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct DedupConfig {
    /// How candidates are found (default `"minhash"`).
    pub method: DedupMethod,
    /// Shingles: `"char:Q"`, `"word:K"`, `"phonetic:K"` or
    /// `"phonetic:ALGO:K"`, and `"word:K+correct"` for word shingles of
    /// dictionary-corrected words (default `"char:5"`). With `multiref`
    /// they serve only the exact Jaccard of `verify`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional, type = "string"))]
    pub shingle: Option<ShingleSpec>,
    /// Jaccard resemblance threshold in (0, 1): of the MinHash estimate, of
    /// the exact Jaccard of `verify`, of the exact join (default 0.5).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub threshold: Option<f64>,
    /// Hash seed of shingles and sketches, any `u64` (default 0).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub seed: Option<u64>,
    /// Confirm each candidate by the exact Jaccard of the two shingle sets
    /// (a deduplicator keeps a document's text until its set is first
    /// needed, then the set: 8 bytes a distinct shingle).
    /// Default: on for `simhash`, off for `minhash` and `multiref`; `exact`
    /// is exact already and takes no value.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub verify: Option<bool>,
    /// MinHash: values per signature, 1..=4096 (default 128).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub num_perm: Option<u32>,
    /// MinHash: `"oph"` (one hash per shingle, the default) or `"classic"`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(
        feature = "wasm-bindings",
        tsify(optional, type = "\"oph\" | \"classic\"")
    )]
    pub scheme: Option<MinHashScheme>,
    /// MinHash: explicit number of bands (with `rows`) instead of the
    /// advisor's choice.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub bands: Option<u32>,
    /// MinHash: rows per band (with `bands`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub rows: Option<u32>,
    /// MinHash: the band advisor's weight of false positives, ≥ 0 (default 0.5).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub fp_weight: Option<f64>,
    /// MinHash: the band advisor's weight of false negatives, ≥ 0 (default 0.5).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub fn_weight: Option<f64>,
    /// MinHash: keep every LSH candidate pair, without the estimate filter
    /// (default `false`; not with `verify`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub candidates: Option<bool>,
    /// SimHash and multiref: largest Hamming distance of a candidate pair,
    /// 0..=16 (default 10 for `simhash`, 8 for `multiref`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub k: Option<u32>,
    /// SimHash and multiref: blocks of the permuted-block tables, `k + 1 ..=
    /// 64` (default `k + 2`): multiref's index, and SimHash's bucket keys
    /// ([`Stages::keys`](crate::dedup::Stages::keys): engines, the edge).
    /// The pipeline's own SimHash index is multi-index hashing whatever
    /// they are (the same pairs, exact for Hamming distance `k`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub blocks: Option<u32>,
    /// SimHash: shingle weights, `"tf"` (default), `"binary"` or `"tfidf"`
    /// (document frequencies from the collection itself: a first pass).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub weights: Option<Weights>,
    /// Fold diacritics before shingling (SPEC.md §1,
    /// [`crate::Normalization`]): `é` → `e`, `ä` → `ae` (default `false`;
    /// not with multiref unverified, whose signatures read the text).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub fold_diacritics: Option<bool>,
    /// Undo the tricks that hide a copy before shingling (SPEC.md §1, step
    /// 0, [`crate::Normalization::unmask`]): invisible characters removed,
    /// look-alike letters of another script mapped to the main script's
    /// (default `true` for a new configuration; a snapshot, sketch or
    /// collection made before the option keeps `false`, which it records;
    /// not with multiref unverified, whose signatures read the text).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub unmask: Option<bool>,
    /// The version of the shingle hash specification (SPEC.md §3): 1 or 2
    /// (XXH3-64 tokens and q-grams, polynomial word shingles: faster; the
    /// default of a new configuration, [`DEFAULT_SPEC`]). Sketches and
    /// snapshots record it and are read at it; two versions never mix.
    /// Not with multiref unverified, whose signatures hash no shingles.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional, type = "1 | 2"))]
    pub spec: Option<Spec>,
}

crate::config::setters!(DedupConfig {
    /// Sets the method.
    method: DedupMethod,
    /// Sets the shingles (a [`Shingling`] converts).
    shingle: ?ShingleSpec,
    /// Sets the Jaccard threshold.
    threshold: ?f64,
    /// Sets the seed.
    seed: ?u64,
    /// Sets verification by exact Jaccard.
    verify: ?bool,
    /// Sets MinHash's values per signature.
    num_perm: ?u32,
    /// Sets MinHash's scheme.
    scheme: ?MinHashScheme,
    /// Sets MinHash's bands (with rows).
    bands: ?u32,
    /// Sets MinHash's rows per band (with bands).
    rows: ?u32,
    /// Sets the band advisor's weight of false positives.
    fp_weight: ?f64,
    /// Sets the band advisor's weight of false negatives.
    fn_weight: ?f64,
    /// Sets MinHash's keeping of every candidate.
    candidates: ?bool,
    /// Sets the largest Hamming distance of SimHash or multiref.
    k: ?u32,
    /// Sets the blocks of the permuted-block tables.
    blocks: ?u32,
    /// Sets SimHash's shingle weights.
    weights: ?Weights,
    /// Sets whether diacritics are folded.
    fold_diacritics: ?bool,
    /// Sets whether the tricks that hide a copy are undone.
    unmask: ?bool,
    /// Sets the spec version of the shingle hashes.
    spec: ?Spec,
});

/// Which options each method takes (besides `method`), in the order of the
/// fields: what [`DedupConfig::check`] holds every configuration to.
const MINHASH_ONLY: [&str; 7] = [
    "num_perm",
    "scheme",
    "bands",
    "rows",
    "fp_weight",
    "fn_weight",
    "candidates",
];

/// What a [`DedupConfig`] needs besides itself ([`DedupConfig::needs`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DedupNeeds {
    /// A multireference reference (`method: multiref`, Mohammadi & Khasteh
    /// 2020).
    pub reference: bool,
    /// A dictionary to correct words with (`word:K+correct`, Varol & Hari
    /// 2015).
    pub dictionary: bool,
    /// The collection's document frequencies, counted over every document
    /// first (`weights: tfidf`, Spärck Jones 1972).
    pub frequencies: bool,
}

impl DedupConfig {
    /// The options given (not `None`), by their snake_case names, in the
    /// order of the fields.
    pub fn given(&self) -> impl Iterator<Item = &'static str> {
        let given = [
            ("shingle", self.shingle.is_some()),
            ("threshold", self.threshold.is_some()),
            ("seed", self.seed.is_some()),
            ("verify", self.verify.is_some()),
            ("num_perm", self.num_perm.is_some()),
            ("scheme", self.scheme.is_some()),
            ("bands", self.bands.is_some()),
            ("rows", self.rows.is_some()),
            ("fp_weight", self.fp_weight.is_some()),
            ("fn_weight", self.fn_weight.is_some()),
            ("candidates", self.candidates.is_some()),
            ("k", self.k.is_some()),
            ("blocks", self.blocks.is_some()),
            ("weights", self.weights.is_some()),
            ("fold_diacritics", self.fold_diacritics.is_some()),
            ("unmask", self.unmask.is_some()),
            ("spec", self.spec.is_some()),
        ];
        given.into_iter().filter(|g| g.1).map(|g| g.0)
    }

    /// Whether `option` (a snake_case name) applies to this configuration's
    /// method, and if not, why: the rule [`DedupConfig::check`] enforces.
    /// Besides the fields, `reference` (the multiref method's reference
    /// text) and `dictionary` (of `+correct`) are answered too, for the
    /// bindings to ask before they load either.
    pub fn applies(&self, option: &str) -> Result<(), &'static str> {
        let m = self.method;
        match option {
            "dictionary" if !self.corrects() => {
                return Err("applies to word:K+correct shingles only")
            }
            "reference" if m != DedupMethod::MultiRef => {}
            "dictionary" | "reference" => return Ok(()),
            _ => {}
        }
        let hamming = matches!(m, DedupMethod::SimHash | DedupMethod::MultiRef);
        let ok = match option {
            "shingle" | "threshold" | "seed" | "fold_diacritics" | "unmask" | "spec" => {
                if m == DedupMethod::MultiRef && self.verify != Some(true) {
                    return Err("does not apply to method multiref without verify (its \
                                signatures are the reference's character 3-gram cosines)");
                }
                if option == "threshold" && m == DedupMethod::SimHash && !self.verifies() {
                    return Err(
                        "does not apply to method simhash without verify (candidates \
                                are kept by their Hamming distance k alone)",
                    );
                }
                true
            }
            "verify" => m != DedupMethod::Exact,
            "candidates" => m == DedupMethod::MinHash,
            o if MINHASH_ONLY.contains(&o) => m == DedupMethod::MinHash,
            "k" | "blocks" => hamming,
            "weights" => m == DedupMethod::SimHash,
            "reference" => false,
            _ => true,
        };
        if ok {
            Ok(())
        } else {
            Err(match m {
                DedupMethod::MinHash => "does not apply to method minhash",
                DedupMethod::SimHash => "does not apply to method simhash",
                DedupMethod::Exact => "does not apply to method exact",
                DedupMethod::MultiRef => "does not apply to method multiref",
            })
        }
    }

    /// [`DedupConfig::applies`] as an error naming `option`: what a binding
    /// asks before it loads a reference or a dictionary it was given.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] naming `option` when it does not
    /// apply.
    pub fn check_option(&self, option: &'static str) -> Result<(), Error> {
        self.applies(option)
            .map_err(|reason| Error::option(option, reason))
    }

    /// Checks every option once, before any work: ranges, and that each
    /// option given applies to the method.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] naming the option: a threshold
    /// outside (0, 1) or not finite, a shingle size outside 1..=32 or a
    /// custom shingling, `+correct` with other than word shingles,
    /// `num_perm` outside 1..=4096, bands × rows over `num_perm`, bands
    /// without rows, a negative advisor weight, `k` over 16, blocks outside
    /// `k + 1 ..= 64`, `candidates` with `verify`, an option of another
    /// method, or `shingle`, `threshold` or `seed` with `multiref` unverified.
    pub fn check(&self) -> Result<(), Error> {
        for option in self.given() {
            self.check_option(option)?;
        }
        self.check_values()
    }

    /// The ranges and the rules between values, without the rule that every
    /// option given applies (a snapshot written before that rule may hold a
    /// seed for an unverified multiref configuration).
    fn check_values(&self) -> Result<(), Error> {
        if let Some(s) = self.shingle {
            s.check()?;
            if s.shingling == Shingling::Custom {
                return Err(Error::option(
                    "shingle",
                    "must be word:K, char:Q, phonetic:K or phonetic:ALGO:K",
                ));
            }
        }
        let t = self.jaccard_threshold();
        if !(t > 0.0 && t < 1.0) {
            return Err(Error::option(
                "threshold",
                format!("must be in (0, 1), got {t}"),
            ));
        }
        if let Some(k) = self.k {
            check_range("k", k, 0..=MAX_K)?;
        }
        if let Some(b) = self.blocks {
            let lo = self.max_distance() + 1;
            if !(lo..=64).contains(&b) {
                return Err(Error::option(
                    "blocks",
                    format!("must be in {lo}..=64 (more than k), got {b}"),
                ));
            }
        }
        if self.candidates == Some(true) && self.verify == Some(true) {
            return Err(Error::option(
                "candidates",
                "keeps every candidate: it does not go with verify",
            ));
        }
        match self.method {
            DedupMethod::MinHash => {
                self.lsh_config().params()?;
            }
            DedupMethod::SimHash | DedupMethod::MultiRef => self.index_config().check()?,
            DedupMethod::Exact => {}
        }
        Ok(())
    }

    /// Every option the method takes, with its default where it was not
    /// given: what a run uses, for a summary or a settings page. Bands,
    /// rows and blocks stay `None` when not given (the advisor's and `k +
    /// 2`, derived). The same identity as `self`, and it passes
    /// [`DedupConfig::check`] when `self` does.
    pub fn with_defaults(&self) -> DedupConfig {
        let mut c = *self;
        let fill = |c: &DedupConfig, o: &str| c.applies(o).is_ok();
        if fill(&c, "verify") {
            c.verify = Some(self.verifies());
        }
        if fill(&c, "shingle") {
            c.shingle = Some(self.shingle_spec());
            c.seed = Some(self.hash_seed());
            c.spec = Some(self.hash_spec());
        }
        if fill(&c, "threshold") {
            c.threshold = Some(self.jaccard_threshold());
        }
        if fill(&c, "unmask") {
            c.unmask = Some(self.unmasks());
        }
        if self.method == DedupMethod::MinHash {
            let lsh = self.lsh_config();
            c.num_perm = Some(lsh.num_perm);
            c.scheme = Some(self.scheme.unwrap_or_default());
            c.fp_weight = Some(lsh.fp_weight);
            c.fn_weight = Some(lsh.fn_weight);
            if c.verify != Some(true) {
                c.candidates = Some(self.keeps_candidates());
            }
        }
        if fill(&c, "k") {
            c.k = Some(self.max_distance());
        }
        if fill(&c, "weights") {
            c.weights = Some(self.weighting());
        }
        c
    }

    /// The shingles: `shingle`, or `char:5`.
    pub fn shingle_spec(&self) -> ShingleSpec {
        self.shingle.unwrap_or(ShingleSpec::plain(DEFAULT_SHINGLE))
    }

    /// The shingling ([`DedupConfig::shingle_spec`] without `+correct`).
    pub fn shingling(&self) -> Shingling {
        self.shingle_spec().shingling
    }

    /// Whether words are corrected by a dictionary before shingling
    /// (`word:K+correct`).
    pub fn corrects(&self) -> bool {
        self.shingle_spec().correct
    }

    /// What the configuration needs besides itself before a document can be
    /// sketched: the one rule every binding asks (the CLI loads the built-in
    /// reference or dictionary, Python and npm theirs or the bundled ones,
    /// a stream refuses tf-idf).
    pub fn needs(&self) -> DedupNeeds {
        DedupNeeds {
            reference: self.method == DedupMethod::MultiRef,
            dictionary: self.corrects(),
            frequencies: self.weighting() == Weights::Tfidf,
        }
    }

    /// Whether diacritics are folded: `fold_diacritics`, or `false`.
    pub fn folds(&self) -> bool {
        self.fold_diacritics.unwrap_or(false)
    }

    /// Whether the tricks that hide a copy are undone: `unmask`, or `true`
    /// where the option applies (`false` for multiref unverified).
    pub fn unmasks(&self) -> bool {
        self.applies("unmask").is_ok() && self.unmask.unwrap_or(true)
    }

    /// How texts are normalised (diacritics folded or not, unmasked or not).
    pub fn normalization(&self) -> crate::Normalization {
        crate::Normalization::folding(self.folds()).unmasking(self.unmasks())
    }

    /// The spec version of the shingle hashes: `spec`, or [`DEFAULT_SPEC`]
    /// (2) where the option applies; 1 where it does not (multiref without
    /// verify hashes no shingles, and its identity stays as it was).
    pub fn hash_spec(&self) -> Spec {
        match self.spec {
            Some(s) => s,
            None if self.applies("spec").is_ok() => DEFAULT_SPEC,
            None => Spec::V1,
        }
    }

    /// The Jaccard threshold: `threshold`, or 0.5.
    pub fn jaccard_threshold(&self) -> f64 {
        self.threshold.unwrap_or(DEFAULT_THRESHOLD)
    }

    /// The hash seed: `seed`, or 0.
    pub fn hash_seed(&self) -> u64 {
        self.seed.unwrap_or(crate::hash::DEFAULT_SEED)
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
            threshold: self.jaccard_threshold(),
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
    /// default (10 for SimHash, 8 for multiref; 0 for the others).
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

    /// SimHash's shingle weights (tf unless given).
    pub fn weighting(&self) -> Weights {
        self.weights.unwrap_or_default()
    }

    /// The fingerprint weighting of tf and binary weights (tf-idf
    /// fingerprints are weighted by the collection's frequencies).
    pub(crate) fn fingerprint_weighting(&self) -> Weighting {
        match self.weighting() {
            Weights::Binary => Weighting::Binary,
            _ => Weighting::Tf,
        }
    }

    /// Whether MinHash candidates are kept without the estimate filter.
    pub fn keeps_candidates(&self) -> bool {
        self.method == DedupMethod::MinHash && self.candidates.unwrap_or(false)
    }

    /// The stable 64-bit identity of every setting that changes a sketch,
    /// its keys or its verification (`reference` is the multireference id,
    /// 0 for other methods; `frequencies` the digest of tf-idf's document
    /// frequencies, recorded only with tf-idf weights): recorded in every
    /// sketch's bytes, so that sketches of two configurations are never
    /// mixed. Hashed with the crate's `combine` (SPEC.md §2), never with
    /// `std::hash`.
    pub(crate) fn identity(&self, reference: u64, frequencies: u64) -> u64 {
        let (kind, size) = self.shingling().code();
        let lsh = self.lsh_config();
        let opt = |v: Option<u32>| v.map_or(u64::MAX, u64::from);
        let fields = [
            self.method.code() as u64,
            kind as u64,
            size as u64,
            self.corrects() as u64 | (self.folds() as u64) << 1 | (self.unmasks() as u64) << 2,
            self.jaccard_threshold().to_bits(),
            self.hash_seed(),
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
            self.weighting().code() as u64,
            reference,
        ];
        let mut id = crate::hash::combine(0x6e64_6465_6475_7031, &fields);
        // Version 1 adds nothing, so that the identities of every
        // configuration made before version 2 stay as they were.
        if self.hash_spec() != Spec::V1 {
            id = crate::hash::combine(id, &[u64::from(self.hash_spec().number())]);
        }
        match self.weighting() {
            Weights::Tfidf => crate::hash::combine(id, &[frequencies]),
            _ => id,
        }
    }
}

/// Writes every field in order (the deduplicator snapshot, SPEC.md §14):
/// `u8` method, `u8` shingling kind, `u8` size, `u8` correct, `f64`
/// threshold, `u64` seed (the values used, given or not), then each optional
/// field as a `u8` presence flag (0 absent, 1 present) and its value: verify
/// (`u8`), num_perm (`u32`), scheme (`u8`), bands, rows (`u32`), fp_weight,
/// fn_weight (`f64`), candidates (`u8`), k, blocks (`u32`), weights (`u8`:
/// 0 tf, 1 binary, 2 tfidf). SimHash's k is always present (the value
/// used); a SimHash value without it was written when the default was 12.
pub(crate) fn write_config(w: &mut Writer, c: &DedupConfig) {
    w.u8(c.method.code());
    let (kind, size) = c.shingling().code();
    w.u8(kind);
    w.u8(size);
    // Bit 0: `+correct`; bit 1: diacritics folded; bit 2: unmasked (a
    // snapshot of before an option holds 0 there and reads without it).
    w.u8(c.corrects() as u8 | (c.folds() as u8) << 1 | (c.unmasks() as u8) << 2);
    w.f64(c.jaccard_threshold());
    w.u64(c.hash_seed());
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
    // SimHash's k always, so that the value reads back at the distance it
    // was made with whatever the default is then.
    let k =
        c.k.or((c.method == DedupMethod::SimHash).then(|| c.max_distance()));
    for v in [k, c.blocks] {
        flag(w, v.is_some());
        if let Some(v) = v {
            w.u32(v);
        }
    }
    flag(w, c.weights.is_some());
    if let Some(v) = c.weights {
        w.u8(v.code());
    }
}

/// Reads what [`write_config`] wrote, and checks it. Shingles, threshold
/// and seed are written as the values used: one equal to its default reads
/// as not given.
pub(crate) fn read_config(r: &mut Reader<'_>, what: &'static str) -> Result<DedupConfig, Error> {
    let bad = |msg: &str| corrupt(what, msg.into());
    let method = DedupMethod::from_code(r.u8()?).ok_or_else(|| bad("unknown method"))?;
    let (kind, size) = (r.u8()?, r.u8()?);
    let shingling = Shingling::from_code(kind, size).ok_or_else(|| bad("unknown shingling"))?;
    let boolean = |r: &mut Reader<'_>| -> Result<bool, Error> {
        match r.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(bad("a flag is neither 0 nor 1")),
        }
    };
    let normalisation = r.u8()?;
    if normalisation > 7 {
        return Err(bad("unknown normalisation flags"));
    }
    let correct = normalisation & 1 != 0;
    let fold_diacritics = (normalisation & 2 != 0).then_some(true);
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
    // Written before SimHash's k was recorded always: at the default of then.
    let k = k.or((method == DedupMethod::SimHash).then_some(LEGACY_SIMHASH_K));
    let blocks = if boolean(r)? { Some(r.u32()?) } else { None };
    let weights = if boolean(r)? {
        Some(match r.u8()? {
            0 => Weights::Tf,
            1 => Weights::Binary,
            2 => Weights::Tfidf,
            _ => return Err(bad("unknown weights")),
        })
    } else {
        None
    };
    let spec = ShingleSpec { shingling, correct };
    let c = DedupConfig {
        method,
        shingle: (spec != ShingleSpec::plain(DEFAULT_SHINGLE)).then_some(spec),
        threshold: (threshold.to_bits() != DEFAULT_THRESHOLD.to_bits()).then_some(threshold),
        seed: (seed != crate::hash::DEFAULT_SEED).then_some(seed),
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
        fold_diacritics,
        unmask: None,
        // In the value's header (`Writer::with_spec`), not in its payload.
        spec: None,
    };
    // Version 2 is the default of new configurations: a value records the
    // version it was made under (1 for every value written before), kept
    // as given so that it reads back at it.
    let c = match c.applies("spec").is_ok() {
        true => c.spec(r.spec()),
        false => c,
    };
    // Unmasked is the default: a value written without it (before the
    // option, or with it off) records `false`.
    let c = match normalisation & 4 == 0 && c.applies("unmask").is_ok() {
        true => c.unmask(Some(false)),
        false => c,
    };
    // The ranges only: a configuration written before the core refused an
    // option its method ignores (a seed of unverified multiref) still reads.
    c.check_values()
        .map_err(|e| corrupt(what, format!("its configuration: {e}")))?;
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn refused(c: DedupConfig) -> &'static str {
        match c.check().unwrap_err().kind() {
            ErrorKind::InvalidOption { option, .. } => option,
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn options_of_another_method_are_refused_by_name() {
        let d = DedupConfig::default();
        assert_eq!(refused(d.k(3)), "k");
        assert_eq!(refused(d.weights(Weights::Binary)), "weights");
        let s = d.method(DedupMethod::SimHash);
        assert_eq!(refused(s.num_perm(64)), "num_perm");
        assert_eq!(refused(s.candidates(true)), "candidates");
        let e = d.method(DedupMethod::Exact);
        assert_eq!(refused(e.verify(true)), "verify");
        assert_eq!(refused(e.blocks(5)), "blocks");
        let m = d.method(DedupMethod::MultiRef);
        assert_eq!(refused(m.shingle(Shingling::Words(3))), "shingle");
        assert_eq!(refused(m.threshold(0.7)), "threshold");
        assert_eq!(refused(m.seed(7)), "seed");
        assert_eq!(refused(m.spec(Spec::V2)), "spec");
        assert_eq!(refused(m.weights(Weights::Tf)), "weights");
        assert_eq!(refused(s.verify(false).threshold(0.6)), "threshold");
        s.verify(true).threshold(0.6).check().unwrap();
        // With verify they apply: shingles and threshold serve its Jaccard.
        m.verify(true)
            .shingle(Shingling::Words(3))
            .threshold(0.7)
            .seed(7)
            .spec(Spec::V2)
            .check()
            .unwrap();
    }

    /// Version 1 leaves a configuration's identity as it was before
    /// versions existed (stored sketches keep matching: the number is the
    /// default configuration's identity as every value stored before
    /// version 2 records it); version 2, now the default of a new
    /// configuration (issue 50), changes it, so that the sketches of the
    /// two never meet. Multiref without verify hashes no shingles: no
    /// version, its identity unchanged.
    #[test]
    fn spec_2_is_the_default_and_changes_the_identity_and_1_does_not() {
        let d = DedupConfig::default();
        let id = |c: DedupConfig| c.identity(0, 0);
        assert_eq!(id(d.spec(Spec::V1)), 15_857_222_115_131_835_303);
        assert_eq!(id(d), id(d.spec(Spec::V2)));
        assert_ne!(id(d), id(d.spec(Spec::V1)));
        assert_eq!(d.hash_spec(), Spec::V2);
        assert_eq!(d.with_defaults().spec, Some(Spec::V2));
        assert_eq!(d.spec(Spec::V1).with_defaults().spec, Some(Spec::V1));
        let unverified = DedupConfig::default().method(DedupMethod::MultiRef);
        assert_eq!(unverified.hash_spec(), Spec::V1);
        assert_eq!(unverified.with_defaults().spec, None);
    }

    #[test]
    fn ranges_name_the_option_that_is_wrong() {
        let d = DedupConfig::default();
        assert_eq!(refused(d.threshold(1.0)), "threshold");
        assert_eq!(refused(d.num_perm(0)), "num_perm");
        assert_eq!(refused(d.fn_weight(-1.0)), "fn_weight");
        assert_eq!(refused(d.fp_weight(f64::NAN)), "fp_weight");
        assert_eq!(refused(d.bands(4)), "rows");
        assert_eq!(refused(d.rows(4)), "bands");
        assert_eq!(refused(d.candidates(true).verify(true)), "candidates");
        let s = d.method(DedupMethod::SimHash);
        assert_eq!(refused(s.k(17)), "k");
        assert_eq!(refused(s.k(3).blocks(3)), "blocks");
        assert_eq!(refused(d.shingle(Shingling::Custom)), "shingle");
    }

    #[test]
    fn defaults_filled_keep_the_identity_and_pass() {
        for m in DedupMethod::ALL {
            for verify in [None, Some(true), Some(false)] {
                let c = DedupConfig::default().method(m).verify(verify);
                if c.check().is_err() {
                    continue;
                }
                let f = c.with_defaults();
                f.check().unwrap();
                assert_eq!(c.identity(0, 0), f.identity(0, 0), "{m} {verify:?}");
            }
        }
        let f = DedupConfig::default().with_defaults();
        assert_eq!(f.num_perm, Some(128));
        assert_eq!(f.shingle, Some(ShingleSpec::plain(Shingling::Chars(5))));
        assert_eq!(f.k, None);
    }
}
