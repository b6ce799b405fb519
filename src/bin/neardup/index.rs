//! `neardup index build | add | remove | query`: keep an index of a
//! collection in a file (written atomically), change it, and look texts up
//! in it.

use crate::input::{for_each_record, for_each_record_par, progress, write_atomic, ReadStats};
use crate::options::{InputArgs, MinHashArgs, SimHashArgs, Weights};
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use neardup::minhash::{MinHashConfig, MinHashLsh, MinHasher, SignatureKind};
use neardup::simhash::{SimHashConfig, SimHashIndex};
use neardup::{Document, Hit, NearDupIndex, Shingling};
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum IndexCommand {
    /// Build an index of a collection and save it.
    Build(BuildArgs),
    /// Add the documents of a collection to a saved index.
    Add(AddArgs),
    /// Remove documents by id from a saved index.
    Remove(RemoveArgs),
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
    /// JSONL of {"id", "text"} lines (.gz, .zst, or - for standard input),
    /// or a folder of .txt files.
    input: PathBuf,
    /// Where to write the index (atomically).
    #[arg(long, short)]
    output: PathBuf,
    #[arg(long, value_enum, default_value = "simhash")]
    method: IndexMethod,
    /// Shingles (features): word:K, char:Q or phonetic:K [SimHash word:3, MinHash word:5].
    #[arg(long)]
    shingle: Option<Shingling>,
    /// Hash seed.
    #[arg(long, default_value_t = neardup::hash::DEFAULT_SEED)]
    seed: u64,
    #[command(flatten)]
    simhash: SimHashArgs,
    #[command(flatten)]
    minhash: MinHashArgs,
    /// MinHash: Jaccard threshold of the band advisor and of queries [0.5].
    #[arg(long)]
    threshold: Option<f64>,
    #[command(flatten)]
    fields: InputArgs,
}

#[derive(Args)]
pub struct AddArgs {
    /// The index file; rewritten atomically.
    index: PathBuf,
    /// JSONL of {"id", "text"} lines (.gz, .zst, or - for standard input),
    /// or a folder of .txt files; an id already in the index is an error.
    input: PathBuf,
    #[command(flatten)]
    fields: InputArgs,
}

#[derive(Args)]
pub struct RemoveArgs {
    /// The index file; rewritten atomically.
    index: PathBuf,
    /// The ids to remove; with none, one id per line on standard input.
    ids: Vec<String>,
}

#[derive(Args)]
pub struct QueryArgs {
    /// The index file written by `neardup index build`.
    index: PathBuf,
    /// JSONL of {"id", "text"} lines (.gz, .zst, or - for standard input),
    /// or a folder of .txt files.
    queries: PathBuf,
    /// SimHash: distance [the index's largest].
    #[arg(short = 'k', long = "max-distance")]
    max_distance: Option<u32>,
    /// MinHash: keep candidates whose estimated Jaccard reaches this; 0
    /// keeps every candidate [the index's threshold]; in [0, 1].
    #[arg(long, value_parser = crate::options::unit_interval)]
    min_jaccard: Option<f64>,
    #[command(flatten)]
    fields: InputArgs,
}

/// A saved index of either kind.
enum Saved {
    SimHash(SimHashIndex),
    MinHash(MinHashLsh),
}

impl Saved {
    fn load(path: &Path) -> Result<Saved> {
        let bytes = fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let name = || path.display().to_string();
        Ok(match bytes.get(..4) {
            Some(b"NDSH") => Saved::SimHash(
                SimHashIndex::from_bytes(&bytes)
                    .map_err(crate::core)
                    .with_context(name)?,
            ),
            Some(b"NDLS") => Saved::MinHash(
                MinHashLsh::from_bytes(&bytes)
                    .map_err(crate::core)
                    .with_context(name)?,
            ),
            _ => bail!("{} is not a neardup index", path.display()),
        })
    }

    fn save(&self, path: &Path) -> Result<usize> {
        let bytes = match self {
            Saved::SimHash(i) => i.to_bytes(),
            Saved::MinHash(i) => i.to_bytes(),
        };
        write_atomic(path, |w| w.write_all(&bytes))?;
        Ok(bytes.len())
    }

