//! Options shared by subcommands: the dedup pipeline's options (`dedup` and
//! `index build`), the comparison's (`compare` and `eval`), the phonetic
//! encoders' names, and how a collection is read.
//!
//! The dedup options are the core's `DedupConfig` fields with their names
//! as flags (`num_perm` ↔ `--num-perm`; `k` ↔ `-k`): this file maps names
//! only. Every default, range and rule between options is the core's
//! (`DedupConfig::check`), and its errors name the flag (exit status 2).

use crate::input::Fields;
use anyhow::Result;
use clap::{Args, ValueEnum};
use neardup::dedup::{DedupConfig, DedupMethod, MultiRefModel, Stages, Weights};
use neardup::minhash::MinHashScheme;
use neardup::phonetic::Algorithm;
use neardup::shingle::ShingleSpec;
use neardup::CompareConfig;
use std::path::PathBuf;
use std::sync::Arc;

/// The options of the core's dedup pipeline.
#[derive(Args)]
pub struct DedupOptions {
    /// How candidate pairs are found: minhash (MinHash LSH), simhash
    /// (exact Hamming index by multi-index hashing), exact (all-pairs Jaccard by prefix
    /// filtering: the ground truth, slow) or multiref (multireference
    /// signatures) [minhash].
    #[arg(long, value_name = "METHOD")]
    pub method: Option<String>,
    /// Jaccard resemblance threshold in (0, 1): of the LSH estimate, of
    /// the exact Jaccard of --verify, of the exact join [0.5].
    #[arg(long)]
    pub threshold: Option<f64>,
    /// Shingles: char:Q (character q-grams), word:K (word k-shingles;
    /// word:1 = words), phonetic:K or phonetic:ALGO:K (word k-shingles of
    /// phonetic codes), or word:K+correct (word k-shingles after dictionary
    /// correction of misspelt words, with the built-in English dictionary or
    /// --dictionary) [char:5].
    #[arg(long, value_name = "SPEC")]
    pub shingle: Option<String>,
    /// The dictionary of word:K+correct (written by `neardup spell
    /// --from-counts`; default: the built-in English one).
    #[arg(long, value_name = "FILE")]
    pub dictionary: Option<PathBuf>,
    /// Hash seed [0].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Confirm each candidate pair by its exact Jaccard (the default of
    /// simhash; keeps each document's text in memory, and the shingle set
    /// of each one met as a candidate).
    #[arg(long, conflicts_with = "no_verify")]
    pub verify: bool,
    /// Keep candidates without the exact Jaccard (simhash: by Hamming
    /// distance alone).
    #[arg(long)]
    pub no_verify: bool,
    /// MinHash: values per signature (1..=4096) [128].
    #[arg(long)]
    pub num_perm: Option<u32>,
    /// MinHash: how values are made: oph (one hash per shingle, optimal
    /// densification) or classic (num-perm hashes per shingle) [oph].
    #[arg(long)]
    pub scheme: Option<String>,
    /// MinHash: explicit bands (with --rows) instead of the advisor's choice.
    #[arg(long)]
    pub bands: Option<u32>,
    /// MinHash: rows per band (with --bands).
    #[arg(long)]
    pub rows: Option<u32>,
    /// MinHash: the band advisor's weight of false positives [0.5].
    #[arg(long, allow_negative_numbers = true)]
    pub fp_weight: Option<f64>,
    /// MinHash: the band advisor's weight of false negatives [0.5].
    #[arg(long, allow_negative_numbers = true)]
    pub fn_weight: Option<f64>,
    /// MinHash: keep every LSH candidate pair, without the estimate filter.
    #[arg(long)]
    pub candidates: bool,
    /// SimHash and multiref: largest Hamming distance of a candidate pair
    /// (0..=16) [simhash 10, multiref 8].
    #[arg(short = 'k', long = "max-distance")]
    pub k: Option<u32>,
    /// Multiref: blocks of its permuted-block index; SimHash: of the bucket
    /// keys that Spark, Ray and the edge use (the search here is
    /// multi-index hashing either way, with the same pairs) [k + 2].
    #[arg(long)]
    pub blocks: Option<u32>,
    /// SimHash: shingle weights: tf, binary, or tfidf (document
    /// frequencies from the input itself: a first pass over it) [tf].
    #[arg(long)]
    pub weights: Option<String>,
    /// Multiref: a reference JSON from `neardup multiref train` [built in].
    #[arg(long, value_name = "FILE")]
    pub reference: Option<PathBuf>,
    /// Fold diacritics before shingling (é as e, ä/ö/ü as ae/oe/ue;
    /// SPEC.md §1) [off].
    #[arg(long)]
    pub fold_diacritics: bool,
    /// Keep invisible characters and look-alike letters of other scripts
    /// as they are (by default they are undone: zero-width spaces, soft
    /// hyphens and joiners removed, Cyrillic а for Latin a read as a;
    /// SPEC.md §1 step 0). An index keeps what it was built with.
    #[arg(long)]
    pub no_unmask: bool,
    /// The shingle hash specification (SPEC.md §3): 2 (XXH3-64 tokens,
    /// polynomial word shingles: faster) or 1 (the default before; not
    /// comparable with 2) [2; a snapshot read keeps its own].
    #[arg(long, value_name = "VERSION")]
    pub spec: Option<u64>,
}

