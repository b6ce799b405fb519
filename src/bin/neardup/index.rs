//! `neardup index build | query`: save an index of a collection to a file,
//! and look texts up in it later.

use super::dedup::{progress, read_docs, Weights};
use clap::{Args, Subcommand, ValueEnum};
use neardup::lsh::{LshParams, MinHashLsh};
use neardup::minhash::MinHasher;
use neardup::shingle::Shingling;
use neardup::simhash::{FingerprintConfig, SimHashIndex};
use serde::Serialize;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum IndexCommand {
    /// Build an index of a collection and save it.
    Build(BuildArgs),
    /// Query a saved index with texts.
    Query(QueryArgs),
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum IndexMethod {
    /// SimHash fingerprints in a permuted-block Hamming index.
    Simhash,
    /// MinHash signatures in an LSH index.
    Minhash,
}

#[derive(Args)]
pub struct BuildArgs {
    /// JSONL of {"id", "text"} lines, or a folder of .txt files.
    input: PathBuf,
    /// Where to write the index.
    #[arg(long, short)]
    output: PathBuf,
    #[arg(long, value_enum, default_value = "simhash")]
    method: IndexMethod,
    /// Shingles (features): word:K or char:Q.
    #[arg(long)]
    shingle: Option<String>,
    /// Hash seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// SimHash: largest Hamming distance queries are exact for (0..=16).
    #[arg(short = 'k', long = "max-distance", default_value_t = 3)]
    max_distance: u32,
    /// SimHash: blocks of the index (default k + 2).
    #[arg(long)]
    blocks: Option<u32>,
    /// SimHash: feature weights (tf or binary; tf-idf needs a stored model).
    #[arg(long, value_enum, default_value = "tf")]
    weights: Weights,
    /// MinHash: Jaccard threshold for the band advisor.
    #[arg(long, default_value_t = 0.5)]
    threshold: f64,
    /// MinHash: values per signature.
    #[arg(long, default_value_t = 128)]
    num_perm: usize,
}

#[derive(Args)]
pub struct QueryArgs {
    /// The index file written by `neardup index build`.
    index: PathBuf,
    /// JSONL of {"id", "text"} lines, or a folder of .txt files.
    queries: PathBuf,
    /// SimHash: distance (default: the index's largest).
    #[arg(short = 'k', long = "max-distance")]
    max_distance: Option<u32>,
    /// MinHash: keep candidates whose estimated Jaccard reaches this
    /// (default: the index's threshold; 0 keeps every candidate).
    #[arg(long)]
    min_jaccard: Option<f64>,
}

#[derive(Serialize)]
struct Hit<'a> {
    id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    distance: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    jaccard: Option<f64>,
}

pub fn run(cmd: IndexCommand) -> Result<ExitCode, String> {
    match cmd {
        IndexCommand::Build(a) => build(a),
        IndexCommand::Query(a) => query(a),
    }
}

