//! `neardup index build | add | remove | query`: keep the core's
//! `Deduplicator` of a collection in a file (its snapshot, written
//! atomically), change it, and look texts up in it — the same pipeline,
//! options and defaults as `neardup dedup`. Index files written by earlier
//! versions (a SimHash or MinHash LSH index) are read and converted by the
//! core, and written back as snapshots when changed.

use crate::input::{
    for_each_batch, for_each_batch_keeping_ids, for_each_record, progress, write_atomic, Measured,
    ReadStats, Record,
};
use crate::options::{DedupOptions, InputArgs};
use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use neardup::dedup::{Deduplicator, MultiRefModel};
use serde::Serialize;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Subcommand)]
pub enum IndexCommand {
    /// Build an index of a collection (a deduplicator snapshot) and save it.
    Build(Box<BuildArgs>),
    /// Add the documents of a collection to a saved index.
    Add(AddArgs),
    /// Remove documents by id from a saved index.
    Remove(RemoveArgs),
    /// Query a saved index with texts: the near-duplicates of each, best
    /// first, without adding them.
    Query(QueryArgs),
}

#[derive(Args)]
pub struct BuildArgs {
    /// JSONL of {"id", "text"} lines (.gz, .zst, or - for standard input),
    /// or a folder of .txt files.
    input: PathBuf,
    /// Where to write the index (atomically).
    #[arg(long, short)]
    output: PathBuf,
    #[command(flatten)]
    options: DedupOptions,
    #[command(flatten)]
    fields: InputArgs,
}

/// What an index may need besides its file: the reference of a multiref
/// index, the dictionary of a `+correct` one (built in unless given).
#[derive(Args)]
pub struct Needs {
    /// Multiref: the reference JSON the index was built with [built in].
    #[arg(long, value_name = "FILE")]
    reference: Option<PathBuf>,
    /// word:K+correct: the dictionary the index was built with [built in].
    #[arg(long, value_name = "FILE")]
    dictionary: Option<PathBuf>,
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
    #[command(flatten)]
    needs: Needs,
}

#[derive(Args)]
pub struct RemoveArgs {
    /// The index file; rewritten atomically.
    index: PathBuf,
    /// The ids to remove; with none, one id per line on standard input.
    ids: Vec<String>,
    #[command(flatten)]
    needs: Needs,
}

#[derive(Args)]
pub struct QueryArgs {
    /// The index file written by `neardup index build`.
    index: PathBuf,
    /// JSONL of {"id", "text"} lines (.gz, .zst, or - for standard input),
    /// or a folder of .txt files.
    queries: PathBuf,
    #[command(flatten)]
    fields: InputArgs,
    #[command(flatten)]
    needs: Needs,
}

/// A near-duplicate found for a query, as written.
#[derive(Serialize)]
struct MatchOut<'a> {
    id: &'a str,
    similarity: f64,
    #[serde(flatten)]
    measured: Measured,
}

/// Reads an index file: a snapshot (with the reference or dictionary it
/// needs) or an older index, converted by the core.
fn load(path: &Path, needs: &Needs) -> Result<Deduplicator> {
    let bytes = crate::input::read_bounded(path, crate::input::MAX_FILE_READ)?;
    let name = || path.display().to_string();
    let config = match Deduplicator::snapshot_config(&bytes) {
        Ok(c) => Some(c),
        Err(_) if !bytes.starts_with(b"NDDP") => None,
        Err(e) => return Err(crate::core(e)).with_context(name),
    };
    let model = match config {
        Some(c) if c.needs().reference => {
            let (file, reference) = crate::input::load_reference(needs.reference.as_deref())?;
            Some(MultiRefModel::new(reference, file.thresholds).map_err(crate::core)?)
        }
        _ => None,
    };
    let dictionary = match config {
        Some(c) if c.needs().dictionary => Some(Arc::new(crate::input::load_dictionary(
            needs.dictionary.as_ref(),
        )?)),
        _ => None,
    };
    Deduplicator::from_index_bytes(&bytes, model, dictionary)
        .map_err(crate::core)
        .with_context(name)
}

