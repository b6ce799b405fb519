//! The verdict model: its JSON format ([`ModelFile`]), checked once at load
//! into an [`SvmModel`] that parses its document frequencies once, and the
//! verdict it gives for two documents.

use super::calibration::{Ends, Platt};
use super::svm::{Kernel, Machine, Scaler};
use super::vector::VectorSpec;
use crate::document::Document;
use crate::error::{Error, ErrorKind};
use crate::tfidf::DocumentFrequencies;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Format version of the model JSON this build writes. It also reads
/// format 1 (one-vs-rest machines without calibration) and format 2
/// (calibration without [`CalibrationEnds`]), whose fields format 3 keeps.
pub const MODEL_FORMAT: u32 = 3;

/// The oldest model format this build reads.
pub const OLDEST_MODEL_FORMAT: u32 = 1;

/// How a model's graded-class machines decide the class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scheme {
    /// One machine per class, "this class against the rest"; the class is
    /// the machine with the largest decision value (or, when calibrated, the
    /// largest normalised probability). Format 1's only scheme.
    #[default]
    OneVsRest,
    /// Ordered grades (Frank & Hall 2001, "A simple approach to ordinal
    /// classification"): for grades `g_0 < g_1 < … < g_K`, machine `k`
    /// (named `g_{k+1}`) says "at least `g_{k+1}`"; with calibrated
    /// probabilities `P(≥ g_k)`, each first lowered to the smallest
    /// `P(≥ g_j)` of `j ≤ k` (machines calibrated one by one can disagree),
    /// `P(g_0) = 1 − P(≥ g_1)`, `P(g_k) = P(≥ g_k) − P(≥ g_{k+1})`,
    /// `P(g_K) = P(≥ g_K)`; these shares `q_k` split the binary machine's
    /// `P(copied)` among the grades of reuse, `P(g_0) = 1 − P(copied)`, so
    /// that the grade never contradicts `copied` (issue 38). The class is
    /// `g_0` when not copied, else the most probable grade of reuse; an
    /// uncalibrated model counts the machines that say yes (Li & Lin
    /// 2007), at least one grade when copied, none when not.
    Ordinal,
}

/// Two classes whose probabilities are closer than this are both named in
/// [`Verdict::between`]: the verdict is not sure which of them it is.
pub const CLOSE_PROBABILITIES: f64 = 0.15;

/// Document frequencies as stored in a model: `(term hash as 16 hex digits,
/// df)` sorted by hash, and the number of documents.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredDf {
    /// Number of documents the frequencies were counted over.
    pub documents: u64,
    /// `[hash_hex, df]` pairs.
    pub terms: Vec<(String, u32)>,
    /// The seed the term hashes were made with (absent: 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub seed: u64,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

fn is_one_vs_rest(s: &Scheme) -> bool {
    *s == Scheme::OneVsRest
}

/// A trained verdict model as stored: the JSON written by `neardup train`
/// (format 1). Load it with [`SvmModel::new`] or [`SvmModel::from_json`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelFile {
    /// Always [`MODEL_FORMAT`].
    pub format: u32,
    /// The similarity vector's layout.
    pub vector: VectorSpec,
    /// Document frequencies for keywords.
    pub df: StoredDf,
    /// Feature scaling.
    pub scaler: Scaler,
    /// The kernel of every machine that has none of its own.
    pub kernel: Kernel,
    /// The binary near-duplicate machine (positive = copied).
    pub binary: Machine,
    /// The machines of the graded classes: one-vs-rest, one per class
    /// (e.g. cut, light, heavy, non); or ordinal, one per grade above the
    /// lowest, in increasing order. Empty for a binary-only model.
    pub classes: Vec<Machine>,
    /// How `classes` decide (absent in format 1: one-vs-rest).
    #[serde(default, skip_serializing_if = "is_one_vs_rest")]
    pub scheme: Scheme,
    /// Ordinal: every grade from the lowest to the highest, the lowest
    /// first, then the names of `classes` in order. Empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grades: Vec<String>,
    /// Platt sigmoids ([`Platt`]) turning decision values into
    /// probabilities: the binary machine's first, then one per machine of
    /// `classes`; or empty (no probabilities). Required by the ordinal
    /// scheme.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calibration: Vec<Platt>,
    /// Format 3: beta calibration's end terms added to the sigmoids of
    /// `calibration` (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends: Option<CalibrationEnds>,
    /// Where the model came from: data, parameters, cross-validation scores
    /// (free-form, kept as is; read and dropped by the WebAssembly modules).
    #[serde(default)]
    #[cfg_attr(
        feature = "wasm-bindings",
        serde(deserialize_with = "provenance_unread")
    )]
    pub provenance: serde_json::Value,
}

/// The WebAssembly modules read a model's provenance as JSON and keep none
/// of it ([`serde_json::Value::Null`]): nothing there shows it, and
/// building it is code in the comparison's module, whose first load is
/// bounded (issue 49).
#[cfg(feature = "wasm-bindings")]
fn provenance_unread<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<serde_json::Value, D::Error> {
    <serde::de::IgnoredAny as serde::Deserialize>::deserialize(d)?;
    Ok(serde_json::Value::Null)
}

/// The end terms of a model's calibration (format 3): one [`Ends`] per
/// sigmoid of [`ModelFile::calibration`], all reading one component of the
/// (unscaled) similarity vector, a score in [0, 1].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalibrationEnds {
    /// The index of the score in the vector (a containment).
    pub score: u32,
    /// The terms, in the order of `calibration`.
    pub terms: Vec<Ends>,
}

