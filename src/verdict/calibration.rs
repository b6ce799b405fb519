//! Platt scaling (Platt 1999, "Probabilistic outputs for support vector
//! machines"): a machine's decision value `f` becomes a probability
//! `P(positive | f) = 1 / (1 + exp(A·f + B))`, with `A`, `B` fitted by
//! maximum likelihood on decision values the machine did not train on
//! (cross-validated), against Platt's smoothed targets
//! `(N₊ + 1) / (N₊ + 2)` and `1 / (N₋ + 2)`. The fit is the Newton method
//! with backtracking line search of Lin, Lin & Weng (2007, "A note on
//! Platt's probabilistic outputs for support vector machines"), which is
//! numerically stable where Platt's pseudo-code is not.

use crate::error::{Error, ErrorKind};
use alloc::vec::Vec;

/// The clamp of a score read by [`Ends`]: `s` is taken in
/// `[ENDS_EPSILON, 1 − ENDS_EPSILON]`, so that `ln s` and `ln(1 − s)` are
/// finite (at most `ln 1000 ≈ 6.9` in magnitude). A containment of 0.999
/// is as near its end as an exact copy.
pub const ENDS_EPSILON: f64 = 1e-3;

/// The end terms of beta calibration (Kull, Silva Filho & Flach 2017,
/// "Beta calibration: a well-founded and easily implemented improvement on
/// logistic calibration for binary classifiers", AISTATS), added to a
/// Platt sigmoid for a score `s` in [0, 1] (a containment):
/// `P = 1 / (1 + exp(a·f + b − low·ln s + high·ln(1 − s)))`, `s` clamped
/// by [`ENDS_EPSILON`]. With `low`, `high` ≥ 0 the probability falls
/// towards 0 as nothing is shared and rises towards 1 as the copy becomes
/// exact, however far a logistic sigmoid fitted on partial copies would
/// leave it (issue 47: a text against itself was a near copy at 0.63).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ends {
    /// Weight of `ln s` (≥ 0): how fast the probability falls as `s` → 0.
    pub low: f64,
    /// Weight of `−ln(1 − s)` (≥ 0): how fast it rises as `s` → 1.
    pub high: f64,
}

impl Ends {
    /// The features of score `s` (`NaN` read as 0): `(ln s, −ln(1 − s))`
    /// of `s` clamped to `[ENDS_EPSILON, 1 − ENDS_EPSILON]`.
    pub fn features(s: f64) -> (f64, f64) {
        let s = if s.is_nan() { 0.0 } else { s };
        let s = s.clamp(ENDS_EPSILON, 1.0 - ENDS_EPSILON);
        (libm::log(s), -libm::log(1.0 - s))
    }

    /// What the terms add to the logit of the probability for score `s`:
    /// `low·ln s + high·(−ln(1 − s))`.
    pub fn logit(&self, s: f64) -> f64 {
        let (l, h) = Ends::features(s);
        self.low * l + self.high * h
    }
}

/// A fitted sigmoid: `P = 1 / (1 + exp(a·f + b))`. A machine whose positive
/// side has the larger decision values has `a < 0`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Platt {
    /// Slope `A` (per unit of decision value).
    pub a: f64,
    /// Offset `B`.
    pub b: f64,
}

impl Platt {
    /// The probability of the positive class for decision value `f`, in
    /// [0, 1]; computed without overflow for any finite `f`.
    pub fn probability(&self, f: f64) -> f64 {
        self.probability_at(f, 0.0)
    }

    /// The probability of the positive class for decision value `f` with
    /// `extra` added to its logit (the [`Ends`] terms), in [0, 1].
    pub fn probability_at(&self, f: f64, extra: f64) -> f64 {
        let z = self.a * f + self.b - extra;
        if z >= 0.0 {
            let e = libm::exp(-z);
            e / (1.0 + e)
        } else {
            1.0 / (1.0 + libm::exp(z))
        }
    }

