//! `neardup dedup`: near-duplicate pairs, clusters or the deduplicated
//! corpus of a collection, by MinHash LSH, SimHash (verified), or exactly by
//! all-pairs Jaccard with prefix filtering; a summary, and precision/recall
//! against labelled pairs.
//!
//! The data path is the library's, one record at a time: text → `Document`
//! → shingles → sketch (signature or fingerprint) → index; then pairs →
//! clusters → what to keep. Only the sketches (and, to verify, the shingle
//! sets) stay in memory, never the texts.

use crate::input::{
    for_each_record, for_each_record_par, open, progress, write_atomic, Fields, ReadStats, Record,
};
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use neardup::index::clusters::UnionFind;
use neardup::index::exact;
use neardup::measures::classification::Prf;
use neardup::minhash::{LshConfig, LshParams, MinHashConfig, MinHashLsh, MinHashScheme, MinHasher};
use neardup::multiref::{similarity, Decision, MultiRefSignature, Projector};
use neardup::simhash::{
    fingerprint_weighted, Fingerprint, SimHashConfig, SimHashIndex, SimHashIndexConfig, Weighting,
};
use neardup::tfidf::DocumentFrequencies;
use neardup::{Document, NearDupIndex, Score, ShingleSet, Shingling};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// The defaults, chosen on docs-bench and its typo copies (EVALUATION.md,
/// "Choosing dedup's defaults").
pub mod defaults {
    use neardup::Shingling;
    /// Shingles for every method.
    pub const SHINGLE: Shingling = Shingling::Chars(5);
    /// Jaccard threshold of MinHash LSH, of SimHash's verification and of
    /// the exact join.
    pub const THRESHOLD: f64 = 0.5;
    /// SimHash: candidates within this Hamming distance are verified.
    pub const MAX_DISTANCE: u32 = 12;
    /// Multiref: candidates within this Hamming distance of the signatures'
    /// random-projection bits.
    pub const MULTIREF_DISTANCE: u32 = 8;
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum Method {
    /// MinHash signatures and LSH banding, candidates kept when their
    /// estimated Jaccard reaches the threshold.
    Minhash,
    /// SimHash fingerprints in the permuted-block Hamming index; candidates
    /// confirmed by their exact Jaccard.
    Simhash,
    /// Exact Jaccard of all pairs (prefix filtering): the ground truth, slow
    /// on large collections.
    Exact,
    /// Multireference cosine signatures (a trained reference text); their 64
    /// random-projection bits in the Hamming index find candidates, kept
    /// when the signatures' cosine reaches the reference's t2.
    Multiref,
}

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

