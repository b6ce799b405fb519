//! `neardup eval`: how well the score (containment) or the learned verdict
//! separates the categories of the Clough–Stevenson corpus.

use crate::options::CompareOptions;
use crate::verdict::{self as train, is_copied, KernelChoice};
use anyhow::{Context, Result};
use clap::Args;
use neardup::measures::classification::{best_f1, roc_auc, ConfusionMatrix, Prf};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct EvalArgs {
    /// The clough-abc folder (with labels.csv and texts/), or the
    /// environment variable NEARDUP_CLOUGH.
    #[arg(long, env = "NEARDUP_CLOUGH")]
    clough: PathBuf,
    /// Print the evaluation, and every pair's score, as JSON.
    #[arg(long)]
    json: bool,
    /// Evaluate the learned verdict instead: nested leave-one-task-out
    /// cross-validation against one threshold on containment.
    #[arg(long)]
    svm: bool,
    /// With --svm: kernels to choose from.
    #[arg(long, value_enum, default_value = "both")]
    kernel: KernelChoice,
    /// With --svm: evaluate the format 1 model, the new features, both
    /// schemes and each feature group added and left out, and print one
    /// Markdown table (EVALUATION.md's).
    #[arg(long, requires = "svm")]
    compare: bool,
    /// With --svm: the model to evaluate.
    #[command(flatten)]
    model: train::ModelArgs,
    /// Evaluate a reference library's matches instead (what a listed
    /// library match needs): the corpus's answers against a library of its
    /// sources and unrelated docs-bench originals.
    #[arg(long, conflicts_with = "svm", requires = "docs_bench")]
    library: bool,
    /// With --library: the docs-bench `docs.jsonl`, or the environment
    /// variable NEARDUP_DOCS_BENCH.
    #[arg(long, env = "NEARDUP_DOCS_BENCH", value_name = "FILE")]
    docs_bench: Option<PathBuf>,
    /// With --library: how many docs-bench originals the library holds
    /// besides the sources.
    #[arg(long, default_value_t = 2000)]
    distractors: usize,
    #[command(flatten)]
    opts: CompareOptions,
}

#[derive(Serialize)]
struct EvalPair {
    file: String,
    source: String,
    task: String,
    category: String,
    score: f64,
}

#[derive(Serialize)]
struct CategoryStat {
    n: usize,
    mean_score: f64,
}

#[derive(Serialize)]
struct EvalOut {
    word_k: u32,
    pairs: usize,
    /// ROC AUC of the score for "copied" (cut, light, heavy) against non.
    roc_auc: Option<f64>,
    best_threshold: Option<f64>,
    precision: Option<f64>,
    recall: Option<f64>,
    f1: Option<f64>,
    categories: BTreeMap<String, CategoryStat>,
    scores: Vec<EvalPair>,
}

