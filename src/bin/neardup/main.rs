//! `neardup`: the command-line tool for batch comparison and evaluation.
//!
//! ```text
//! neardup compare A.txt B.txt [--json]        compare suspicious A with source B
//! neardup compare --pairs pairs.jsonl         one report per {"id","a","b"} line
//! neardup eval --clough DIR [--json]          score the Clough–Stevenson pairs
//! neardup dedup docs.jsonl [--threshold 0.5]  near-duplicate pairs (MinHash LSH)
//! neardup dedup docs.jsonl --method simhash -k 3
//! neardup index build docs.jsonl -o idx.bin   save an index (SimHash or MinHash LSH)
//! neardup index query idx.bin queries.jsonl   look texts up in it
//! ```
//! Files may be UTF-8 (with or without BOM), UTF-16 with a BOM, or
//! Windows-1252; anything that is not valid UTF-8 and has no BOM is decoded as
//! Windows-1252, and the tool says so on standard error.
//!
//! Exit status: 0 on success, 1 when any input failed (the others are still
//! written), 2 on a usage error.

#[path = "neardup/dedup.rs"]
mod dedup;
#[path = "neardup/index.rs"]
mod index;
#[path = "neardup/train.rs"]
mod train;

use clap::{Args, Parser, Subcommand};
use neardup::eval;
use neardup::{compare, CompareOptions, Report};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fs;
use std::io::{self, BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "neardup",
    version,
    about = "Near-duplicate text detection and plagiarism scoring"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compare a suspicious text with a source, or many pairs from JSONL.
    Compare(CompareArgs),
    /// Score every answer/source pair of the Clough–Stevenson corpus and
    /// report how the score separates the categories.
    Eval(EvalArgs),
    /// Find near-duplicate pairs or clusters in a collection.
    Dedup(dedup::DedupArgs),
    /// Save an index of a collection, or query a saved one.
    #[command(subcommand)]
    Index(index::IndexCommand),
    /// Train the learned verdict (SVMs on similarity vectors) and write the
    /// model JSON.
    Train(TrainArgs),
}

#[derive(Args)]
struct TrainArgs {
    /// The clough-abc folder (labels.csv and texts/); ignored with --pairs.
    #[arg(long, default_value = "../shared/data/clough-abc")]
    clough: PathBuf,
    /// Labelled pairs instead: JSONL of {"a", "b", "label", "group"?}.
    #[arg(long)]
    pairs: Option<PathBuf>,
    /// Where to write the model JSON.
    #[arg(long, short, default_value = "model.json")]
    output: PathBuf,
    /// Kernels to choose from by cross-validation.
    #[arg(long, value_enum, default_value = "both")]
    kernel: KernelChoice,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum KernelChoice {
    Linear,
    Rbf,
    Both,
}

impl KernelChoice {
    fn names(self) -> &'static [&'static str] {
        match self {
            KernelChoice::Linear => &["linear"],
            KernelChoice::Rbf => &["rbf"],
            KernelChoice::Both => &["linear", "rbf"],
        }
    }
}

/// The model trained on all of clough-abc, shipped with the page.
const DEFAULT_MODEL: &str = include_str!("../../www/model.json");

fn load_model(path: Option<&Path>) -> Result<neardup::verdict::SvmModel, String> {
    match path {
        Some(p) => {
            let text =
                fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            neardup::verdict::SvmModel::from_json(&text)
                .map_err(|e| format!("{}: {e}", p.display()))
        }
        None => neardup::verdict::SvmModel::from_json(DEFAULT_MODEL)
            .map_err(|e| format!("built-in model: {e}")),
    }
}

