//! Options shared by `dedup`, `index` and `multiref`: how a collection is
//! read, and the MinHash and SimHash options.

use crate::input::Fields;
use clap::{Args, ValueEnum};
use neardup::minhash::{LshConfig, MinHashConfig, MinHashScheme};
use neardup::simhash::{SimHashIndexConfig, Weighting};
use neardup::Shingling;

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Weights {
    /// Term frequency: each occurrence of a feature counts.
    Tf,
    /// Each distinct feature counts once.
    Binary,
    /// Term frequency times smoothed idf, document frequencies from the
    /// input collection itself (dedup only: two passes over the features).
    Tfidf,
}

impl Weights {
    /// The core weighting (tf-idf fingerprints are made here, from custom
    /// weights).
    pub fn weighting(self) -> Weighting {
        match self {
            Weights::Tf => Weighting::Tf,
            Weights::Binary | Weights::Tfidf => Weighting::Binary,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Weights::Tf => "tf",
            Weights::Binary => "binary",
            Weights::Tfidf => "tfidf",
        }
    }
}

/// The SimHash options of `dedup` and `index build`.
#[derive(Args)]
pub struct SimHashArgs {
    /// SimHash: largest Hamming distance of a candidate pair, and of the
    /// index's exact queries (0..=16) [dedup: 12, index: 3].
    #[arg(short = 'k', long = "max-distance")]
    pub max_distance: Option<u32>,
    /// SimHash: blocks of the permuted-block index [k + 2].
    #[arg(long)]
    pub blocks: Option<u32>,
    /// SimHash: feature weights (an index takes tf or binary) [tf].
    #[arg(long, value_enum)]
    pub weights: Option<Weights>,
}

impl SimHashArgs {
    /// Whether any SimHash option was given.
    pub fn any(&self) -> bool {
        self.max_distance.is_some() || self.blocks.is_some() || self.weights.is_some()
    }

    /// The index configuration, with `max_k` when `-k` is not given.
    pub fn index_config(&self, max_k: u32) -> SimHashIndexConfig {
        SimHashIndexConfig {
            max_k: self.max_distance.unwrap_or(max_k),
            blocks: self.blocks,
        }
    }

    /// The weights, tf when not given.
    pub fn weights(&self) -> Weights {
        self.weights.unwrap_or(Weights::Tf)
    }
}

/// The MinHash options of `dedup` and `index build`.
#[derive(Args)]
pub struct MinHashArgs {
    /// MinHash: values per signature (1..=4096) [128].
    #[arg(long)]
    pub num_perm: Option<u32>,
    /// MinHash: explicit bands (with --rows) instead of the advisor's choice.
    #[arg(long, requires = "rows")]
    pub bands: Option<u32>,
    /// MinHash: rows per band (with --bands).
    #[arg(long, requires = "bands")]
    pub rows: Option<u32>,
    /// MinHash: the advisor's weight of false positives [0.5].
    #[arg(long)]
    pub fp_weight: Option<f64>,
    /// MinHash: the advisor's weight of false negatives [0.5].
    #[arg(long)]
    pub fn_weight: Option<f64>,
    /// MinHash: how values are made: oph (one hash per shingle, optimal
    /// densification) or classic (num-perm hashes per shingle) [oph].
    #[arg(long)]
    pub scheme: Option<MinHashScheme>,
}

impl MinHashArgs {
    /// Whether any MinHash option was given.
    pub fn any(&self) -> bool {
        self.num_perm.is_some()
            || self.bands.is_some()
            || self.fp_weight.is_some()
            || self.fn_weight.is_some()
            || self.scheme.is_some()
    }

    /// The signature configuration with `num_perm` from `lsh`.
    pub fn minhash_config(&self, lsh: &LshConfig, seed: u64, shingle: Shingling) -> MinHashConfig {
        MinHashConfig {
            num_perm: lsh.num_perm,
            seed,
            shingle,
            scheme: self.scheme.unwrap_or_default(),
        }
    }

    /// The LSH configuration at `threshold`.
    pub fn lsh_config(&self, threshold: f64) -> LshConfig {
        let d = LshConfig::default();
        LshConfig {
            threshold,
            num_perm: self.num_perm.unwrap_or(d.num_perm),
            fp_weight: self.fp_weight.unwrap_or(d.fp_weight),
            fn_weight: self.fn_weight.unwrap_or(d.fn_weight),
            bands: self.bands,
            rows: self.rows,
        }
    }
}

/// How to read a collection.
#[derive(Args)]
pub struct InputArgs {
    /// JSON field of a line's text (a dotted path, e.g. `meta.body`).
    #[arg(long, default_value = "text")]
    pub text_field: String,
    /// JSON field of a line's id (a dotted path); a line without it takes
    /// its line number.
    #[arg(long, default_value = "id")]
    pub id_field: String,
}

impl InputArgs {
    pub fn fields(&self) -> Fields {
        Fields {
            text: self.text_field.clone(),
            id: self.id_field.clone(),
        }
    }
}

/// A clap value parser for a number in [0, 1] (a similarity): NaN,
/// ±infinity and values outside are usage errors naming the range, the same
/// range as the JavaScript API's.
pub fn unit_interval(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("{s:?} is not a number"))?;
    if !(0.0..=1.0).contains(&v) {
        return Err(format!("{s} is not a number in [0, 1]"));
    }
    Ok(v)
}