impl DedupOptions {
    /// The core's configuration of these options (unchecked): names mapped,
    /// every value of a named kind (method, shingles, scheme, weights)
    /// parsed by the core.
    pub fn config(&self) -> Result<DedupConfig> {
        fn parse<T: std::str::FromStr<Err = neardup::Error>>(
            v: &Option<String>,
        ) -> Result<Option<T>> {
            v.as_deref()
                .map(|s| s.parse::<T>().map_err(crate::core))
                .transpose()
        }
        Ok(DedupConfig {
            method: parse::<DedupMethod>(&self.method)?.unwrap_or_default(),
            shingle: parse::<ShingleSpec>(&self.shingle)?,
            threshold: self.threshold,
            seed: self.seed,
            verify: (self.verify || self.no_verify).then_some(self.verify),
            num_perm: self.num_perm,
            scheme: parse::<MinHashScheme>(&self.scheme)?,
            bands: self.bands,
            rows: self.rows,
            fp_weight: self.fp_weight,
            fn_weight: self.fn_weight,
            candidates: self.candidates.then_some(true),
            k: self.k,
            blocks: self.blocks,
            weights: parse::<Weights>(&self.weights)?,
            fold_diacritics: self.fold_diacritics.then_some(true),
            unmask: self.no_unmask.then_some(false),
            spec: self
                .spec
                .map(neardup::hash::Spec::from_number)
                .transpose()
                .map_err(crate::core)?,
        })
    }

