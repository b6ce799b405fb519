//! `neardup dedup`: near-duplicate pairs, clusters or the deduplicated
//! corpus of a collection, by MinHash LSH, SimHash (verified), exactly by
//! all-pairs Jaccard with prefix filtering, or by multireference
//! signatures; a summary, and precision/recall against labelled pairs.
//!
//! Input and output only: the pipeline is the core's
//! ([`neardup::dedup::Deduplicator`]). Records are read in order, sketched
//! on every core ([`neardup::dedup::Stages::sketch`]) and added in input
//! order, so the output does not depend on the number of threads. Only the
//! sketches (and, to verify, the shingle sets) stay in memory, never the
//! texts; pairs are kept only when they are written or scored.

use crate::input::{
    for_each_batch, for_each_batch_keeping_ids, for_each_record, open, progress, write_atomic,
    Fields, Measured, ReadStats, Record,
};
use crate::options::{DedupOptions, InputArgs};
use anyhow::{bail, Context, Result};
use clap::Args;
use neardup::dedup::{DedupMethod, Deduplicator, Stages, Verified};
use neardup::measures::classification::Prf;
use neardup::minhash::LshParams;
use neardup::tfidf::DocumentFrequencies;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Args)]
#[command(after_long_help = CHOOSING)]
pub struct DedupArgs {
    /// A JSONL file ({"id", "text"} per line; .gz and .zst are read too), a
    /// folder of .txt files (ids are the file names), or - for standard input.
    #[arg(required_unless_present = "explain")]
    input: Option<PathBuf>,
    #[command(flatten)]
    options: DedupOptions,
    #[command(flatten)]
    fields: InputArgs,
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
    /// Print the bands, rows and S-curve of the MinHash LSH settings, and exit.
    #[arg(long)]
    explain: bool,
    /// Labelled pairs (TSV with a header; id_a, id_b, and optionally an
    /// edit_rate column): report precision, recall, F1 and recall per edit
    /// rate of the pairs found.
    #[arg(long)]
    truth: Option<PathBuf>,
    /// Write every near-duplicate pair within clusters (each two members
    /// whose verification passes) instead of one pair per document joining
    /// a cluster: time and output grow as the square of a cluster's size,
    /// so it is refused when the clusters hold more than --max-pairs pairs.
    #[arg(long, conflicts_with_all = ["clusters", "keep", "drop_list"])]
    all_pairs: bool,
    /// The most pairs --all-pairs writes (1 to 2^63 - 1).
    #[arg(long, default_value_t = 10_000_000, requires = "all_pairs",
          value_parser = clap::value_parser!(u64).range(1..=i64::MAX as u64))]
    max_pairs: u64,
    /// Write the summary (and the --truth figures) as JSON to this file.
    #[arg(long)]
    summary: Option<PathBuf>,
    /// Write the output here (atomically) instead of standard output (`-`:
    /// standard output).
    #[arg(long, short)]
    output: Option<PathBuf>,
}

/// How to choose, shown by `neardup dedup --help`.
const CHOOSING: &str = "\
How to choose (F1 over pairs on docs-bench, 5,075 documents with 543 copies
edited at 1-15 %, and on its typo copies with up to 20 % of words misspelled;
CPU for 34 MB, all cores summed, on 2026-11-29; EVALUATION.md has the
whole sweep):

  setting                               docs-bench  typos  CPU    memory
  (default) minhash, char:5, t 0.5      0.995       0.998  0.3 s  1.1 KB a document
  --method simhash (char:5, k 10,       0.994       0.989  0.8 s  + every shingle set
    verified by exact Jaccard >= 0.5)                              (8 B a character)
  --shingle word:5                      0.771       0.625  0.2 s  finds only light edits
  --method simhash --no-verify -k 3     0.775       0.699  0.3 s  smallest
  --method exact                        1.000 by definition; 45 s on 5,000 documents";

#[derive(Serialize)]
struct PairOut<'a> {
    a: &'a str,
    b: &'a str,
    #[serde(flatten)]
    measured: Measured,
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

/// A pair found: the positions of the documents (`a` read first), and the
/// measures known of it.
struct Found {
    a: usize,
    b: usize,
    v: Verified,
}

/// The ids of the documents read, by position: the deduplicator's own.
struct Ids<'a>(&'a Deduplicator);

impl std::ops::Index<usize> for Ids<'_> {
    type Output = str;

    fn index(&self, position: usize) -> &str {
        // Positions come from the deduplicator, which the CLI never
        // removes from: every one is held.
        self.0.id(position as u32).unwrap_or_default()
    }
}

/// What reading the input into the deduplicator gathered.
#[derive(Default)]
struct Collected {
    /// Documents read (their positions in the deduplicator).
    count: usize,
    lines: Vec<usize>,
    found: Vec<Found>,
    stats: ReadStats,
}

