//! `neardup dedup`: near-duplicate pairs or clusters of a collection, by
//! MinHash LSH, SimHash, or exactly by all-pairs Jaccard with prefix
//! filtering; and precision/recall against labelled pairs.
//!
//! The data path is the library's: text → `Document` → shingles → sketch
//! (signature or fingerprint) → index → pairs.

use crate::input::{progress, read_docs, Doc};
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use neardup::index::exact;
use neardup::measures::classification::Prf;
use neardup::minhash::{LshConfig, LshParams, MinHashConfig, MinHashLsh, MinHasher};
use neardup::simhash::{
    fingerprint_weighted, Fingerprint, SimHashConfig, SimHashIndex, SimHashIndexConfig, Weighting,
};
use neardup::tfidf::DocumentFrequencies;
use neardup::{Document, NearDupIndex, Score, ShingleSet, Shingling};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Method {
    /// MinHash signatures and LSH banding (candidates, then filtered).
    Minhash,
    /// Exact Jaccard of all pairs (prefix filtering): the ground truth.
    Exact,
    /// SimHash fingerprints and the permuted-block Hamming index.
    Simhash,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Weights {
    /// Term frequency: each occurrence of a feature counts.
    Tf,
    /// Each distinct feature counts once.
    Binary,
    /// Term frequency times smoothed idf, document frequencies from the
    /// input collection itself.
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
    /// SimHash: largest Hamming distance of a near-duplicate pair, and of
    /// the index's exact queries (0..=16).
    #[arg(short = 'k', long = "max-distance", default_value_t = SimHashIndexConfig::default().max_k)]
    pub max_distance: u32,
    /// SimHash: blocks of the permuted-block index (default k + 2).
    #[arg(long)]
    pub blocks: Option<u32>,
    /// SimHash: feature weights (an index takes tf or binary).
    #[arg(long, value_enum, default_value = "tf")]
    pub weights: Weights,
}

impl SimHashArgs {
    /// The index configuration.
    pub fn index_config(&self) -> SimHashIndexConfig {
        SimHashIndexConfig {
            max_k: self.max_distance,
            blocks: self.blocks,
        }
    }
}

#[derive(Args)]
pub struct DedupArgs {
    /// A JSONL file of {"id": "...", "text": "..."} lines, or a folder of .txt
    /// files (the id is the file name without .txt).
    #[arg(required_unless_present = "explain")]
    input: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "minhash")]
    method: Method,
    /// Jaccard resemblance threshold in (0, 1).
    #[arg(long, default_value_t = LshConfig::default().threshold)]
    threshold: f64,
    /// Shingles (features for SimHash): word:K or char:Q (word:1 = words).
    #[arg(long, default_value_t = MinHashConfig::default().shingle)]
    shingle: Shingling,
    #[command(flatten)]
    simhash: SimHashArgs,
    /// MinHash values per signature.
    #[arg(long, default_value_t = MinHashConfig::default().num_perm)]
    num_perm: u32,
    /// Hash seed.
    #[arg(long, default_value_t = neardup::hash::DEFAULT_SEED)]
    seed: u64,
    /// Explicit bands (with --rows) instead of the advisor's choice.
    #[arg(long, requires = "rows")]
    bands: Option<u32>,
    /// Rows per band (with --bands).
    #[arg(long, requires = "bands")]
    rows: Option<u32>,
    /// Weight of false positives for the advisor.
    #[arg(long, default_value_t = LshConfig::default().fp_weight)]
    fp_weight: f64,
    /// Weight of false negatives for the advisor.
    #[arg(long, default_value_t = LshConfig::default().fn_weight)]
    fn_weight: f64,
    /// Keep every LSH candidate pair, without the estimated-Jaccard filter.
    #[arg(long, conflicts_with = "verify")]
    candidates: bool,
    /// Compute the exact Jaccard of each candidate pair and keep those at or
    /// above the threshold.
    #[arg(long)]
    verify: bool,
    /// Write clusters ({"cluster": [ids]}) instead of pairs.
    #[arg(long)]
    clusters: bool,
    /// Print the bands, rows and S-curve, and exit.
    #[arg(long)]
    explain: bool,
    /// Labelled pairs (TSV with a header; id_a, id_b, and optionally an
    /// edit_rate column): print precision, recall, F1 and recall per edit
    /// rate of the pairs found.
    #[arg(long)]
    truth: Option<PathBuf>,
    /// Write the --truth summary as JSON to this file too.
    #[arg(long, requires = "truth")]
    summary: Option<PathBuf>,
    /// Write pairs or clusters here instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
}

impl DedupArgs {
    fn lsh_config(&self) -> LshConfig {
        LshConfig {
            threshold: self.threshold,
            num_perm: self.num_perm,
            fp_weight: self.fp_weight,
            fn_weight: self.fn_weight,
            bands: self.bands,
            rows: self.rows,
        }
    }
}