    fn name(self) -> &'static str {
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

#[derive(Args)]
#[command(after_long_help = CHOOSING)]
pub struct DedupArgs {
    /// A JSONL file ({"id", "text"} per line; .gz and .zst are read too), a
    /// folder of .txt files (ids are the file names), or - for standard input.
    #[arg(required_unless_present = "explain")]
    input: Option<PathBuf>,
    /// How candidate pairs are found.
    #[arg(long, value_enum, default_value = "minhash")]
    method: Method,
    /// Jaccard resemblance threshold in (0, 1): of the LSH estimate, of
    /// SimHash's verification, of the exact join [0.5].
    #[arg(long)]
    threshold: Option<f64>,
    /// Shingles: char:Q (character q-grams), word:K (word k-shingles;
    /// word:1 = words), phonetic:K or phonetic:ALGO:K (word k-shingles of
    /// phonetic codes), or word:K+correct (word k-shingles after dictionary
    /// correction of misspelt words, with the built-in English dictionary or
    /// --dictionary) [char:5].
    #[arg(long)]
    shingle: Option<ShingleArg>,
    /// The dictionary of word:K+correct (written by `neardup spell
    /// --from-counts`; default: the built-in English one).
    #[arg(long, value_name = "FILE")]
    dictionary: Option<PathBuf>,
    /// Hash seed.
    #[arg(long, default_value_t = neardup::hash::DEFAULT_SEED)]
    seed: u64,
    #[command(flatten)]
    simhash: SimHashArgs,
    #[command(flatten)]
    minhash: MinHashArgs,
    #[command(flatten)]
    fields: InputArgs,
    /// MinHash: keep every LSH candidate pair, without the estimate filter.
    #[arg(long, conflicts_with_all = ["verify", "no_verify"])]
    candidates: bool,
    /// Confirm each candidate pair by its exact Jaccard (on by default for
    /// SimHash; keeps every document's shingle set in memory).
    #[arg(long, conflicts_with = "no_verify")]
    verify: bool,
    /// SimHash: keep candidates by Hamming distance alone, unverified.
    #[arg(long)]
    no_verify: bool,
    /// Write clusters ({"cluster": [ids]}) instead of pairs.
    #[arg(long, group = "output_kind")]
    clusters: bool,
    /// Write the deduplicated corpus: every input line but the duplicates,
    /// keeping the first document (in input order) of each cluster.
    #[arg(long, group = "output_kind")]
    keep: bool,
    /// Write the ids of the documents `--keep` would drop, one per line.
    #[arg(long, group = "output_kind")]
    drop_list: bool,
    /// Multiref: a reference JSON from `neardup multiref train` [built in].
    #[arg(long)]
    reference: Option<PathBuf>,
    /// Print the bands, rows and S-curve of the MinHash LSH settings, and exit.
    #[arg(long)]
    explain: bool,
    /// Labelled pairs (TSV with a header; id_a, id_b, and optionally an
    /// edit_rate column): report precision, recall, F1 and recall per edit
    /// rate of the pairs found.
    #[arg(long)]
    truth: Option<PathBuf>,
    /// Write the summary (and the --truth figures) as JSON to this file.
    #[arg(long)]
    summary: Option<PathBuf>,
    /// Write the output here (atomically) instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
}

/// How to choose, shown by `neardup dedup --help`.
const CHOOSING: &str = "\
How to choose (F1 over pairs on docs-bench, 5,075 documents with 543 copies
edited at 1-15 %, and on its typo copies with up to 20 % of words misspelled;
CPU for 34 MB on one core (dedup uses every core); EVALUATION.md has the
whole sweep):

  setting                               docs-bench  typos  CPU    memory
  (default) minhash, char:5, t 0.5      0.995       0.998  0.7 s  1.7 KB a document
  --method simhash (char:5, k 12,       0.998       0.996  2.7 s  + every shingle set
    verified by exact Jaccard >= 0.5)                              (8 B a character)
  --shingle word:5                      0.771       0.625  0.4 s  finds only light edits
  --method simhash --no-verify -k 3     0.775       0.699  0.8 s  smallest
  --method exact                        1.000 by definition; minutes on 5,000 documents";

/// A pair found: document indices, and the measures known of it.
struct Found {
    i: usize,
    j: usize,
    jaccard: Option<f64>,
    exact: Option<f64>,
    distance: Option<u32>,
    estimate: Option<(f64, Decision)>,
}

#[derive(Serialize)]
struct PairOut<'a> {
    a: &'a str,
    b: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    jaccard: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exact: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    distance: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    estimate: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    decision: Option<Decision>,
}

/// What a run did, on standard error and with `--summary` as JSON.
#[derive(Serialize)]
struct Summary {
    method: String,
    shingle: String,
    threshold: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_distance: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    weights: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    num_perm: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    scheme: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bands: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rows: Option<Vec<u32>>,
    documents: usize,
    bad_lines: usize,
    pairs: usize,
    clusters: usize,
    /// Documents `--keep` drops: members of a cluster but its first.
    duplicates: usize,
    removed_percent: f64,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    truth: Option<TruthSummary>,
}

#[derive(Serialize)]
struct TruthSummary {
    true_pairs: usize,
    true_positives: usize,
    #[serde(flatten)]
    quality: Prf,
    recall_by_edit_rate: BTreeMap<String, (usize, usize, f64)>,
}

fn explain(params: &LshParams) -> io::Result<()> {
    let mut out = io::stdout().lock();
    let (fp, fneg) = params.error_masses();
    writeln!(
        out,
        "threshold {}  numPerm {}  bands {}  rows {:?}  (values used {})",
        params.threshold(),
        params.num_perm(),
        params.bands(),
        params.rows(),
        params.values_used()
    )?;
    writeln!(
        out,
        "false-positive mass {fp:.4}  false-negative mass {fneg:.4}"
    )?;
    writeln!(out, "resemblance  P(candidate)")?;
    for i in 0..=20 {
        let s = i as f64 / 20.0;
        let p = params.probability(s);
        let bar = "#".repeat((p * 50.0).round() as usize);
        writeln!(out, "{s:>10.2}  {p:.4}  {bar}")?;
    }
    Ok(())
}

