//! `neardup train` and `neardup eval --svm`: the learned verdict. Similarity
//! vectors of labelled pairs, feature scaling, support vector machines fitted
//! by `linfa-svm` (SMO), hyper-parameters by cross-validation grouped by task,
//! and export to the model JSON that `neardup::verdict` evaluates (natively
//! and in WebAssembly) — checked here against linfa's own decision values.

use linfa::prelude::*;
use linfa::Dataset;
use linfa_svm::Svm;
use ndarray::{Array1, Array2};
use neardup::eval;
use neardup::tfidf::DocumentFrequencies;
use neardup::verdict::{
    keyword_terms, Kernel, Machine, Scaler, StoredDf, SvmModel, VectorSpec, MODEL_FORMAT,
};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

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

/// Reads the clough-abc folder.
pub fn read_clough(dir: &Path) -> Result<Vec<Pair>, String> {
    let labels_path = dir.join("labels.csv");
    let text = std::fs::read_to_string(&labels_path)
        .map_err(|e| format!("cannot read {}: {e}", labels_path.display()))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").trim().split(',').collect();
    let col = |n: &str| {
        header
            .iter()
            .position(|h| *h == n)
            .ok_or_else(|| format!("{}: no column {n}", labels_path.display()))
    };
    let (cf, cs, ct, cc) = (
        col("file")?,
        col("source_file")?,
        col("task")?,
        col("category")?,
    );
    let mut out = Vec::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.trim().split(',').collect();
        let get = |c: usize| {
            f.get(c)
                .copied()
                .ok_or_else(|| format!("{}: short line {line:?}", labels_path.display()))
        };
        let read = |name: &str| -> Result<String, String> {
            let p = dir.join("texts").join(name);
            let bytes =
                std::fs::read(&p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            Ok(super::decode(&bytes).0)
        };
        out.push(Pair {
            id: get(cf)?.to_string(),
            source: get(cs)?.to_string(),
            a: read(get(cf)?)?,
            b: read(get(cs)?)?,
            label: get(cc)?.to_string(),
            group: get(ct)?.to_string(),
        });
    }
    Ok(out)
}