fn run_train(args: TrainArgs) -> Result<ExitCode, String> {
    let (pairs, source) = match &args.pairs {
        Some(p) => (train::read_jsonl(p)?, p.display().to_string()),
        None => (train::read_clough(&args.clough)?, "clough-abc".to_string()),
    };
    if pairs.is_empty() {
        return Err("no training pairs".into());
    }
    let classes = train::classes_of(&pairs);
    if !pairs.iter().any(|p| train::is_copied(&p.label))
        || pairs.iter().all(|p| train::is_copied(&p.label))
    {
        return Err("training data must have both \"non\" and copied pairs".into());
    }
    let all: Vec<&train::Pair> = pairs.iter().collect();
    let spec = neardup::verdict::VectorSpec::default();
    let (h, (cv_f1, cv_acc)) = train::select(&all, &spec, args.kernel.names(), &classes)?;
    let (mut model, worst) = train::fit(&all, &spec, h, &classes)?;
    model.provenance = serde_json::json!({
        "data": source,
        "pairs": pairs.len(),
        "classes": classes,
        "groups": pairs.iter().map(|p| p.group.clone()).collect::<std::collections::BTreeSet<_>>(),
        "trainer": "linfa-svm 0.8 (SMO), C-SVC, one-vs-rest",
        "hyperparameters": h,
        "selection": "leave-one-group-out cross-validation: binary F1, then class accuracy",
        "cv_binary_f1": cv_f1,
        "cv_class_accuracy": cv_acc,
        "max_abs_difference_from_linfa": worst,
    });
    fs::write(&args.output, model.to_json() + "\n")
        .map_err(|e| format!("cannot write {}: {e}", args.output.display()))?;
    eprintln!(
        "neardup: trained on {} pairs: {} kernel, C = {}{}; cross-validated binary F1 {cv_f1:.3}, class accuracy {cv_acc:.3}; max |Δ| vs linfa {worst:.1e}; wrote {}",
        pairs.len(),
        h.kernel,
        h.c,
        h.gamma.map(|g| format!(", gamma = {g}")).unwrap_or_default(),
        args.output.display()
    );
    Ok(ExitCode::SUCCESS)
}

#[derive(Args, Clone, Copy)]
struct OptionArgs {
    /// Words per word shingle (1..=32).
    #[arg(long, default_value_t = CompareOptions::default().word_k)]
    word_k: u32,
    /// Characters per character q-gram (1..=32).
    #[arg(long, default_value_t = CompareOptions::default().char_q)]
    char_q: u32,
    /// Merge shared runs at most this many words apart (0..=64).
    #[arg(long, default_value_t = CompareOptions::default().span_gap)]
    span_gap: u32,
    /// Hash seed.
    #[arg(long, default_value_t = CompareOptions::default().seed)]
    seed: u64,
}

impl OptionArgs {
    fn options(&self) -> CompareOptions {
        CompareOptions::default()
            .word_k(self.word_k)
            .char_q(self.char_q)
            .span_gap(self.span_gap)
            .seed(self.seed)
    }
}

#[derive(Args)]
struct CompareArgs {
    /// The suspicious text (a file).
    #[arg(required_unless_present = "pairs", conflicts_with = "pairs")]
    a: Option<PathBuf>,
    /// The source text (a file).
    #[arg(required_unless_present = "pairs", conflicts_with = "pairs")]
    b: Option<PathBuf>,
    /// JSONL file of {"id": …, "a": "<text>", "b": "<text>"} lines ("-" for
    /// standard input); writes one {"id": …, <report>} line per input line.
    #[arg(long)]
    pairs: Option<PathBuf>,
    /// Print the report as JSON (always on with --pairs).
    #[arg(long)]
    json: bool,
    /// A verdict model JSON from `neardup train` (default: the built-in
    /// model trained on clough-abc).
    #[arg(long, conflicts_with = "no_model")]
    model: Option<PathBuf>,
    /// Report the measures only, without the learned verdict.
    #[arg(long)]
    no_model: bool,
    #[command(flatten)]
    opts: OptionArgs,
}

#[derive(Args)]
struct EvalArgs {
    /// The clough-abc folder (with labels.csv and texts/).
    #[arg(long, default_value = "../shared/data/clough-abc")]
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Compare(args) => run_compare(args),
        Command::Eval(args) => run_eval(args),
        Command::Dedup(args) => dedup::run(args),
        Command::Index(cmd) => index::run(cmd),
        Command::Train(args) => run_train(args),
    };
    match result {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("neardup: {msg}");
            ExitCode::from(1)
        }
    }
}

/// Reads a text file, decoding UTF-8, UTF-16 (by BOM) or Windows-1252.
fn read_text(path: &Path) -> Result<String, String> {
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let (text, note) = decode(&bytes);
    if let Some(note) = note {
        eprintln!("neardup: note: {}: {note}", path.display());
    }
    Ok(text)
}