/// What the worker threads make of one document, for the method at hand.
enum Sketch {
    None,
    MinHash(neardup::minhash::Signature),
    SimHash(Fingerprint),
    /// The shingles of a document, for tf-idf weights (two passes).
    Features(Arc<[u64]>),
    MultiRef(MultiRefSignature, Fingerprint),
}

/// The method's own settings, for the summary.
#[derive(Default)]
struct Extra {
    max_distance: Option<u32>,
    weights: Option<String>,
    num_perm: Option<u32>,
    scheme: Option<String>,
    bands: Option<usize>,
    rows: Option<Vec<u32>>,
}

/// The settings of a run, resolved and checked once.
struct Settings {
    method: Method,
    shingle: Shingling,
    /// `word:K+correct`: texts are corrected with this dictionary first.
    dictionary: Option<neardup::spell::Dictionary>,
    threshold: f64,
    seed: u64,
    verify: bool,
}

impl DedupArgs {
    /// Resolves the defaults of the method and refuses options that do not
    /// apply to it.
    fn settings(&self) -> Result<Settings> {
        let refuse = |given: bool, what: &str| -> Result<()> {
            if given {
                bail!(
                    "{what} does not apply to --method {}",
                    format!("{:?}", self.method).to_lowercase()
                );
            }
            Ok(())
        };
        if self.method != Method::Multiref {
            refuse(self.reference.is_some(), "--reference")?;
        }
        match self.method {
            Method::Minhash => {
                refuse(
                    self.simhash.any(),
                    "-k/--blocks/--weights (SimHash options)",
                )?;
                refuse(self.no_verify, "--no-verify")?;
            }
            Method::Simhash => {
                refuse(
                    self.minhash.any(),
                    "--num-perm/--bands/--fp-weight/--fn-weight (MinHash options)",
                )?;
                refuse(self.candidates, "--candidates")?;
            }
            Method::Multiref => {
                refuse(
                    self.minhash.any(),
                    "--num-perm/--bands/--fp-weight/--fn-weight (MinHash options)",
                )?;
                refuse(self.simhash.weights.is_some(), "--weights")?;
                refuse(
                    self.candidates || self.no_verify,
                    "--candidates/--no-verify",
                )?;
            }
            Method::Exact => {
                refuse(
                    self.simhash.any(),
                    "-k/--blocks/--weights (SimHash options)",
                )?;
                refuse(
                    self.minhash.any(),
                    "--num-perm/--bands/--fp-weight/--fn-weight (MinHash options)",
                )?;
                refuse(
                    self.candidates || self.verify || self.no_verify,
                    "--candidates/--verify/--no-verify",
                )?;
            }
        }
        let ShingleArg { shingle, correct } = self.shingle.unwrap_or(ShingleArg {
            shingle: defaults::SHINGLE,
            correct: false,
        });
        shingle.check().map_err(crate::core)?;
        if self.dictionary.is_some() && !correct {
            bail!("--dictionary applies to --shingle word:K+correct only");
        }
        let dictionary = match correct {
            true => Some(crate::spell::load(self.dictionary.as_ref())?),
            false => None,
        };
        if shingle == Shingling::Custom {
            bail!("invalid option --shingle: must be word:K or char:Q");
        }
        let threshold = self.threshold.unwrap_or(defaults::THRESHOLD);
        if !(threshold > 0.0 && threshold < 1.0) {
            bail!("invalid option --threshold: must be in (0, 1), got {threshold}");
        }
        let verify = match self.method {
            Method::Simhash => !self.no_verify,
            _ => self.verify,
        };
        Ok(Settings {
            method: self.method,
            shingle,
            dictionary,
            threshold,
            seed: self.seed,
            verify,
        })
    }
}

/// A `--shingle` value: a shingling, and whether words are corrected first
/// (`word:K+correct`, seed 003's dictionary correction).
#[derive(Clone, Copy, Debug)]
pub struct ShingleArg {
    shingle: Shingling,
    correct: bool,
}

impl std::str::FromStr for ShingleArg {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (spec, correct) = match s.strip_suffix("+correct") {
            Some(spec) => (spec, true),
            None => (s, false),
        };
        let shingle: Shingling = spec.parse().map_err(|e: neardup::Error| e.to_string())?;
        if correct && !matches!(shingle, Shingling::Words(_)) {
            return Err(format!("+correct applies to word:K shingles, got {s:?}"));
        }
        Ok(ShingleArg { shingle, correct })
    }
}

