//! Classification metrics: precision, recall and F1 from counts; a
//! confusion matrix with per-class figures; and, for a score against binary
//! labels, ROC AUC and the best-F1 threshold (van Rijsbergen 1979; Hanley &
//! McNeil 1982). Used by `neardup eval`, `neardup dedup --truth` and the
//! evaluation tests.

use alloc::vec;
use alloc::vec::Vec;

/// Precision, recall and F1 from the counts of true positives, false
/// positives and false negatives.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Prf {
    /// `TP / (TP + FP)` in [0, 1]; 0 when nothing is predicted positive.
    pub precision: f64,
    /// `TP / (TP + FN)` in [0, 1]; 0 when there is no positive.
    pub recall: f64,
    /// Harmonic mean of precision and recall in [0, 1]; 0 when both are 0.
    pub f1: f64,
}

impl Prf {
    /// From counts: `tp` true positives, `fp` false positives, `fneg` false
    /// negatives.
    pub fn from_counts(tp: usize, fp: usize, fneg: usize) -> Prf {
        let ratio = |n: usize, d: usize| if d == 0 { 0.0 } else { n as f64 / d as f64 };
        let precision = ratio(tp, tp + fp);
        let recall = ratio(tp, tp + fneg);
        let f1 = if precision + recall == 0.0 {
            0.0
        } else {
            2.0 * precision * recall / (precision + recall)
        };
        Prf {
            precision,
            recall,
            f1,
        }
    }
}

/// A confusion matrix over classes `0..n`: `counts[truth][predicted]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfusionMatrix {
    counts: Vec<Vec<usize>>,
}

impl ConfusionMatrix {
    /// An empty `n × n` matrix.
    pub fn new(n: usize) -> Self {
        ConfusionMatrix {
            counts: vec![vec![0; n]; n],
        }
    }

    /// Counts one item of class `truth` predicted as `predicted`; ignored
    /// when either is not below `n`.
    pub fn add(&mut self, truth: usize, predicted: usize) {
        let n = self.counts.len();
        if truth < n && predicted < n {
            self.counts[truth][predicted] += 1;
        }
    }

    /// The rows: `rows()[truth][predicted]`.
    pub fn rows(&self) -> &[Vec<usize>] {
        &self.counts
    }

    /// Share of items on the diagonal, in [0, 1]; 0 when empty.
    pub fn accuracy(&self) -> f64 {
        let total: usize = self.counts.iter().flatten().sum();
        let right: usize = (0..self.counts.len()).map(|i| self.counts[i][i]).sum();
        if total == 0 {
            0.0
        } else {
            right as f64 / total as f64
        }
    }

    /// Precision, recall and F1 of class `c` against the rest.
    pub fn class(&self, c: usize) -> Prf {
        let n = self.counts.len();
        if c >= n {
            return Prf::default();
        }
        let tp = self.counts[c][c];
        let predicted: usize = (0..n).map(|t| self.counts[t][c]).sum();
        let actual: usize = self.counts[c].iter().sum();
        Prf::from_counts(tp, predicted - tp, actual - tp)
    }
}

/// Area under the ROC curve of `scores` for `labels` (`true` = positive):
/// the probability that a random positive scores above a random negative,
/// ties counting one half (Mann–Whitney U / (n₊ n₋); Hanley & McNeil 1982).
///
/// Returns `None` when there is no positive or no negative, or a score is NaN.
/// Panics never; `scores` and `labels` are zipped (extra items are ignored).
pub fn roc_auc(scores: &[f64], labels: &[bool]) -> Option<f64> {
    let mut v: Vec<(f64, bool)> = scores.iter().copied().zip(labels.iter().copied()).collect();
    if v.iter().any(|(s, _)| s.is_nan()) {
        return None;
    }
    let pos = v.iter().filter(|(_, l)| *l).count();
    let neg = v.len() - pos;
    if pos == 0 || neg == 0 {
        return None;
    }
    v.sort_by(|x, y| x.0.total_cmp(&y.0));
    // Sum of the (mid-)ranks of the positives.
    let mut rank_sum = 0.0;
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j < v.len() && v[j].0 == v[i].0 {
            j += 1;
        }
        let mid_rank = (i + 1 + j) as f64 / 2.0; // ranks i+1 ..= j
        rank_sum += mid_rank * v[i..j].iter().filter(|(_, l)| *l).count() as f64;
        i = j;
    }
    let u = rank_sum - (pos * (pos + 1)) as f64 / 2.0;
    Some(u / (pos as f64 * neg as f64))
}

