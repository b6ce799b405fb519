//! `neardup eval`: how well the score (containment) or the learned verdict
//! separates the categories of the Clough–Stevenson corpus.

use crate::compare::OptionArgs;
use crate::train::{self, is_copied, KernelChoice};
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
    #[command(flatten)]
    opts: OptionArgs,
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
    if args.svm {
        return run_svm(&args);
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

fn run_svm(args: &EvalArgs) -> Result<ExitCode> {
    let pairs = train::read_clough(&args.clough)?;
    let spec = neardup::verdict::VectorSpec::default();
    let o = train::nested_cv(&pairs, &spec, args.kernel.names())?;
    let classes = train::classes_of(&pairs);
    let truth: Vec<bool> = pairs.iter().map(|p| is_copied(&p.label)).collect();
    let svm_pred: Vec<bool> = o.decisions.iter().map(|&d| d >= 0.0).collect();
    let svm_bin = prf_of(&svm_pred, &truth);
    let base_bin = prf_of(&o.baseline_predicted, &truth);
    let mut confusion = ConfusionMatrix::new(classes.len());
    for (p, pred) in pairs.iter().zip(&o.predicted) {
        if let (Some(t), Some(q)) = (
            classes.iter().position(|c| *c == p.label),
            classes.iter().position(|c| c == pred),
        ) {
            confusion.add(t, q);
        }
    }
    let per_class: Vec<serde_json::Value> = classes
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let m = confusion.class(i);
            serde_json::json!({"class": c, "precision": m.precision, "recall": m.recall, "f1": m.f1})
        })
        .collect();
    let svm_auc = roc_auc(&o.decisions, &truth);
    let base_auc = roc_auc(&o.baseline_scores, &truth);
    let result = serde_json::json!({
        "pairs": pairs.len(),
        "classes": classes,
        "confusion": confusion.rows(),
        "accuracy": confusion.accuracy(),
        "per_class": per_class,
        "binary": {"precision": svm_bin.precision, "recall": svm_bin.recall, "f1": svm_bin.f1,
                   "roc_auc": svm_auc},
        "baseline_containment": {"precision": base_bin.precision, "recall": base_bin.recall, "f1": base_bin.f1,
                   "roc_auc": base_auc},
        "chosen": o.chosen,
    });
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&result)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "nested leave-one-task-out cross-validation, {} pairs",
        pairs.len()
    )?;
    writeln!(
        out,
        "confusion (rows true, columns predicted): {}",
        classes.join(" ")
    )?;
    for (c, row) in classes.iter().zip(confusion.rows()) {
        let cells: String = row.iter().map(|n| format!("{n:>5}")).collect();
        writeln!(out, "  {c:<6} {cells}")?;
    }
    writeln!(out, "accuracy {:.3}", confusion.accuracy())?;
    for (i, c) in classes.iter().enumerate() {
        let m = confusion.class(i);
        writeln!(
            out,
            "  {c:<6} precision {:.3} recall {:.3} F1 {:.3}",
            m.precision, m.recall, m.f1
        )?;
    }
    let auc = |x: Option<f64>| x.map_or("n/a".into(), |x| format!("{x:.3}"));
    writeln!(
        out,
        "binary (copied vs non): SVM precision {:.3} recall {:.3} F1 {:.3} ROC AUC {}",
        svm_bin.precision,
        svm_bin.recall,
        svm_bin.f1,
        auc(svm_auc)
    )?;
    writeln!(
        out,
        "baseline (containment, word 3-shingles, threshold chosen on the training tasks): precision {:.3} recall {:.3} F1 {:.3} ROC AUC {}",
        base_bin.precision, base_bin.recall, base_bin.f1, auc(base_auc)
    )?;
    for (g, h) in &o.chosen {
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