/// A verdict: the binary decision, the graded class, and the numbers behind
/// them.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct Verdict {
    /// `g ≥ 0` of the binary machine: the text is a near copy / reuse.
    pub copied: bool,
    /// Decision value of the binary machine.
    pub binary_decision: f64,
    /// The graded class, if the model has classes. Ordinal: the lowest
    /// grade when not `copied`, else the most probable grade of reuse
    /// (uncalibrated: as many grades up as "at least" machines say yes, at
    /// least one) — never a grade that contradicts `copied`. One-vs-rest:
    /// the most probable class when the model is calibrated, else the
    /// largest decision.
    pub class: Option<String>,
    /// Decision value of each machine of the graded classes, in the model's
    /// order.
    pub class_decisions: Vec<f64>,
    /// The calibrated probability that the text is copied (Platt scaling of
    /// the binary decision, with the model's [`CalibrationEnds`] if any), in [0, 1]; `None` for an uncalibrated model.
    #[serde(default)]
    pub copied_probability: Option<f64>,
    /// Each graded class with its probability, in [0, 1], summing to 1: the
    /// grades from lowest to highest (ordinal) or the model's classes
    /// (one-vs-rest). Empty for an uncalibrated model.
    #[serde(default)]
    pub probabilities: Vec<(String, f64)>,
    /// The probability of `class`, in [0, 1]; `None` when uncalibrated.
    #[serde(default)]
    pub confidence: Option<f64>,
    /// `class` and another class whose probability is above `confidence` −
    /// [`CLOSE_PROBABILITIES`]: the text is "between" them. Ordinal: the
    /// likelier neighbouring grade only (never two grades apart);
    /// one-vs-rest: the most probable other class. `None` otherwise.
    #[serde(default)]
    pub between: Option<(String, String)>,
    /// The similarity vector that produced them (unscaled).
    pub vector: Vec<f64>,
}

fn bad(msg: String) -> Error {
    Error::corrupt("verdict model", msg)
}

/// Largest magnitude of a model's numbers (means, support vector values,
/// coefficients, biases, gamma) and of `1 / scale`: far beyond any trained
/// model, small enough that no product of two of them overflows.
pub const MAX_MODEL_VALUE: f64 = 1e100;

/// `true` for a finite number of magnitude at most [`MAX_MODEL_VALUE`].
fn sane(x: f64) -> bool {
    x.is_finite() && x.abs() <= MAX_MODEL_VALUE
}

impl ModelFile {
    /// Checks every shape and number: shapes agree, numbers finite and
    /// within ±[`MAX_MODEL_VALUE`] (scales in [1/`MAX_MODEL_VALUE`,
    /// `MAX_MODEL_VALUE`]), classes distinct and named, every machine with
    /// support vectors, document frequencies over at least one document.
    ///
    /// # Errors
    /// [`ErrorKind::Corrupt`] naming the first problem and its field.
    pub fn check(&self) -> Result<(), Error> {
        self.vector.check().map_err(|e| bad(format!("{e}")))?;
        let d = self.vector.features.len();
        if self.scaler.mean.len() != d || self.scaler.scale.len() != d {
            return Err(bad(format!(
                "the scaler has {} means and {} scales for a vector of {d}",
                self.scaler.mean.len(),
                self.scaler.scale.len()
            )));
        }
        if !self.scaler.mean.iter().all(|&x| sane(x))
            || !self
                .scaler
                .scale
                .iter()
                .all(|&x| sane(x) && x >= 1.0 / MAX_MODEL_VALUE)
        {
            return Err(bad(format!(
                "scaler: a mean is not finite or beyond ±{MAX_MODEL_VALUE:e}, or a scale is not in [{:e}, {MAX_MODEL_VALUE:e}]",
                1.0 / MAX_MODEL_VALUE
            )));
        }
        let kernels = core::iter::once(&self.kernel).chain(
            core::iter::once(&self.binary)
                .chain(&self.classes)
                .filter_map(|m| m.kernel.as_ref()),
        );
        for k in kernels {
            if let Kernel::Rbf { gamma } = *k {
                if !(sane(gamma) && gamma > 0.0) {
                    return Err(bad(format!(
                        "kernel.gamma: RBF gamma must be positive and at most {MAX_MODEL_VALUE:e}, got {gamma}"
                    )));
                }
            }
        }
        if let Some((term, n)) = self
            .df
            .terms
            .iter()
            .find(|(_, n)| u64::from(*n) > self.df.documents || *n == 0)
        {
            return Err(bad(format!(
                "df.terms: term {term} has document frequency {n}, outside 1..={} (df.documents)",
                self.df.documents
            )));
        }
        match self.scheme {
            Scheme::OneVsRest if !self.grades.is_empty() => {
                return Err(bad("grades: only an ordinal model has grades".into()));
            }
            Scheme::Ordinal => {
                let above: Vec<&str> = self.grades.iter().skip(1).map(String::as_str).collect();
                let names: Vec<&str> = self.classes.iter().map(|m| m.positive.as_str()).collect();
                if self.classes.is_empty() || above != names {
                    return Err(bad(format!(
                        "grades: an ordinal model lists its lowest grade then its machines' classes in order; got grades {:?} for machines {names:?}",
                        self.grades
                    )));
                }
                if self.grades[0].trim().is_empty() || names.contains(&self.grades[0].as_str()) {
                    return Err(bad(format!(
                        "grades: the lowest grade {:?} is empty or repeated",
                        self.grades[0]
                    )));
                }
                if self.calibration.is_empty() {
                    return Err(bad(
                        "calibration: an ordinal model needs its Platt sigmoids".into(),
                    ));
                }
            }
            Scheme::OneVsRest => {}
        }
        if !self.calibration.is_empty() && self.calibration.len() != 1 + self.classes.len() {
            return Err(bad(format!(
                "calibration: {} sigmoids for {} machines (the binary one and {} of classes)",
                self.calibration.len(),
                1 + self.classes.len(),
                self.classes.len()
            )));
        }
        if let Some(ends) = &self.ends {
            if ends.terms.len() != self.calibration.len() || ends.score as usize >= d {
                return Err(bad(format!(
                    "ends: {} terms for {} sigmoids, reading component {} of a vector of {d}",
                    ends.terms.len(),
                    self.calibration.len(),
                    ends.score
                )));
            }
            if ends
                .terms
                .iter()
                .any(|e| !(sane(e.low) && sane(e.high) && e.low >= 0.0 && e.high >= 0.0))
            {
                return Err(bad(format!(
                    "ends: a weight is negative, NaN, infinite or beyond {MAX_MODEL_VALUE:e}"
                )));
            }
            if self.format < 3 {
                return Err(bad(format!(
                    "ends: a format {} model has none (format 3 adds them)",
                    self.format
                )));
            }
        }
        if self.calibration.iter().any(|p| !(sane(p.a) && sane(p.b))) {
            return Err(bad(format!(
                "calibration: a sigmoid has a NaN, infinite or out-of-range number (beyond ±{MAX_MODEL_VALUE:e})"
            )));
        }
        let mut names: Vec<&str> = Vec::new();
        for m in &self.classes {
            if m.positive.trim().is_empty() {
                return Err(bad("classes: a class has an empty name".into()));
            }
            if names.contains(&m.positive.as_str()) {
                return Err(bad(format!(
                    "classes: class {:?} appears twice",
                    m.positive
                )));
            }
            names.push(&m.positive);
        }
        for m in core::iter::once(&self.binary).chain(&self.classes) {
            if m.support_vectors.is_empty() {
                return Err(bad(format!(
                    "machine {:?} has no support vectors",
                    m.positive
                )));
            }
            if m.support_vectors.len() != m.dual_coef.len() {
                return Err(bad(format!(
                    "machine {:?} has {} support vectors and {} coefficients",
                    m.positive,
                    m.support_vectors.len(),
                    m.dual_coef.len()
                )));
            }
            if let Some(sv) = m.support_vectors.iter().find(|sv| sv.len() != d) {
                return Err(bad(format!(
                    "machine {:?} has a support vector of length {} for a vector of {d}",
                    m.positive,
                    sv.len()
                )));
            }
            let finite = sane(m.bias)
                && m.dual_coef.iter().all(|&x| sane(x))
                && m.support_vectors.iter().flatten().all(|&x| sane(x));
            if !finite {
                return Err(bad(format!(
                    "machine {:?} has a NaN, infinite or out-of-range number (beyond ±{MAX_MODEL_VALUE:e})",
                    m.positive
                )));
            }
        }
        Ok(())
    }