    fn len(&self) -> usize {
        match self {
            Saved::SimHash(i) => i.len(),
            Saved::MinHash(i) => i.len(),
        }
    }

    /// Adds the documents of a collection, sketched as the index's own
    /// (from the configuration it records).
    fn add(&mut self, input: &Path, fields: &InputArgs) -> Result<ReadStats> {
        let pb = progress(0, "indexing");
        let stats = match self {
            Saved::SimHash(index) => {
                let config = index
                    .config()
                    .filter(|c| c.shingle != Shingling::Custom)
                    .context("the index does not record how its fingerprints were made")?;
                let mut items = Vec::new();
                // Sketched on every core, indexed in input order.
                let stats = for_each_record_par(
                    input,
                    &fields.fields(),
                    |r| {
                        config
                            .fingerprint_of(&Document::new(&r.text, config.seed))
                            .map_err(crate::core)
                    },
                    |r, fp| {
                        items.push((r.id, fp));
                        pb.inc(1);
                        Ok(())
                    },
                )?;
                index
                    .insert_many(items.iter().map(|(id, fp)| (id.as_str(), *fp)))
                    .map_err(crate::core)?;
                stats
            }
            Saved::MinHash(lsh) => {
                let hasher = minhasher(lsh)?;
                for_each_record_par(
                    input,
                    &fields.fields(),
                    |r| {
                        hasher
                            .signature_of(&Document::new(&r.text, hasher.seed()))
                            .map_err(crate::core)
                    },
                    |r, sig| {
                        lsh.insert(&r.id, sig)
                            .map_err(crate::core)
                            .with_context(|| r.id.clone())?;
                        pb.inc(1);
                        Ok(())
                    },
                )?
            }
        };
        pb.finish_and_clear();
        Ok(stats)
    }
}

/// The hasher of the signatures an LSH index holds.
fn minhasher(lsh: &MinHashLsh) -> Result<MinHasher> {
    let d = MinHashConfig::default();
    let kind = lsh.signature_kind().unwrap_or(SignatureKind {
        seed: d.seed,
        shingling: d.shingle,
        scheme: d.scheme,
    });
    MinHasher::new(&MinHashConfig {
        num_perm: lsh.params().num_perm() as u32,
        seed: kind.seed,
        shingle: kind.shingling,
        scheme: kind.scheme,
    })
    .map_err(crate::core)
}

pub fn run(cmd: IndexCommand) -> Result<ExitCode> {
    match cmd {
        IndexCommand::Build(a) => build(a),
        IndexCommand::Add(a) => add(a),
        IndexCommand::Remove(a) => remove(a),
        IndexCommand::Query(a) => query(a),
    }
}