/// Precision, recall and F1 of a decision at one threshold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThresholdScore {
    /// Items with `score >= threshold` are predicted positive.
    pub threshold: f64,
    /// `TP / (TP + FP)`, 0 when nothing is predicted positive.
    pub precision: f64,
    /// `TP / (TP + FN)`.
    pub recall: f64,
    /// Harmonic mean of precision and recall, 0 when both are 0.
    pub f1: f64,
}

/// Precision, recall and F1 when `score >= threshold` predicts positive.
pub fn at_threshold(scores: &[f64], labels: &[bool], threshold: f64) -> ThresholdScore {
    let (mut tp, mut fp, mut fneg) = (0usize, 0usize, 0usize);
    for (&s, &l) in scores.iter().zip(labels) {
        match (s >= threshold, l) {
            (true, true) => tp += 1,
            (true, false) => fp += 1,
            (false, true) => fneg += 1,
            _ => {}
        }
    }
    let Prf {
        precision,
        recall,
        f1,
    } = Prf::from_counts(tp, fp, fneg);
    ThresholdScore {
        threshold,
        precision,
        recall,
        f1,
    }
}

/// The threshold among the observed scores with the highest F1 (the lowest
/// such threshold on ties). `None` when `scores` is empty or has a NaN.
///
/// Chosen on the same data it is reported on, so it is optimistic: an upper
/// bound on what one fixed threshold achieves.
pub fn best_f1(scores: &[f64], labels: &[bool]) -> Option<ThresholdScore> {
    if scores.is_empty() || scores.iter().any(|s| s.is_nan()) {
        return None;
    }
    let mut best: Option<ThresholdScore> = None;
    for &t in scores {
        let s = at_threshold(scores, labels, t);
        let better = match best {
            None => true,
            Some(b) => s.f1 > b.f1 || (s.f1 == b.f1 && t < b.threshold),
        };
        if better {
            best = Some(s);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auc_by_hand() {
        assert_eq!(
            roc_auc(&[0.1, 0.2, 0.8, 0.9], &[false, false, true, true]),
            Some(1.0)
        );
        assert_eq!(
            roc_auc(&[0.9, 0.8, 0.2, 0.1], &[false, false, true, true]),
            Some(0.0)
        );
        // One tie between a positive and a negative: (3 + 0.5) / 4.
        assert_eq!(
            roc_auc(&[0.1, 0.5, 0.5, 0.9], &[false, false, true, true]),
            Some(0.875)
        );
        assert_eq!(roc_auc(&[0.1, 0.2], &[true, true]), None);
        assert_eq!(roc_auc(&[f64::NAN, 0.2], &[true, false]), None);
    }

    #[test]
    fn confusion_by_hand() {
        let mut m = ConfusionMatrix::new(2);
        for (t, p) in [(0, 0), (0, 1), (1, 1), (1, 1), (5, 0)] {
            m.add(t, p);
        }
        assert_eq!(m.rows(), [vec![1, 1], vec![0, 2]]);
        assert_eq!(m.accuracy(), 0.75);
        // class 1: TP 2, FP 1, FN 0
        let c = m.class(1);
        assert!((c.precision - 2.0 / 3.0).abs() < 1e-15 && c.recall == 1.0);
        assert!((c.f1 - 0.8).abs() < 1e-15);
        assert_eq!(Prf::from_counts(0, 0, 0), Prf::default());
    }

    #[test]
    fn f1_by_hand() {
        let s = [0.1, 0.4, 0.6, 0.9];
        let l = [false, true, false, true];
        let b = best_f1(&s, &l).unwrap();
        // t = 0.4: TP 2, FP 1 -> P 2/3, R 1, F1 0.8
        assert_eq!(b.threshold, 0.4);
        assert!((b.f1 - 0.8).abs() < 1e-12);
        assert_eq!(best_f1(&[], &[]), None);
    }
}