/// Decodes bytes: by BOM when there is one, else UTF-8 when valid, else
/// Windows-1252. Returns a note when the text was not plain UTF-8.
fn decode(bytes: &[u8]) -> (String, Option<&'static str>) {
    if let Some((enc, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, _) = enc.decode_without_bom_handling(&bytes[bom..]);
        let note = (enc != encoding_rs::UTF_8).then_some("decoded as UTF-16 (byte-order mark)");
        return (text.into_owned(), note);
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_owned(), None),
        Err(_) => {
            let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes);
            (
                text.into_owned(),
                Some("not valid UTF-8; decoded as Windows-1252"),
            )
        }
    }
}

fn run_compare(args: CompareArgs) -> Result<ExitCode, String> {
    let options = args.opts.options();
    options.check().map_err(|e| e.to_string())?;
    let model = if args.no_model {
        None
    } else {
        Some(load_model(args.model.as_deref())?)
    };
    if let Some(pairs) = &args.pairs {
        return run_pairs(pairs, &options, model.as_ref());
    }
    let (pa, pb) = match (&args.a, &args.b) {
        (Some(a), Some(b)) => (a, b),
        _ => return Err("compare needs two files, or --pairs".into()),
    };
    let (a, b) = (read_text(pa)?, read_text(pb)?);
    let report = compare(&a, &b, &options).map_err(|e| e.to_string())?;
    let verdict = match &model {
        Some(m) => Some(m.judge(&a, &b).map_err(|e| e.to_string())?),
        None => None,
    };
    let mut out = BufWriter::new(io::stdout().lock());
    if args.json {
        serde_json::to_writer(
            &mut out,
            &PairOut {
                id: None,
                report: &report,
                verdict: verdict.as_ref(),
            },
        )
        .map_err(|e| e.to_string())?;
        writeln!(out).map_err(|e| e.to_string())?;
    } else {
        print_report(&mut out, &report, &a).map_err(|e| e.to_string())?;
        if let Some(v) = &verdict {
            writeln!(
                out,
                "verdict            {} (class {}; binary decision {:+.3})",
                if v.copied { "reuse" } else { "no reuse" },
                v.class.as_deref().unwrap_or("-"),
                v.binary_decision
            )
            .map_err(|e| e.to_string())?;
        }
    }
    out.flush().map_err(|e| e.to_string())?;
    Ok(ExitCode::SUCCESS)
}

fn print_report(out: &mut impl Write, r: &Report, a: &str) -> io::Result<()> {
    let m = &r.measures;
    writeln!(
        out,
        "score {:.3}  (containment of A in B by word {}-shingles)",
        m.score, r.options.word_k
    )?;
    writeln!(out, "resemblance        {:.3}", m.resemblance)?;
    writeln!(out, "containment B in A {:.3}", m.containment_b_in_a)?;
    writeln!(out, "dice               {:.3}", m.dice)?;
    writeln!(
        out,
        "char resemblance   {:.3}  (character {}-grams)",
        m.char_resemblance, r.options.char_q
    )?;
    writeln!(out, "cosine (words)     {:.3}", m.cosine)?;
    writeln!(
        out,
        "shared shingles    {} of {} in A, {} in B",
        m.shared_shingles, m.shingles_a, m.shingles_b
    )?;
    writeln!(
        out,
        "coverage           {:.3} of A's {} words, {:.3} of B's {} words",
        m.coverage_a, m.tokens_a, m.coverage_b, m.tokens_b
    )?;
    writeln!(out, "shared passages    {}", r.passages.len())?;
    for p in &r.passages {
        let text: String = a[p.a.start..p.a.end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let shown: String = text.chars().take(100).collect();
        let more = if shown.len() < text.len() { "…" } else { "" };
        writeln!(
            out,
            "  A[{}..{}] = B[{}..{}]  \"{shown}{more}\"",
            p.a.start, p.a.end, p.b.start, p.b.end
        )?;
    }
    Ok(())
}

#[derive(serde::Deserialize)]
struct PairLine {
    id: serde_json::Value,
    a: String,
    b: String,
}

#[derive(Serialize)]
struct PairOut<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a serde_json::Value>,
    #[serde(flatten)]
    report: &'a Report,
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<&'a neardup::verdict::Verdict>,
}

