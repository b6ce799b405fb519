//! `neardup multiref train | pairs`: train the reference text of
//! multireference cosine signatures with a genetic algorithm (Mohammadi &
//! Khasteh 2020), and compare pairs of texts with it.
//!
//! **Training.** The corpus's documents are normalised and split 80/20 into
//! training and held-aside documents (a seeded shuffle). The *pool* is the
//! `--pool` character 3-grams with the highest total tf-idf. Pairs are drawn
//! from each side: half random pairs of documents, half a document and a
//! copy of it with a random 0–50 % of its words deleted (so that the whole
//! range of cosines is covered). A *chromosome* is `--grams` pool 3-grams;
//! its fitness is the mean absolute error (MAE) between the cosine of the
//! two signatures it makes and the exact cosine of the 3-gram frequency
//! vectors, over the training pairs. The genetic algorithm: a random
//! population, truncation selection (the better half breeds), single-cut
//! crossover of two parents, mutation replacing `--mutation` of the 3-grams
//! by pool 3-grams, `--elite` best kept unchanged; `--runs` independent
//! runs, the best kept. Fitness is evaluated on every core (rayon); the run
//! is reproducible from `--seed`. The reference is then checked with the
//! library's own signatures on the held-aside pairs.

use crate::input::{for_each_record, load_reference, progress, write_atomic, Fields};
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use neardup::hash::SplitMix64;
use neardup::multiref::{
    exact_cosine, similarity, Reference, ReferenceFile, Thresholds, REFERENCE_FORMAT,
};
use neardup::Document;
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum MultirefCommand {
    /// Train a reference with the genetic algorithm and write its JSON.
    Train(TrainArgs),
    /// Compare pairs of texts: {"id", "a", "b"} per line in, {"id",
    /// "estimate", "cosine", "decision"} per line out.
    Pairs(PairsArgs),
    /// The mean absolute error of a reference's estimates against the exact
    /// cosine on pairs drawn from a corpus (as training draws them).
    Eval(EvalArgs),
}

#[derive(Args)]
pub struct EvalArgs {
    /// JSONL of {"id", "text"} or a folder of .txt files.
    #[arg(long)]
    corpus: PathBuf,
    /// A reference JSON [the built-in one].
    #[arg(long)]
    reference: Option<PathBuf>,
    /// Pairs to draw.
    #[arg(long, default_value_t = 2000)]
    pairs: usize,
    /// Seed of the pairs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    fields: crate::options::InputArgs,
}