    /// The model as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// A loaded verdict model: the checked [`ModelFile`] and its document
/// frequencies, parsed once.
#[derive(Clone, Debug)]
pub struct SvmModel {
    file: ModelFile,
    df: DocumentFrequencies,
}

impl SvmModel {
    /// Checks a model and parses its document frequencies.
    ///
    /// # Errors
    /// [`ErrorKind::Corrupt`] for shapes that do not agree, a NaN, infinite
    /// or out-of-range number ([`MAX_MODEL_VALUE`]), an empty or repeated
    /// class, a machine without support vectors, frequencies counted over
    /// no documents, or a document-frequency term that is not 16 hex digits.
    pub fn new(file: ModelFile) -> Result<SvmModel, Error> {
        file.check()?;
        let mut terms = Vec::with_capacity(file.df.terms.len());
        for (h, n) in &file.df.terms {
            match u64::from_str_radix(h, 16) {
                Ok(v) if h.len() == 16 => terms.push((v, *n)),
                _ => {
                    return Err(bad(format!(
                        "document-frequency term {h:?} is not 16 hex digits"
                    )))
                }
            }
        }
        let df = DocumentFrequencies::from_counts(file.df.documents, terms);
        Ok(SvmModel { file, df })
    }

    /// Parses and checks a model JSON.
    ///
    /// # Errors
    /// [`ErrorKind::Version`] for another format; [`ErrorKind::Corrupt`] for
    /// malformed JSON, an unknown kernel or feature, or as [`SvmModel::new`].
    pub fn from_json(text: &str) -> Result<SvmModel, Error> {
        #[derive(serde::Deserialize)]
        struct Head {
            format: Option<u32>,
        }
        let head: Head =
            serde_json::from_str(text).map_err(|e| bad(format!("not a model JSON: {e}")))?;
        match head.format {
            Some(OLDEST_MODEL_FORMAT..=MODEL_FORMAT) => {}
            Some(v) => {
                return Err(Error::new(ErrorKind::Version {
                    what: "verdict model",
                    found: v,
                    supported: MODEL_FORMAT,
                }))
            }
            None => return Err(bad("no \"format\" field".into())),
        }
        let m: ModelFile = serde_json::from_str(text).map_err(|e| bad(format!("{e}")))?;
        SvmModel::new(m)
    }

    /// The model as stored.
    pub fn file(&self) -> &ModelFile {
        &self.file
    }

    /// The model as JSON.
    pub fn to_json(&self) -> String {
        self.file.to_json()
    }

    /// The document frequencies of keyword terms.
    pub fn document_frequencies(&self) -> &DocumentFrequencies {
        &self.df
    }

