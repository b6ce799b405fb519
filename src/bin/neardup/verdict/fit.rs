//! Support vector machines fitted by `linfa-svm` (SMO; Cortes & Vapnik
//! 1995) and exported through linfa's public API into the model JSON that
//! `neardup::verdict` evaluates, checked against linfa's decision values;
//! Platt scaling (Platt 1999) on held-out decision values.

use super::cuts::grade_cuts;
use super::data::{documents, fit_df, is_copied, Kind, Pair};
use super::DF_SEED;
use anyhow::{anyhow, bail, Result};
use linfa::prelude::*;
use linfa::Dataset;
use linfa_svm::Svm;
use ndarray::{Array1, Array2};
use neardup::verdict::{
    CalibrationEnds, Feature, Kernel, Machine, ModelFile, Platt, Scaler, Scheme, StoredDf,
    SvmModel, VectorSpec, MODEL_FORMAT,
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
    /// Ordinal only: add [`anchors`] to the calibration (never to the
    /// machines' training).
    pub anchors: bool,
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
        ends: None,
        provenance: serde_json::Value::Null,
    };
    Ok((model, worst))
}

/// Pairs whose grade is known by construction, for calibrating the
/// probabilities at the ends (issue 47; with the end terms they anchor): each distinct text of `pairs`
/// against itself, graded the highest grade (an exact copy is a near copy),
/// and each suspicious text against the source of another group with which
/// it shares no word 3-shingle, graded the lowest (an original with no
/// shared phrase). Each anchor belongs to its text's group, so that
/// cross-validation holds it out with that group. Empty unless the setup is
/// ordinal with anchors.
pub(super) fn anchors(pairs: &[&Pair], setup: &Setup) -> Vec<Pair> {
    let (Some(low), Some(high)) = (setup.classes.first(), setup.classes.last()) else {
        return Vec::new();
    };
    if !setup.anchors || setup.scheme != Scheme::Ordinal {
        return Vec::new();
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for p in pairs {
        for (id, text) in [(&p.id, &p.a), (&p.source, &p.b)] {
            if seen.insert(id.clone()) {
                out.push(Pair {
                    id: format!("{id} (itself)"),
                    source: id.clone(),
                    a: text.clone(),
                    b: text.clone(),
                    label: high.clone(),
                    group: p.group.clone(),
                    kind: Kind::Itself,
                });
            }
        }
    }
    let config = neardup::CompareConfig::default();
    for p in pairs {
        let other = pairs.iter().find(|q| {
            q.group != p.group
                && neardup::compare(&p.a, &q.b, &config)
                    .is_ok_and(|r| r.measures.shared_shingles == 0)
        });
        if let Some(q) = other {
            out.push(Pair {
                id: format!("{} (unrelated)", p.id),
                source: q.source.clone(),
                a: p.a.clone(),
                b: q.b.clone(),
                label: low.clone(),
                group: p.group.clone(),
                kind: Kind::Unrelated,
            });
        }
    }
    out
}

/// Decision values (binary, then each graded machine) and the unscaled
/// similarity vector of a row.
pub type Judged = (Vec<f64>, Vec<f64>);

/// The component the calibration's ends read: word 3-shingle containment
/// (the plagiarism score), when the setup asks for anchors and has it.
fn ends_score(setup: &Setup) -> Option<usize> {
    let score = Feature::WordContainment { n: 3 };
    setup
        .anchors
        .then(|| setup.spec.features.iter().position(|f| *f == score))
        .flatten()
}

/// A fitted model, calibrated (when the setup asks) by Platt scaling: SVMs
/// on the decision values of leave-one-group-out cross-validation over
/// `pairs` (Platt 1999: never on the rows a machine trained on), cut points
/// on the training rows. With anchors, the [`anchors`] are added to the
/// calibration rows (never to the machines' training) and every sigmoid
/// gets beta calibration's end terms on the score (Kull et al. 2017,
/// `neardup::verdict::Ends`). Also returns the largest difference from
/// linfa and the cross-validated decision values and vectors of `pairs`.
pub fn fit_calibrated(
    pairs: &[&Pair],
    setup: &Setup,
    h: Hyper,
) -> Result<(ModelFile, f64, Vec<Judged>)> {
    let (mut model, worst) = fit(pairs, setup, h)?;
    let score = ends_score(setup).filter(|_| setup.calibrate);
    let extra = match score {
        Some(_) => anchors(pairs, setup),
        None => Vec::new(),
    };
    let (held_out, extra_held_out) = cv_decisions(pairs, &extra, setup, h)?;
    if setup.calibrate {
        let rows: Vec<&Pair> = pairs.iter().copied().chain(&extra).collect();
        let targets = setup.targets(&rows);
        let all_held_out: Vec<Judged> = held_out.iter().chain(&extra_held_out).cloned().collect();
        // Cut points on the score are calibrated on the training rows'
        // own values: one number fitted per machine, where an SVM's margins
        // on its training rows are pushed out to ±1 and must be held out
        // (Platt 1999). Nested cross-validation prefers it (Brier 0.466
        // against 0.488, EVALUATION.md).
        let own: Vec<Judged> = match setup.grade_cuts {
            Some(_) => {
                let plain = decisions_only(model.clone())?;
                rows.iter()
                    .map(|p| {
                        let (a, b) = documents(p);
                        let x = plain.similarity_vector(&a, &b);
                        let d = plain.decision_function(&x).map_err(crate::core)?;
                        Ok((d, x))
                    })
                    .collect::<Result<Vec<_>>>()?
            }
            None => all_held_out.clone(),
        };
        let mut terms = Vec::new();
        model.calibration = targets
            .iter()
            .enumerate()
            .map(|(m, y)| {
                let values = if m == 0 { &all_held_out } else { &own };
                let Some(j) = score else {
                    let f: Vec<f64> = values.iter().map(|(d, _)| d[m]).collect();
                    return Platt::fit(&f, y).map_err(crate::core);
                };
                // The binary sigmoid gets both ends (P(copied) falls as
                // nothing is shared and rises as the copy becomes exact,
                // where a kernel machine's decision may not), with both
                // kinds of anchor; the graded ones the top end only (P(≥
                // grade) rises as the copy becomes exact: the bottom is
                // P(copied)'s), with the anchors of texts against
                // themselves. A labelled row that contradicts what the
                // anchors define (a grade of reuse for a pair sharing no
                // shingle, the lowest grade for an exact copy: the
                // corpus's known label noise) is left out of calibration.
                let s_of = |i: usize| values[i].1[j].clamp(0.0, 1.0);
                let keep: Vec<usize> = (0..rows.len())
                    .filter(|&i| match rows[i].kind {
                        Kind::Labelled => {
                            let copied = is_copied(&rows[i].label);
                            !(copied && s_of(i) == 0.0 || !copied && s_of(i) == 1.0)
                        }
                        Kind::Itself => true,
                        Kind::Unrelated => m == 0,
                    })
                    .collect();
                let labelled = keep
                    .iter()
                    .filter(|&&i| rows[i].kind == Kind::Labelled)
                    .count();
                let f: Vec<f64> = keep.iter().map(|&i| values[i].0[m]).collect();
                let s: Vec<f64> = keep.iter().map(|&i| s_of(i)).collect();
                let y: Vec<bool> = keep.iter().map(|&i| y[i]).collect();
                let (platt, ends) = Platt::fit_with_ends(&f, &s, &y, (m == 0, true), labelled)
                    .map_err(crate::core)?;
                terms.push(ends);
                Ok(platt)
            })
            .collect::<Result<_>>()?;
        if let Some(j) = score {
            model.ends = Some(CalibrationEnds {
                score: j as u32,
                terms,
            });
        }
    }
    model.check().map_err(crate::core)?;
    Ok((model, worst, held_out))
}

/// Decision values and vectors of every pair, and of every probe, by a
/// model that did not see its group (trained on `pairs` only):
/// leave-one-group-out.
pub(super) fn cv_decisions(
    pairs: &[&Pair],
    probes: &[Pair],
    setup: &Setup,
    h: Hyper,
) -> Result<(Vec<Judged>, Vec<Judged>)> {
    let gs = groups(pairs);
    if gs.len() < 2 {
        bail!("cross-validation needs at least two groups (tasks)");
    }
    let mut out = vec![Judged::default(); pairs.len()];
    let mut probed = vec![Judged::default(); probes.len()];
    for g in &gs {
        let train: Vec<&Pair> = pairs.iter().copied().filter(|p| &p.group != g).collect();
        let model = decisions_only(fit(&train, setup, h)?.0)?;
        let judged = pairs
            .iter()
            .copied()
            .zip(out.iter_mut())
            .chain(probes.iter().zip(probed.iter_mut()));
        for (p, slot) in judged.filter(|(p, _)| &p.group == g) {
            let (a, b) = documents(p);
            let x = model.similarity_vector(&a, &b);
            let d = model.decision_function(&x).map_err(crate::core)?;
            *slot = (d, x);
        }
    }
    Ok((out, probed))
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
