//! `neardup train` (and the cross-validation behind `neardup eval --svm`):
//! the learned verdict. Similarity vectors of labelled pairs, feature
//! scaling, support vector machines fitted by `linfa-svm` (SMO),
//! hyper-parameters by cross-validation grouped by task, and export to the
//! model JSON that `neardup::verdict` evaluates (natively and in
//! WebAssembly) — read through linfa's public API and checked against
//! linfa's own decision values.

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use linfa::prelude::*;
use linfa::Dataset;
use linfa_svm::Svm;
use ndarray::{Array1, Array2};
use neardup::measures::classification::{at_threshold, best_f1};
use neardup::tfidf::DocumentFrequencies;
use neardup::verdict::{
    keyword_terms, Kernel, Machine, ModelFile, Scaler, StoredDf, SvmModel, VectorSpec, MODEL_FORMAT,
};
use neardup::Document;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The seed of the model's keyword hashes (the stored document frequencies).
const DF_SEED: u64 = 0;

#[derive(Args)]
pub struct TrainArgs {
    /// The clough-abc folder (labels.csv and texts/), or the environment
    /// variable NEARDUP_CLOUGH; needed unless --pairs is given.
    #[arg(
        long,
        env = "NEARDUP_CLOUGH",
        required_unless_present = "pairs",
        conflicts_with = "pairs"
    )]
    clough: Option<PathBuf>,
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
pub enum KernelChoice {
    Linear,
    Rbf,
    Both,
}

impl KernelChoice {
    pub fn names(self) -> &'static [&'static str] {
        match self {
            KernelChoice::Linear => &["linear"],
            KernelChoice::Rbf => &["rbf"],
            KernelChoice::Both => &["linear", "rbf"],
        }
    }
}

pub fn run(args: TrainArgs) -> Result<ExitCode> {
    crate::input::check_output(&args.output)?;
    let (pairs, source) = match &args.pairs {
        Some(p) => (read_jsonl(p)?, p.display().to_string()),
        None => {
            let dir = args.clough.as_deref().ok_or_else(|| {
                crate::usage("train needs --clough DIR (or NEARDUP_CLOUGH) or --pairs FILE")
            })?;
            (read_clough(dir)?, "clough-abc".to_string())
        }
    };
    if pairs.is_empty() {
        bail!("no training pairs");
    }
    let classes = classes_of(&pairs);
    if !pairs.iter().any(|p| is_copied(&p.label)) || pairs.iter().all(|p| is_copied(&p.label)) {
        bail!("training data must have both \"non\" and copied pairs");
    }
    let all: Vec<&Pair> = pairs.iter().collect();
    let spec = VectorSpec::default();
    let (h, (cv_f1, cv_acc)) = select(&all, &spec, args.kernel.names(), &classes)?;
    let (mut model, worst) = fit(&all, &spec, h, &classes)?;
    model.provenance = serde_json::json!({
        "data": source,
        "pairs": pairs.len(),
        "classes": classes,
        "groups": pairs.iter().map(|p| p.group.clone()).collect::<BTreeSet<_>>(),
        "trainer": "linfa-svm 0.8 (SMO), C-SVC, one-vs-rest",
        "hyperparameters": h,
        "selection": "leave-one-group-out cross-validation: binary F1, then class accuracy",
        "cv_binary_f1": cv_f1,
        "cv_class_accuracy": cv_acc,
        "max_abs_difference_from_linfa": worst,
    });
    let json = model.to_json() + "\n";
    crate::input::write_atomic(&args.output, |w| w.write_all(json.as_bytes()))?;
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

/// A labelled pair: suspicious text, source, class, group (task).
pub struct Pair {
    /// An id for messages (the answer's file name, or the JSONL id).
    pub id: String,
    /// The source's name (its file name, or the JSONL id with "/b").
    pub source: String,
    pub a: String,
    pub b: String,
    pub label: String,
    pub group: String,
}

/// The binary positive: every class but "non" is reuse.
pub fn is_copied(label: &str) -> bool {
    label != "non"
}

/// Reads the clough-abc folder: `labels.csv` (columns `file`,
/// `source_file`, `task`, `category`) and the texts under `texts/`.
pub fn read_clough(dir: &Path) -> Result<Vec<Pair>> {
    #[derive(serde::Deserialize)]
    struct Row {
        file: String,
        source_file: String,
        task: String,
        category: String,
    }
    let labels_path = dir.join("labels.csv");
    let mut reader = csv::Reader::from_path(&labels_path)
        .with_context(|| format!("cannot read {}", labels_path.display()))?;
    let read = |name: &str| -> Result<String> {
        let p = dir.join("texts").join(name);
        let bytes = fs::read(&p).with_context(|| format!("cannot read {}", p.display()))?;
        Ok(crate::input::decode(&bytes).0)
    };
    let mut out = Vec::new();
    for row in reader.deserialize() {
        let r: Row = row.with_context(|| labels_path.display().to_string())?;
        out.push(Pair {
            a: read(&r.file)?,
            b: read(&r.source_file)?,
            id: r.file,
            source: r.source_file,
            label: r.category,
            group: r.task,
        });
    }
    Ok(out)
}

/// Reads JSONL `{"a", "b", "label", "group"?, "id"?}`.
pub fn read_jsonl(path: &Path) -> Result<Vec<Pair>> {
    let text =
        fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let v: serde_json::Value = serde_json::from_str(line)
            .with_context(|| format!("{}: line {}", path.display(), i + 1))?;
        let s = |k: &str| v[k].as_str().map(String::from);
        let (Some(a), Some(b), Some(label)) = (s("a"), s("b"), s("label")) else {
            bail!(
                "{}: line {}: needs string fields a, b and label",
                path.display(),
                i + 1
            );
        };
        let id = s("id").unwrap_or_else(|| format!("line{}", i + 1));
        out.push(Pair {
            source: format!("{id}/b"),
            id,
            a,
            b,
            label,
            group: s("group").unwrap_or_else(|| format!("line{}", i + 1)),
        });
    }
    Ok(out)
}

