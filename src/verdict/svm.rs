//! Support vector machine inference: the decision function of machines
//! trained natively (`neardup train`, with `linfa-svm`), evaluated here in
//! `no_std`, natively and in WebAssembly.
//!
//! Machine `m` on the scaled vector `z_i = (x_i − mean_i) / scale_i`:
//!
//! ```text
//! g_m(z) = Σ_j coef_j K(sv_j, z) + bias
//! ```
//!
//! with `K(u, v) = u·v` (linear) or `exp(−gamma ‖u − v‖²)` (RBF), `coef_j =
//! α_j y_j` the signed dual coefficients (Cortes & Vapnik 1995; the form of
//! libsvm and linfa). A binary machine says "positive" when `g ≥ 0`; several
//! machines are one-vs-rest, the class the one with the largest `g`.

use alloc::string::String;
use alloc::vec::Vec;

/// The kernel of the machines.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Kernel {
    /// `K(u, v) = u·v`.
    Linear,
    /// `K(u, v) = exp(−gamma ‖u − v‖²)`, `gamma > 0`.
    Rbf {
        /// The width parameter.
        gamma: f64,
    },
}

/// One binary machine: `g(z) = Σ coef_j K(sv_j, z) + bias`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    /// The class this machine says "yes" to (one-vs-rest), or the positive
    /// class of a binary decision.
    pub positive: String,
    /// Support vectors, in the scaled space; each of the vector's length.
    pub support_vectors: Vec<Vec<f64>>,
    /// Signed dual coefficients `α_j y_j`, one per support vector.
    pub dual_coef: Vec<f64>,
    /// The bias `b` (linfa's `−rho`).
    pub bias: f64,
    /// This machine's own kernel, when it is not the model's (format 2: an
    /// ordinal model's grade machines may be linear beside an RBF binary
    /// machine). Absent: the model's kernel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<Kernel>,
}

/// Feature scaling fitted on the training vectors: `z = (x − mean) / scale`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scaler {
    /// Per component mean.
    pub mean: Vec<f64>,
    /// Per component scale (standard deviation, or 1 where that is 0); > 0.
    pub scale: Vec<f64>,
}

impl Kernel {
    /// `K(u, v)`.
    pub fn eval(&self, u: &[f64], v: &[f64]) -> f64 {
        match *self {
            Kernel::Linear => u.iter().zip(v).map(|(a, b)| a * b).sum(),
            Kernel::Rbf { gamma } => {
                let d2: f64 = u.iter().zip(v).map(|(a, b)| (a - b) * (a - b)).sum();
                libm::exp(-gamma * d2)
            }
        }
    }
}

impl Machine {
    /// `g(z)` for a scaled vector `z` of the support vectors' length, with
    /// the machine's own kernel if it has one, else `kernel` (the model's).
    pub fn decision(&self, kernel: &Kernel, z: &[f64]) -> f64 {
        let kernel = self.kernel.as_ref().unwrap_or(kernel);
        self.support_vectors
            .iter()
            .zip(&self.dual_coef)
            .map(|(sv, c)| c * kernel.eval(sv, z))
            .sum::<f64>()
            + self.bias
    }
}

impl Scaler {
    /// The scaled vector `z = (x − mean) / scale` (`x` of the scaler's
    /// length).
    pub fn apply(&self, x: &[f64]) -> Vec<f64> {
        x.iter()
            .zip(self.mean.iter().zip(&self.scale))
            .map(|(v, (m, s))| (v - m) / s)
            .collect()
    }

    /// Fitted on training vectors: per component mean and standard
    /// deviation (1 where that is below 1e-12).
    pub fn fit(xs: &[Vec<f64>]) -> Scaler {
        let d = xs.first().map_or(0, |x| x.len());
        let n = xs.len().max(1) as f64;
        let mean: Vec<f64> = (0..d)
            .map(|j| xs.iter().map(|x| x[j]).sum::<f64>() / n)
            .collect();
        let scale = (0..d)
            .map(|j| {
                let var = xs
                    .iter()
                    .map(|x| (x[j] - mean[j]) * (x[j] - mean[j]))
                    .sum::<f64>()
                    / n;
                let sd = libm::sqrt(var);
                if sd > 1e-12 {
                    sd
                } else {
                    1.0
                }
            })
            .collect();
        Scaler { mean, scale }
    }
}