pub fn run(args: DedupArgs) -> Result<ExitCode> {
    for path in [&args.output, &args.summary].into_iter().flatten() {
        crate::input::check_output(path)?;
    }
    let started = std::time::Instant::now();
    if args.explain {
        let config = args.options.config()?;
        config.check().map_err(crate::core)?;
        if config.method != DedupMethod::MinHash {
            return Err(crate::usage(format!(
                "--explain describes MinHash LSH settings; it does not apply to --method {}",
                config.method
            )));
        }
        explain(&config.lsh_params().map_err(crate::core)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut stages = args.options.stages()?;
    let input = args.input.as_deref().context("an input is needed")?;
    let tfidf = stages.config().needs().frequencies;
    // --keep and tf-idf weights read the input twice: standard input is
    // kept in a temporary file for the second pass.
    let spooled = match (args.keep || tfidf, input == Path::new("-")) {
        (true, true) => Some(spool_stdin()?),
        _ => None,
    };
    let input = spooled.as_ref().map_or(input, |t| t.path());
    if tfidf {
        let df = count(&stages, input, &args.fields)?;
        stages = stages.with_frequencies(Arc::new(df)).map_err(crate::core)?;
    }
    let mut dedup = Deduplicator::from_stages(stages).map_err(crate::core)?;
    // The index sized once for the whole file, not rebuilt at each doubling
    // (BENCHMARKS.md, "Tables sized before a collection is read").
    if let Some(n) = crate::input::estimate_records(input, &args.fields.fields()) {
        dedup.reserve(n);
    }
    let pairs_wanted =
        !(args.clusters || args.keep || args.drop_list || args.all_pairs) || args.truth.is_some();
    let mut c = read(&args, input, &mut dedup, pairs_wanted)?;
    if args.all_pairs {
        c.found = dedup
            .all_pairs(args.max_pairs)
            .map_err(crate::core)?
            .into_iter()
            .map(|p| Found {
                a: p.a_position as usize,
                b: p.b_position as usize,
                v: p.verified,
            })
            .collect();
    }
    let clusters = dedup.cluster_positions();
    let s = dedup.summary();
    // The ids are the deduplicator's, held once, by position.
    let ids = Ids(&dedup);
    sort_pairs(&mut c.found, &ids, dedup.config().method);
    // Cluster by cluster, as the drop list has always been written.
    let dropped: Vec<usize> = clusters
        .iter()
        .flat_map(|c| c[1..].iter().map(|&i| i as usize))
        .collect();
    write_output(&args, input, &c, &ids, &clusters, &dropped)?;
    let truth = match &args.truth {
        Some(t) => Some(evaluate(t, &ids, &c.found)?),
        None => None,
    };
    let pairs = match args.all_pairs {
        true => c.found.len() as u64,
        false => s.pairs,
    };
    let summary = summarize(&dedup, &c.stats, pairs, clusters.len(), dropped.len());
    report(
        &args,
        Summary {
            seconds: started.elapsed().as_secs_f64(),
            truth,
            ..summary
        },
    )?;
    Ok(if c.stats.bad_lines > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A failure of the core on a record of a batch, named by its line and id.
fn at_record(batch: &[Record], e: neardup::dedup::BatchError) -> anyhow::Error {
    let r = &batch[e.index.min(batch.len().saturating_sub(1))];
    crate::core(e.error).context(format!(
        "line {} (id \"{}\")",
        r.line,
        crate::input::shown(&r.id)
    ))
}

/// The first pass of tf-idf weights: the document frequencies of the
/// whole input, counted on every core.
fn count(stages: &Stages, input: &Path, fields: &InputArgs) -> Result<DocumentFrequencies> {
    let pb = progress(0, "counting");
    let mut df = DocumentFrequencies::new();
    // This pass has no `Deduplicator` to hold the ids taken.
    for_each_batch_keeping_ids(input, &fields.fields(), |batch| {
        let texts: Vec<&str> = batch.iter().map(|r| r.text.as_str()).collect();
        let part = stages
            .count_batch(&texts)
            .map_err(|e| at_record(&batch, e))?;
        df.merge(&part).map_err(crate::core)?;
        pb.inc(batch.len() as u64);
        Ok(())
    })?;
    pb.finish_and_clear();
    Ok(df)
}

/// Reads the input into `dedup`: documents sketched on every core and added
/// in input order (the core's `add_batch`); the pairs each one finds are
/// kept when `pairs_wanted`.
fn read(
    args: &DedupArgs,
    input: &Path,
    dedup: &mut Deduplicator,
    pairs_wanted: bool,
) -> Result<Collected> {
    let pb = progress(0, "documents");
    let mut c = Collected::default();
    // The ids taken are the deduplicator's: held once, by it.
    let held = |d: &Deduplicator, id: &str| d.contains(id);
    c.stats = for_each_batch(input, &args.fields.fields(), dedup, held, |dedup, batch| {
        let ids: Vec<&str> = batch.iter().map(|r| r.id.as_str()).collect();
        let texts: Vec<&str> = batch.iter().map(|r| r.text.as_str()).collect();
        let first = c.count;
        let found = &mut c.found;
        dedup
            .add_batch(&ids, &texts, |i, matches| {
                if pairs_wanted {
                    found.extend(matches.iter().map(|m| Found {
                        a: m.position as usize,
                        b: first + i,
                        v: m.verified,
                    }));
                }
            })
            .map_err(|e| at_record(&batch, e))?;
        pb.inc(batch.len() as u64);
        c.count += batch.len();
        if args.keep {
            c.lines.extend(batch.iter().map(|r| r.line));
        }
        Ok(())
    })?;
    pb.finish_and_clear();
    Ok(c)
}

/// Pairs in the order of the output: by ids (`a` the smaller) for the
/// indexes' methods, by input position for the exact join.
fn sort_pairs(found: &mut [Found], ids: &Ids<'_>, method: DedupMethod) {
    if method == DedupMethod::Exact {
        found.sort_unstable_by_key(|f| (f.a, f.b));
        return;
    }
    for f in found.iter_mut() {
        if ids[f.a] > ids[f.b] {
            std::mem::swap(&mut f.a, &mut f.b);
        }
    }
    found.sort_unstable_by(|x, y| (&ids[x.a], &ids[x.b]).cmp(&(&ids[y.a], &ids[y.b])));
}

/// The summary of a run (its time and truth figures are filled in later).
fn summarize(
    dedup: &Deduplicator,
    stats: &ReadStats,
    pairs: u64,
    clusters: usize,
    duplicates: usize,
) -> Summary {
    let config = dedup.config();
    let lsh = dedup.stages().lsh_params();
    let hamming = matches!(config.method, DedupMethod::SimHash | DedupMethod::MultiRef);
    let method = match (config.method, config.verifies(), config.keeps_candidates()) {
        (DedupMethod::SimHash, true, _) => "simhash+exact",
        (DedupMethod::SimHash, false, _) => "simhash",
        (DedupMethod::MinHash, true, _) => "minhash-lsh+exact",
        (DedupMethod::MinHash, _, true) => "minhash-lsh-candidates",
        (DedupMethod::MinHash, _, _) => "minhash-lsh+estimate",
        (DedupMethod::Exact, _, _) => "exact",
        (DedupMethod::MultiRef, true, _) => "multiref+exact",
        (DedupMethod::MultiRef, false, _) => "multiref",
    };
    let documents = stats.documents;
    Summary {
        method: method.into(),
        shingle: config.shingle_spec().to_string(),
        threshold: config.jaccard_threshold(),
        max_distance: hamming.then(|| config.max_distance()),
        weights: (config.method == DedupMethod::SimHash)
            .then(|| config.weighting().name().to_string()),
        num_perm: lsh.as_ref().map(|p| p.num_perm() as u32),
        scheme: lsh
            .as_ref()
            .map(|_| config.scheme.unwrap_or_default().to_string()),
        bands: lsh.as_ref().map(LshParams::bands),
        rows: lsh.as_ref().map(|p| p.rows().to_vec()),
        documents,
        bad_lines: stats.bad_lines,
        pairs: pairs as usize,
        clusters,
        duplicates,
        removed_percent: if documents == 0 {
            0.0
        } else {
            100.0 * duplicates as f64 / documents as f64
        },
        seconds: 0.0,
        truth: None,
    }
}

/// The summary on standard error, and as JSON with `--summary`.
fn report(args: &DedupArgs, summary: Summary) -> Result<()> {
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
    Ok(())
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

fn write_output(
    args: &DedupArgs,
    input: &Path,
    c: &Collected,
    ids: &Ids<'_>,
    clusters: &[Vec<u32>],
    dropped: &[usize],
) -> Result<()> {
    let write = |out: &mut dyn Write| -> io::Result<()> {
        if args.clusters {
            for cl in clusters {
                let members: Vec<&str> = cl.iter().map(|&i| &ids[i as usize]).collect();
                writeln!(out, "{}", serde_json::json!({ "cluster": members }))?;
            }
        } else if args.drop_list {
            for &i in dropped {
                writeln!(out, "{}", &ids[i])?;
            }
        } else if args.keep {
            keep_lines(out, input, &args.fields.fields(), ids, &c.lines, dropped)?;
        } else {
            for f in &c.found {
                let p = PairOut {
                    a: &ids[f.a],
                    b: &ids[f.b],
                    measured: Measured::from(&f.v),
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
    ids: &Ids<'_>,
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
        let keep_ids: HashSet<&str> = (0..lines.len())
            .filter(|i| kept.contains(&lines[*i]))
            .map(|i| &ids[i])
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
    let mut reader = open(input).map_err(io::Error::other)?;
    crate::input::for_each_line(&mut reader, |n, line| {
        // Lines over the limit were skipped when read: none is kept.
        if let (true, Ok(line)) = (kept.contains(&n), line) {
            out.write_all(line)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    })
    .map_err(io::Error::other)
}

fn evaluate(truth: &Path, ids: &Ids<'_>, found: &[Found]) -> Result<TruthSummary> {
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
        found.iter().map(|f| key(&ids[f.a], &ids[f.b])).collect();
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