    /// Fits `A`, `B` to decision values `f` and their true labels `y`
    /// (same length).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] when the lengths differ, a value is not
    /// finite, or either class is missing.
    pub fn fit(f: &[f64], y: &[bool]) -> Result<Platt, Error> {
        let (pos, neg) = classes(f, y)?;
        let (hi, lo) = ((pos + 1.0) / (pos + 2.0), 1.0 / (neg + 2.0));
        let t = |i: usize| if y[i] { hi } else { lo };
        // The negative log likelihood, computed stably.
        let nll = |a: f64, b: f64| -> f64 {
            (0..f.len())
                .map(|i| {
                    let z = a * f[i] + b;
                    if z >= 0.0 {
                        t(i) * z + libm::log1p(libm::exp(-z))
                    } else {
                        (t(i) - 1.0) * z + libm::log1p(libm::exp(z))
                    }
                })
                .sum()
        };
        let (mut a, mut b) = (0.0, libm::log((neg + 1.0) / (pos + 1.0)));
        let mut value = nll(a, b);
        for _ in 0..100 {
            // Gradient and Hessian (plus a small ridge, as Lin et al.).
            let (mut h11, mut h22, mut h21, mut g1, mut g2) = (1e-12, 1e-12, 0.0, 0.0, 0.0);
            for (i, &fi) in f.iter().enumerate() {
                let p = Platt { a, b }.probability(fi);
                let q = 1.0 - p;
                let d2 = p * q;
                h11 += fi * fi * d2;
                h22 += d2;
                h21 += fi * d2;
                let d1 = t(i) - p;
                g1 += fi * d1;
                g2 += d1;
            }
            if g1.abs() < 1e-5 && g2.abs() < 1e-5 {
                break;
            }
            let det = h11 * h22 - h21 * h21;
            let da = -(h22 * g1 - h21 * g2) / det;
            let db = -(-h21 * g1 + h11 * g2) / det;
            let gd = g1 * da + g2 * db;
            let mut step = 1.0;
            let mut moved = false;
            while step >= 1e-10 {
                let (na, nb) = (a + step * da, b + step * db);
                let nv = nll(na, nb);
                if nv < value + 1e-4 * step * gd {
                    (a, b, value) = (na, nb, nv);
                    moved = true;
                    break;
                }
                step /= 2.0;
            }
            if !moved {
                break;
            }
        }
        Ok(Platt { a, b })
    }
}

impl Platt {
    /// Fits a sigmoid with beta calibration's [`Ends`] on the scores `s` (in
    /// [0, 1], one per decision value), against Platt's smoothed targets as
    /// [`Platt::fit`]. The first `labelled` rows are labelled data, the rest
    /// anchors (pairs whose class is known by construction, at the ends):
    /// the slope `a` is Platt's on the labelled rows alone, so that the
    /// anchors do not steepen the sigmoid where the labelled data overlap;
    /// then the offset `b` and the end weights chosen by `which` (`low`,
    /// `high`) are fitted on all rows by maximum likelihood (Newton's method
    /// with backtracking, as Lin, Lin & Weng 2007). An end weight fitted
    /// below 0 is fixed at 0 and the rest fitted again (Kull et al. 2017
    /// drop such a term), so both are ≥ 0.
    ///
    /// # Errors
    /// As [`Platt::fit`] on the labelled rows and on all of them, and when
    /// `s` has another length, a value that is not in [0, 1], or `labelled`
    /// is beyond the rows.
    pub fn fit_with_ends(
        f: &[f64],
        s: &[f64],
        y: &[bool],
        which: (bool, bool),
        labelled: usize,
    ) -> Result<(Platt, Ends), Error> {
        if s.len() != f.len() || s.iter().any(|v| !(0.0..=1.0).contains(v)) || labelled > f.len() {
            return Err(Error::option(
                "calibration",
                alloc::format!(
                    "{} scores in [0, 1] and at most as many labelled rows are needed for {} decision values (got {} scores, {labelled} labelled)",
                    f.len(),
                    f.len(),
                    s.len()
                ),
            ));
        }
        let (pos, neg) = classes(f, y)?;
        let slope = Platt::fit(&f[..labelled], &y[..labelled])?;
        let (hi, lo) = ((pos + 1.0) / (pos + 2.0), 1.0 / (neg + 2.0));
        // Rows x_i with z_i = θ·x_i and P_i = 1 / (1 + exp(z_i)).
        let rows: Vec<[f64; 4]> = f
            .iter()
            .zip(s)
            .map(|(&fi, &si)| {
                let (l, h) = Ends::features(si);
                [fi, 1.0, -l, -h]
            })
            .collect();
        let t: Vec<f64> = y.iter().map(|&v| if v { hi } else { lo }).collect();
        let mut free = [false, true, which.0, which.1];
        loop {
            let theta = newton(&rows, &t, &free, [slope.a, slope.b, 0.0, 0.0]);
            let negative: Vec<usize> = (2..4).filter(|&k| free[k] && theta[k] < 0.0).collect();
            if negative.is_empty() {
                let platt = Platt {
                    a: theta[0],
                    b: theta[1],
                };
                let ends = Ends {
                    low: theta[2],
                    high: theta[3],
                };
                return Ok((platt, ends));
            }
            for k in negative {
                free[k] = false;
            }
        }
    }
}