fn eval(a: EvalArgs) -> Result<ExitCode> {
    let (_, reference) = load_reference(a.reference.as_deref())?;
    let mut texts: Vec<String> = Vec::new();
    for_each_record(&a.corpus, &a.fields.fields(), |r| {
        texts.push(r.text);
        Ok(())
    })?;
    if texts.is_empty() {
        bail!("the corpus has no documents");
    }
    let mut rng = SplitMix64::new(a.seed);
    let pairs = sample_pairs(&texts, a.pairs, &mut rng);
    let started = std::time::Instant::now();
    let (mut abs, mut signatures) = (0.0, 0usize);
    for (x, y) in &pairs {
        let (dx, dy) = (Document::new(x, 0), Document::new(y, 0));
        let (sx, sy) = (reference.signature_of(&dx), reference.signature_of(&dy));
        signatures += 2;
        abs += (similarity(&sx, &sy).map_err(crate::core)? - exact_cosine(&dx, &dy)).abs();
    }
    let mae = abs / pairs.len() as f64;
    println!(
        "{}",
        serde_json::json!({
            "corpus": a.corpus.display().to_string(),
            "documents": texts.len(),
            "pairs": pairs.len(),
            "mae": mae,
            "grams": reference.grams().len(),
            "partitions": reference.partitions(),
            "seconds": started.elapsed().as_secs_f64(),
            "signatures": signatures,
        })
    );
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
pub struct TrainArgs {
    /// JSONL of {"id", "text"} (.gz, .zst, - for standard input) or a folder
    /// of .txt files.
    #[arg(long)]
    corpus: PathBuf,
    /// Where to write the reference JSON (atomically).
    #[arg(long, short)]
    output: PathBuf,
    /// 3-grams in the reference (R).
    #[arg(long, default_value_t = 1000)]
    grams: usize,
    /// Partitions (P, the signature's length).
    #[arg(long, default_value_t = 150)]
    partitions: usize,
    /// Pool of candidate 3-grams: the highest total tf-idf ones.
    #[arg(long, default_value_t = 9000)]
    pool: usize,
    /// Chromosomes per generation.
    #[arg(long, default_value_t = 100)]
    population: usize,
    /// Generations per run.
    #[arg(long, default_value_t = 50)]
    generations: usize,
    /// Independent runs; the best reference is kept.
    #[arg(long, default_value_t = 10)]
    runs: usize,
    /// Share of a child's 3-grams replaced by pool 3-grams.
    #[arg(long, default_value_t = 0.1)]
    mutation: f64,
    /// Best chromosomes kept unchanged into the next generation (the paper
    /// has none).
    #[arg(long, default_value_t = 2)]
    elite: usize,
    /// Training pairs (and as many held-aside pairs).
    #[arg(long, default_value_t = 2000)]
    pairs: usize,
    /// Documents read from the corpus at most (a seeded sample).
    #[arg(long, default_value_t = 5000)]
    max_docs: usize,
    /// Seed of the shuffle, the pairs and the algorithm.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Thresholds recorded as the reference's defaults: duplicate at or
    /// above t1.
    #[arg(long, default_value_t = 0.97)]
    t1: f64,
    /// Near duplicate at or above t2.
    #[arg(long, default_value_t = 0.93)]
    t2: f64,
    #[command(flatten)]
    fields: crate::options::InputArgs,
}

#[derive(Args)]
pub struct PairsArgs {
    /// JSONL of {"id", "a", "b"} lines, or - for standard input.
    pairs: PathBuf,
    /// A reference JSON from `neardup multiref train` [the built-in one].
    #[arg(long)]
    reference: Option<PathBuf>,
}

pub fn run(cmd: MultirefCommand) -> Result<ExitCode> {
    match cmd {
        MultirefCommand::Train(a) => train(a),
        MultirefCommand::Pairs(a) => pairs(a),
        MultirefCommand::Eval(a) => eval(a),
    }
}

fn pairs(a: PairsArgs) -> Result<ExitCode> {
    let (file, reference) = load_reference(a.reference.as_deref())?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut failed = 0usize;
    let reader = crate::input::open(&a.pairs)?;
    for (i, line) in io::BufRead::split(reader, b'\n').enumerate() {
        let line = line?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let r = (|| -> Result<serde_json::Value> {
            #[derive(serde::Deserialize)]
            struct Line {
                id: serde_json::Value,
                a: String,
                b: String,
            }
            let l: Line = serde_json::from_slice(&line)
                .context("not a {\"id\", \"a\", \"b\"} JSON object")?;
            let (da, db) = (Document::new(&l.a, 0), Document::new(&l.b, 0));
            let estimate = similarity(&reference.signature_of(&da), &reference.signature_of(&db))
                .map_err(crate::core)?;
            Ok(serde_json::json!({
                "id": l.id,
                "estimate": estimate,
                "cosine": exact_cosine(&da, &db),
                "decision": file.thresholds.decide(estimate),
            }))
        })();
        match r {
            Ok(v) => writeln!(out, "{v}")?,
            Err(e) => {
                failed += 1;
                out.flush()?;
                eprintln!("neardup: {}: line {}: {e:#}", a.pairs.display(), i + 1);
            }
        }
    }
    out.flush()?;
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A document's 3-gram counts over the pool (dense), and its norm over all
/// of its 3-grams.
struct DocVec {
    counts: Vec<u16>,
    norm: f64,
}

/// A pair of documents (indices into the pair documents) and its exact
/// cosine.
struct PairCos {
    a: usize,
    b: usize,
    cosine: f64,
}

/// The 3-grams of a normalised text, as strings.
fn grams_of(doc: &Document) -> Vec<String> {
    let chars: Vec<char> = doc.normalized().text().chars().collect();
    if chars.is_empty() {
        return Vec::new();
    }
    if chars.len() < 3 {
        return vec![chars.iter().collect()];
    }
    chars.windows(3).map(|w| w.iter().collect()).collect()
}

/// A copy of `text` with a share `rate` of its words deleted.
fn with_words_deleted(text: &str, rate: f64, rng: &mut SplitMix64) -> String {
    text.split_whitespace()
        .filter(|_| (rng.next() >> 11) as f64 / (1u64 << 53) as f64 >= rate)
        .collect::<Vec<_>>()
        .join(" ")
}

fn unit(rng: &mut SplitMix64) -> f64 {
    (rng.next() >> 11) as f64 / (1u64 << 53) as f64
}

/// `count` pairs of texts: half random pairs of `side`, half a text and a
/// copy with a random 0–50 % of its words deleted.
fn sample_pairs(side: &[String], count: usize, rng: &mut SplitMix64) -> Vec<(String, String)> {
    (0..count)
        .map(|k| {
            let x = &side[(rng.next() % side.len() as u64) as usize];
            if k % 2 == 0 {
                let y = &side[(rng.next() % side.len() as u64) as usize];
                (x.clone(), y.clone())
            } else {
                let rate = 0.5 * unit(rng);
                (x.clone(), with_words_deleted(x, rate, rng))
            }
        })
        .collect()
}

struct Problem {
    pool: Vec<String>,
    docs: Vec<DocVec>,
    train: Vec<PairCos>,
    test_texts: Vec<(String, String)>,
    test: Vec<PairCos>,
}

fn prepare(a: &TrainArgs) -> Result<Problem> {
    let mut texts: Vec<String> = Vec::new();
    let fields: Fields = a.fields.fields();
    for_each_record(&a.corpus, &fields, |r| {
        texts.push(r.text);
        Ok(())
    })?;
    if texts.len() < 10 {
        bail!(
            "the corpus has {} documents; training needs at least 10",
            texts.len()
        );
    }
    let mut rng = SplitMix64::new(a.seed);
    for i in (1..texts.len()).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        texts.swap(i, j);
    }
    texts.truncate(a.max_docs);
    // The pool: total tf-idf of each 3-gram over the corpus.
    let grams: Vec<Vec<String>> = texts
        .iter()
        .map(|t| grams_of(&Document::new(t, 0)))
        .collect();
    let mut tf: HashMap<&str, (u64, u32)> = HashMap::new();
    for g in &grams {
        let mut seen: Vec<&str> = g.iter().map(String::as_str).collect();
        for x in &seen {
            tf.entry(x).or_insert((0, 0)).0 += 1;
        }
        seen.sort_unstable();
        seen.dedup();
        for x in seen {
            tf.entry(x).or_insert((0, 0)).1 += 1;
        }
    }
    let n = texts.len() as f64;
    let mut scored: Vec<(&str, f64)> = tf
        .iter()
        .map(|(g, &(t, d))| (*g, t as f64 * ((1.0 + n) / (1.0 + d as f64)).ln()))
        .collect();
    scored.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(y.0)));
    let pool: Vec<String> = scored
        .iter()
        .take(a.pool)
        .map(|(g, _)| g.to_string())
        .collect();
    if pool.len() < a.grams.min(a.pool) {
        bail!("the corpus has only {} distinct 3-grams", pool.len());
    }
    let index: HashMap<&str, u32> = pool
        .iter()
        .enumerate()
        .map(|(i, g)| (g.as_str(), i as u32))
        .collect();

    let split = texts.len() * 4 / 5;
    let mut docs: Vec<DocVec> = Vec::new();
    let mut pair_texts: Vec<(String, String)> = Vec::new();
    let train_texts = sample_pairs(&texts[..split], a.pairs, &mut rng);
    let test_texts = sample_pairs(&texts[split..], a.pairs, &mut rng);
    let mut vec_of = |t: &str| -> usize {
        let doc = Document::new(t, 0);
        let mut counts = vec![0u16; pool.len()];
        let mut all: HashMap<String, u32> = HashMap::new();
        for g in grams_of(&doc) {
            if let Some(&i) = index.get(g.as_str()) {
                counts[i as usize] = counts[i as usize].saturating_add(1);
            }
            *all.entry(g).or_insert(0) += 1;
        }
        let norm = (all.values().map(|&c| c as u64 * c as u64).sum::<u64>() as f64).sqrt();
        docs.push(DocVec { counts, norm });
        docs.len() - 1
    };
    let mut pairs_of = |ts: &[(String, String)]| -> Vec<PairCos> {
        ts.iter()
            .map(|(x, y)| PairCos {
                a: vec_of(x),
                b: vec_of(y),
                cosine: exact_cosine(&Document::new(x, 0), &Document::new(y, 0)),
            })
            .collect()
    };
    let train = pairs_of(&train_texts);
    pair_texts.extend(test_texts.iter().cloned());
    let test = pairs_of(&test_texts);
    Ok(Problem {
        pool,
        docs,
        train,
        test_texts: pair_texts,
        test,
    })
}