/// The documents of a pair, normalised once (with the model's seed).
fn documents(p: &Pair) -> (Document, Document) {
    (Document::new(&p.a, DF_SEED), Document::new(&p.b, DF_SEED))
}

/// Document frequencies over the distinct texts of `pairs` (keyword terms).
fn fit_df(pairs: &[&Pair]) -> DocumentFrequencies {
    let mut seen = BTreeSet::new();
    let mut df = DocumentFrequencies::new();
    for p in pairs {
        for t in [&p.a, &p.b] {
            if seen.insert(neardup::hash::bytes_hash(0, t.as_bytes())) {
                df.add_document(&keyword_terms(&Document::new(t, DF_SEED), DF_SEED));
            }
        }
    }
    df
}

/// Hyper-parameters of one fit.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Hyper {
    pub kernel: &'static str,
    pub c: f64,
    pub gamma: Option<f64>,
}

pub fn grid(kernels: &[&str]) -> Vec<Hyper> {
    let mut g = Vec::new();
    for &c in &[0.1, 1.0, 10.0, 100.0] {
        if kernels.contains(&"linear") {
            g.push(Hyper {
                kernel: "linear",
                c,
                gamma: None,
            });
        }
        if kernels.contains(&"rbf") {
            for &gamma in &[0.01, 0.03, 0.1, 0.3] {
                g.push(Hyper {
                    kernel: "rbf",
                    c,
                    gamma: Some(gamma),
                });
            }
        }
    }
    g
}