pub fn run(args: EvalArgs) -> Result<ExitCode> {
    if let (true, Some(docs)) = (args.library, &args.docs_bench) {
        return crate::eval_library::run(&args.clough, docs, args.distractors);
    }
    if args.svm {
        return run_svm(&args);
    }
    if let Some(option) = args.model.given() {
        return Err(crate::usage(format!(
            "{option} describes a learned model: it needs --svm"
        )));
    }
    let config = args.opts.config()?;
    let mut pairs = Vec::new();
    for p in train::read_clough(&args.clough)? {
        let r = neardup::compare(&p.a, &p.b, &config)
            .map_err(crate::core)
            .with_context(|| p.id.clone())?;
        pairs.push(EvalPair {
            file: p.id,
            source: p.source,
            task: p.group,
            category: p.label,
            score: r.measures.score,
        });
    }
    let scores: Vec<f64> = pairs.iter().map(|p| p.score).collect();
    let copied: Vec<bool> = pairs.iter().map(|p| is_copied(&p.category)).collect();
    let best = best_f1(&scores, &copied);
    let mut categories: BTreeMap<String, CategoryStat> = BTreeMap::new();
    for p in &pairs {
        let c = categories
            .entry(p.category.clone())
            .or_insert(CategoryStat {
                n: 0,
                mean_score: 0.0,
            });
        c.n += 1;
        c.mean_score += p.score;
    }
    for c in categories.values_mut() {
        c.mean_score /= c.n as f64;
    }
    let result = EvalOut {
        word_k: config.word_k,
        pairs: pairs.len(),
        roc_auc: roc_auc(&scores, &copied),
        best_threshold: best.map(|b| b.threshold),
        precision: best.map(|b| b.precision),
        recall: best.map(|b| b.recall),
        f1: best.map(|b| b.f1),
        categories,
        scores: pairs,
    };
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &result)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let f = |x: Option<f64>| x.map_or("n/a".to_string(), |v| format!("{v:.3}"));
    writeln!(
        out,
        "{} pairs, score = containment by word {}-shingles",
        result.pairs, result.word_k
    )?;
    for (name, c) in &result.categories {
        writeln!(
            out,
            "  {name:<6} n={:<3} mean score {:.3}",
            c.n, c.mean_score
        )?;
    }
    writeln!(
        out,
        "copied (cut+light+heavy) vs non: ROC AUC {}, best F1 {} at threshold {} (P {}, R {})",
        f(result.roc_auc),
        f(result.f1),
        f(result.best_threshold),
        f(result.precision),
        f(result.recall)
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Precision, recall and F1 of binary predictions.
fn prf_of(pred: &[bool], truth: &[bool]) -> Prf {
    let count = |p: bool, t: bool| {
        pred.iter()
            .zip(truth)
            .filter(|&(&x, &y)| x == p && y == t)
            .count()
    };
    Prf::from_counts(count(true, true), count(true, false), count(false, true))
}

/// The figures of one evaluated setup.
#[derive(Serialize)]
struct SvmEval {
    name: String,
    accuracy: f64,
    confusion: Vec<Vec<usize>>,
    per_class: Vec<serde_json::Value>,
    binary: Prf,
    roc_auc: Option<f64>,
    /// Multi-class Brier score (mean over pairs of Σ_k (p_k − [y = k])²,
    /// 0 best, 2 worst); `None` without probabilities.
    brier: Option<f64>,
    /// Reliability: (bin from, bin to, pairs, mean confidence, accuracy).
    reliability: Vec<(f64, f64, usize, f64, f64)>,
    /// Pairs whose verdict named two classes ("between"), and how many of
    /// those had the truth among the two.
    between: (usize, usize),
    /// At the ends, held out: a text against itself (the probability of
    /// the highest grade), against an unrelated source (of the lowest), and
    /// the labelled originals sharing no word 3-shingle with their source
    /// (of the lowest): (pairs, smallest probability, mean probability)
    /// each.
    ends: [(usize, f64, f64); 3],
    chosen: BTreeMap<String, train::Hyper>,
}

fn evaluate(
    name: &str,
    pairs: &[train::Pair],
    model: &train::ModelArgs,
    kernels: &[&str],
) -> Result<(SvmEval, train::Outer)> {
    let setup = model.setup(pairs)?;
    let o = train::nested_cv(pairs, &setup, kernels)?;
    let classes: Vec<String> = train::CLOUGH_GRADES.iter().map(|c| c.to_string()).collect();
    let truth: Vec<bool> = pairs.iter().map(|p| is_copied(&p.label)).collect();
    let svm_pred: Vec<bool> = o.decisions.iter().map(|&d| d >= 0.0).collect();
    let confusion = confusion_of(&classes, pairs, &o.predicted);
    let calibrated = o.probabilities.iter().all(|p| !p.is_empty());
    let brier = calibrated.then(|| {
        pairs
            .iter()
            .zip(&o.probabilities)
            .map(|(p, probs)| {
                probs
                    .iter()
                    .map(|(c, q)| (q - f64::from(u8::from(*c == p.label))).powi(2))
                    .sum::<f64>()
            })
            .sum::<f64>()
            / pairs.len() as f64
    });
    let mut reliability = Vec::new();
    let mut between = (0, 0);
    if calibrated {
        let bins = [(0.0, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 1.0001)];
        for (from, to) in bins {
            let (mut n, mut conf, mut right) = (0usize, 0.0, 0usize);
            for ((p, probs), pred) in pairs.iter().zip(&o.probabilities).zip(&o.predicted) {
                let c = probs.iter().find(|(c, _)| c == pred).map_or(0.0, |x| x.1);
                if c >= from && c < to {
                    n += 1;
                    conf += c;
                    right += usize::from(*pred == p.label);
                }
            }
            if n > 0 {
                reliability.push((
                    from,
                    to.min(1.0),
                    n,
                    conf / n as f64,
                    right as f64 / n as f64,
                ));
            }
        }
        for (p, b) in pairs.iter().zip(&o.between) {
            if let Some((x, y)) = b {
                between.0 += 1;
                between.1 += usize::from(*x == p.label || *y == p.label);
            }
        }
    }
    let result = SvmEval {
        name: name.into(),
        accuracy: confusion.accuracy(),
        per_class: per_class(&classes, &confusion),
        confusion: confusion.rows().to_vec(),
        binary: prf_of(&svm_pred, &truth),
        roc_auc: roc_auc(&o.decisions, &truth),
        brier,
        reliability,
        between,
        ends: [
            train::Kind::Itself,
            train::Kind::Unrelated,
            train::Kind::Labelled,
        ]
        .map(|kind| {
            let qs: Vec<f64> = o.ends.iter().filter(|e| e.0 == kind).map(|e| e.1).collect();
            let min = qs.iter().copied().fold(f64::INFINITY, f64::min);
            let mean = qs.iter().sum::<f64>() / qs.len().max(1) as f64;
            (qs.len(), if qs.is_empty() { 0.0 } else { min }, mean)
        }),
        chosen: o.chosen.clone(),
    };
    Ok((result, o))
}

fn confusion_of(
    classes: &[String],
    pairs: &[train::Pair],
    predicted: &[String],
) -> ConfusionMatrix {
    let mut confusion = ConfusionMatrix::new(classes.len());
    for (p, pred) in pairs.iter().zip(predicted) {
        if let (Some(t), Some(q)) = (
            classes.iter().position(|c| *c == p.label),
            classes.iter().position(|c| c == pred),
        ) {
            confusion.add(t, q);
        }
    }
    confusion
}

fn per_class(classes: &[String], confusion: &ConfusionMatrix) -> Vec<serde_json::Value> {
    classes
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let m = confusion.class(i);
            serde_json::json!({"class": c, "precision": m.precision, "recall": m.recall, "f1": m.f1})
        })
        .collect()
}