    /// Length of the similarity vector.
    pub fn dimension(&self) -> usize {
        self.file.vector.features.len()
    }

    /// The graded classes, in the order of [`Verdict::class_decisions`]
    /// (ordinal: the grades above the lowest).
    pub fn classes(&self) -> impl Iterator<Item = &str> {
        self.file.classes.iter().map(|m| m.positive.as_str())
    }

    /// Every class a verdict can give, in the order of
    /// [`Verdict::probabilities`]: ordinal, the grades from the lowest;
    /// else the classes.
    pub fn grades(&self) -> impl Iterator<Item = &str> {
        let ordinal = self.file.scheme == Scheme::Ordinal;
        let grades = self.file.grades.iter().filter(move |_| ordinal);
        let classes = self
            .file
            .classes
            .iter()
            .map(|m| &m.positive)
            .filter(move |_| !ordinal);
        grades.chain(classes).map(String::as_str)
    }

    /// The scaled vector `z`.
    ///
    /// # Errors
    /// [`ErrorKind::Incompatible`] for a vector of the wrong length or with a
    /// NaN or infinite value.
    pub fn scale(&self, x: &[f64]) -> Result<Vec<f64>, Error> {
        if x.len() != self.dimension() {
            return Err(Error::incompatible(
                "vector",
                format!("{} values", self.dimension()),
                format!("{} values", x.len()),
            ));
        }
        if let Some(v) = x.iter().find(|v| !v.is_finite()) {
            return Err(Error::incompatible(
                "vector",
                "finite values",
                format!("the non-finite value {v}"),
            ));
        }
        Ok(self.file.scaler.apply(x))
    }

    /// Decision values of an unscaled vector `x`: the binary machine first,
    /// then each one-vs-rest machine.
    ///
    /// # Errors
    /// As [`SvmModel::scale`].
    pub fn decision_function(&self, x: &[f64]) -> Result<Vec<f64>, Error> {
        let z = self.scale(x)?;
        let d: Vec<f64> = core::iter::once(&self.file.binary)
            .chain(&self.file.classes)
            .map(|m| m.decision(&self.file.kernel, &z))
            .collect();
        // A sum of bounded terms can still overflow (a linear kernel over a
        // far-out vector): never a NaN or infinite decision as an answer.
        if let Some(v) = d.iter().find(|v| !v.is_finite()) {
            return Err(Error::incompatible(
                "vector",
                "finite decision values",
                format!("the decision value {v} for this vector under this model"),
            ));
        }
        Ok(d)
    }

    /// The verdict for an unscaled vector `x`.
    ///
    /// # Errors
    /// As [`SvmModel::scale`].
    pub fn predict(&self, x: &[f64]) -> Result<Verdict, Error> {
        let d = self.decision_function(x)?;
        self.verdict_of(&d, x)
    }

