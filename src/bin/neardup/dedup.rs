//! `neardup dedup`: near-duplicate pairs or clusters of a collection, by
//! MinHash LSH, or exactly by all-pairs Jaccard with prefix filtering; and
//! precision/recall against labelled pairs.

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use neardup::allpairs;
use neardup::lsh::{LshParams, MinHashLsh};
use neardup::minhash::MinHasher;
use neardup::shingle::{ShingleSet, Shingling};
use neardup::simhash::{fingerprint_weighted, FingerprintConfig, SimHashIndex, Weighting};
use neardup::tfidf::DocumentFrequencies;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::io::{self, BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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

impl From<Weights> for Weighting {
    fn from(w: Weights) -> Self {
        match w {
            Weights::Tf => Weighting::Tf,
            Weights::Binary | Weights::Tfidf => Weighting::Binary,
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
    #[arg(long, default_value_t = 0.5)]
    threshold: f64,
    /// Shingles (features for SimHash): word:K or char:Q (word:1 = words).
    #[arg(long, default_value = "word:5")]
    shingle: String,
    /// SimHash: largest Hamming distance of a near-duplicate pair (0..=16).
    #[arg(short = 'k', long = "max-distance", default_value_t = 3)]
    max_distance: u32,
    /// SimHash: blocks of the permuted-block index (default k + 2).
    #[arg(long)]
    blocks: Option<u32>,
    /// SimHash: feature weights.
    #[arg(long, value_enum, default_value = "tf")]
    weights: Weights,
    /// MinHash values per signature.
    #[arg(long, default_value_t = 128)]
    num_perm: usize,
    /// Hash seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Explicit bands (with --rows) instead of the advisor's choice.
    #[arg(long, requires = "rows")]
    bands: Option<u32>,
    /// Rows per band (with --bands).
    #[arg(long, requires = "bands")]
    rows: Option<u32>,
    /// Weight of false positives for the advisor.
    #[arg(long, default_value_t = 0.5)]
    fp_weight: f64,
    /// Weight of false negatives for the advisor.
    #[arg(long, default_value_t = 0.5)]
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

pub(crate) struct Doc {
    pub(crate) id: String,
    pub(crate) text: String,
}

pub(crate) fn read_docs(path: &Path) -> Result<Vec<Doc>, String> {
    let mut docs = Vec::new();
    if path.is_dir() {
        let mut files: Vec<PathBuf> = fs::read_dir(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            .collect();
        files.sort();
        for f in files {
            let bytes = fs::read(&f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
            let id = f
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            docs.push(Doc {
                id,
                text: super::decode(&bytes).0,
            });
        }
        return Ok(docs);
    }
    let f = fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    #[derive(serde::Deserialize)]
    struct Line {
        id: serde_json::Value,
        text: String,
    }
    for (i, line) in io::BufReader::new(f).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: line {}: {e}", path.display(), i + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let l: Line = serde_json::from_str(&line).map_err(|e| {
            format!(
                "{}: line {}: not a {{\"id\", \"text\"}} object: {e}",
                path.display(),
                i + 1
            )
        })?;
        let id = match l.id {
            serde_json::Value::String(s) => s,
            other => other.to_string(),
        };
        docs.push(Doc { id, text: l.text });
    }
    let mut seen = HashSet::new();
    for d in &docs {
        if !seen.insert(d.id.as_str()) {
            return Err(format!("{}: duplicate id {:?}", path.display(), d.id));
        }
    }
    Ok(docs)
}

pub(crate) fn progress(len: usize, what: &str) -> ProgressBar {
    let pb = ProgressBar::new(len as u64);
    pb.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} ({per_sec}, eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    pb.set_message(what.to_string());
    pb
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
    num_perm: Option<usize>,
    bands: Option<usize>,
    rows: Option<Vec<u32>>,
    documents: usize,
    pairs_found: usize,
    true_pairs: usize,
    true_positives: usize,
    precision: f64,
    recall: f64,
    f1: f64,
    recall_by_edit_rate: BTreeMap<String, (usize, usize, f64)>,
    seconds: f64,
}

pub fn run(args: DedupArgs) -> Result<ExitCode, String> {
    let shingling: Shingling = args
        .shingle
        .parse()
        .map_err(|e: neardup::Error| e.to_string())?;
    if matches!(shingling, Shingling::Custom) {
        return Err("--shingle must be word:K or char:Q".into());
    }
    let params = match (args.bands, args.rows) {
        (Some(b), Some(r)) => LshParams::explicit(args.threshold, args.num_perm, b, r),
        _ => LshParams::for_threshold(
            args.threshold,
            args.num_perm,
            args.fp_weight,
            args.fn_weight,
        ),
    }
    .map_err(|e| e.to_string())?;
    if args.explain {
        let (fp, fneg) = params.error_masses();
        println!(
            "threshold {}  numPerm {}  bands {}  rows {:?}  (values used {})",
            params.threshold(),
            params.num_perm(),
            params.bands(),
            params.rows(),
            params.values_used()
        );
        println!("false-positive mass {fp:.4}  false-negative mass {fneg:.4}");
        println!("resemblance  P(candidate)");
        for i in 0..=20 {
            let s = i as f64 / 20.0;
            let p = params.probability(s);
            println!(
                "{s:>10.2}  {p:.4}  {}",
                "#".repeat((p * 50.0).round() as usize)
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let started = std::time::Instant::now();
    let input = args
        .input
        .as_deref()
        .ok_or("an input file or folder is needed")?;
    let docs = read_docs(input)?;
    let need_sets = args.verify || args.method == Method::Exact;

    let mut sets: Vec<ShingleSet> = Vec::new();
    let mut found: Vec<(usize, usize, Option<f64>, Option<f64>)> = Vec::new();
    let mut distances: Vec<u32> = Vec::new();
    let index_of: HashMap<&str, usize> = docs
        .iter()
        .enumerate()
        .map(|(i, d)| (d.id.as_str(), i))
        .collect();
    if need_sets {
        let pb = progress(docs.len(), "shingling");
        for d in &docs {
            sets.push(ShingleSet::from_hashes(
                shingling.hashes(&d.text, args.seed),
            ));
            pb.inc(1);
        }
        pb.finish_and_clear();
    }
    match args.method {
        Method::Exact => {
            for (i, j, jac) in allpairs::all_pairs(&sets, args.threshold) {
                found.push((i as usize, j as usize, None, Some(jac)));
            }
        }
        Method::Simhash => {
            let config = FingerprintConfig {
                shingling,
                weighting: args.weights.into(),
                seed: args.seed,
            };
            let mut index =
                SimHashIndex::new(args.max_distance, args.blocks).map_err(|e| e.to_string())?;
            if args.weights == Weights::Tfidf {
                // Two passes: document frequencies, then tf-idf fingerprints.
                let features: Vec<Vec<u64>> = docs
                    .iter()
                    .map(|d| shingling.hashes(&d.text, args.seed))
                    .collect();
                let mut df = DocumentFrequencies::new();
                for f in &features {
                    df.add_document(f);
                }
                for (d, f) in docs.iter().zip(&features) {
                    let fp = fingerprint_weighted(&df.tfidf(f)).map_err(|e| e.to_string())?;
                    index
                        .insert(&d.id, fp)
                        .map_err(|e| format!("{}: {e}", d.id))?;
                }
            } else {
                let pb = progress(docs.len(), "fingerprints");
                for d in &docs {
                    let fp = config.fingerprint(&d.text).map_err(|e| e.to_string())?;
                    index
                        .insert(&d.id, fp)
                        .map_err(|e| format!("{}: {e}", d.id))?;
                    pb.inc(1);
                }
                pb.finish_and_clear();
            }
            for p in index
                .all_pairs(args.max_distance)
                .map_err(|e| e.to_string())?
            {
                found.push((index_of[p.a], index_of[p.b], None, None));
                distances.push(p.distance);
            }
        }
        Method::Minhash => {
            let hasher =
                MinHasher::new(args.num_perm, args.seed, shingling).map_err(|e| e.to_string())?;
            let mut lsh = MinHashLsh::new(params.clone());
            let pb = progress(docs.len(), "signatures");
            for d in &docs {
                lsh.insert(&d.id, hasher.signature_of_text(&d.text))
                    .map_err(|e| format!("{}: {e}", d.id))?;
                pb.inc(1);
            }
            pb.finish_and_clear();
            let filter = if args.candidates || args.verify {
                None
            } else {
                Some(args.threshold)
            };
            for p in lsh.all_pairs(filter) {
                let (i, j) = (index_of[p.a], index_of[p.b]);
                let exact = if args.verify {
                    let (a, b) = (&sets[i], &sets[j]);
                    let inter = a.intersection_len(b);
                    let union = a.len() + b.len() - inter;
                    let e = if union == 0 {
                        0.0
                    } else {
                        inter as f64 / union as f64
                    };
                    if e < args.threshold {
                        continue;
                    }
                    Some(e)
                } else {
                    None
                };
                found.push((i, j, Some(p.jaccard), exact));
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();

    let out: Box<dyn Write> = match &args.output {
        Some(p) => {
            Box::new(fs::File::create(p).map_err(|e| format!("cannot write {}: {e}", p.display()))?)
        }
        None => Box::new(io::stdout().lock()),
    };
    let mut out = BufWriter::new(out);
    let w = |e: io::Error| e.to_string();
    if args.clusters {
        let mut uf = neardup::unionfind::UnionFind::new(docs.len());
        for &(i, j, _, _) in &found {
            uf.union(i as u32, j as u32);
        }
        for c in uf.clusters() {
            let ids: Vec<&str> = c.iter().map(|&i| docs[i as usize].id.as_str()).collect();
            writeln!(out, "{}", serde_json::json!({ "cluster": ids })).map_err(w)?;
        }
    } else {
        for (n, &(i, j, jac, exact)) in found.iter().enumerate() {
            let p = PairOut {
                a: &docs[i].id,
                b: &docs[j].id,
                jaccard: jac,
                exact,
                distance: distances.get(n).copied(),
            };
            writeln!(
                out,
                "{}",
                serde_json::to_string(&p).map_err(|e| e.to_string())?
            )
            .map_err(w)?;
        }
    }
    out.flush().map_err(w)?;

    if let Some(truth) = &args.truth {
        let s = evaluate(truth, &docs, &found, &args, &shingling, &params, seconds)?;
        eprintln!(
            "{} documents, {} pairs found, {} true pairs: precision {:.3}, recall {:.3}, F1 {:.3} ({:.1} s)",
            s.documents, s.pairs_found, s.true_pairs, s.precision, s.recall, s.f1, s.seconds
        );
        for (rate, (tp, n, r)) in &s.recall_by_edit_rate {
            eprintln!("  edit rate {rate}: recall {r:.3} ({tp} of {n})");
        }
        if let Some(path) = &args.summary {
            fs::write(
                path,
                serde_json::to_string_pretty(&s).map_err(|e| e.to_string())? + "\n",
            )
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[allow(clippy::too_many_arguments)]
fn evaluate(
    truth: &Path,
    docs: &[Doc],
    found: &[(usize, usize, Option<f64>, Option<f64>)],
    args: &DedupArgs,
    shingling: &Shingling,
    params: &LshParams,
    seconds: f64,
) -> Result<Summary, String> {
    let text =
        fs::read_to_string(truth).map_err(|e| format!("cannot read {}: {e}", truth.display()))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let rate_col = header.iter().position(|h| *h == "edit_rate");
    let key = |a: &str, b: &str| {
        if a <= b {
            (a.to_string(), b.to_string())
        } else {
            (b.to_string(), a.to_string())
        }
    };
    let mut truth_pairs: HashMap<(String, String), String> = HashMap::new();
    for (i, l) in lines.enumerate() {
        let f: Vec<&str> = l.split('\t').collect();
        if f.len() < 2 {
            return Err(format!(
                "{}: line {}: expected id_a<TAB>id_b",
                truth.display(),
                i + 2
            ));
        }
        let rate = rate_col
            .and_then(|c| f.get(c))
            .unwrap_or(&"all")
            .to_string();
        truth_pairs.insert(key(f[0], f[1]), rate);
    }
    let found_keys: HashSet<(String, String)> = found
        .iter()
        .map(|&(i, j, _, _)| key(&docs[i].id, &docs[j].id))
        .collect();
    let tp = found_keys
        .iter()
        .filter(|k| truth_pairs.contains_key(*k))
        .count();
    let precision = if found_keys.is_empty() {
        0.0
    } else {
        tp as f64 / found_keys.len() as f64
    };
    let recall = if truth_pairs.is_empty() {
        0.0
    } else {
        tp as f64 / truth_pairs.len() as f64
    };
    let f1 = if precision + recall == 0.0 {
        0.0
    } else {
        2.0 * precision * recall / (precision + recall)
    };
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
    let lsh = args.method == Method::Minhash;
    Ok(Summary {
        max_distance: (args.method == Method::Simhash).then_some(args.max_distance),
        weights: (args.method == Method::Simhash).then(|| match args.weights {
            Weights::Tf => "tf".to_string(),
            Weights::Binary => "binary".to_string(),
            Weights::Tfidf => "tfidf".to_string(),
        }),
        method: match args.method {
            Method::Simhash => "simhash".into(),
            Method::Minhash if args.verify => "minhash-lsh+exact".into(),
            Method::Minhash if args.candidates => "minhash-lsh-candidates".into(),
            Method::Minhash => "minhash-lsh+estimate".into(),
            Method::Exact => "exact".into(),
        },
        shingle: shingling.to_string(),
        threshold: args.threshold,
        num_perm: lsh.then_some(args.num_perm),
        bands: lsh.then_some(params.bands()),
        rows: lsh.then(|| params.rows().to_vec()),
        documents: docs.len(),
        pairs_found: found_keys.len(),
        true_pairs: truth_pairs.len(),
        true_positives: tp,
        precision,
        recall,
        f1,
        recall_by_edit_rate: by_rate,
        seconds,
    })
}