/// Fits one binary machine with linfa and exports it through linfa's public
/// API: a linear machine's hyperplane `w` is read by evaluating the fitted
/// model on each unit vector (`w_j = weighted_sum(e_j)`, exact); a kernel
/// machine's support vectors are the training rows with a non-zero signed
/// dual coefficient `alpha` (the filter of linfa's `weighted_sum`). The
/// export is checked against linfa's decision values on every training row
/// (to 1e-9).
fn fit_machine(z: &[Vec<f64>], y: &[bool], h: Hyper, positive: &str) -> Result<(Machine, f64)> {
    if y.iter().all(|&t| t) || y.iter().all(|&t| !t) {
        bail!("training data for {positive:?} has one class only");
    }
    let d = z[0].len();
    let records = Array2::from_shape_vec((z.len(), d), z.iter().flatten().copied().collect())?;
    let ds = Dataset::new(records.clone(), Array1::from(y.to_vec()));
    let params = Svm::<f64, bool>::params().pos_neg_weights(h.c, h.c);
    let params = match h.gamma {
        Some(g) => params.gaussian_kernel(1.0 / g),
        None => params.linear_kernel(),
    };
    let model = params
        .fit(&ds)
        .map_err(|e| anyhow!("SVM training failed: {e}"))?;
    let (support_vectors, dual_coef) = match h.gamma {
        None => {
            let w: Vec<f64> = (0..d)
                .map(|j| {
                    let mut e = Array1::zeros(d);
                    e[j] = 1.0;
                    model.weighted_sum(&e)
                })
                .collect();
            (vec![w], vec![1.0])
        }
        Some(_) => z
            .iter()
            .zip(&model.alpha)
            .filter(|(_, a)| a.abs() > 100.0 * f64::EPSILON)
            .map(|(row, &a)| (row.clone(), a))
            .unzip(),
    };
    let machine = Machine {
        positive: positive.into(),
        support_vectors,
        dual_coef,
        bias: -model.rho,
    };
    // Agreement with linfa, on the scaled rows.
    let kernel = match h.gamma {
        Some(g) => Kernel::Rbf { gamma: g },
        None => Kernel::Linear,
    };
    let mut worst: f64 = 0.0;
    for (i, row) in records.outer_iter().enumerate() {
        let lib = model.weighted_sum(&row) - model.rho;
        let ours = machine.decision(&kernel, &z[i]);
        worst = worst.max((lib - ours).abs());
    }
    if worst > 1e-9 {
        bail!("exported model differs from linfa by {worst:e}");
    }
    Ok((machine, worst))
}

/// A fitted verdict model and its largest difference from linfa.
pub fn fit(
    pairs: &[&Pair],
    spec: &VectorSpec,
    h: Hyper,
    classes: &[String],
) -> Result<(ModelFile, f64)> {
    let df = fit_df(pairs);
    let xs: Vec<Vec<f64>> = pairs
        .iter()
        .map(|p| {
            let (a, b) = documents(p);
            spec.vector(&a, &b, &df, DF_SEED)
        })
        .collect();
    let scaler = Scaler::fit(&xs);
    let z: Vec<Vec<f64>> = xs.iter().map(|x| scaler.apply(x)).collect();
    let y: Vec<bool> = pairs.iter().map(|p| is_copied(&p.label)).collect();
    let (binary, mut worst) = fit_machine(&z, &y, h, "copied")?;
    let mut machines = Vec::new();
    for c in classes {
        let yc: Vec<bool> = pairs.iter().map(|p| &p.label == c).collect();
        let (m, w) = fit_machine(&z, &yc, h, c)?;
        worst = worst.max(w);
        machines.push(m);
    }
    let model = ModelFile {
        format: MODEL_FORMAT,
        vector: spec.clone(),
        df: StoredDf {
            documents: df.documents(),
            terms: df
                .counts()
                .into_iter()
                .map(|(h, n)| (format!("{h:016x}"), n))
                .collect(),
            seed: DF_SEED,
        },
        scaler,
        kernel: match h.gamma {
            Some(g) => Kernel::Rbf { gamma: g },
            None => Kernel::Linear,
        },
        binary,
        classes: machines,
        provenance: serde_json::Value::Null,
    };
    model.check().map_err(crate::core)?;
    Ok((model, worst))
}

/// Predictions of a held-out fold: (binary decision, class).
fn predict(model: &SvmModel, pairs: &[&Pair]) -> Result<Vec<(f64, String)>> {
    pairs
        .iter()
        .map(|p| {
            let (a, b) = documents(p);
            let v = model.judge(&a, &b).map_err(crate::core)?;
            Ok((v.binary_decision, v.class.unwrap_or_default()))
        })
        .collect()
}