/// Partition bounds as in `Reference::new`.
fn bounds(r: usize, p: usize) -> Vec<usize> {
    let (q, extra) = (r / p, r % p);
    let mut b = Vec::with_capacity(p + 1);
    let mut at = 0;
    for i in 0..p {
        b.push(at);
        at += q + usize::from(i < extra);
    }
    b.push(r);
    b
}

/// MAE of a chromosome over pairs.
fn fitness(chrom: &[u32], parts: &[usize], problem: &Problem, pairs: &[PairCos]) -> f64 {
    let p = parts.len() - 1;
    // Partition norms (a pool 3-gram may repeat within a partition).
    let norms: Vec<f64> = (0..p)
        .map(|i| {
            let mut g: Vec<u32> = chrom[parts[i]..parts[i + 1]].to_vec();
            g.sort_unstable();
            let mut sum = 0u64;
            let mut k = 0;
            while k < g.len() {
                let mut j = k;
                while j < g.len() && g[j] == g[k] {
                    j += 1;
                }
                sum += ((j - k) * (j - k)) as u64;
                k = j;
            }
            (sum as f64).sqrt()
        })
        .collect();
    let sig = |d: &DocVec| -> Vec<f64> {
        (0..p)
            .map(|i| {
                if d.norm == 0.0 || norms[i] == 0.0 {
                    return 0.0;
                }
                let dot: u64 = chrom[parts[i]..parts[i + 1]]
                    .iter()
                    .map(|&g| d.counts[g as usize] as u64)
                    .sum();
                dot as f64 / (d.norm * norms[i])
            })
            .collect()
    };
    let mut err = 0.0;
    for pc in pairs {
        let (x, y) = (sig(&problem.docs[pc.a]), sig(&problem.docs[pc.b]));
        let (mut dot, mut xx, mut yy) = (0.0, 0.0, 0.0);
        for (u, v) in x.iter().zip(&y) {
            dot += u * v;
            xx += u * u;
            yy += v * v;
        }
        let est = if xx == 0.0 || yy == 0.0 {
            0.0
        } else {
            dot / (xx.sqrt() * yy.sqrt())
        };
        err += (est - pc.cosine).abs();
    }
    err / pairs.len().max(1) as f64
}