/// A pair found: document indices, and the measures known of it.
struct Found {
    i: usize,
    j: usize,
    jaccard: Option<f64>,
    exact: Option<f64>,
    distance: Option<u32>,
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
}

#[derive(Serialize)]
struct Summary {
    method: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_distance: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    weights: Option<String>,
    shingle: String,
    threshold: f64,
    num_perm: Option<u32>,
    bands: Option<usize>,
    rows: Option<Vec<u32>>,
    documents: usize,
    pairs_found: usize,
    true_pairs: usize,
    true_positives: usize,
    #[serde(flatten)]
    quality: Prf,
    recall_by_edit_rate: BTreeMap<String, (usize, usize, f64)>,
    seconds: f64,
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

pub fn run(args: DedupArgs) -> Result<ExitCode> {
    args.shingle.check().map_err(crate::core)?;
    if args.shingle == Shingling::Custom {
        bail!("--shingle must be word:K or char:Q");
    }
    // The banding is computed only where it is used.
    let params = match (args.method, args.explain) {
        (Method::Minhash, _) | (_, true) => Some(args.lsh_config().params().map_err(crate::core)?),
        _ => None,
    };
    if let (true, Some(p)) = (args.explain, &params) {
        explain(p)?;
        return Ok(ExitCode::SUCCESS);
    }
    if !(args.threshold > 0.0 && args.threshold < 1.0) {
        bail!(
            "invalid option --threshold: must be in (0, 1), got {}",
            args.threshold
        );
    }
    let started = std::time::Instant::now();
    let input = args
        .input
        .as_deref()
        .context("an input file or folder is needed")?;
    let docs = read_docs(input)?;
    let found = match args.method {
        Method::Exact => exact_pairs(&docs, &args),
        Method::Simhash => simhash_pairs(&docs, &args)?,
        Method::Minhash => minhash_pairs(&docs, &args, params.clone().context("no banding")?)?,
    };
    let seconds = started.elapsed().as_secs_f64();
    write_output(&docs, &found, &args)?;
    if let Some(truth) = &args.truth {
        let s = evaluate(truth, &docs, &found, &args, params.as_ref(), seconds)?;
        eprintln!(
            "{} documents, {} pairs found, {} true pairs: precision {:.3}, recall {:.3}, F1 {:.3} ({:.1} s)",
            s.documents, s.pairs_found, s.true_pairs, s.quality.precision, s.quality.recall, s.quality.f1, s.seconds
        );
        for (rate, (tp, n, r)) in &s.recall_by_edit_rate {
            eprintln!("  edit rate {rate}: recall {r:.3} ({tp} of {n})");
        }
        if let Some(path) = &args.summary {
            fs::write(path, serde_json::to_string_pretty(&s)? + "\n")
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The shingle set of every document.
fn shingle_sets(docs: &[Doc], args: &DedupArgs) -> Vec<Arc<ShingleSet>> {
    let pb = progress(docs.len(), "shingling");
    let sets = docs
        .iter()
        .map(|d| {
            pb.inc(1);
            Document::new(&d.text, args.seed).shingle_set(args.shingle)
        })
        .collect();
    pb.finish_and_clear();
    sets
}

fn exact_pairs(docs: &[Doc], args: &DedupArgs) -> Vec<Found> {
    let sets: Vec<ShingleSet> = shingle_sets(docs, args)
        .into_iter()
        .map(|s| Arc::try_unwrap(s).unwrap_or_else(|s| (*s).clone()))
        .collect();
    exact::all_pairs(&sets, args.threshold)
        .into_iter()
        .map(|(i, j, jac)| Found {
            i: i as usize,
            j: j as usize,
            jaccard: None,
            exact: Some(jac),
            distance: None,
        })
        .collect()
}

fn simhash_pairs(docs: &[Doc], args: &DedupArgs) -> Result<Vec<Found>> {
    let config = SimHashConfig {
        shingle: args.shingle,
        weights: args.simhash.weights.weighting(),
        seed: args.seed,
    };
    let mut index = SimHashIndex::new(&args.simhash.index_config()).map_err(crate::core)?;
    let pb = progress(docs.len(), "fingerprints");
    let fps: Vec<Fingerprint> = if args.simhash.weights == Weights::Tfidf {
        // Two passes: document frequencies, then tf-idf fingerprints.
        let features: Vec<Arc<[u64]>> = docs
            .iter()
            .map(|d| Document::new(&d.text, args.seed).shingles(args.shingle))
            .collect();
        let mut df = DocumentFrequencies::new();
        for f in &features {
            df.add_document(f);
        }
        features
            .iter()
            .map(|f| {
                pb.inc(1);
                fingerprint_weighted(&df.tfidf(f))
                    .map(Fingerprint::from_value)
                    .map_err(crate::core)
            })
            .collect::<Result<_>>()?
    } else {
        docs.iter()
            .map(|d| {
                pb.inc(1);
                config
                    .fingerprint_of(&Document::new(&d.text, args.seed))
                    .map_err(crate::core)
            })
            .collect::<Result<_>>()?
    };
    pb.finish_and_clear();
    index
        .insert_many(docs.iter().map(|d| d.id.as_str()).zip(fps))
        .map_err(crate::core)?;
    let index_of = ids_to_indices(docs);
    Ok(index
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
        })
        .collect())
}

fn minhash_pairs(docs: &[Doc], args: &DedupArgs, params: LshParams) -> Result<Vec<Found>> {
    let hasher = MinHasher::new(&MinHashConfig {
        num_perm: args.num_perm,
        seed: args.seed,
        shingle: args.shingle,
    })
    .map_err(crate::core)?;
    let mut lsh = MinHashLsh::with_params(params, docs.len());
    let mut sets: Vec<Arc<ShingleSet>> = Vec::new();
    let pb = progress(docs.len(), "signatures");
    for d in docs {
        let doc = Document::new(&d.text, args.seed);
        lsh.insert(&d.id, hasher.signature_of(&doc).map_err(crate::core)?)
            .map_err(crate::core)
            .with_context(|| d.id.clone())?;
        if args.verify {
            sets.push(doc.shingle_set(args.shingle));
        }
        pb.inc(1);
    }
    pb.finish_and_clear();
    let filter = (!args.candidates && !args.verify).then_some(args.threshold);
    let index_of = ids_to_indices(docs);
    let mut found = Vec::new();
    for p in lsh.all_pairs_with(filter) {
        let (i, j) = (index_of[p.a], index_of[p.b]);
        let exact = if args.verify {
            let e = sets[i].counts(&sets[j]).resemblance();
            if e < args.threshold {
                continue;
            }
            Some(e)
        } else {
            None
        };
        found.push(Found {
            i,
            j,
            jaccard: Some(p.score.similarity()),
            exact,
            distance: None,
        });
    }
    Ok(found)
}

fn ids_to_indices(docs: &[Doc]) -> HashMap<&str, usize> {
    docs.iter()
        .enumerate()
        .map(|(i, d)| (d.id.as_str(), i))
        .collect()
}

fn write_output(docs: &[Doc], found: &[Found], args: &DedupArgs) -> Result<()> {
    let out: Box<dyn Write> = match &args.output {
        Some(p) => {
            Box::new(fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?)
        }
        None => Box::new(io::stdout().lock()),
    };
    let mut out = BufWriter::new(out);
    if args.clusters {
        let edges: Vec<(&str, &str)> = found
            .iter()
            .map(|f| (docs[f.i].id.as_str(), docs[f.j].id.as_str()))
            .collect();
        for ids in neardup::index::clusters::cluster_ids(&edges) {
            writeln!(out, "{}", serde_json::json!({ "cluster": ids }))?;
        }
    } else {
        for f in found {
            let p = PairOut {
                a: &docs[f.i].id,
                b: &docs[f.j].id,
                jaccard: f.jaccard,
                exact: f.exact,
                distance: f.distance,
            };
            writeln!(out, "{}", serde_json::to_string(&p)?)?;
        }
    }
    out.flush()?;
    Ok(())
}

fn evaluate(
    truth: &Path,
    docs: &[Doc],
    found: &[Found],
    args: &DedupArgs,
    params: Option<&LshParams>,
    seconds: f64,
) -> Result<Summary> {
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
    let found_keys: HashSet<(String, String)> = found
        .iter()
        .map(|f| key(&docs[f.i].id, &docs[f.j].id))
        .collect();
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
    let simhash = args.method == Method::Simhash;
    let lsh = params.filter(|_| args.method == Method::Minhash);
    Ok(Summary {
        max_distance: simhash.then_some(args.simhash.max_distance),
        weights: simhash.then(|| args.simhash.weights.name().to_string()),
        method: match args.method {
            Method::Simhash => "simhash".into(),
            Method::Minhash if args.verify => "minhash-lsh+exact".into(),
            Method::Minhash if args.candidates => "minhash-lsh-candidates".into(),
            Method::Minhash => "minhash-lsh+estimate".into(),
            Method::Exact => "exact".into(),
        },
        shingle: args.shingle.to_string(),
        threshold: args.threshold,
        num_perm: lsh.map(|_| args.num_perm),
        bands: lsh.map(|p| p.bands()),
        rows: lsh.map(|p| p.rows().to_vec()),
        documents: docs.len(),
        pairs_found: found_keys.len(),
        true_pairs: truth_pairs.len(),
        true_positives: tp,
        quality,
        recall_by_edit_rate: by_rate,
        seconds,
    })
}
