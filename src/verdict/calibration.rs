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
        let z = self.a * f + self.b;
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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

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
        let (np, nn) = (5.0, 5.0);
        let t: Vec<f64> = y
            .iter()
            .map(|&v| {
                if v {
                    (np + 1.0) / (np + 2.0)
                } else {
                    1.0 / (nn + 2.0)
                }
            })
            .collect();
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
    fn bad_input_is_an_error() {
        assert!(Platt::fit(&[1.0], &[true, false]).is_err());
        assert!(Platt::fit(&[1.0, 2.0], &[true, true]).is_err());
        assert!(Platt::fit(&[f64::NAN, 2.0], &[true, false]).is_err());
        let p = Platt { a: -1e300, b: 0.0 };
        assert_eq!(p.probability(1e300), 1.0);
        assert_eq!(p.probability(-1e300), 0.0);
    }
}