    /// The verdict this model gives for decision values `d` (the binary
    /// machine's first, then each machine of the graded classes, as
    /// [`SvmModel::decision_function`] returns them) of the unscaled vector
    /// `x` (kept in the verdict as it is; may be empty unless the model's
    /// calibration has [`CalibrationEnds`], which read it). Cross-validation
    /// uses it to read decision values of held-out rows through a model's
    /// calibration.
    ///
    /// # Errors
    /// [`ErrorKind::Incompatible`] when `d` does not have one value per
    /// machine or a value is not finite, or when the calibration's ends
    /// read a component `x` does not have.
    pub fn verdict_of(&self, d: &[f64], x: &[f64]) -> Result<Verdict, Error> {
        let machines = 1 + self.file.classes.len();
        if d.len() != machines || d.iter().any(|v| !v.is_finite()) {
            return Err(Error::incompatible(
                "decision values",
                format!("{machines} finite values"),
                format!("{} values", d.len()),
            ));
        }
        let f = &self.file;
        let cal = &f.calibration;
        // What each sigmoid's end terms add to its logit (0 without them).
        let extra: Vec<f64> = match &f.ends {
            None => alloc::vec![0.0; cal.len()],
            Some(ends) => {
                let s = x.get(ends.score as usize).copied().ok_or_else(|| {
                    Error::incompatible(
                        "similarity vector",
                        format!(
                            "the score at component {} for the calibration's ends",
                            ends.score
                        ),
                        format!("{} components", x.len()),
                    )
                })?;
                ends.terms.iter().map(|e| e.logit(s)).collect()
            }
        };
        let prob = |m: usize, g: f64| cal[m].probability_at(g, extra[m]);
        let probabilities: Vec<(String, f64)> = if cal.is_empty() || f.classes.is_empty() {
            Vec::new()
        } else {
            let p: Vec<f64> = (1..cal.len()).map(|m| prob(m, d[m])).collect();
            let (names, raw): (Vec<&String>, Vec<f64>) = match f.scheme {
                Scheme::OneVsRest => (f.classes.iter().map(|m| &m.positive).collect(), p),
                Scheme::Ordinal => {
                    // P(≥ g_k), made non-increasing in k (each machine is
                    // calibrated on its own: "at least light" cannot be less
                    // likely than "at least cut"), then q_k = P(≥ g_k) −
                    // P(≥ g_{k+1}): the grades' shares.
                    let mut monotone = p.clone();
                    for k in 1..monotone.len() {
                        monotone[k] = monotone[k].min(monotone[k - 1]);
                    }
                    let at_least = |k: usize| {
                        if k == 0 {
                            1.0
                        } else {
                            monotone.get(k - 1).copied().unwrap_or(0.0)
                        }
                    };
                    let q: Vec<f64> = (0..f.grades.len())
                        .map(|k| (at_least(k) - at_least(k + 1)).max(0.0))
                        .collect();
                    // The binary machine decides copied or not, so its
                    // probability is the lowest grade's complement: P(g_0)
                    // = 1 − P(copied), and the grades of reuse share
                    // P(copied) as the q_k do (equally when all are 0).
                    let copied = prob(0, d[0]);
                    let reuse: f64 = q[1..].iter().sum();
                    let k = (q.len() - 1).max(1) as f64;
                    let raw = core::iter::once(1.0 - copied)
                        .chain(q[1..].iter().map(|&x| match reuse > 0.0 {
                            true => copied * x / reuse,
                            false => copied / k,
                        }))
                        .collect();
                    (f.grades.iter().collect(), raw)
                }
            };
            let total: f64 = raw.iter().sum();
            let n = raw.len() as f64;
            names
                .into_iter()
                .zip(raw)
                .map(|(c, v)| (c.clone(), if total > 0.0 { v / total } else { 1.0 / n }))
                .collect()
        };
        let copied = d[0] >= 0.0;
        let (class, confidence, between) = match (f.scheme, probabilities.is_empty()) {
            (Scheme::OneVsRest, true) => {
                let class = f
                    .classes
                    .iter()
                    .zip(&d[1..])
                    .max_by(|a, b| a.1.total_cmp(b.1))
                    .map(|(m, _)| m.positive.clone());
                (class, None, None)
            }
            (Scheme::OneVsRest, false) => {
                // The most probable class and the next; ties to the earlier
                // class.
                let best = |skip: Option<usize>| {
                    (0..probabilities.len())
                        .filter(|&i| Some(i) != skip)
                        .reduce(|i, j| {
                            if probabilities[j].1.total_cmp(&probabilities[i].1).is_gt() {
                                j
                            } else {
                                i
                            }
                        })
                };
                // (This arm has probabilities: `first` is always found.)
                let first = best(None).unwrap_or_default();
                let (name, p) = &probabilities[first];
                let between = best(Some(first))
                    .map(|j| &probabilities[j])
                    .filter(|o| o.1 > p - CLOSE_PROBABILITIES)
                    .map(|o| (name.clone(), o.0.clone()));
                (Some(name.clone()), Some(*p), between)
            }
            (Scheme::Ordinal, true) => {
                // As many grades above the lowest as machines say yes, and
                // never a grade that contradicts `copied`.
                let yes = d[1..].iter().filter(|&&g| g >= 0.0).count();
                let k = match copied {
                    false => 0,
                    true => yes.max(1),
                };
                (f.grades.get(k).cloned(), None, None)
            }
            (Scheme::Ordinal, false) => {
                // Not copied: the lowest grade. Copied: the most probable
                // grade of reuse (ties to the lower grade).
                let chosen = match copied {
                    false => 0,
                    true => (1..probabilities.len())
                        .reduce(|best, j| match probabilities[j].1 > probabilities[best].1 {
                            true => j,
                            false => best,
                        })
                        .unwrap_or(0),
                };
                let (name, p) = &probabilities[chosen];
                // "Between" only a neighbouring grade of near-equal
                // probability: the likelier of the two neighbours.
                let neighbours = [chosen.checked_sub(1), Some(chosen + 1)];
                let between = neighbours
                    .into_iter()
                    .flatten()
                    .filter_map(|j| probabilities.get(j))
                    .max_by(|x, y| x.1.total_cmp(&y.1))
                    .filter(|o| o.1 > p - CLOSE_PROBABILITIES)
                    .map(|o| (name.clone(), o.0.clone()));
                (Some(name.clone()), Some(*p), between)
            }
        };
        Ok(Verdict {
            copied,
            binary_decision: d[0],
            class,
            class_decisions: d[1..].to_vec(),
            copied_probability: (!cal.is_empty()).then(|| prob(0, d[0])),
            probabilities,
            confidence,
            between,
            vector: x.to_vec(),
        })
    }

    /// The similarity vector of suspicious document `a` and source `b`.
    pub fn similarity_vector(&self, a: &Document, b: &Document) -> Vec<f64> {
        self.file.vector.vector(a, b, &self.df, self.file.df.seed)
    }

    /// The verdict for suspicious document `a` against source `b` (made
    /// with any one seed: the seed of the caller's comparison). Time linear
    /// in the documents for each of the model's at most
    /// [`crate::verdict::MAX_FEATURES`] features (shingle sets are shared
    /// between features and with `compare`), plus the kernel over the
    /// support vectors; memory that of the shingle sets.
    ///
    /// # Errors
    /// [`ErrorKind::EmptyText`] when a document has no words;
    /// [`ErrorKind::Incompatible`] when their seeds differ.
    pub fn judge(&self, a: &Document, b: &Document) -> Result<Verdict, Error> {
        if a.seed() != b.seed() {
            return Err(Error::incompatible(
                "document",
                format!("seed {} (text a)", a.seed()),
                format!("seed {} (text b)", b.seed()),
            ));
        }
        for (d, which) in [(a, "a"), (b, "b")] {
            if d.is_empty() {
                return Err(Error::new(ErrorKind::EmptyText { which }));
            }
        }
        self.predict(&self.similarity_vector(a, b))
    }

