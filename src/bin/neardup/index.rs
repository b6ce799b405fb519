//! `neardup index build | query`: save an index of a collection to a file,
//! and look texts up in it later.

use crate::dedup::{SimHashArgs, Weights};
use crate::input::{progress, read_docs};
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use neardup::minhash::{LshConfig, MinHashConfig, MinHashLsh, MinHasher};
use neardup::simhash::{SimHashConfig, SimHashIndex};
use neardup::{Document, Hit, NearDupIndex, Shingling};
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
    /// Shingles (features): word:K or char:Q (default: word:3 for SimHash,
    /// word:5 for MinHash).
    #[arg(long)]
    shingle: Option<Shingling>,
    /// Hash seed.
    #[arg(long, default_value_t = neardup::hash::DEFAULT_SEED)]
    seed: u64,
    #[command(flatten)]
    simhash: SimHashArgs,
    /// MinHash: Jaccard threshold for the band advisor.
    #[arg(long, default_value_t = LshConfig::default().threshold)]
    threshold: f64,
    /// MinHash: values per signature.
    #[arg(long, default_value_t = MinHashConfig::default().num_perm)]
    num_perm: u32,
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

pub fn run(cmd: IndexCommand) -> Result<ExitCode> {
    match cmd {
        IndexCommand::Build(a) => build(a),
        IndexCommand::Query(a) => query(a),
    }
}

fn build(a: BuildArgs) -> Result<ExitCode> {
    let docs = read_docs(&a.input)?;
    let pb = progress(docs.len(), "indexing");
    let bytes = match a.method {
        IndexMethod::Simhash => {
            if a.simhash.weights == Weights::Tfidf {
                bail!("an index needs tf or binary weights: tf-idf would need the document frequencies stored with it");
            }
            let config = SimHashConfig {
                shingle: a.shingle.unwrap_or(SimHashConfig::default().shingle),
                weights: a.simhash.weights.weighting(),
                seed: a.seed,
            };
            let mut index = SimHashIndex::new(&a.simhash.index_config()).map_err(crate::core)?;
            let mut fps = Vec::with_capacity(docs.len());
            for d in &docs {
                let doc = Document::new(&d.text, a.seed);
                fps.push(
                    config
                        .fingerprint_of(&doc)
                        .map_err(crate::core)
                        .with_context(|| d.id.clone())?,
                );
                pb.inc(1);
            }
            index
                .insert_many(docs.iter().map(|d| d.id.as_str()).zip(fps))
                .map_err(crate::core)?;
            index.to_bytes()
        }
        IndexMethod::Minhash => {
            let hasher = MinHasher::new(&MinHashConfig {
                num_perm: a.num_perm,
                seed: a.seed,
                shingle: a.shingle.unwrap_or(MinHashConfig::default().shingle),
            })
            .map_err(crate::core)?;
            let params = LshConfig::default()
                .threshold(a.threshold)
                .num_perm(a.num_perm)
                .params()
                .map_err(crate::core)?;
            let mut lsh = MinHashLsh::with_params(params, docs.len());
            for d in &docs {
                let sig = hasher
                    .signature_of(&Document::new(&d.text, a.seed))
                    .map_err(crate::core)?;
                lsh.insert(&d.id, sig)
                    .map_err(crate::core)
                    .with_context(|| d.id.clone())?;
                pb.inc(1);
            }
            lsh.to_bytes()
        }
    };
    pb.finish_and_clear();
    fs::write(&a.output, &bytes).with_context(|| format!("cannot write {}", a.output.display()))?;
    eprintln!(
        "neardup: indexed {} documents into {} ({} bytes)",
        docs.len(),
        a.output.display(),
        bytes.len()
    );
    Ok(ExitCode::SUCCESS)
}

fn query(a: QueryArgs) -> Result<ExitCode> {
    let bytes = fs::read(&a.index).with_context(|| format!("cannot read {}", a.index.display()))?;
    let queries = read_docs(&a.queries)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let name = a.index.display().to_string();
    let mut answer = |id: &str, hits: Vec<Hit<'_>>| -> Result<()> {
        writeln!(out, "{}", serde_json::json!({ "id": id, "matches": hits }))?;
        Ok(())
    };
    match bytes.get(..4) {
        Some(b"NDSH") => {
            let index = SimHashIndex::from_bytes(&bytes)
                .map_err(crate::core)
                .context(name)?;
            let config = index
                .config()
                .filter(|c| c.shingle != Shingling::Custom)
                .context("the index does not record how its fingerprints were made")?;
            let k = a.max_distance.unwrap_or(index.max_k());
            for q in &queries {
                let fp = config
                    .fingerprint_of(&Document::new(&q.text, config.seed))
                    .map_err(crate::core)?;
                answer(&q.id, index.query_within(&fp, k).map_err(crate::core)?)?;
            }
        }
        Some(b"NDLS") => {
            let lsh = MinHashLsh::from_bytes(&bytes)
                .map_err(crate::core)
                .context(name)?;
            let (seed, shingle) = lsh
                .signature_kind()
                .unwrap_or((0, MinHashConfig::default().shingle));
            let hasher = MinHasher::new(&MinHashConfig {
                num_perm: lsh.params().num_perm() as u32,
                seed,
                shingle,
            })
            .map_err(crate::core)?;
            let min = a.min_jaccard.unwrap_or(lsh.params().threshold());
            for q in &queries {
                let sig = hasher
                    .signature_of(&Document::new(&q.text, seed))
                    .map_err(crate::core)?;
                answer(&q.id, lsh.query_with(&sig, Some(min)).map_err(crate::core)?)?;
            }
        }
        _ => bail!("{} is not a neardup index", a.index.display()),
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