pub fn run(args: DedupArgs) -> Result<ExitCode> {
    let started = std::time::Instant::now();
    if args.explain {
        let t = args.threshold.unwrap_or(defaults::THRESHOLD);
        let params = args.minhash.lsh_config(t).params().map_err(crate::core)?;
        explain(&params)?;
        return Ok(ExitCode::SUCCESS);
    }
    let s = args.settings()?;
    let input = args.input.as_deref().context("an input is needed")?;
    // --keep reads the input twice: standard input is kept in a temporary
    // file for the second pass.
    let spooled = match (args.keep, input == Path::new("-")) {
        (true, true) => Some(spool_stdin()?),
        _ => None,
    };
    let input = spooled.as_ref().map_or(input, |t| t.path());
    let fields = args.fields.fields();

    let mut ids: Vec<String> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    let mut sets: Vec<Arc<ShingleSet>> = Vec::new();
    let pb = progress(0, "documents");
    // Documents are normalised and sketched on every core (`work`, which
    // returns the document's sketch and, when needed, its shingle set); the
    // index takes them in input order (`sink`), so the output does not
    // depend on the number of threads.
    let keep_sets = s.verify || s.method == Method::Exact;
    let document = |r: &Record| match &s.dictionary {
        Some(d) => Document::new(&d.correct_text(&r.text), s.seed),
        None => Document::new(&r.text, s.seed),
    };
    let mut read = |work: &(dyn Fn(&Document) -> Result<Sketch> + Sync),
                    sink: &mut dyn FnMut(&Record, Sketch) -> Result<()>|
     -> Result<ReadStats> {
        for_each_record_par(
            input,
            &fields,
            |r| {
                let doc = document(r);
                let sketch = work(&doc)?;
                Ok((sketch, keep_sets.then(|| doc.shingle_set(s.shingle))))
            },
            |r, (sketch, set)| {
                sink(&r, sketch)?;
                sets.extend(set);
                ids.push(r.id);
                lines.push(r.line);
                pb.inc(1);
                Ok(())
            },
        )
    };
    let mut extra = Extra::default();
    let (found, stats) = match s.method {
        Method::Minhash => {
            let config = args.minhash.lsh_config(s.threshold);
            let params = config.params().map_err(crate::core)?;
            extra.num_perm = Some(config.num_perm);
            extra.bands = Some(params.bands());
            extra.rows = Some(params.rows().to_vec());
            let hasher = MinHasher::new(&args.minhash.minhash_config(&config, s.seed, s.shingle))
                .map_err(crate::core)?;
            extra.scheme = Some(hasher.scheme().to_string());
            let mut lsh = MinHashLsh::with_params(params, 0);
            let stats = read(
                &|doc| {
                    Ok(Sketch::MinHash(
                        hasher.signature_of(doc).map_err(crate::core)?,
                    ))
                },
                &mut |r, sketch| match sketch {
                    Sketch::MinHash(sig) => lsh.insert(&r.id, sig).map_err(crate::core),
                    _ => unreachable!("MinHash sketches only"),
                },
            )?;
            pb.finish_and_clear();
            let filter = (!args.candidates && !s.verify).then_some(s.threshold);
            let index_of = indices(&ids);
            let found: Vec<Found> = lsh
                .all_pairs_with(filter)
                .into_iter()
                .map(|p| Found {
                    i: index_of[p.a],
                    j: index_of[p.b],
                    jaccard: Some(p.score.similarity()),
                    exact: None,
                    distance: None,
                    estimate: None,
                })
                .collect();
            (found, stats)
        }
        Method::Simhash => {
            let weights = args.simhash.weights();
            let index_config = args.simhash.index_config(defaults::MAX_DISTANCE);
            extra.max_distance = Some(index_config.max_k);
            extra.weights = Some(weights.name().to_string());
            let mut index = SimHashIndex::new(&index_config).map_err(crate::core)?;
            let config = SimHashConfig {
                shingle: s.shingle,
                weights: weights.weighting(),
                seed: s.seed,
            };
            let mut fps: Vec<Fingerprint> = Vec::new();
            let mut features: Vec<Arc<[u64]>> = Vec::new();
            let stats = read(
                &|doc| {
                    Ok(if weights == Weights::Tfidf {
                        Sketch::Features(doc.shingles(s.shingle))
                    } else {
                        Sketch::SimHash(config.fingerprint_of(doc).map_err(crate::core)?)
                    })
                },
                &mut |_, sketch| {
                    match sketch {
                        Sketch::Features(f) => features.push(f),
                        Sketch::SimHash(fp) => fps.push(fp),
                        _ => unreachable!("SimHash sketches only"),
                    }
                    Ok(())
                },
            )?;
            pb.finish_and_clear();
            if weights == Weights::Tfidf {
                // Two passes: document frequencies, then tf-idf fingerprints.
                let mut df = DocumentFrequencies::new();
                for f in &features {
                    df.add_document(f);
                }
                for f in features.drain(..) {
                    let v = fingerprint_weighted(&df.tfidf(&f)).map_err(crate::core)?;
                    fps.push(Fingerprint::from_value(v));
                }
            }
            index
                .insert_many(ids.iter().map(String::as_str).zip(fps))
                .map_err(crate::core)?;
            let index_of = indices(&ids);
            let found: Vec<Found> = index
                .all_pairs()
                .into_iter()
                .map(|p| Found {
                    i: index_of[p.a],
                    j: index_of[p.b],
                    jaccard: None,
                    exact: None,
                    distance: match p.score {
                        Score::Hamming(d) => Some(d),
                        Score::Jaccard(_) => None,
                    },
                    estimate: None,
                })
                .collect();
            (found, stats)
        }
        Method::Multiref => {
            let (file, reference) = crate::multiref::load_reference(args.reference.as_deref())?;
            let projector = Projector::new(&reference);
            let index_config = args.simhash.index_config(defaults::MULTIREF_DISTANCE);
            extra.max_distance = Some(index_config.max_k);
            let mut index = SimHashIndex::new(&index_config).map_err(crate::core)?;
            let mut sigs: Vec<MultiRefSignature> = Vec::new();
            let mut bits: Vec<Fingerprint> = Vec::new();
            let stats = read(
                &|doc| {
                    let sig = reference.signature_of(doc);
                    let fp = Fingerprint::from_value(projector.bits(&sig).map_err(crate::core)?);
                    Ok(Sketch::MultiRef(sig, fp))
                },
                &mut |_, sketch| {
                    let Sketch::MultiRef(sig, fp) = sketch else {
                        unreachable!("multireference sketches only")
                    };
                    bits.push(fp);
                    sigs.push(sig);
                    Ok(())
                },
            )?;
            pb.finish_and_clear();
            index
                .insert_many(ids.iter().map(String::as_str).zip(bits))
                .map_err(crate::core)?;
            let index_of = indices(&ids);
            let t = file.thresholds;
            let mut found = Vec::new();
            for p in index.all_pairs() {
                let (i, j) = (index_of[p.a], index_of[p.b]);
                let e = similarity(&sigs[i], &sigs[j]).map_err(crate::core)?;
                let decision = t.decide(e);
                if decision == Decision::Different {
                    continue;
                }
                found.push(Found {
                    i,
                    j,
                    jaccard: None,
                    exact: None,
                    distance: match p.score {
                        Score::Hamming(d) => Some(d),
                        Score::Jaccard(_) => None,
                    },
                    estimate: Some((e, decision)),
                });
            }
            (found, stats)
        }
        Method::Exact => {
            let stats = read(&|_| Ok(Sketch::None), &mut |_, _| Ok(()))?;
            pb.finish_and_clear();
            let total: usize = sets.iter().map(|s| s.len()).sum();
            if sets.len() > 2_000 && total > 5_000_000 {
                eprintln!(
                    "neardup: note: the exact join of {} documents ({total} shingles) may take minutes; --method minhash finds nearly the same pairs",
                    sets.len()
                );
            }
            let owned: Vec<ShingleSet> = sets.drain(..).map(|s| (*s).clone()).collect();
            let pb = progress(owned.len(), "exact join");
            let found = exact::all_pairs_with_progress(&owned, s.threshold, &mut |n| {
                pb.set_position(n as u64)
            });
            pb.finish_and_clear();
            let found = found
                .into_iter()
                .map(|(i, j, jac)| Found {
                    i: i as usize,
                    j: j as usize,
                    jaccard: None,
                    exact: Some(jac),
                    distance: None,
                    estimate: None,
                })
                .collect();
            (found, stats)
        }
    };
    // Verification by the exact Jaccard of the shingle sets.
    let found: Vec<Found> = if s.verify && s.method != Method::Exact {
        found
            .into_iter()
            .filter_map(|mut f| {
                let e = sets[f.i].counts(&sets[f.j]).resemblance();
                f.exact = Some(e);
                (e >= s.threshold).then_some(f)
            })
            .collect()
    } else {
        found
    };

    // Clusters, and the first document of each (in input order) is kept.
    let mut uf = UnionFind::new(ids.len());
    for f in &found {
        uf.union(f.i as u32, f.j as u32);
    }
    let clusters = uf.clusters();
    let dropped: Vec<usize> = clusters
        .iter()
        .flat_map(|c| c[1..].iter().map(|&i| i as usize))
        .collect();
    write_output(
        &args, input, &fields, &ids, &lines, &found, &clusters, &dropped,
    )?;

    let seconds = started.elapsed().as_secs_f64();
    let truth = match &args.truth {
        Some(t) => Some(evaluate(t, &ids, &found)?),
        None => None,
    };
    let summary = Summary {
        method: match (s.method, s.verify, args.candidates) {
            (Method::Simhash, true, _) => "simhash+exact".into(),
            (Method::Simhash, false, _) => "simhash".into(),
            (Method::Minhash, true, _) => "minhash-lsh+exact".into(),
            (Method::Minhash, _, true) => "minhash-lsh-candidates".into(),
            (Method::Minhash, _, _) => "minhash-lsh+estimate".into(),
            (Method::Exact, _, _) => "exact".into(),
            (Method::Multiref, true, _) => "multiref+exact".into(),
            (Method::Multiref, false, _) => "multiref".into(),
        },
        shingle: match s.dictionary {
            Some(_) => format!("{}+correct", s.shingle),
            None => s.shingle.to_string(),
        },
        threshold: s.threshold,
        max_distance: extra.max_distance,
        weights: extra.weights,
        num_perm: extra.num_perm,
        scheme: extra.scheme,
        bands: extra.bands,
        rows: extra.rows,
        documents: stats.documents,
        bad_lines: stats.bad_lines,
        pairs: found.len(),
        clusters: clusters.len(),
        duplicates: dropped.len(),
        removed_percent: if ids.is_empty() {
            0.0
        } else {
            100.0 * dropped.len() as f64 / ids.len() as f64
        },
        seconds,
        truth,
    };
    eprintln!(
        "neardup: {} documents ({} bad lines skipped), {} pairs, {} clusters, {} duplicates ({:.1} %) in {:.1} s",
        summary.documents,
        summary.bad_lines,
        summary.pairs,
        summary.clusters,
        summary.duplicates,
        summary.removed_percent,
        summary.seconds
    );
    if let Some(t) = &summary.truth {
        eprintln!(
            "neardup: {} true pairs: precision {:.3}, recall {:.3}, F1 {:.3}",
            t.true_pairs, t.quality.precision, t.quality.recall, t.quality.f1
        );
        for (rate, (tp, n, r)) in &t.recall_by_edit_rate {
            eprintln!("  edit rate {rate}: recall {r:.3} ({tp} of {n})");
        }
    }
    if let Some(path) = &args.summary {
        let json = serde_json::to_string_pretty(&summary)? + "\n";
        write_atomic(path, |w| w.write_all(json.as_bytes()))?;
    }
    Ok(if stats.bad_lines > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Standard input copied to a temporary file, removed when dropped.
struct Spool(PathBuf);

impl Spool {
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn spool_stdin() -> Result<Spool> {
    let path = std::env::temp_dir().join(format!("neardup-stdin-{}.jsonl", std::process::id()));
    let spool = Spool(path);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(spool.path())
        .context("cannot create a temporary file")?;
    io::copy(&mut io::stdin().lock(), &mut f).context("cannot read standard input")?;
    Ok(spool)
}

fn indices(ids: &[String]) -> HashMap<&str, usize> {
    ids.iter()
        .enumerate()
        .map(|(i, d)| (d.as_str(), i))
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn write_output(
    args: &DedupArgs,
    input: &Path,
    fields: &Fields,
    ids: &[String],
    lines: &[usize],
    found: &[Found],
    clusters: &[Vec<u32>],
    dropped: &[usize],
) -> Result<()> {
    let write = |out: &mut dyn Write| -> io::Result<()> {
        if args.clusters {
            for c in clusters {
                let members: Vec<&str> = c.iter().map(|&i| ids[i as usize].as_str()).collect();
                writeln!(out, "{}", serde_json::json!({ "cluster": members }))?;
            }
        } else if args.drop_list {
            for &i in dropped {
                writeln!(out, "{}", ids[i])?;
            }
        } else if args.keep {
            keep_lines(out, input, fields, ids, lines, dropped)?;
        } else {
            for f in found {
                let p = PairOut {
                    a: &ids[f.i],
                    b: &ids[f.j],
                    jaccard: f.jaccard,
                    exact: f.exact,
                    distance: f.distance,
                    estimate: f.estimate.map(|e| e.0),
                    decision: f.estimate.map(|e| e.1),
                };
                writeln!(
                    out,
                    "{}",
                    serde_json::to_string(&p).map_err(io::Error::other)?
                )?;
            }
        }
        Ok(())
    };
    match &args.output {
        Some(p) => write_atomic(p, write),
        None => {
            let mut out = io::BufWriter::new(io::stdout().lock());
            write(&mut out)?;
            out.flush()?;
            Ok(())
        }
    }
}

/// The deduplicated corpus: every record of the input but the dropped ones,
/// as the input lines themselves (JSONL), or as {"id", "text"} lines (a
/// folder).
fn keep_lines(
    out: &mut dyn Write,
    input: &Path,
    fields: &Fields,
    ids: &[String],
    lines: &[usize],
    dropped: &[usize],
) -> io::Result<()> {
    let drop: HashSet<usize> = dropped.iter().map(|&i| lines[i]).collect();
    let kept: HashSet<usize> = lines
        .iter()
        .copied()
        .filter(|l| !drop.contains(l))
        .collect();
    if input.is_dir() {
        let keep_ids: HashSet<&str> = (0..ids.len())
            .filter(|i| kept.contains(&lines[*i]))
            .map(|i| ids[i].as_str())
            .collect();
        for_each_record(input, fields, |r| {
            if keep_ids.contains(r.id.as_str()) {
                writeln!(out, "{}", serde_json::json!({"id": r.id, "text": r.text}))?;
            }
            Ok(())
        })
        .map_err(io::Error::other)?;
        return Ok(());
    }
    let reader = open(input).map_err(io::Error::other)?;
    for (i, line) in reader.split(b'\n').enumerate() {
        let line = line?;
        if kept.contains(&(i + 1)) {
            out.write_all(&line)?;
            out.write_all(b"\n")?;
        }
    }
    Ok(())
}

fn evaluate(truth: &Path, ids: &[String], found: &[Found]) -> Result<TruthSummary> {
    let key = |a: &str, b: &str| {
        if a <= b {
            (a.to_string(), b.to_string())
        } else {
            (b.to_string(), a.to_string())
        }
    };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .flexible(true)
        .from_path(truth)
        .with_context(|| format!("cannot read {}", truth.display()))?;
    let rate_col = reader
        .headers()
        .with_context(|| truth.display().to_string())?
        .iter()
        .position(|h| h == "edit_rate");
    let mut truth_pairs: HashMap<(String, String), String> = HashMap::new();
    for (i, record) in reader.records().enumerate() {
        let r = record.with_context(|| truth.display().to_string())?;
        let (Some(a), Some(b)) = (r.get(0), r.get(1)) else {
            bail!(
                "{}: line {}: expected id_a<TAB>id_b",
                truth.display(),
                i + 2
            );
        };
        let rate = rate_col.and_then(|c| r.get(c)).unwrap_or("all").to_string();
        truth_pairs.insert(key(a, b), rate);
    }
    let found_keys: HashSet<(String, String)> =
        found.iter().map(|f| key(&ids[f.i], &ids[f.j])).collect();
    let tp = found_keys
        .iter()
        .filter(|k| truth_pairs.contains_key(*k))
        .count();
    let quality = Prf::from_counts(tp, found_keys.len() - tp, truth_pairs.len() - tp);
    let mut by_rate: BTreeMap<String, (usize, usize, f64)> = BTreeMap::new();
    for (k, rate) in &truth_pairs {
        let e = by_rate.entry(rate.clone()).or_insert((0, 0, 0.0));
        e.1 += 1;
        if found_keys.contains(k) {
            e.0 += 1;
        }
    }
    for v in by_rate.values_mut() {
        v.2 = v.0 as f64 / v.1 as f64;
    }
    Ok(TruthSummary {
        true_pairs: truth_pairs.len(),
        true_positives: tp,
        quality,
        recall_by_edit_rate: by_rate,
    })
}