fn exit(stats: ReadStats) -> ExitCode {
    if stats.bad_lines > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn build(a: BuildArgs) -> Result<ExitCode> {
    crate::input::check_output(&a.output)?;
    let mut saved = match a.method {
        IndexMethod::Simhash => {
            if a.minhash.any() || a.threshold.is_some() {
                return Err(crate::usage("--num-perm/--bands/--fp-weight/--fn-weight/--threshold do not apply to a SimHash index"));
            }
            if a.simhash.weights() == Weights::Tfidf {
                return Err(crate::usage("an index needs tf or binary weights: tf-idf would need the document frequencies stored with it"));
            }
            let mut index = SimHashIndex::new(&a.simhash.index_config(3)).map_err(crate::core)?;
            // An empty index records its configuration through the first
            // fingerprint; give it one to start from.
            let config = SimHashConfig {
                shingle: a.shingle.unwrap_or(SimHashConfig::default().shingle),
                weights: a.simhash.weights().weighting(),
                seed: a.seed,
            };
            config.check().map_err(crate::core)?;
            index.set_config(config).map_err(crate::core)?;
            Saved::SimHash(index)
        }
        IndexMethod::Minhash => {
            if a.simhash.any() {
                return Err(crate::usage(
                    "-k/--blocks/--weights do not apply to a MinHash index",
                ));
            }
            let config = a.minhash.lsh_config(a.threshold.unwrap_or(0.5));
            let lsh = MinHashLsh::new(&config).map_err(crate::core)?;
            let hasher = MinHasher::new(&a.minhash.minhash_config(
                &config,
                a.seed,
                a.shingle.unwrap_or(MinHashConfig::default().shingle),
            ))
            .map_err(crate::core)?;
            let mut lsh = lsh;
            lsh.set_signature_kind(hasher.kind()).map_err(crate::core)?;
            Saved::MinHash(lsh)
        }
    };
    let stats = saved.add(&a.input, &a.fields)?;
    let size = saved.save(&a.output)?;
    eprintln!(
        "neardup: indexed {} documents into {} ({size} bytes)",
        saved.len(),
        a.output.display(),
    );
    Ok(exit(stats))
}

fn add(a: AddArgs) -> Result<ExitCode> {
    let mut saved = Saved::load(&a.index)?;
    let before = saved.len();
    let stats = saved.add(&a.input, &a.fields)?;
    saved.save(&a.index)?;
    eprintln!(
        "neardup: added {} documents to {} ({} now)",
        saved.len() - before,
        a.index.display(),
        saved.len()
    );
    Ok(exit(stats))
}

fn remove(a: RemoveArgs) -> Result<ExitCode> {
    let mut saved = Saved::load(&a.index)?;
    let ids: Vec<String> = if a.ids.is_empty() {
        let mut ids = Vec::new();
        crate::input::for_each_word(&[], |id| {
            ids.push(id.to_string());
            Ok(())
        })?;
        ids
    } else {
        a.ids
    };
    let mut missing = 0usize;
    for id in &ids {
        let removed = match &mut saved {
            Saved::SimHash(i) => i.remove(id),
            Saved::MinHash(i) => i.remove(id),
        };
        if !removed {
            missing += 1;
            eprintln!("neardup: {id:?} is not in the index");
        }
    }
    saved.save(&a.index)?;
    eprintln!(
        "neardup: removed {} documents from {} ({} now)",
        ids.len() - missing,
        a.index.display(),
        saved.len()
    );
    Ok(if missing > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn query(a: QueryArgs) -> Result<ExitCode> {
    let saved = Saved::load(&a.index)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut answer = |id: &str, hits: Vec<Hit<'_>>| -> Result<()> {
        writeln!(out, "{}", serde_json::json!({ "id": id, "matches": hits }))?;
        Ok(())
    };
    let fields = a.fields.fields();
    let stats = match &saved {
        Saved::SimHash(index) => {
            if a.min_jaccard.is_some() {
                return Err(crate::usage(
                    "--min-jaccard does not apply to a SimHash index (use -k)",
                ));
            }
            let config = index
                .config()
                .filter(|c| c.shingle != Shingling::Custom)
                .context("the index does not record how its fingerprints were made")?;
            let k = a.max_distance.unwrap_or(index.max_k());
            for_each_record(&a.queries, &fields, |q| {
                let fp = config
                    .fingerprint_of(&Document::new(&q.text, config.seed))
                    .map_err(crate::core)?;
                answer(&q.id, index.query_within(&fp, k).map_err(crate::core)?)
            })?
        }
        Saved::MinHash(lsh) => {
            if a.max_distance.is_some() {
                return Err(crate::usage(
                    "-k does not apply to a MinHash index (use --min-jaccard)",
                ));
            }
            let hasher = minhasher(lsh)?;
            let min = a.min_jaccard.unwrap_or(lsh.params().threshold());
            for_each_record(&a.queries, &fields, |q| {
                let sig = hasher
                    .signature_of(&Document::new(&q.text, hasher.seed()))
                    .map_err(crate::core)?;
                answer(&q.id, lsh.query_with(&sig, Some(min)).map_err(crate::core)?)
            })?
        }
    };
    out.flush()?;
    Ok(exit(stats))
}