fn build(a: BuildArgs) -> Result<ExitCode, String> {
    let docs = read_docs(&a.input)?;
    let pb = progress(docs.len(), "indexing");
    let bytes = match a.method {
        IndexMethod::Simhash => {
            if a.weights == Weights::Tfidf {
                return Err("an index needs tf or binary weights: tf-idf would need the document frequencies stored with it".into());
            }
            let config = FingerprintConfig {
                shingling: a
                    .shingle
                    .as_deref()
                    .unwrap_or("word:3")
                    .parse()
                    .map_err(|e: neardup::Error| e.to_string())?,
                weighting: a.weights.into(),
                seed: a.seed,
            };
            let mut index =
                SimHashIndex::new(a.max_distance, a.blocks).map_err(|e| e.to_string())?;
            index.set_config(Some(config));
            let mut fps = Vec::with_capacity(docs.len());
            for d in &docs {
                fps.push(
                    config
                        .fingerprint(&d.text)
                        .map_err(|e| format!("{}: {e}", d.id))?,
                );
                pb.inc(1);
            }
            index
                .insert_many(docs.iter().map(|d| d.id.as_str()).zip(fps))
                .map_err(|e| e.to_string())?;
            index.to_bytes()
        }
        IndexMethod::Minhash => {
            let shingling: Shingling = a
                .shingle
                .as_deref()
                .unwrap_or("word:5")
                .parse()
                .map_err(|e: neardup::Error| e.to_string())?;
            let hasher =
                MinHasher::new(a.num_perm, a.seed, shingling).map_err(|e| e.to_string())?;
            let params = LshParams::for_threshold(a.threshold, a.num_perm, 0.5, 0.5)
                .map_err(|e| e.to_string())?;
            let mut lsh = MinHashLsh::with_capacity(params, docs.len());
            for d in &docs {
                lsh.insert(&d.id, hasher.signature_of_text(&d.text))
                    .map_err(|e| format!("{}: {e}", d.id))?;
                pb.inc(1);
            }
            lsh.to_bytes()
        }
    };
    pb.finish_and_clear();
    fs::write(&a.output, &bytes)
        .map_err(|e| format!("cannot write {}: {e}", a.output.display()))?;
    eprintln!(
        "neardup: indexed {} documents into {} ({} bytes)",
        docs.len(),
        a.output.display(),
        bytes.len()
    );
    Ok(ExitCode::SUCCESS)
}

fn query(a: QueryArgs) -> Result<ExitCode, String> {
    let bytes =
        fs::read(&a.index).map_err(|e| format!("cannot read {}: {e}", a.index.display()))?;
    let queries = read_docs(&a.queries)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let w = |e: io::Error| e.to_string();
    match bytes.get(..4) {
        Some(b"NDSH") => {
            let index = SimHashIndex::from_bytes(&bytes)
                .map_err(|e| format!("{}: {e}", a.index.display()))?;
            let config = index
                .config()
                .ok_or("the index does not record how its fingerprints were made")?;
            let k = a.max_distance.unwrap_or(index.max_k());
            for q in &queries {
                let fp = config.fingerprint(&q.text).map_err(|e| e.to_string())?;
                let hits: Vec<Hit<'_>> = index
                    .query(fp, k)
                    .map_err(|e| e.to_string())?
                    .into_iter()
                    .map(|m| Hit {
                        id: m.id,
                        distance: Some(m.distance),
                        jaccard: None,
                    })
                    .collect();
                writeln!(
                    out,
                    "{}",
                    serde_json::json!({ "id": q.id, "matches": hits })
                )
                .map_err(w)?;
            }
        }
        Some(b"NDLS") => {
            let lsh = MinHashLsh::from_bytes(&bytes)
                .map_err(|e| format!("{}: {e}", a.index.display()))?;
            let (seed, shingling) = lsh.signature_kind().unwrap_or((0, Shingling::Words(5)));
            let hasher = MinHasher::new(lsh.params().num_perm(), seed, shingling)
                .map_err(|e| e.to_string())?;
            let min = a.min_jaccard.unwrap_or(lsh.params().threshold());
            for q in &queries {
                let sig = hasher.signature_of_text(&q.text);
                let mut hits: Vec<Hit<'_>> = Vec::new();
                for id in lsh
                    .query(&sig, (min > 0.0).then_some(min))
                    .map_err(|e| e.to_string())?
                {
                    let j = lsh.signature(id).and_then(|s| s.jaccard(&sig).ok());
                    hits.push(Hit {
                        id,
                        distance: None,
                        jaccard: j,
                    });
                }
                writeln!(
                    out,
                    "{}",
                    serde_json::json!({ "id": q.id, "matches": hits })
                )
                .map_err(w)?;
            }
        }
        _ => return Err(format!("{} is not a neardup index", a.index.display())),
    }
    out.flush().map_err(w)?;
    Ok(ExitCode::SUCCESS)
}