/// The counts of positives and negatives of a fit's input, checked: as many
/// labels as values, every value finite, both classes present.
fn classes(f: &[f64], y: &[bool]) -> Result<(f64, f64), Error> {
    if f.len() != y.len() {
        return Err(Error::option(
            "calibration",
            alloc::format!("{} decision values for {} labels", f.len(), y.len()),
        ));
    }
    if f.iter().any(|v| !v.is_finite()) {
        return Err(Error::option(
            "calibration",
            "a decision value is not finite",
        ));
    }
    let pos = y.iter().filter(|&&t| t).count() as f64;
    let neg = y.len() as f64 - pos;
    if pos == 0.0 || neg == 0.0 {
        return Err(Error::new(ErrorKind::InvalidOption {
            option: "calibration",
            reason: "the decision values need both classes".into(),
        }));
    }
    Ok((pos, neg))
}

/// The negative log likelihood of `θ` against targets `t`, computed stably.
fn nll(rows: &[[f64; 4]], t: &[f64], theta: &[f64; 4]) -> f64 {
    rows.iter()
        .zip(t)
        .map(|(x, &ti)| {
            let z: f64 = x.iter().zip(theta).map(|(a, b)| a * b).sum();
            if z >= 0.0 {
                ti * z + libm::log1p(libm::exp(-z))
            } else {
                (ti - 1.0) * z + libm::log1p(libm::exp(z))
            }
        })
        .sum()
}

/// Newton's method with backtracking line search (as Lin, Lin & Weng 2007)
/// over the free parameters of `θ` (the others keep their `start` values).
fn newton(rows: &[[f64; 4]], t: &[f64], free: &[bool; 4], start: [f64; 4]) -> [f64; 4] {
    let idx: Vec<usize> = (0..4).filter(|&k| free[k]).collect();
    let mut theta = start;
    let n = idx.len();
    let mut value = nll(rows, t, &theta);
    for _ in 0..200 {
        let mut g = [0.0; 4];
        let mut h = [[0.0; 4]; 4];
        for (x, &ti) in rows.iter().zip(t) {
            let z: f64 = x.iter().zip(&theta).map(|(a, b)| a * b).sum();
            let p = Platt { a: 1.0, b: 0.0 }.probability(z);
            let w = p * (1.0 - p);
            for (i, &ki) in idx.iter().enumerate() {
                g[i] += (ti - p) * x[ki];
                for (j, &kj) in idx.iter().enumerate() {
                    h[i][j] += w * x[ki] * x[kj];
                }
            }
        }
        if g[..n].iter().all(|v| v.abs() < 1e-7) {
            break;
        }
        for (i, row) in h.iter_mut().enumerate().take(n) {
            row[i] += 1e-12;
        }
        let Some(step) = solve(h, g, n) else { break };
        let gd: f64 = (0..n).map(|i| -g[i] * step[i]).sum();
        let mut size = 1.0;
        let mut moved = false;
        while size >= 1e-10 {
            let mut next = theta;
            for (i, &k) in idx.iter().enumerate() {
                next[k] -= size * step[i];
            }
            let v = nll(rows, t, &next);
            if v < value + 1e-4 * size * gd {
                (theta, value, moved) = (next, v, true);
                break;
            }
            size /= 2.0;
        }
        if !moved {
            break;
        }
    }
    theta
}