    /// The comparison of two texts and its verdict, every text normalised
    /// and shingled once for both ([`crate::compare::prepare`], then
    /// [`crate::compare_documents`] and [`SvmModel::judge`] on the same
    /// documents), exclusions left out of both.
    ///
    /// # Errors
    /// As [`crate::compare_with`] and [`SvmModel::judge`].
    pub fn compare(
        &self,
        a: &str,
        b: &str,
        config: &crate::CompareConfig,
        exclusions: &crate::Exclusions<'_>,
    ) -> Result<(crate::Report, Verdict), Error> {
        let p = crate::compare::prepare(a, b, config, exclusions)?;
        let mut report = crate::compare_documents(&p.a, &p.b, config)?;
        let verdict = self.judge(&p.a, &p.b)?;
        report.excluded_a = p.excluded_a;
        report.excluded_b = p.excluded_b;
        report.set_quoted(p.quoted_a);
        Ok((report, verdict))
    }

    /// [`SvmModel::judge`] of two texts, normalised with the model's seed
    /// as [`crate::compare()`] does by default (unmasked: SPEC.md §1 step 0).
    ///
    /// # Errors
    /// As [`SvmModel::judge`].
    pub fn judge_texts(&self, a: &str, b: &str) -> Result<Verdict, Error> {
        let seed = self.file.df.seed;
        let how = crate::CompareConfig::default().normalization();
        self.judge(
            &Document::with_normalization(a, seed, how),
            &Document::with_normalization(b, seed, how),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Feature;
    use alloc::string::ToString;
    use alloc::vec;

    /// A 2-feature RBF model with one machine, by hand.
    fn tiny_file() -> ModelFile {
        ModelFile {
            format: MODEL_FORMAT,
            vector: VectorSpec {
                keywords: 5,
                features: vec![
                    Feature::WordContainment { n: 1 },
                    Feature::WordContainment { n: 3 },
                ],
            },
            df: StoredDf {
                documents: 0,
                terms: vec![],
                seed: 0,
            },
            scaler: Scaler {
                mean: vec![0.5, 0.5],
                scale: vec![0.5, 0.25],
            },
            kernel: Kernel::Rbf { gamma: 0.5 },
            binary: Machine {
                positive: "copied".into(),
                support_vectors: vec![vec![1.0, 2.0], vec![-1.0, -2.0]],
                dual_coef: vec![1.0, -1.0],
                bias: 0.1,
                kernel: None,
            },
            classes: vec![],
            scheme: Scheme::OneVsRest,
            grades: vec![],
            calibration: vec![],
            ends: None,
            provenance: serde_json::Value::Null,
        }
    }

    fn tiny() -> SvmModel {
        SvmModel::new(tiny_file()).unwrap()
    }

    #[test]
    fn decision_function_by_hand() {
        let m = tiny();
        // x = (1, 1) -> z = (1, 2): K(sv0, z) = 1, K(sv1, z) = exp(-0.5 * (4 + 16)).
        let g = m.decision_function(&[1.0, 1.0]).unwrap()[0];
        let want = 1.0 - libm::exp(-10.0) + 0.1;
        assert!((g - want).abs() < 1e-15);
        let v = m.predict(&[1.0, 1.0]).unwrap();
        assert!(v.copied && v.class.is_none());
        // Identical texts: both containments 1 -> positive.
        assert!(
            m.judge_texts("one two three four", "one two three four")
                .unwrap()
                .copied
        );
        // Unrelated texts: both 0 -> z = (-1, -2) -> negative.
        assert!(
            !m.judge_texts("alpha beta gamma", "delta epsilon zeta")
                .unwrap()
                .copied
        );
    }

    /// `tiny_file` with an ordinal scheme: grades non < heavy < cut, two
    /// linear "at least" machines on the second component, and sigmoids
    /// `P = 1 / (1 + exp(−f))` (a = −1, b = 0) for every machine.
    fn ordinal_file() -> ModelFile {
        let mut m = tiny_file();
        let at_least = |name: &str, bias: f64| Machine {
            positive: name.into(),
            support_vectors: vec![vec![0.0, 1.0]],
            dual_coef: vec![1.0],
            bias,
            kernel: Some(Kernel::Linear),
        };
        m.classes = vec![at_least("heavy", 0.0), at_least("cut", -2.0)];
        m.scheme = Scheme::Ordinal;
        m.grades = vec!["non".into(), "heavy".into(), "cut".into()];
        m.calibration = vec![Platt { a: -1.0, b: 0.0 }; 3];
        m
    }

    #[test]
    fn ordinal_probabilities_and_class_by_hand() {
        let m = SvmModel::new(ordinal_file()).unwrap();
        let sig = |f: f64| 1.0 / (1.0 + libm::exp(-f));
        // Decisions: binary 0.5 (copied); at least heavy 1.0; at least cut
        // −1.0. The grades' shares q: heavy sig(1) − sig(−1), cut sig(−1);
        // P(non) = 1 − P(copied); heavy and cut share P(copied) as q.
        let v = m.verdict_of(&[0.5, 1.0, -1.0], &[]).unwrap();
        let (c, qh, qc) = (sig(0.5), sig(1.0) - sig(-1.0), sig(-1.0));
        let want = [
            ("non", 1.0 - c),
            ("heavy", c * qh / (qh + qc)),
            ("cut", c * qc / (qh + qc)),
        ];
        for ((name, p), (wn, wp)) in v.probabilities.iter().zip(want) {
            assert_eq!(name, wn);
            assert!((p - wp).abs() < 1e-15, "{name} {p} {wp}");
        }
        // Copied: the likelier grade of reuse, heavy (0.393 against cut's
        // 0.229); its neighbour non (0.377) is within 0.15: "between".
        assert!(v.copied);
        assert_eq!(v.class.as_deref(), Some("heavy"));
        assert!((v.confidence.unwrap() - want[1].1).abs() < 1e-15);
        assert!((v.copied_probability.unwrap() - c).abs() < 1e-15);
        assert_eq!(v.between, Some(("heavy".into(), "non".into())));
        // Not copied (binary −2): the lowest grade, whatever the grade
        // machines say; cut is no neighbour of non, heavy (0.03) is far.
        let v = m.verdict_of(&[-2.0, 3.0, 3.0], &[]).unwrap();
        assert!(!v.copied);
        assert_eq!(v.class.as_deref(), Some("non"));
        assert!((v.confidence.unwrap() - (1.0 - sig(-2.0))).abs() < 1e-15);
        assert_eq!(v.between, None);
        // Copied surely (binary 4); q: heavy 0.731 − 0.401, cut 0.401 —
        // cut (0.53) likelier than heavy (0.44) though its machine says
        // no: cut, and heavy within 0.15 is "between"; non is no
        // neighbour of cut.
        let v = m.verdict_of(&[4.0, 1.0, -0.4], &[]).unwrap();
        assert_eq!(v.class.as_deref(), Some("cut"));
        assert_eq!(v.between, Some(("cut".into(), "heavy".into())));
        // Machines that disagree (at least cut more likely than at least
        // heavy) are made monotone: P(≥ cut) lowered to P(≥ heavy), so
        // heavy's share is 0 and cut takes all of P(copied).
        let v = m.verdict_of(&[0.5, -1.0, 1.0], &[]).unwrap();
        let p = &v.probabilities;
        assert!((p[0].1 - (1.0 - c)).abs() < 1e-15);
        assert_eq!(p[1].1, 0.0);
        assert!((p[2].1 - c).abs() < 1e-15);
        assert_eq!(v.class.as_deref(), Some("cut"));
        // Through judge: the second component is word 3-shingle containment.
        let v = m
            .judge_texts("one two three four", "one two three four")
            .unwrap();
        assert_eq!(v.class.as_deref(), Some("cut"));
        assert!(
            m.verdict_of(&[0.5, 1.0], &[]).is_err(),
            "one value per machine"
        );
        assert!(m.verdict_of(&[0.5, f64::NAN, 1.0], &[]).is_err());
    }

    #[test]
    fn calibration_ends_by_hand() {
        // The ordinal model with beta calibration's end terms on component
        // 1 (word 3-shingle containment): P = 1 / (1 + exp(a·g + b −
        // low·ln s + high·ln(1 − s))), s clamped to [0.001, 0.999].
        let mut file = ordinal_file();
        file.ends = Some(CalibrationEnds {
            score: 1,
            terms: vec![
                Ends {
                    low: 0.5,
                    high: 0.5,
                },
                Ends {
                    low: 0.0,
                    high: 0.25,
                },
                Ends {
                    low: 0.0,
                    high: 1.0,
                },
            ],
        });
        let m = SvmModel::new(file.clone()).unwrap();
        let sig = |z: f64| 1.0 / (1.0 + libm::exp(-z));
        for s in [0.0f64, 0.2, 0.5, 1.0] {
            let c = s.clamp(0.001, 0.999);
            let (l, h) = (libm::log(c), -libm::log(1.0 - c));
            let v = m.verdict_of(&[0.5, 1.0, -1.0], &[0.3, s]).unwrap();
            let copied = sig(0.5 + 0.5 * l + 0.5 * h);
            let (ph, pc) = (sig(1.0 + 0.25 * h), sig(-1.0 + h));
            let (ph, pc) = (ph, pc.min(ph));
            let (qh, qc) = (ph - pc, pc);
            let want = [
                1.0 - copied,
                copied * qh / (qh + qc),
                copied * qc / (qh + qc),
            ];
            for ((name, p), w) in v.probabilities.iter().zip(want) {
                assert!((p - w).abs() < 1e-12, "s = {s}: {name} {p} vs {w}");
            }
            assert!((v.copied_probability.unwrap() - copied).abs() < 1e-15);
        }
        // The ends move the probabilities, never the decisions.
        let far = m.verdict_of(&[0.5, 1.0, -1.0], &[0.3, 1.0]).unwrap();
        let none = m.verdict_of(&[0.5, 1.0, -1.0], &[0.3, 0.0]).unwrap();
        assert!(far.copied && none.copied);
        assert!(far.probabilities[2].1 > 0.9, "{:?}", far.probabilities);
        assert!(none.probabilities[0].1 > 0.5, "{:?}", none.probabilities);
        // Without the score to read: a clear error, not a guess.
        let e = m.verdict_of(&[0.5, 1.0, -1.0], &[]).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Incompatible { .. }), "{e}");
        // It round-trips, and bad ends are refused.
        assert_eq!(SvmModel::from_json(&file.to_json()).unwrap().file(), &file);
        let refused = |m: ModelFile, what: &str| {
            let e = SvmModel::from_json(&m.to_json()).unwrap_err();
            assert!(e.to_string().contains(what), "{e} (wanted {what:?})");
        };
        let mut bad = file.clone();
        bad.ends.as_mut().unwrap().terms[1].high = -0.1;
        refused(bad, "ends: a weight is negative");
        let mut bad = file.clone();
        bad.ends.as_mut().unwrap().terms[0].low = f64::NAN;
        let e = bad.check().unwrap_err();
        assert!(e.to_string().contains("ends: a weight"), "{e}");
        let mut bad = file.clone();
        bad.ends.as_mut().unwrap().terms.pop();
        refused(bad, "ends: 2 terms for 3 sigmoids");
        let mut bad = file.clone();
        bad.ends.as_mut().unwrap().score = 2;
        refused(bad, "reading component 2 of a vector of 2");
        let mut bad = file.clone();
        bad.format = 2;
        refused(bad, "a format 2 model has none");
    }