/// The setups `--compare` evaluates: (name, features, scheme, calibrated,
/// graded features).
type Compared = (
    &'static str,
    &'static str,
    train::SchemeChoice,
    bool,
    Option<&'static str>,
);
const COMPARED: &[Compared] = {
    use train::SchemeChoice::{OneVsRest as O, Ordinal as R};
    &[
        (
            "format 1 model: base features, one-vs-rest, uncalibrated",
            "base",
            O,
            false,
            None,
        ),
        ("base features, one-vs-rest + Platt", "base", O, true, None),
        ("base features, ordinal + Platt", "base", R, true, None),
        ("all features, one-vs-rest + Platt", "all", O, true, None),
        ("all features, ordinal + Platt", "all", R, true, None),
        ("base + reverse, ordinal", "base,reverse", R, true, None),
        ("base + passages, ordinal", "base,passages", R, true, None),
        ("base + order, ordinal", "base,order", R, true, None),
        ("base + char, ordinal", "base,char", R, true, None),
        ("base + phonetic, ordinal", "base,phonetic", R, true, None),
        (
            "all but reverse, ordinal",
            "base,passages,order,char,phonetic",
            R,
            true,
            None,
        ),
        (
            "all but passages, ordinal",
            "base,reverse,order,char,phonetic",
            R,
            true,
            None,
        ),
        (
            "all but order, ordinal",
            "base,reverse,passages,char,phonetic",
            R,
            true,
            None,
        ),
        (
            "all but char, ordinal",
            "base,reverse,passages,order,phonetic",
            R,
            true,
            None,
        ),
        (
            "all but phonetic, ordinal",
            "base,reverse,passages,order,char",
            R,
            true,
            None,
        ),
        (
            "all; ordinal, linear grade machines on word 1–5 containment",
            "all",
            R,
            true,
            Some("containment"),
        ),
        (
            "base; ordinal, linear grade machines on word 1–5 containment",
            "base",
            R,
            true,
            Some("containment"),
        ),
        (
            "all; ordinal, linear grade machines on containment + passages + order",
            "all",
            R,
            true,
            Some("containment,passages,order"),
        ),
        (
            "all; ordinal, linear grade machines on containment + phonetic",
            "all",
            R,
            true,
            Some("containment,phonetic"),
        ),
        (
            "all; ordinal, grades by cut points on the score",
            "all",
            R,
            true,
            Some("cuts"),
        ),
        (
            "base; ordinal, grades by cut points on the score",
            "base",
            R,
            true,
            Some("cuts"),
        ),
    ]
};

