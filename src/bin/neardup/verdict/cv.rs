//! Hyper-parameters by cross-validation grouped by task (leave one group
//! out), and the nested evaluation of `neardup eval --svm` with its
//! baselines (the plagiarism score with one threshold, and with cut points).

use super::cuts::grade_cuts;
use super::data::{documents, is_copied, Kind, Pair, CLOUGH_GRADES};
use super::fit::{anchors, fit_calibrated, grid, groups, Hyper, Setup};
use anyhow::{anyhow, bail, Result};
use neardup::measures::classification::{at_threshold, best_f1};
use neardup::verdict::{Scheme, SvmModel};
use std::collections::BTreeMap;

/// Cross-validated score of hyper-parameters over `pairs` by leaving one
/// group out: (class accuracy, binary F1), the classes read through the
/// model's calibration fitted on the same held-out decision values.
fn cv_score(pairs: &[&Pair], setup: &Setup, h: Hyper) -> Result<(f64, f64)> {
    let (model, _, held_out) = fit_calibrated(pairs, setup, h)?;
    let model = SvmModel::new(model).map_err(crate::core)?;
    let (mut dec, mut truth, mut right) = (Vec::new(), Vec::new(), 0usize);
    for (p, (d, x)) in pairs.iter().zip(&held_out) {
        let v = model.verdict_of(d, x).map_err(crate::core)?;
        dec.push(d[0]);
        truth.push(is_copied(&p.label));
        right += usize::from(v.class.as_deref() == Some(p.label.as_str()));
    }
    let f1 = at_threshold(&dec, &truth, 0.0).f1;
    Ok((right as f64 / pairs.len() as f64, f1))
}

/// The best hyper-parameters by grouped cross-validation: the higher class
/// accuracy, then the higher binary F1, then the earlier grid entry (a
/// binary-only setup: binary F1 alone).
pub fn select(pairs: &[&Pair], setup: &Setup, kernels: &[&str]) -> Result<(Hyper, (f64, f64))> {
    let mut best: Option<(Hyper, (f64, f64))> = None;
    for h in grid(kernels) {
        // A setting that cannot be fitted (a machine with one class in a
        // fold) is left out of the search.
        let Ok(s) = cv_score(pairs, setup, h) else {
            continue;
        };
        if best.as_ref().is_none_or(|(_, b)| {
            s.0 > b.0 + 1e-12 || ((s.0 - b.0).abs() <= 1e-12 && s.1 > b.1 + 1e-12)
        }) {
            best = Some((h, s));
        }
    }
    best.ok_or_else(|| {
        anyhow!("no hyper-parameters could be fitted (too little or one-class data?)")
    })
}

/// Nested leave-one-group-out evaluation: for each held-out group, select
/// hyper-parameters by cross-validation on the other groups, fit and
/// calibrate on them, predict the held-out group. Also the baseline: the
/// plagiarism score (containment of word 3-shingles) with one threshold
/// (binary) and, for ordered grades, one cut point per grade, each chosen
/// on the training groups.
pub struct Outer {
    pub decisions: Vec<f64>,
    pub predicted: Vec<String>,
    /// Per pair, each class with its probability (empty when uncalibrated).
    pub probabilities: Vec<Vec<(String, f64)>>,
    pub copied_probability: Vec<Option<f64>>,
    pub between: Vec<Option<(String, String)>>,
    pub baseline_scores: Vec<f64>,
    pub baseline_predicted: Vec<bool>,
    /// The baseline's grade of each pair (with `grades` only).
    pub baseline_graded: Vec<String>,
    pub chosen: BTreeMap<String, Hyper>,
    /// The ends (issue 47), held out: each text against itself and against
    /// an unrelated source (the pairs of [`anchors`], ordinal setups only),
    /// and the labelled pairs of the lowest grade that share no word
    /// 3-shingle ([`Kind::Labelled`]), with the probability the model gives
    /// their known grade.
    pub ends: Vec<(Kind, f64)>,
}