    #[test]
    fn ordinal_and_calibrated_models_are_checked() {
        let refused = |m: ModelFile, what: &str| {
            let e = SvmModel::from_json(&m.to_json()).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::Corrupt { .. }), "{e}");
            assert!(e.to_string().contains(what), "{e} (wanted {what:?})");
        };
        let good = ordinal_file();
        assert!(SvmModel::from_json(&good.to_json()).is_ok());
        let mut m = good.clone();
        m.grades.swap(1, 2);
        refused(m, "grades: an ordinal model lists its lowest grade");
        let mut m = good.clone();
        m.grades[0] = "cut".into();
        refused(m, "lowest grade \"cut\" is empty or repeated");
        let mut m = good.clone();
        m.calibration.clear();
        refused(m, "needs its Platt sigmoids");
        let mut m = good.clone();
        m.calibration.pop();
        refused(m, "calibration: 2 sigmoids for 3 machines");
        let mut m = good.clone();
        m.calibration[1].a = f64::INFINITY;
        let e = m.check().unwrap_err();
        assert!(e.to_string().contains("calibration: a sigmoid"), "{e}");
        let mut m = good.clone();
        m.classes[0].kernel = Some(Kernel::Rbf { gamma: -1.0 });
        refused(m, "RBF gamma must be positive");
        let mut m = tiny_file();
        m.grades = vec!["non".into()];
        refused(m, "only an ordinal model has grades");
        // Format 1 JSON (no scheme, grades, calibration or machine kernels)
        // still loads, as one-vs-rest without probabilities.
        let v1 =
            tiny()
                .to_json()
                .replacen(&format!("\"format\": {MODEL_FORMAT}"), "\"format\": 1", 1);
        assert!(v1.contains("\"format\": 1"));
        let m = SvmModel::from_json(&v1).unwrap();
        assert_eq!(m.file().scheme, Scheme::OneVsRest);
        let v = m.predict(&[1.0, 1.0]).unwrap();
        assert!(v.probabilities.is_empty() && v.confidence.is_none() && v.between.is_none());
    }

    #[test]
    fn bad_models_and_vectors_are_clear_errors() {
        let good = tiny().to_json();
        assert_eq!(SvmModel::from_json(&good).unwrap().file(), tiny().file());
        assert!(matches!(
            tiny().judge_texts("", "text").unwrap_err().kind(),
            ErrorKind::EmptyText { which: "a" }
        ));
        let next = MODEL_FORMAT + 1;
        let e = SvmModel::from_json(&good.replacen(
            &format!("\"format\": {MODEL_FORMAT}"),
            &format!("\"format\": {next}"),
            1,
        ))
        .unwrap_err();
        assert!(
            e.to_string().contains(&format!("format version {next}")),
            "{e}"
        );
        let e = SvmModel::from_json(&good.replace("\"rbf\"", "\"sigmoid\"")).unwrap_err();
        assert!(e.to_string().contains("unknown variant `sigmoid`"), "{e}");
        let mut m = tiny_file();
        m.scaler.mean.push(0.0);
        assert!(SvmModel::from_json(&m.to_json())
            .unwrap_err()
            .to_string()
            .contains("scaler has 3 means"));
        let mut m = tiny_file();
        m.binary.support_vectors[1].push(1.0);
        assert!(SvmModel::from_json(&m.to_json())
            .unwrap_err()
            .to_string()
            .contains("support vector of length 3"));
        let mut m = tiny_file();
        m.binary.dual_coef.pop();
        assert!(m
            .check()
            .unwrap_err()
            .to_string()
            .contains("2 support vectors and 1 coefficients"));
        let mut m = tiny_file();
        m.binary.bias = f64::NAN;
        assert!(m.check().unwrap_err().to_string().contains("NaN, infinite"));
        // Issue 26: numbers so large that the decision overflows, repeated
        // or empty classes, machines without support vectors and document
        // frequencies over no documents are refused, naming the field.
        let refused = |m: ModelFile, what: &str| {
            let e = SvmModel::from_json(&m.to_json()).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::Corrupt { .. }), "{e}");
            assert!(e.to_string().contains(what), "{e} (wanted {what:?})");
        };
        let mut m = tiny_file();
        m.binary.dual_coef[0] = 1e308;
        refused(m, "out-of-range number");
        let mut m = tiny_file();
        m.scaler.scale[0] = 1e-300;
        refused(m, "scaler");
        let mut m = tiny_file();
        m.classes = vec![m.binary.clone(), m.binary.clone()];
        refused(m, "class \"copied\" appears twice");
        let mut m = tiny_file();
        m.classes = vec![m.binary.clone()];
        m.classes[0].positive = " ".into();
        refused(m, "empty name");
        let mut m = tiny_file();
        m.binary.support_vectors.clear();
        m.binary.dual_coef.clear();
        refused(m, "no support vectors");
        let mut m = tiny_file();
        m.df.terms = vec![("00000000000000ff".into(), 1)];
        refused(
            m,
            "df.terms: term 00000000000000ff has document frequency 1, outside 1..=0",
        );
        let mut m = tiny_file();
        m.kernel = Kernel::Rbf { gamma: 0.0 };
        assert!(m.check().is_err());
        assert!(SvmModel::from_json("{}")
            .unwrap_err()
            .to_string()
            .contains("no \"format\""));
        assert!(SvmModel::from_json("not json").is_err());
        let m = tiny();
        assert!(m
            .decision_function(&[1.0])
            .unwrap_err()
            .to_string()
            .contains("expected 2 values, got 1 values"));
        assert!(m.decision_function(&[1.0, f64::INFINITY]).is_err());
    }
}
