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

/// The kernel of the machines: stored as `{"type": "linear"}` or
/// `{"type": "rbf", "gamma": g}`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    deny_unknown_fields,
    try_from = "StoredKernel"
)]
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

/// A [`Kernel`] as read: its fields, checked into a `Kernel` by
/// `try_from`. Serde's derive of the internally tagged enum buffers the
/// object first (its `Content` machinery, 6 KB of the comparison's
/// WebAssembly module); this reads it straight. The same messages: an
/// unknown variant, a missing `gamma`, an unknown field.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredKernel {
    #[serde(rename = "type")]
    kind: KernelType,
    gamma: Option<f64>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum KernelType {
    Linear,
    Rbf,
}

impl TryFrom<StoredKernel> for Kernel {
    type Error = &'static str;

    fn try_from(k: StoredKernel) -> Result<Kernel, &'static str> {
        match (k.kind, k.gamma) {
            (KernelType::Linear, None) => Ok(Kernel::Linear),
            (KernelType::Linear, Some(_)) => Err("unknown field `gamma` of a linear kernel"),
            (KernelType::Rbf, Some(gamma)) => Ok(Kernel::Rbf { gamma }),
            (KernelType::Rbf, None) => Err("missing field `gamma` of an rbf kernel"),
        }
    }
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

#[cfg(test)]
mod tests {
    use super::Kernel;
    use alloc::string::String;

    fn read(json: &str) -> Result<Kernel, String> {
        serde_json::from_str(json).map_err(|e| alloc::format!("{e}"))
    }

    /// The stored forms read back as written, and every malformed one is
    /// refused naming what is wrong (the messages serde's derive gave).
    #[test]
    fn kernels_read_as_stored() {
        for k in [Kernel::Linear, Kernel::Rbf { gamma: 0.25 }] {
            assert_eq!(read(&serde_json::to_string(&k).unwrap()), Ok(k));
        }
        assert_eq!(read(r#"{"type":"linear"}"#), Ok(Kernel::Linear));
        assert_eq!(
            read(r#"{"gamma":2.5,"type":"rbf"}"#),
            Ok(Kernel::Rbf { gamma: 2.5 })
        );
        for (json, says) in [
            (
                r#"{"type":"sigmoid"}"#,
                "unknown variant `sigmoid`, expected `linear` or `rbf`",
            ),
            (r#"{"type":"rbf"}"#, "missing field `gamma`"),
            (r#"{"type":"linear","gamma":1.0}"#, "unknown field `gamma`"),
            (
                r#"{"type":"rbf","gamma":1.0,"degree":3}"#,
                "unknown field `degree`",
            ),
            (r#"{"gamma":1.0}"#, "missing field `type`"),
            (
                r#"{"type":"rbf","gamma":"wide"}"#,
                "invalid type: string \"wide\", expected f64",
            ),
            (r#""rbf""#, "invalid type: string \"rbf\""),
        ] {
            let e = read(json).unwrap_err();
            assert!(e.contains(says), "{json}: {e}");
        }
    }
}