/// Solves the `n × n` system `h x = g` (n ≤ 4) by Gaussian elimination with
/// partial pivoting; `None` when it is singular.
fn solve(mut h: [[f64; 4]; 4], mut g: [f64; 4], n: usize) -> Option<[f64; 4]> {
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| h[i][c].abs().total_cmp(&h[j][c].abs()))?;
        if h[p][c].abs() < 1e-300 {
            return None;
        }
        h.swap(c, p);
        g.swap(c, p);
        let pivot = h[c];
        for r in c + 1..n {
            let m = h[r][c] / pivot[c];
            for (x, p) in h[r][c..n].iter_mut().zip(&pivot[c..n]) {
                *x -= m * p;
            }
            g[r] -= m * g[c];
        }
    }
    let mut x = [0.0; 4];
    for c in (0..n).rev() {
        let rest: f64 = (c + 1..n).map(|k| h[c][k] * x[k]).sum();
        x[c] = (g[c] - rest) / h[c][c];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// Platt's smoothed targets, written here from the paper:
    /// `(N₊ + 1) / (N₊ + 2)` for a positive, `1 / (N₋ + 2)` for a negative.
    fn platt_targets(y: &[bool]) -> Vec<f64> {
        let np = y.iter().filter(|&&v| v).count() as f64;
        let nn = y.len() as f64 - np;
        y.iter()
            .map(|&v| {
                if v {
                    (np + 1.0) / (np + 2.0)
                } else {
                    1.0 / (nn + 2.0)
                }
            })
            .collect()
    }

    #[test]
    fn separable_values_give_a_steep_sigmoid_with_the_positive_side_high() {
        let f = [-2.0, -1.5, -1.0, 1.0, 1.5, 2.0];
        let y = [false, false, false, true, true, true];
        let p = Platt::fit(&f, &y).unwrap();
        assert!(p.a < 0.0, "{p:?}");
        assert!(p.probability(2.0) > 0.75 && p.probability(-2.0) < 0.25);
        // Platt's targets keep it away from 0 and 1 on six values.
        assert!(p.probability(2.0) < 0.95 && p.probability(-2.0) > 0.05);
        assert!((p.probability(0.0) - 0.5).abs() < 0.05, "symmetric data");
    }

    #[test]
    fn the_fit_reaches_the_likelihoods_minimum() {
        // Overlapping classes: the fitted (A, B) must have a zero gradient,
        // checked by finite differences of the likelihood written here.
        let f = [-1.0, -0.5, 0.2, 0.3, -0.2, 0.8, 1.2, 0.1, -0.7, 0.9];
        let y = [
            false, false, false, true, true, true, true, false, false, true,
        ];
        let p = Platt::fit(&f, &y).unwrap();
        let t = platt_targets(&y);
        let nll = |a: f64, b: f64| -> f64 {
            f.iter()
                .zip(&t)
                .map(|(&fi, &ti)| {
                    let q = 1.0 / (1.0 + libm::exp(a * fi + b));
                    -(ti * libm::log(q) + (1.0 - ti) * libm::log(1.0 - q))
                })
                .sum()
        };
        let h = 1e-4;
        let ga = (nll(p.a + h, p.b) - nll(p.a - h, p.b)) / (2.0 * h);
        let gb = (nll(p.a, p.b + h) - nll(p.a, p.b - h)) / (2.0 * h);
        assert!(ga.abs() < 1e-3 && gb.abs() < 1e-3, "gradient {ga} {gb}");
        assert!(p.a < 0.0);
    }

    #[test]
    fn the_ends_are_fitted_where_the_labelled_rows_cannot_reach() {
        // Labelled rows overlap in the middle (s in 0.3..0.8, the classes
        // mixed up to the highest score seen); anchors at s = 1 are all
        // positive. Plain Platt leaves an exact copy (f = 3, beyond every
        // row) near the middle; with the ends it is near 1, the slope is
        // still the labelled rows' own, and the fit is the likelihood's
        // minimum over the free parameters (checked by finite differences
        // of the likelihood written here).
        let f = [-1.0, -0.5, 0.0, 0.5, 1.0, -1.0, -0.5, 0.0, 0.5, 1.0];
        let s = [0.3, 0.4, 0.5, 0.6, 0.8, 0.3, 0.4, 0.5, 0.6, 0.8];
        let y = [
            false, true, false, true, false, true, false, true, false, true,
        ];
        let plain = Platt::fit(&f, &y).unwrap();
        assert!(plain.probability(3.0) < 0.9, "{}", plain.probability(3.0));
        let mut fa = f.to_vec();
        let mut sa = s.to_vec();
        let mut ya = y.to_vec();
        for _ in 0..10 {
            fa.push(3.0);
            sa.push(1.0);
            ya.push(true);
        }
        let (p, ends) = Platt::fit_with_ends(&fa, &sa, &ya, (true, true), f.len()).unwrap();
        assert_eq!(p.a, plain.a, "the slope is the labelled rows'");
        assert!(ends.low >= 0.0 && ends.high > 0.0, "{ends:?}");
        let at = |fi: f64, si: f64| p.probability_at(fi, ends.logit(si));
        assert!(at(3.0, 1.0) > 0.9, "{}", at(3.0, 1.0));
        assert!(at(0.0, 0.5) < 0.8 && at(0.0, 0.5) > 0.2, "{}", at(0.0, 0.5));
        let t = platt_targets(&ya);
        let nll = |b: f64, low: f64, high: f64| -> f64 {
            (0..fa.len())
                .map(|i| {
                    let c = sa[i].clamp(ENDS_EPSILON, 1.0 - ENDS_EPSILON);
                    let z = p.a * fa[i] + b - low * libm::log(c) + high * libm::log(1.0 - c);
                    let q = 1.0 / (1.0 + libm::exp(z));
                    -(t[i] * libm::log(q) + (1.0 - t[i]) * libm::log(1.0 - q))
                })
                .sum()
        };
        let h = 1e-5;
        let gb =
            (nll(p.b + h, ends.low, ends.high) - nll(p.b - h, ends.low, ends.high)) / (2.0 * h);
        let gh =
            (nll(p.b, ends.low, ends.high + h) - nll(p.b, ends.low, ends.high - h)) / (2.0 * h);
        assert!(gb.abs() < 1e-3 && gh.abs() < 1e-3, "gradient {gb} {gh}");
        if ends.low > 0.0 {
            let gl =
                (nll(p.b, ends.low + h, ends.high) - nll(p.b, ends.low - h, ends.high)) / (2.0 * h);
            assert!(gl.abs() < 1e-3, "gradient {gl}");
        } else {
            // Dropped at 0: the likelihood rises as low grows.
            assert!(nll(p.b, h, ends.high) >= nll(p.b, 0.0, ends.high) - 1e-9);
        }
        // An end the anchors contradict gets no weight: positives at s = 0
        // would want P to rise as nothing is shared.
        let mut fb = f.to_vec();
        let mut sb = s.to_vec();
        let mut yb = y.to_vec();
        for _ in 0..10 {
            fb.push(-1.0);
            sb.push(0.0);
            yb.push(true);
        }
        let (_, e) = Platt::fit_with_ends(&fb, &sb, &yb, (true, false), f.len()).unwrap();
        assert_eq!(
            e,
            Ends {
                low: 0.0,
                high: 0.0
            }
        );
        // Bad shapes are errors.
        assert!(Platt::fit_with_ends(&f, &s[..3], &y, (true, true), 3).is_err());
        assert!(Platt::fit_with_ends(&f, &[2.0; 10], &y, (true, true), 3).is_err());
        assert!(Platt::fit_with_ends(&f, &s, &y, (true, true), 11).is_err());
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(Platt::fit(&[1.0], &[true, false]).is_err());
        assert!(Platt::fit(&[1.0, 2.0], &[true, true]).is_err());
        assert!(Platt::fit(&[f64::NAN, 2.0], &[true, false]).is_err());
        let p = Platt { a: -1e300, b: 0.0 };
        assert_eq!(p.probability(1e300), 1.0);
        assert_eq!(p.probability(-1e300), 0.0);
    }
}