fn groups(pairs: &[&Pair]) -> Vec<String> {
    pairs
        .iter()
        .map(|p| p.group.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// Cross-validated score of hyper-parameters over `pairs` by leaving one
/// group out: (binary F1, class accuracy).
fn cv_score(
    pairs: &[&Pair],
    spec: &VectorSpec,
    h: Hyper,
    classes: &[String],
) -> Result<(f64, f64)> {
    let gs = groups(pairs);
    if gs.len() < 2 {
        bail!("cross-validation needs at least two groups (tasks)");
    }
    let (mut dec, mut truth, mut right) = (Vec::new(), Vec::new(), 0usize);
    for g in &gs {
        let train: Vec<&Pair> = pairs.iter().copied().filter(|p| &p.group != g).collect();
        let test: Vec<&Pair> = pairs.iter().copied().filter(|p| &p.group == g).collect();
        let (model, _) = fit(&train, spec, h, classes)?;
        let model = SvmModel::new(model).map_err(crate::core)?;
        for (p, (d, c)) in test.iter().zip(predict(&model, &test)?) {
            dec.push(d);
            truth.push(is_copied(&p.label));
            right += usize::from(c == p.label);
        }
    }
    let f1 = at_threshold(&dec, &truth, 0.0).f1;
    Ok((f1, right as f64 / pairs.len() as f64))
}

/// The best hyper-parameters by grouped cross-validation (binary F1, then
/// class accuracy, then the earlier grid entry).
pub fn select(
    pairs: &[&Pair],
    spec: &VectorSpec,
    kernels: &[&str],
    classes: &[String],
) -> Result<(Hyper, (f64, f64))> {
    let mut best: Option<(Hyper, (f64, f64))> = None;
    for h in grid(kernels) {
        let Ok(s) = cv_score(pairs, spec, h, classes) else {
            continue;
        };
        if best
            .as_ref()
            .is_none_or(|(_, b)| s.0 > b.0 + 1e-12 || ((s.0 - b.0).abs() <= 1e-12 && s.1 > b.1))
        {
            best = Some((h, s));
        }
    }
    best.ok_or_else(|| {
        anyhow!("no hyper-parameters could be fitted (too little or one-class data?)")
    })
}

pub fn classes_of(pairs: &[Pair]) -> Vec<String> {
    pairs
        .iter()
        .map(|p| p.label.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// Nested leave-one-group-out evaluation: for each held-out group, select
/// hyper-parameters by cross-validation on the other groups, fit, predict.
/// Returns per pair (binary decision, predicted class) and the baseline
/// containment scores with thresholds chosen on the training groups.
pub struct Outer {
    pub decisions: Vec<f64>,
    pub predicted: Vec<String>,
    pub baseline_scores: Vec<f64>,
    pub baseline_predicted: Vec<bool>,
    pub chosen: BTreeMap<String, Hyper>,
}

pub fn nested_cv(pairs: &[Pair], spec: &VectorSpec, kernels: &[&str]) -> Result<Outer> {
    let all: Vec<&Pair> = pairs.iter().collect();
    let classes = classes_of(pairs);
    let gs = groups(&all);
    if gs.len() < 3 {
        bail!("nested cross-validation needs at least three groups (tasks)");
    }
    let n = pairs.len();
    let mut out = Outer {
        decisions: vec![0.0; n],
        predicted: vec![String::new(); n],
        baseline_scores: vec![0.0; n],
        baseline_predicted: vec![false; n],
        chosen: BTreeMap::new(),
    };
    let score = |p: &Pair| {
        neardup::compare(&p.a, &p.b, &neardup::CompareConfig::default())
            .map(|r| r.measures.score)
            .unwrap_or(0.0)
    };
    for g in &gs {
        let train: Vec<&Pair> = all.iter().copied().filter(|p| &p.group != g).collect();
        let (h, _) = select(&train, spec, kernels, &classes)?;
        out.chosen.insert(g.clone(), h);
        let (model, _) = fit(&train, spec, h, &classes)?;
        let model = SvmModel::new(model).map_err(crate::core)?;
        let train_scores: Vec<f64> = train.iter().map(|p| score(p)).collect();
        let train_truth: Vec<bool> = train.iter().map(|p| is_copied(&p.label)).collect();
        let threshold = best_f1(&train_scores, &train_truth).map_or(0.5, |b| b.threshold);
        for (i, p) in pairs.iter().enumerate().filter(|(_, p)| &p.group == g) {
            let (a, b) = documents(p);
            let v = model.judge(&a, &b).map_err(crate::core)?;
            out.decisions[i] = v.binary_decision;
            out.predicted[i] = v.class.unwrap_or_default();
            out.baseline_scores[i] = score(p);
            out.baseline_predicted[i] = out.baseline_scores[i] >= threshold;
        }
    }
    Ok(out)
}