fn run_pairs(
    path: &Path,
    options: &CompareOptions,
    model: Option<&neardup::verdict::SvmModel>,
) -> Result<ExitCode, String> {
    let input: Box<dyn BufRead> = if path == Path::new("-") {
        Box::new(io::stdin().lock())
    } else {
        let f = fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Box::new(io::BufReader::new(f))
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut failed = 0usize;
    for (i, line) in input.split(b'\n').enumerate() {
        let n = i + 1;
        let line = line.map_err(|e| format!("{}: line {n}: {e}", path.display()))?;
        let result = std::str::from_utf8(&line)
            .map_err(|e| format!("not valid UTF-8 ({e})"))
            .and_then(|s| {
                let s = s.trim();
                if s.is_empty() {
                    return Ok(None);
                }
                let p: PairLine = serde_json::from_str(s)
                    .map_err(|e| format!("not a {{\"id\", \"a\", \"b\"}} JSON object: {e}"))?;
                let r = compare(&p.a, &p.b, options).map_err(|e| e.to_string())?;
                let verdict = match model {
                    Some(m) => Some(m.judge(&p.a, &p.b).map_err(|e| e.to_string())?),
                    None => None,
                };
                serde_json::to_string(&PairOut {
                    id: Some(&p.id),
                    report: &r,
                    verdict: verdict.as_ref(),
                })
                .map(Some)
                .map_err(|e| e.to_string())
            });
        match result {
            Ok(Some(json)) => writeln!(out, "{json}").map_err(|e| e.to_string())?,
            Ok(None) => {}
            Err(msg) => {
                failed += 1;
                out.flush().map_err(|e| e.to_string())?;
                eprintln!("neardup: {}: line {n}: {msg}", path.display());
            }
        }
    }
    out.flush().map_err(|e| e.to_string())?;
    if failed > 0 {
        eprintln!("neardup: {failed} line(s) failed; the others were written");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
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

fn run_eval_svm(args: &EvalArgs) -> Result<ExitCode, String> {
    let pairs = train::read_clough(&args.clough)?;
    let spec = neardup::verdict::VectorSpec::default();
    let o = train::nested_cv(&pairs, &spec, args.kernel.names())?;
    let classes = train::classes_of(&pairs);
    let truth: Vec<bool> = pairs.iter().map(|p| train::is_copied(&p.label)).collect();
    let svm_pred: Vec<bool> = o.decisions.iter().map(|&d| d >= 0.0).collect();
    let f1_of = |pred: &[bool]| {
        let s: Vec<f64> = pred.iter().map(|&b| if b { 1.0 } else { 0.0 }).collect();
        eval::at_threshold(&s, &truth, 0.5)
    };
    let svm_bin = f1_of(&svm_pred);
    let base_bin = f1_of(&o.baseline_predicted);
    let mut confusion = vec![vec![0usize; classes.len()]; classes.len()];
    for (p, pred) in pairs.iter().zip(&o.predicted) {
        let (Some(t), Some(q)) = (
            classes.iter().position(|c| *c == p.label),
            classes.iter().position(|c| c == pred),
        ) else {
            continue;
        };
        confusion[t][q] += 1;
    }
    let correct: usize = (0..classes.len()).map(|i| confusion[i][i]).sum();
    let per_class: Vec<serde_json::Value> = classes
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let tp = confusion[i][i] as f64;
            let fp = (0..classes.len()).map(|t| confusion[t][i]).sum::<usize>() as f64 - tp;
            let fneg = confusion[i].iter().sum::<usize>() as f64 - tp;
            let p = if tp + fp > 0.0 { tp / (tp + fp) } else { 0.0 };
            let r = if tp + fneg > 0.0 {
                tp / (tp + fneg)
            } else {
                0.0
            };
            let f = if p + r > 0.0 {
                2.0 * p * r / (p + r)
            } else {
                0.0
            };
            serde_json::json!({"class": c, "precision": p, "recall": r, "f1": f})
        })
        .collect();
    let result = serde_json::json!({
        "pairs": pairs.len(),
        "classes": classes,
        "confusion": confusion,
        "accuracy": correct as f64 / pairs.len() as f64,
        "per_class": per_class,
        "binary": {"precision": svm_bin.precision, "recall": svm_bin.recall, "f1": svm_bin.f1,
                   "roc_auc": eval::roc_auc(&o.decisions, &truth)},
        "baseline_containment": {"precision": base_bin.precision, "recall": base_bin.recall, "f1": base_bin.f1,
                   "roc_auc": eval::roc_auc(&o.baseline_scores, &truth)},
        "chosen": o.chosen,
    });
    let mut out = io::stdout().lock();
    let w = |e: io::Error| e.to_string();
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&result).map_err(|e| e.to_string())?
        )
        .map_err(w)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "nested leave-one-task-out cross-validation, {} pairs",
        pairs.len()
    )
    .map_err(w)?;
    writeln!(
        out,
        "confusion (rows true, columns predicted): {}",
        classes.join(" ")
    )
    .map_err(w)?;
    for (c, row) in classes.iter().zip(&confusion) {
        writeln!(
            out,
            "  {c:<6} {}",
            row.iter().map(|n| format!("{n:>5}")).collect::<String>()
        )
        .map_err(w)?;
    }
    writeln!(
        out,
        "accuracy {:.3}",
        result["accuracy"].as_f64().unwrap_or(0.0)
    )
    .map_err(w)?;
    for pc in &per_class {
        writeln!(
            out,
            "  {:<6} precision {:.3} recall {:.3} F1 {:.3}",
            pc["class"].as_str().unwrap_or(""),
            pc["precision"].as_f64().unwrap_or(0.0),
            pc["recall"].as_f64().unwrap_or(0.0),
            pc["f1"].as_f64().unwrap_or(0.0)
        )
        .map_err(w)?;
    }
    let auc = |v: &serde_json::Value| {
        v["roc_auc"]
            .as_f64()
            .map_or("n/a".into(), |x| format!("{x:.3}"))
    };
    writeln!(
        out,
        "binary (copied vs non): SVM precision {:.3} recall {:.3} F1 {:.3} ROC AUC {}",
        svm_bin.precision,
        svm_bin.recall,
        svm_bin.f1,
        auc(&result["binary"])
    )
    .map_err(w)?;
    writeln!(
        out,
        "baseline (containment, word 3-shingles, threshold chosen on the training tasks): precision {:.3} recall {:.3} F1 {:.3} ROC AUC {}",
        base_bin.precision, base_bin.recall, base_bin.f1, auc(&result["baseline_containment"])
    )
    .map_err(w)?;
    for (g, h) in &o.chosen {
        writeln!(
            out,
            "  held-out task {g}: {} kernel, C = {}{}",
            h.kernel,
            h.c,
            h.gamma
                .map(|x| format!(", gamma = {x}"))
                .unwrap_or_default()
        )
        .map_err(w)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_eval(args: EvalArgs) -> Result<ExitCode, String> {
    if args.svm {
        return run_eval_svm(&args);
    }
    let options = args.opts.options();
    options.check().map_err(|e| e.to_string())?;
    let mut pairs = Vec::new();
    for p in train::read_clough(&args.clough)? {
        let r = compare(&p.a, &p.b, &options).map_err(|e| format!("{}: {e}", p.id))?;
        pairs.push(EvalPair {
            file: p.id,
            source: p.source,
            task: p.group,
            category: p.label,
            score: r.measures.score,
        });
    }
    let scores: Vec<f64> = pairs.iter().map(|p| p.score).collect();
    let copied: Vec<bool> = pairs.iter().map(|p| p.category != "non").collect();
    let best = eval::best_f1(&scores, &copied);
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
        word_k: options.word_k,
        pairs: pairs.len(),
        roc_auc: eval::roc_auc(&scores, &copied),
        best_threshold: best.map(|b| b.threshold),
        precision: best.map(|b| b.precision),
        recall: best.map(|b| b.recall),
        f1: best.map(|b| b.f1),
        categories,
        scores: pairs,
    };
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &result).map_err(|e| e.to_string())?;
        writeln!(out).map_err(|e| e.to_string())?;
    } else {
        let f = |x: Option<f64>| x.map_or("n/a".to_string(), |v| format!("{v:.3}"));
        writeln!(
            out,
            "{} pairs, score = containment by word {}-shingles",
            result.pairs, result.word_k
        )
        .map_err(|e| e.to_string())?;
        for (name, c) in &result.categories {
            writeln!(
                out,
                "  {name:<6} n={:<3} mean score {:.3}",
                c.n, c.mean_score
            )
            .map_err(|e| e.to_string())?;
        }
        writeln!(
            out,
            "copied (cut+light+heavy) vs non: ROC AUC {}, best F1 {} at threshold {} (P {}, R {})",
            f(result.roc_auc),
            f(result.f1),
            f(result.best_threshold),
            f(result.precision),
            f(result.recall)
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(ExitCode::SUCCESS)
}