fn run_svm(args: &EvalArgs) -> Result<ExitCode> {
    let pairs = train::read_clough(&args.clough)?;
    let kernels = args.kernel.names();
    let truth: Vec<bool> = pairs.iter().map(|p| is_copied(&p.label)).collect();
    let classes: Vec<String> = train::CLOUGH_GRADES.iter().map(|c| c.to_string()).collect();
    let mut out = io::stdout().lock();
    let f3 = |x: Option<f64>| x.map_or("–".into(), |x| format!("{x:.3}"));
    if args.compare {
        let mut rows = Vec::new();
        let mut baseline = None;
        for &(name, features, scheme, calibrated, graded) in COMPARED {
            let m = train::ModelArgs {
                features: features.into(),
                scheme,
                grades: None,
                no_calibration: !calibrated,
                graded_features: graded.filter(|g| *g != "cuts").map(String::from),
                grades_by: (scheme == train::SchemeChoice::Ordinal).then_some(
                    if graded == Some("cuts") {
                        train::GradesBy::Cuts
                    } else {
                        train::GradesBy::Svm
                    },
                ),
                no_anchors: args.model.no_anchors,
            };
            let (e, o) = evaluate(name, &pairs, &m, kernels)?;
            if baseline.is_none() {
                let acc = confusion_of(&classes, &pairs, &o.baseline_graded).accuracy();
                let bin = prf_of(&o.baseline_predicted, &truth);
                baseline = Some((acc, bin, roc_auc(&o.baseline_scores, &truth)));
            }
            eprintln!("neardup: evaluated {name}");
            rows.push(e);
        }
        if args.json {
            writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
            return Ok(ExitCode::SUCCESS);
        }
        writeln!(
            out,
            "| setup | graded accuracy | binary F1 | binary ROC AUC | Brier |"
        )?;
        writeln!(out, "|---|---|---|---|---|")?;
        if let Some((acc, bin, auc)) = baseline {
            writeln!(
                out,
                "| baseline: containment (word 3) with cut points from the training tasks | {acc:.3} | {:.3} | {} | – |",
                bin.f1,
                f3(auc)
            )?;
        }
        for e in &rows {
            writeln!(
                out,
                "| {} | {:.3} | {:.3} | {} | {} |",
                e.name,
                e.accuracy,
                e.binary.f1,
                f3(e.roc_auc),
                f3(e.brier)
            )?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let (e, o) = evaluate("chosen", &pairs, &args.model, kernels)?;
    let base_bin = prf_of(&o.baseline_predicted, &truth);
    let base_auc = roc_auc(&o.baseline_scores, &truth);
    let base_conf = confusion_of(&classes, &pairs, &o.baseline_graded);
    if args.json {
        let result = serde_json::json!({
            "pairs": pairs.len(),
            "classes": classes,
            "svm": e,
            "baseline_containment": {"precision": base_bin.precision, "recall": base_bin.recall,
                "f1": base_bin.f1, "roc_auc": base_auc, "graded_accuracy": base_conf.accuracy(),
                "confusion": base_conf.rows()},
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&result)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "nested leave-one-task-out cross-validation, {} pairs",
        pairs.len()
    )?;
    let table = |out: &mut io::StdoutLock, rows: &[Vec<usize>]| -> io::Result<()> {
        writeln!(
            out,
            "confusion (rows true, columns predicted): {}",
            classes.join(" ")
        )?;
        for (c, row) in classes.iter().zip(rows) {
            let cells: String = row.iter().map(|n| format!("{n:>5}")).collect();
            writeln!(out, "  {c:<6} {cells}")?;
        }
        Ok(())
    };
    table(&mut out, &e.confusion)?;
    writeln!(out, "graded accuracy {:.3}", e.accuracy)?;
    for v in &e.per_class {
        writeln!(
            out,
            "  {:<6} precision {:.3} recall {:.3} F1 {:.3}",
            v["class"].as_str().unwrap_or(""),
            v["precision"].as_f64().unwrap_or(0.0),
            v["recall"].as_f64().unwrap_or(0.0),
            v["f1"].as_f64().unwrap_or(0.0)
        )?;
    }
    writeln!(
        out,
        "binary (copied vs non): SVM precision {:.3} recall {:.3} F1 {:.3} ROC AUC {}",
        e.binary.precision,
        e.binary.recall,
        e.binary.f1,
        f3(e.roc_auc)
    )?;
    if let Some(b) = e.brier {
        writeln!(out, "calibration: Brier score {b:.3} (4 classes; 0 best)")?;
        for (from, to, n, conf, acc) in &e.reliability {
            writeln!(
                out,
                "  confidence {from:.1}–{to:.1}: {n} pairs, mean confidence {conf:.3}, accuracy {acc:.3}"
            )?;
        }
        writeln!(
            out,
            "  \"between\" two classes: {} pairs, the truth one of the two in {}",
            e.between.0, e.between.1
        )?;
        let [itself, unrelated, originals] = e.ends;
        writeln!(
            out,
            "  at the ends, held out: a text against itself ({} pairs) is {} with probability ≥ {:.3} (mean {:.3}); against an unrelated source ({} pairs) {} with ≥ {:.3} (mean {:.3}); the {} originals sharing no word 3-shingle with their source {} with ≥ {:.3}",
            itself.0, classes[classes.len() - 1], itself.1, itself.2, unrelated.0, classes[0], unrelated.1, unrelated.2, originals.0, classes[0], originals.1
        )?;
    }
    writeln!(
        out,
        "baseline (containment, word 3-shingles, threshold and grade cut points chosen on the training tasks): precision {:.3} recall {:.3} F1 {:.3} ROC AUC {}; graded accuracy {:.3}",
        base_bin.precision, base_bin.recall, base_bin.f1, f3(base_auc), base_conf.accuracy()
    )?;
    table(&mut out, base_conf.rows())?;
    for (g, h) in &e.chosen {
        writeln!(
            out,
            "  held-out task {g}: {} kernel, C = {}{}",
            h.kernel,
            h.c,
            h.gamma
                .map(|x| format!(", gamma = {x}"))
                .unwrap_or_default()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
