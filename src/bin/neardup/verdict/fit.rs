//! Support vector machines fitted by `linfa-svm` (SMO; Cortes & Vapnik
//! 1995) and exported through linfa's public API into the model JSON that
//! `neardup::verdict` evaluates, checked against linfa's decision values;
//! Platt scaling (Platt 1999) on held-out decision values.

use super::cuts::grade_cuts;
use super::data::{documents, fit_df, is_copied, Pair};
use super::DF_SEED;
use anyhow::{anyhow, bail, Result};
use linfa::prelude::*;
use linfa::Dataset;
use linfa_svm::Svm;
use ndarray::{Array1, Array2};
use neardup::verdict::{
    Kernel, Machine, ModelFile, Platt, Scaler, Scheme, StoredDf, SvmModel, VectorSpec, MODEL_FORMAT,
};
use std::collections::BTreeSet;

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
        kernel: None,
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

/// What a model is made of besides its hyper-parameters: the similarity
/// vector, how the graded classes decide, and whether decision values are
/// calibrated into probabilities (Platt scaling on cross-validated decision
/// values).
#[derive(Clone, Debug)]
pub struct Setup {
    pub spec: VectorSpec,
    pub scheme: Scheme,
    /// Ordinal: the grades, lowest first. One-vs-rest: the classes.
    pub classes: Vec<String>,
    pub calibrate: bool,
    /// The components the graded machines read (indices into the vector):
    /// those machines are then linear, trained with the other components
    /// set to 0, so their weights there are exactly 0. `None`: every
    /// component, with the model's kernel.
    pub graded_features: Option<Vec<usize>>,
    /// Ordinal only: the grade machines are cut points on one component
    /// (its index): `g_k(z) = z_j − t_k`, the cut points `t_k` those right
    /// on the most training pairs ([`grade_cuts`]). A cumulative threshold
    /// model on one score (McCullagh 1980's proportional odds without the
    /// link; here calibrated per cut by Platt scaling).
    pub grade_cuts: Option<usize>,
}

impl Setup {
    /// The names of the graded-class machines.
    fn machines(&self) -> &[String] {
        match self.scheme {
            Scheme::OneVsRest => &self.classes,
            Scheme::Ordinal => &self.classes[1..],
        }
    }

    /// Whether `label` is on the positive side of graded machine `k`.
    fn positive(&self, k: usize, label: &str) -> bool {
        match self.scheme {
            Scheme::OneVsRest => self.classes[k] == label,
            Scheme::Ordinal => self
                .classes
                .iter()
                .position(|c| c == label)
                .is_some_and(|rank| rank > k),
        }
    }

    /// The label of every machine, binary first, for each pair.
    fn targets(&self, pairs: &[&Pair]) -> Vec<Vec<bool>> {
        let mut t = vec![pairs
            .iter()
            .map(|p| is_copied(&p.label))
            .collect::<Vec<_>>()];
        for k in 0..self.machines().len() {
            t.push(pairs.iter().map(|p| self.positive(k, &p.label)).collect());
        }
        t
    }
}

/// A fitted verdict model (uncalibrated) and its largest difference from
/// linfa.
pub fn fit(pairs: &[&Pair], setup: &Setup, h: Hyper) -> Result<(ModelFile, f64)> {
    let spec = &setup.spec;
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
    let targets = setup.targets(pairs);
    let (binary, mut worst) = fit_machine(&z, &targets[0], h, "copied")?;
    let mut machines = Vec::new();
    if let Some(j) = setup.grade_cuts {
        let values: Vec<f64> = z.iter().map(|row| row[j]).collect();
        let ranks: Vec<usize> = pairs
            .iter()
            .map(|p| {
                setup
                    .classes
                    .iter()
                    .position(|c| *c == p.label)
                    .unwrap_or(0)
            })
            .collect();
        let (lo, hi) = values
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        let cuts = grade_cuts(&values, &ranks, setup.classes.len() - 1);
        let mut unit = vec![0.0; z[0].len()];
        unit[j] = 1.0;
        for (name, t) in setup.machines().iter().zip(cuts) {
            machines.push(Machine {
                positive: name.clone(),
                support_vectors: vec![unit.clone()],
                dual_coef: vec![1.0],
                bias: -t.clamp(lo - 1.0, hi + 1.0),
                kernel: Some(Kernel::Linear),
            });
        }
    } else {
        // The graded machines' rows: only their components, and a linear kernel.
        let (zg, hg) = match &setup.graded_features {
            Some(keep) => (
                z.iter()
                    .map(|row| {
                        row.iter()
                            .enumerate()
                            .map(|(j, &v)| if keep.contains(&j) { v } else { 0.0 })
                            .collect()
                    })
                    .collect(),
                Hyper {
                    kernel: "linear",
                    c: h.c,
                    gamma: None,
                },
            ),
            None => (z.clone(), h),
        };
        for (name, y) in setup.machines().iter().zip(&targets[1..]) {
            let (mut m, w) = fit_machine(&zg, y, hg, name)?;
            if hg != h {
                m.kernel = Some(Kernel::Linear);
            }
            worst = worst.max(w);
            machines.push(m);
        }
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
        scheme: setup.scheme,
        grades: match setup.scheme {
            Scheme::Ordinal => setup.classes.clone(),
            Scheme::OneVsRest => Vec::new(),
        },
        calibration: Vec::new(),
        provenance: serde_json::Value::Null,
    };
    Ok((model, worst))
}