/// Reads JSONL `{"a", "b", "label", "group"?, "id"?}`.
pub fn read_jsonl(path: &Path) -> Result<Vec<Pair>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let v: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| format!("{}: line {}: {e}", path.display(), i + 1))?;
        let s = |k: &str| v[k].as_str().map(String::from);
        let (Some(a), Some(b), Some(label)) = (s("a"), s("b"), s("label")) else {
            return Err(format!(
                "{}: line {}: needs string fields a, b and label",
                path.display(),
                i + 1
            ));
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

/// Document frequencies over the distinct texts of `pairs` (keyword terms).
fn fit_df(pairs: &[&Pair]) -> DocumentFrequencies {
    let mut seen = BTreeSet::new();
    let mut df = DocumentFrequencies::new();
    for p in pairs {
        for t in [&p.a, &p.b] {
            if seen.insert(neardup::hash::bytes_hash(0, t.as_bytes())) {
                df.add_document(&keyword_terms(t));
            }
        }
    }
    df
}

fn fit_scaler(xs: &[Vec<f64>]) -> Scaler {
    let d = xs.first().map_or(0, |x| x.len());
    let n = xs.len().max(1) as f64;
    let mean: Vec<f64> = (0..d)
        .map(|j| xs.iter().map(|x| x[j]).sum::<f64>() / n)
        .collect();
    let scale = (0..d)
        .map(|j| {
            let var = xs.iter().map(|x| (x[j] - mean[j]).powi(2)).sum::<f64>() / n;
            let sd = var.sqrt();
            if sd > 1e-12 {
                sd
            } else {
                1.0
            }
        })
        .collect();
    Scaler { mean, scale }
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

/// Fits one binary machine with linfa and exports it; checks the exported
/// decision function against linfa's on every training row (to 1e-9).
fn fit_machine(
    z: &[Vec<f64>],
    y: &[bool],
    h: Hyper,
    positive: &str,
) -> Result<(Machine, f64), String> {
    if y.iter().all(|&t| t) || y.iter().all(|&t| !t) {
        return Err(format!("training data for {positive:?} has one class only"));
    }
    let d = z[0].len();
    let records = Array2::from_shape_vec((z.len(), d), z.iter().flatten().copied().collect())
        .map_err(|e| e.to_string())?;
    let ds = Dataset::new(records.clone(), Array1::from(y.to_vec()));
    let params = Svm::<f64, bool>::params().pos_neg_weights(h.c, h.c);
    let params = match h.gamma {
        Some(g) => params.gaussian_kernel(1.0 / g),
        None => params.linear_kernel(),
    };
    let model = params
        .fit(&ds)
        .map_err(|e| format!("SVM training failed: {e}"))?;
    let json = serde_json::to_value(&model).map_err(|e| e.to_string())?;
    let hyper = &json["sep_hyperplane"];
    let (support_vectors, dual_coef) = if let Some(lin) = hyper.get("Linear") {
        let w: Vec<f64> = serde_json::from_value(lin["data"].clone()).map_err(|e| e.to_string())?;
        (vec![w], vec![1.0])
    } else if let Some(wc) = hyper.get("WeightedCombination") {
        let data: Vec<f64> =
            serde_json::from_value(wc["data"].clone()).map_err(|e| e.to_string())?;
        let svs: Vec<Vec<f64>> = data.chunks(d).map(|c| c.to_vec()).collect();
        // The same filter as linfa's weighted_sum.
        let coef: Vec<f64> = model
            .alpha
            .iter()
            .copied()
            .filter(|a| a.abs() > 100.0 * f64::EPSILON)
            .collect();
        if coef.len() != svs.len() {
            return Err(format!(
                "{} coefficients for {} support vectors",
                coef.len(),
                svs.len()
            ));
        }
        (svs, coef)
    } else {
        return Err(format!("unexpected linfa model layout: {hyper}"));
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
    let probe = SvmModel {
        format: MODEL_FORMAT,
        vector: VectorSpec {
            keywords: 1,
            features: vec![neardup::verdict::Feature::KeywordJaccard; d],
        },
        df: StoredDf {
            documents: 0,
            terms: vec![],
        },
        scaler: Scaler {
            mean: vec![0.0; d],
            scale: vec![1.0; d],
        },
        kernel,
        binary: machine.clone(),
        classes: vec![],
        provenance: serde_json::Value::Null,
    };
    let mut worst: f64 = 0.0;
    for (i, row) in records.outer_iter().enumerate() {
        let lib = model.weighted_sum(&row) - model.rho;
        let ours = probe.decision_function(&z[i]).map_err(|e| e.to_string())?[0];
        worst = worst.max((lib - ours).abs());
    }
    if worst > 1e-9 {
        return Err(format!("exported model differs from linfa by {worst:e}"));
    }
    Ok((machine, worst))
}

/// A fitted verdict model and its largest difference from linfa.
pub fn fit(
    pairs: &[&Pair],
    spec: &VectorSpec,
    h: Hyper,
    classes: &[String],
) -> Result<(SvmModel, f64), String> {
    let df = fit_df(pairs);
    let xs: Vec<Vec<f64>> = pairs.iter().map(|p| spec.vector(&p.a, &p.b, &df)).collect();
    let scaler = fit_scaler(&xs);
    let z: Vec<Vec<f64>> = xs
        .iter()
        .map(|x| {
            x.iter()
                .zip(scaler.mean.iter().zip(&scaler.scale))
                .map(|(v, (m, s))| (v - m) / s)
                .collect()
        })
        .collect();
    let y: Vec<bool> = pairs.iter().map(|p| is_copied(&p.label)).collect();
    let (binary, mut worst) = fit_machine(&z, &y, h, "copied")?;
    let mut machines = Vec::new();
    for c in classes {
        let yc: Vec<bool> = pairs.iter().map(|p| &p.label == c).collect();
        let (m, w) = fit_machine(&z, &yc, h, c)?;
        worst = worst.max(w);
        machines.push(m);
    }
    let model = SvmModel {
        format: MODEL_FORMAT,
        vector: spec.clone(),
        df: StoredDf {
            documents: df.documents(),
            terms: df
                .counts()
                .into_iter()
                .map(|(h, n)| (format!("{h:016x}"), n))
                .collect(),
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
    model.check().map_err(|e| e.to_string())?;
    Ok((model, worst))
}

/// Predictions of a held-out fold: (binary decision, class).
fn predict(model: &SvmModel, pairs: &[&Pair]) -> Result<Vec<(f64, String)>, String> {
    pairs
        .iter()
        .map(|p| {
            let v = model.judge(&p.a, &p.b).map_err(|e| e.to_string())?;
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
) -> Result<(f64, f64), String> {
    let gs = groups(pairs);
    if gs.len() < 2 {
        return Err("cross-validation needs at least two groups (tasks)".into());
    }
    let (mut dec, mut truth, mut right) = (Vec::new(), Vec::new(), 0usize);
    for g in &gs {
        let train: Vec<&Pair> = pairs.iter().copied().filter(|p| &p.group != g).collect();
        let test: Vec<&Pair> = pairs.iter().copied().filter(|p| &p.group == g).collect();
        let (model, _) = fit(&train, spec, h, classes)?;
        for (p, (d, c)) in test.iter().zip(predict(&model, &test)?) {
            dec.push(d);
            truth.push(is_copied(&p.label));
            right += usize::from(c == p.label);
        }
    }
    let f1 = eval::at_threshold(&dec, &truth, 0.0).f1;
    Ok((f1, right as f64 / pairs.len() as f64))
}

/// The best hyper-parameters by grouped cross-validation (binary F1, then
/// class accuracy, then the earlier grid entry).
pub fn select(
    pairs: &[&Pair],
    spec: &VectorSpec,
    kernels: &[&str],
    classes: &[String],
) -> Result<(Hyper, (f64, f64)), String> {
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
    best.ok_or_else(|| "no hyper-parameters could be fitted (too little or one-class data?)".into())
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

pub fn nested_cv(pairs: &[Pair], spec: &VectorSpec, kernels: &[&str]) -> Result<Outer, String> {
    let all: Vec<&Pair> = pairs.iter().collect();
    let classes = classes_of(pairs);
    let gs = groups(&all);
    if gs.len() < 3 {
        return Err("nested cross-validation needs at least three groups (tasks)".into());
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
        neardup::compare(&p.a, &p.b, &neardup::CompareOptions::default())
            .map(|r| r.measures.score)
            .unwrap_or(0.0)
    };
    for g in &gs {
        let train: Vec<&Pair> = all.iter().copied().filter(|p| &p.group != g).collect();
        let (h, _) = select(&train, spec, kernels, &classes)?;
        out.chosen.insert(g.clone(), h);
        let (model, _) = fit(&train, spec, h, &classes)?;
        let train_scores: Vec<f64> = train.iter().map(|p| score(p)).collect();
        let train_truth: Vec<bool> = train.iter().map(|p| is_copied(&p.label)).collect();
        let threshold = eval::best_f1(&train_scores, &train_truth).map_or(0.5, |b| b.threshold);
        for (i, p) in pairs.iter().enumerate().filter(|(_, p)| &p.group == g) {
            let v = model.judge(&p.a, &p.b).map_err(|e| e.to_string())?;
            out.decisions[i] = v.binary_decision;
            out.predicted[i] = v.class.unwrap_or_default();
            out.baseline_scores[i] = score(p);
            out.baseline_predicted[i] = out.baseline_scores[i] >= threshold;
        }
    }
    Ok(out)
}