    /// The core's stages of these options, with the reference of multiref
    /// (built in unless given), the dictionary of `+correct` (built in
    /// unless given) and `--max-bytes`. The core checks everything: an
    /// option that does not apply or is out of range is a usage error
    /// naming its flag.
    pub fn stages(&self) -> Result<Stages> {
        let config = self.config()?;
        config.check().map_err(crate::core)?;
        for (given, option) in [
            (self.reference.is_some(), "reference"),
            (self.dictionary.is_some(), "dictionary"),
        ] {
            if given {
                config.check_option(option).map_err(crate::core)?;
            }
        }
        let stages = match config.needs().reference {
            true => {
                let (file, reference) = crate::input::load_reference(self.reference.as_deref())?;
                let model = MultiRefModel::new(reference, file.thresholds).map_err(crate::core)?;
                Stages::with_reference(&config, model)
            }
            false => Stages::new(&config),
        }
        .map_err(crate::core)?
        .with_max_bytes(crate::input::max_bytes() as u64);
        if !config.needs().dictionary {
            return Ok(stages);
        }
        let dictionary = Arc::new(crate::input::load_dictionary(self.dictionary.as_ref())?);
        stages.with_dictionary(dictionary).map_err(crate::core)
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

/// The options of `compare` (and of `eval`), with the core's defaults.
#[derive(Args, Clone, Copy)]
pub struct CompareOptions {
    /// Words per word shingle (1..=32).
    #[arg(long, default_value_t = CompareConfig::default().word_k)]
    word_k: u32,
    /// Characters per character q-gram (1..=32).
    #[arg(long, default_value_t = CompareConfig::default().char_q)]
    char_q: u32,
    /// Merge shared runs at most this many words apart (0..=64).
    #[arg(long, default_value_t = CompareConfig::default().span_gap)]
    span_gap: u32,
    /// Hash seed.
    #[arg(long, default_value_t = CompareConfig::default().seed)]
    seed: u64,
    /// Minimum match length in words of A (0..=1000): shorter shared
    /// passages are dropped, and the score and every passage-based figure
    /// count only the passages kept (the learned verdict still reads the
    /// full similarity vector).
    #[arg(long, default_value_t = CompareConfig::default().min_words)]
    min_words: u32,
    /// Tolerate misspellings: word shingles over the words' phonetic codes
    /// by this encoder; the misspelt words matched are listed.
    #[arg(long, value_enum)]
    phonetic: Option<AlgorithmArg>,
    /// Leave A's quotations out ("…", “…”, «…», across a line break but not
    /// a blank line): quoting with attribution is not copying.
    #[arg(long)]
    ignore_quotes: bool,
    /// Leave each text's trailing reference list out (from a "References",
    /// "Bibliography", "Works cited" … heading in its second half).
    #[arg(long)]
    ignore_references: bool,
    /// Fold diacritics (é as e, ñ as n, ä/ö/ü as ae/oe/ue; SPEC.md §1), so
    /// a text typed without accents, or German with ae/oe/ue, matches.
    #[arg(long)]
    fold_diacritics: bool,
    /// Keep invisible characters and look-alike letters of other scripts
    /// as they are (by default they are undone: zero-width spaces, soft
    /// hyphens and joiners removed, Cyrillic а for Latin a read as a;
    /// SPEC.md §1 step 0).
    #[arg(long)]
    no_unmask: bool,
}

impl CompareOptions {
    /// The checked configuration.
    pub fn config(&self) -> Result<CompareConfig> {
        let c = CompareConfig::default()
            .word_k(self.word_k)
            .char_q(self.char_q)
            .span_gap(self.span_gap)
            .seed(self.seed)
            .min_words(self.min_words)
            .phonetic(self.phonetic.map(Into::into))
            .ignore_quotes(self.ignore_quotes)
            .ignore_references(self.ignore_references)
            .fold_diacritics(self.fold_diacritics)
            .unmask(!self.no_unmask)
            .max_bytes(crate::input::max_bytes() as u64);
        c.check().map_err(crate::core)?;
        Ok(c)
    }
}

/// The encoders, as named on the command line.
#[derive(Clone, Copy, ValueEnum)]
pub enum AlgorithmArg {
    /// American Soundex (Knuth): a letter and three digits.
    Soundex,
    /// Phonex (Lait & Randell 1996).
    Phonex,
    /// DSound (Varol & Hari 2015): digits, zeros kept, any length.
    Dsound,
    /// SoundD: DSound without zeros, four digits.
    Soundd,
    /// Phonix (Gadd 1990): a letter and seven digits.
    Phonix,
    /// Double Metaphone (Philips 2000): primary and alternate codes.
    Metaphone,
}

impl From<AlgorithmArg> for Algorithm {
    fn from(a: AlgorithmArg) -> Algorithm {
        match a {
            AlgorithmArg::Soundex => Algorithm::Soundex,
            AlgorithmArg::Phonex => Algorithm::Phonex,
            AlgorithmArg::Dsound => Algorithm::DSound,
            AlgorithmArg::Soundd => Algorithm::SoundD,
            AlgorithmArg::Phonix => Algorithm::Phonix,
            AlgorithmArg::Metaphone => Algorithm::Metaphone,
        }
    }
}