/// A fitted model, calibrated (when the setup asks) by Platt scaling: SVMs
/// on the decision values of leave-one-group-out cross-validation over
/// `pairs` (Platt 1999: never on the rows a machine trained on), cut points
/// on the training rows. Also returns the largest difference from linfa and
/// the cross-validated decision values.
pub fn fit_calibrated(
    pairs: &[&Pair],
    setup: &Setup,
    h: Hyper,
) -> Result<(ModelFile, f64, Vec<Vec<f64>>)> {
    let (mut model, worst) = fit(pairs, setup, h)?;
    let held_out = cv_decisions(pairs, setup, h)?;
    if setup.calibrate {
        let targets = setup.targets(pairs);
        // Cut points on the score are calibrated on the training rows'
        // own values: one number fitted per machine, where an SVM's margins
        // on its training rows are pushed out to ±1 and must be held out
        // (Platt 1999). Nested cross-validation prefers it (Brier 0.466
        // against 0.488, EVALUATION.md).
        let own = match setup.grade_cuts {
            Some(_) => {
                let plain = decisions_only(model.clone())?;
                pairs
                    .iter()
                    .map(|p| {
                        let (a, b) = documents(p);
                        plain
                            .decision_function(&plain.similarity_vector(&a, &b))
                            .map_err(crate::core)
                    })
                    .collect::<Result<Vec<_>>>()?
            }
            None => held_out.clone(),
        };
        model.calibration = targets
            .iter()
            .enumerate()
            .map(|(m, y)| {
                let values = if m == 0 { &held_out } else { &own };
                let f: Vec<f64> = values.iter().map(|d| d[m]).collect();
                Platt::fit(&f, y).map_err(crate::core)
            })
            .collect::<Result<_>>()?;
    }
    model.check().map_err(crate::core)?;
    Ok((model, worst, held_out))
}

/// Decision values (binary, then each graded machine) of every pair by a
/// model that did not see its group: leave-one-group-out.
pub(super) fn cv_decisions(pairs: &[&Pair], setup: &Setup, h: Hyper) -> Result<Vec<Vec<f64>>> {
    let gs = groups(pairs);
    if gs.len() < 2 {
        bail!("cross-validation needs at least two groups (tasks)");
    }
    let mut out = vec![Vec::new(); pairs.len()];
    for g in &gs {
        let train: Vec<&Pair> = pairs.iter().copied().filter(|p| &p.group != g).collect();
        let model = decisions_only(fit(&train, setup, h)?.0)?;
        for (i, p) in pairs.iter().enumerate().filter(|(_, p)| &p.group == g) {
            let (a, b) = documents(p);
            out[i] = model
                .decision_function(&model.similarity_vector(&a, &b))
                .map_err(crate::core)?;
        }
    }
    Ok(out)
}

pub(super) fn groups(pairs: &[&Pair]) -> Vec<String> {
    pairs
        .iter()
        .map(|p| p.group.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// An uncalibrated model loaded only to read its machines' decision values:
/// without the ordinal reading, which needs the calibration that is fitted
/// from those values.
pub(super) fn decisions_only(mut model: ModelFile) -> Result<SvmModel> {
    model.scheme = Scheme::OneVsRest;
    model.grades.clear();
    SvmModel::new(model).map_err(crate::core)
}