fn evolve(a: &TrainArgs, problem: &Problem, run: usize) -> (Vec<u32>, f64) {
    let parts = bounds(a.grams, a.partitions);
    let mut rng = SplitMix64::new(a.seed ^ (0x6761_0000 + run as u64));
    let pool = problem.pool.len() as u64;
    let mut population: Vec<Vec<u32>> = (0..a.population)
        .map(|_| (0..a.grams).map(|_| (rng.next() % pool) as u32).collect())
        .collect();
    let mut best = (Vec::new(), f64::INFINITY);
    let pb = progress(a.generations, &format!("run {}/{}", run + 1, a.runs));
    for _ in 0..a.generations {
        let mut scored: Vec<(f64, Vec<u32>)> = population
            .into_par_iter()
            .map(|c| (fitness(&c, &parts, problem, &problem.train), c))
            .collect();
        scored.sort_by(|x, y| x.0.total_cmp(&y.0));
        if scored[0].0 < best.1 {
            best = (scored[0].1.clone(), scored[0].0);
        }
        let parents: Vec<Vec<u32>> = scored
            .into_iter()
            .take((a.population / 2).max(2))
            .map(|(_, c)| c)
            .collect();
        let mut next: Vec<Vec<u32>> = parents.iter().take(a.elite).cloned().collect();
        while next.len() < a.population {
            let x = &parents[(rng.next() % parents.len() as u64) as usize];
            let y = &parents[(rng.next() % parents.len() as u64) as usize];
            let cut = (rng.next() % a.grams as u64) as usize;
            let mut child: Vec<u32> = x[..cut].iter().chain(&y[cut..]).copied().collect();
            let changes = (a.mutation * a.grams as f64).round() as usize;
            for _ in 0..changes {
                let at = (rng.next() % a.grams as u64) as usize;
                child[at] = (rng.next() % pool) as u32;
            }
            next.push(child);
        }
        population = next;
        pb.inc(1);
        pb.set_message(format!("run {}/{} MAE {:.4}", run + 1, a.runs, best.1));
    }
    pb.finish_and_clear();
    best
}