/// The probability a verdict gives `class`, if it names it.
fn probability_of(probabilities: &[(String, f64)], class: &str) -> Option<f64> {
    probabilities.iter().find(|(c, _)| c == class).map(|x| x.1)
}

pub fn nested_cv(pairs: &[Pair], setup: &Setup, kernels: &[&str]) -> Result<Outer> {
    let all: Vec<&Pair> = pairs.iter().collect();
    let gs = groups(&all);
    if gs.len() < 3 {
        bail!("nested cross-validation needs at least three groups (tasks)");
    }
    let n = pairs.len();
    let mut out = Outer {
        decisions: vec![0.0; n],
        predicted: vec![String::new(); n],
        probabilities: vec![Vec::new(); n],
        copied_probability: vec![None; n],
        between: vec![None; n],
        baseline_scores: vec![0.0; n],
        baseline_predicted: vec![false; n],
        baseline_graded: vec![String::new(); n],
        chosen: BTreeMap::new(),
        ends: Vec::new(),
    };
    let ends = anchors(
        &all,
        &Setup {
            anchors: true,
            ..setup.clone()
        },
    );
    let score = |p: &Pair| {
        neardup::compare(&p.a, &p.b, &neardup::CompareConfig::default())
            .map(|r| r.measures.score)
            .unwrap_or(0.0)
    };
    let rank = |label: &str| CLOUGH_GRADES.iter().position(|g| *g == label);
    let graded = pairs.iter().all(|p| rank(&p.label).is_some());
    for g in &gs {
        let train: Vec<&Pair> = all.iter().copied().filter(|p| &p.group != g).collect();
        let (h, _) = select(&train, setup, kernels)?;
        out.chosen.insert(g.clone(), h);
        let (model, _, _) = fit_calibrated(&train, setup, h)?;
        let model = SvmModel::new(model).map_err(crate::core)?;
        let train_scores: Vec<f64> = train.iter().map(|p| score(p)).collect();
        let train_truth: Vec<bool> = train.iter().map(|p| is_copied(&p.label)).collect();
        let threshold = best_f1(&train_scores, &train_truth).map_or(0.5, |b| b.threshold);
        let cuts = if graded {
            let ranks: Vec<usize> = train.iter().filter_map(|p| rank(&p.label)).collect();
            grade_cuts(&train_scores, &ranks, CLOUGH_GRADES.len() - 1)
        } else {
            Vec::new()
        };
        for p in ends.iter().filter(|p| &p.group == g) {
            let (a, b) = documents(p);
            let v = model.judge(&a, &b).map_err(crate::core)?;
            if let Some(q) = probability_of(&v.probabilities, &p.label) {
                out.ends.push((p.kind, q));
            }
        }
        for (i, p) in pairs.iter().enumerate().filter(|(_, p)| &p.group == g) {
            let (a, b) = documents(p);
            let v = model.judge(&a, &b).map_err(crate::core)?;
            out.decisions[i] = v.binary_decision;
            out.predicted[i] = v.class.unwrap_or_default();
            out.probabilities[i] = v.probabilities;
            out.copied_probability[i] = v.copied_probability;
            out.between[i] = v.between;
            out.baseline_scores[i] = score(p);
            let lowest = setup
                .classes
                .first()
                .filter(|_| setup.scheme == Scheme::Ordinal);
            if lowest == Some(&p.label) && out.baseline_scores[i] == 0.0 {
                if let Some(q) = probability_of(&out.probabilities[i], &p.label) {
                    out.ends.push((Kind::Labelled, q));
                }
            }
            out.baseline_predicted[i] = out.baseline_scores[i] >= threshold;
            if graded {
                let r = cuts
                    .iter()
                    .filter(|&&t| out.baseline_scores[i] >= t)
                    .count();
                out.baseline_graded[i] = CLOUGH_GRADES[r].to_string();
            }
        }
    }
    Ok(out)
}