fn save(d: &Deduplicator, path: &Path) -> Result<usize> {
    let bytes = d.to_bytes();
    write_atomic(path, |w| w.write_all(&bytes))?;
    Ok(bytes.len())
}

/// Adds the documents of a collection: sketched on every core, added in
/// input order (the core's `add_batch`).
fn add_all(d: &mut Deduplicator, input: &Path, fields: &InputArgs) -> Result<ReadStats> {
    // The index sized once for the file's records, as `dedup` does.
    if let Some(n) = crate::input::estimate_records(input, &fields.fields()) {
        d.reserve(n);
    }
    let pb = progress(0, "indexing");
    let add = |d: &mut Deduplicator, batch: Vec<Record>| -> Result<()> {
        let ids: Vec<&str> = batch.iter().map(|r| r.id.as_str()).collect();
        let texts: Vec<&str> = batch.iter().map(|r| r.text.as_str()).collect();
        d.add_batch(&ids, &texts, |_, _| {}).map_err(|e| {
            let r = &batch[e.index.min(batch.len() - 1)];
            crate::core(e.error).context(format!(
                "line {} (id \"{}\")",
                r.line,
                crate::input::shown(&r.id)
            ))
        })?;
        pb.inc(batch.len() as u64);
        Ok(())
    };
    // The ids this input has taken: the deduplicator's own when it starts
    // empty (`index build`); `index add` keeps them apart, so that an id
    // already in the index is refused by the core, not skipped.
    let stats = if d.positions() == 0 {
        let held = |d: &Deduplicator, id: &str| d.contains(id);
        for_each_batch(input, &fields.fields(), d, held, add)?
    } else {
        for_each_batch_keeping_ids(input, &fields.fields(), |batch| add(d, batch))?
    };
    pb.finish_and_clear();
    Ok(stats)
}

pub fn run(cmd: IndexCommand) -> Result<ExitCode> {
    match cmd {
        IndexCommand::Build(a) => build(*a),
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
    let stages = a.options.stages()?;
    if stages.frequencies().is_none() && stages.config().needs().frequencies {
        return Err(crate::usage(
            "--weights tfidf: an index takes documents one at a time, so tf-idf has no \
             collection to count; use tf or binary",
        ));
    }
    let mut d = Deduplicator::from_stages(stages).map_err(crate::core)?;
    let stats = add_all(&mut d, &a.input, &a.fields)?;
    let size = save(&d, &a.output)?;
    eprintln!(
        "neardup: indexed {} documents into {} ({size} bytes)",
        d.len(),
        a.output.display(),
    );
    Ok(exit(stats))
}

fn add(a: AddArgs) -> Result<ExitCode> {
    let mut d = load(&a.index, &a.needs)?;
    let before = d.len();
    let stats = add_all(&mut d, &a.input, &a.fields)?;
    save(&d, &a.index)?;
    eprintln!(
        "neardup: added {} documents to {} ({} now)",
        d.len() - before,
        a.index.display(),
        d.len()
    );
    Ok(exit(stats))
}

fn remove(a: RemoveArgs) -> Result<ExitCode> {
    let mut d = load(&a.index, &a.needs)?;
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
        if !d.remove(id) {
            missing += 1;
            eprintln!("neardup: {id:?} is not in the index");
        }
    }
    save(&d, &a.index)?;
    eprintln!(
        "neardup: removed {} documents from {} ({} now)",
        ids.len() - missing,
        a.index.display(),
        d.len()
    );
    Ok(if missing > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn query(a: QueryArgs) -> Result<ExitCode> {
    let mut d = load(&a.index, &a.needs)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let stats = for_each_record(&a.queries, &a.fields.fields(), |q| {
        let found = d.query(&q.text).map_err(crate::core)?;
        let matches: Vec<MatchOut<'_>> = found
            .iter()
            .map(|m| MatchOut {
                id: m.id,
                similarity: m.verified.similarity,
                measured: Measured::from(&m.verified),
            })
            .collect();
        writeln!(
            out,
            "{}",
            serde_json::json!({ "id": q.id, "matches": matches })
        )?;
        Ok(())
    })?;
    out.flush()?;
    Ok(exit(stats))
}