fn train(a: TrainArgs) -> Result<ExitCode> {
    crate::input::check_output(&a.output)?;
    if a.grams == 0
        || a.partitions == 0
        || a.partitions > a.grams
        || a.population < 2
        || a.runs == 0
        || a.pairs == 0
    {
        return Err(crate::usage(
            "need grams ≥ partitions ≥ 1, population ≥ 2, runs ≥ 1 and pairs ≥ 1",
        ));
    }
    if !(0.0..=1.0).contains(&a.mutation) {
        bail!(
            "invalid option --mutation: must be in [0, 1], got {}",
            a.mutation
        );
    }
    let thresholds = Thresholds { t1: a.t1, t2: a.t2 };
    thresholds.check().map_err(crate::core)?;
    let started = std::time::Instant::now();
    let problem = prepare(&a)?;
    let mut best = (Vec::new(), f64::INFINITY);
    for run in 0..a.runs {
        let r = evolve(&a, &problem, run);
        eprintln!("neardup: run {}: training MAE {:.4}", run + 1, r.1);
        if r.1 < best.1 {
            best = r;
        }
    }
    let grams: Vec<String> = best
        .0
        .iter()
        .map(|&g| problem.pool[g as usize].clone())
        .collect();
    let reference = Reference::new(grams.clone(), a.partitions).map_err(crate::core)?;
    // The held-aside pairs, with the library's own signatures.
    let mut sum = vec![0.0f64; a.partitions];
    let mut n = 0usize;
    let mut abs = 0.0;
    for ((x, y), pc) in problem.test_texts.iter().zip(&problem.test) {
        let (sx, sy) = (reference.signature(x), reference.signature(y));
        for s in [&sx, &sy] {
            for (acc, &v) in sum.iter_mut().zip(s.values()) {
                *acc += v as f64;
            }
            n += 1;
        }
        abs += (similarity(&sx, &sy).map_err(crate::core)? - pc.cosine).abs();
    }
    let test_mae = abs / problem.test.len() as f64;
    let mean: Vec<f32> = sum.iter().map(|s| (s / n.max(1) as f64) as f32).collect();
    let file = ReferenceFile {
        format: REFERENCE_FORMAT,
        partitions: a.partitions as u32,
        grams,
        mean,
        thresholds,
        provenance: serde_json::json!({
            "corpus": a.corpus.display().to_string(),
            "documents": problem.docs.len(),
            "trainer": "neardup multiref train: genetic algorithm (Mohammadi & Khasteh 2020), truncation selection, single-cut crossover, elitism",
            "pool": a.pool, "population": a.population, "generations": a.generations, "runs": a.runs,
            "mutation": a.mutation, "elite": a.elite, "pairs": a.pairs, "seed": a.seed,
            "train_mae": best.1,
            "held_aside_mae": test_mae,
        }),
    };
    // Round trip through the JSON format before writing.
    ReferenceFile::from_json(&file.to_json()).map_err(crate::core)?;
    let json = file.to_json() + "\n";
    write_atomic(&a.output, |w| w.write_all(json.as_bytes()))?;
    eprintln!(
        "neardup: R = {}, P = {}: training MAE {:.4}, held-aside MAE {test_mae:.4} ({} pairs) in {:.0} s; wrote {}",
        a.grams,
        a.partitions,
        best.1,
        problem.test.len(),
        started.elapsed().as_secs_f64(),
        a.output.display()
    );
    Ok(ExitCode::SUCCESS)
}
