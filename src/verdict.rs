//! A learned plagiarism verdict (Hajishirzi, Yih, Kolcz 2010; Raveena &
//! Nandini 2014): a similarity vector of two texts, scaled, fed to support
//! vector machines trained natively (`neardup train`, with `linfa-svm`) and
//! evaluated here, in `no_std`, natively and in WebAssembly.
//!
//! **Similarity vector** `S_v(a, b) = <x_1 … x_r>` — which function on which
//! features is part of the model ([`Feature`]), so training and inference
//! cannot disagree about the layout. Keywords are the top-k tf-idf word
//! tokens of each text, stop words removed, with the model's document
//! frequencies ([`crate::tfidf`]); word n-gram features are containment of a
//! in b or resemblance by word n-shingles; character features by q-grams.
//!
//! **Decision function** of machine `m` on the scaled vector
//! `z_i = (x_i − mean_i) / scale_i`:
//!
//! ```text
//! g_m(z) = Σ_j coef_j K(sv_j, z) + bias
//! ```
//!
//! with `K(u, v) = u·v` (linear) or `exp(−gamma ‖u − v‖²)` (RBF), `coef_j =
//! α_j y_j` the signed dual coefficients. A binary machine says "positive"
//! when `g ≥ 0`; several machines are one-vs-rest, the class the one with the
//! largest `g`.

use crate::error::{Error, ErrorKind};
use crate::shingle::{char_shingles, token_hashes, word_shingles, ShingleSet};
use crate::similarity;
use crate::tfidf::DocumentFrequencies;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Format version of the model JSON this build reads and writes.
pub const MODEL_FORMAT: u32 = 1;

/// One component of the similarity vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "fn", rename_all = "snake_case", deny_unknown_fields)]
pub enum Feature {
    /// Jaccard of the top-k keyword sets.
    KeywordJaccard,
    /// Dice of the top-k keyword sets.
    KeywordDice,
    /// Cosine of the top-k keyword tf-idf vectors.
    KeywordCosine,
    /// Euclidean distance of the top-k keyword tf-idf vectors, each first
    /// normalised to unit length (so the value is in [0, 2]).
    KeywordEuclidean,
    /// Extended Jaccard (Tanimoto) of the top-k keyword tf-idf vectors.
    KeywordExtendedJaccard,
    /// Containment of a in b by word n-shingles.
    WordContainment {
        /// n, 1..=32.
        n: u32,
    },
    /// Jaccard resemblance of word n-shingle sets.
    WordResemblance {
        /// n, 1..=32.
        n: u32,
    },
    /// Containment of a in b by character q-grams.
    CharContainment {
        /// q, 1..=32.
        q: u32,
    },
    /// Jaccard resemblance of character q-gram sets.
    CharResemblance {
        /// q, 1..=32.
        q: u32,
    },
}

/// The layout of the similarity vector, and the keyword parameters.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VectorSpec {
    /// Keywords per text (top-k by tf-idf), 1..=1000.
    pub keywords: u32,
    /// The components, in order.
    pub features: Vec<Feature>,
}

impl Default for VectorSpec {
    /// Top-20 keywords; the five keyword functions; containment of word
    /// 1- to 5-shingles; resemblance of word 3-shingles; resemblance and
    /// containment of character 5-grams (12 components).
    fn default() -> Self {
        use Feature::*;
        VectorSpec {
            keywords: 20,
            features: alloc::vec![
                KeywordJaccard,
                KeywordDice,
                KeywordCosine,
                KeywordEuclidean,
                KeywordExtendedJaccard,
                WordContainment { n: 1 },
                WordContainment { n: 2 },
                WordContainment { n: 3 },
                WordContainment { n: 4 },
                WordContainment { n: 5 },
                WordResemblance { n: 3 },
                CharResemblance { q: 5 },
                CharContainment { q: 5 },
            ],
        }
    }
}

/// English stop words removed before keywords are chosen (function words
/// that carry no topic).
pub const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "may",
    "me",
    "might",
    "more",
    "most",
    "must",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "same",
    "shall",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "upon",
    "us",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

/// The keyword terms of a text: hashes (seed 0) of its normalised word
/// tokens that are not stop words and contain a letter.
pub fn keyword_terms(text: &str) -> Vec<u64> {
    let n = crate::normalize(text);
    n.token_strs()
        .filter(|t| t.chars().any(char::is_alphabetic) && STOP_WORDS.binary_search(t).is_err())
        .map(|t| crate::hash::bytes_hash(0, t.as_bytes()))
        .collect()
}

impl VectorSpec {
    /// Checks sizes are in range and there is at least one component.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] naming the problem.
    pub fn check(&self) -> Result<(), Error> {
        if self.features.is_empty() {
            return Err(Error::invalid_option(
                "the similarity vector has no features",
            ));
        }
        if !(1..=1000).contains(&self.keywords) {
            return Err(Error::invalid_option(format!(
                "keywords must be in 1..=1000, got {}",
                self.keywords
            )));
        }
        for f in &self.features {
            if let Feature::WordContainment { n }
            | Feature::WordResemblance { n }
            | Feature::CharContainment { q: n }
            | Feature::CharResemblance { q: n } = f
            {
                if !(1..=32).contains(n) {
                    return Err(Error::invalid_option(format!(
                        "shingle size must be in 1..=32, got {n} in {f:?}"
                    )));
                }
            }
        }
        Ok(())
    }

    /// The similarity vector of suspicious text `a` and source `b`, with the
    /// document frequencies `df` for keywords. Length `features.len()`; every
    /// value finite.
    pub fn vector(&self, a: &str, b: &str, df: &DocumentFrequencies) -> Vec<f64> {
        let (na, nb) = (crate::normalize(a), crate::normalize(b));
        let (ta, tb) = (token_hashes(&na, 0), token_hashes(&nb, 0));
        let k = self.keywords as usize;
        let (ka, kb) = (
            df.top_keywords(&keyword_terms(a), k),
            df.top_keywords(&keyword_terms(b), k),
        );
        let unit = |v: &[(u64, f64)]| {
            let norm = libm::sqrt(v.iter().map(|x| x.1 * x.1).sum::<f64>());
            v.iter()
                .map(|&(h, w)| (h, if norm > 0.0 { w / norm } else { 0.0 }))
                .collect::<Vec<_>>()
        };
        let words = |n: u32| {
            (
                ShingleSet::from_hashes(word_shingles(&ta, n as usize, 0)),
                ShingleSet::from_hashes(word_shingles(&tb, n as usize, 0)),
            )
        };
        let chars = |q: u32| {
            (
                ShingleSet::from_hashes(char_shingles(&na, q as usize, 0)),
                ShingleSet::from_hashes(char_shingles(&nb, q as usize, 0)),
            )
        };
        self.features
            .iter()
            .map(|f| match *f {
                Feature::KeywordJaccard => similarity::jaccard(&ka, &kb),
                Feature::KeywordDice => similarity::dice(&ka, &kb),
                Feature::KeywordCosine => similarity::cosine(&ka, &kb),
                Feature::KeywordEuclidean => similarity::euclidean(&unit(&ka), &unit(&kb)),
                Feature::KeywordExtendedJaccard => similarity::extended_jaccard(&ka, &kb),
                Feature::WordContainment { n } => {
                    let (x, y) = words(n);
                    crate::measures::containment(&x, &y)
                }
                Feature::WordResemblance { n } => {
                    let (x, y) = words(n);
                    crate::measures::resemblance(&x, &y)
                }
                Feature::CharContainment { q } => {
                    let (x, y) = chars(q);
                    crate::measures::containment(&x, &y)
                }
                Feature::CharResemblance { q } => {
                    let (x, y) = chars(q);
                    crate::measures::resemblance(&x, &y)
                }
            })
            .collect()
    }
}

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

/// Document frequencies as stored in a model: `(term hash as 16 hex digits,
/// df)` sorted by hash, and the number of documents.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredDf {
    /// Number of documents the frequencies were counted over.
    pub documents: u64,
    /// `[hash_hex, df]` pairs.
    pub terms: Vec<(String, u32)>,
}

/// A trained verdict model, as written by `neardup train` (format 1).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SvmModel {
    /// Always [`MODEL_FORMAT`].
    pub format: u32,
    /// The similarity vector's layout.
    pub vector: VectorSpec,
    /// Document frequencies for keywords.
    pub df: StoredDf,
    /// Feature scaling.
    pub scaler: Scaler,
    /// The kernel shared by all machines.
    pub kernel: Kernel,
    /// The binary near-duplicate machine (positive = copied).
    pub binary: Machine,
    /// One-vs-rest machines of the graded classes (e.g. cut, light, heavy,
    /// non); empty for a binary-only model.
    pub classes: Vec<Machine>,
    /// Where the model came from: data, parameters, cross-validation scores
    /// (free-form, kept as is).
    #[serde(default)]
    pub provenance: serde_json::Value,
}

/// A verdict: the binary decision, the graded class, and the numbers behind
/// them.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    /// `g ≥ 0` of the binary machine: the text is a near copy / reuse.
    pub copied: bool,
    /// Decision value of the binary machine.
    pub binary_decision: f64,
    /// The graded class (largest one-vs-rest decision), if the model has
    /// classes.
    pub class: Option<String>,
    /// Decision value of each one-vs-rest machine, in the model's order.
    pub class_decisions: Vec<f64>,
    /// The similarity vector that produced them (unscaled).
    pub vector: Vec<f64>,
}

fn bad(msg: String) -> Error {
    Error::new(ErrorKind::Corrupt {
        what: "verdict model",
        msg,
    })
}

impl SvmModel {
    /// Parses and checks a model JSON.
    ///
    /// # Errors
    /// [`ErrorKind::Version`] for another format; [`ErrorKind::Corrupt`] for
    /// malformed JSON, an unknown kernel or feature, shapes that do not agree,
    /// or a NaN or infinite number.
    pub fn from_json(text: &str) -> Result<SvmModel, Error> {
        #[derive(serde::Deserialize)]
        struct Head {
            format: Option<u32>,
        }
        let head: Head =
            serde_json::from_str(text).map_err(|e| bad(format!("not a model JSON: {e}")))?;
        match head.format {
            Some(MODEL_FORMAT) => {}
            Some(v) => {
                return Err(Error::new(ErrorKind::Version {
                    what: "verdict model",
                    found: v,
                    supported: MODEL_FORMAT,
                }))
            }
            None => return Err(bad("no \"format\" field".into())),
        }
        let m: SvmModel = serde_json::from_str(text).map_err(|e| bad(format!("{e}")))?;
        m.check()?;
        Ok(m)
    }

    /// The model as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Checks every shape and number.
    ///
    /// # Errors
    /// [`ErrorKind::Corrupt`] naming the first problem.
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
        if !self.scaler.mean.iter().all(|x| x.is_finite())
            || !self.scaler.scale.iter().all(|x| x.is_finite() && *x > 0.0)
        {
            return Err(bad(
                "the scaler has a non-finite mean or a scale that is not positive".into(),
            ));
        }
        if let Kernel::Rbf { gamma } = self.kernel {
            if !(gamma.is_finite() && gamma > 0.0) {
                return Err(bad(format!(
                    "RBF gamma must be positive and finite, got {gamma}"
                )));
            }
        }
        for m in core::iter::once(&self.binary).chain(&self.classes) {
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
            let finite = m.bias.is_finite()
                && m.dual_coef.iter().all(|x| x.is_finite())
                && m.support_vectors.iter().flatten().all(|x| x.is_finite());
            if !finite {
                return Err(bad(format!(
                    "machine {:?} has a NaN or infinite number",
                    m.positive
                )));
            }
        }
        for (h, _) in &self.df.terms {
            if h.len() != 16 || u64::from_str_radix(h, 16).is_err() {
                return Err(bad(format!(
                    "document-frequency term {h:?} is not 16 hex digits"
                )));
            }
        }
        Ok(())
    }

    /// The document frequencies as a table.
    pub fn document_frequencies(&self) -> DocumentFrequencies {
        DocumentFrequencies::from_counts(
            self.df.documents,
            self.df
                .terms
                .iter()
                .filter_map(|(h, n)| u64::from_str_radix(h, 16).ok().map(|h| (h, *n))),
        )
    }

    /// Length of the similarity vector.
    pub fn dimension(&self) -> usize {
        self.vector.features.len()
    }

    fn kernel(&self, u: &[f64], v: &[f64]) -> f64 {
        match self.kernel {
            Kernel::Linear => u.iter().zip(v).map(|(a, b)| a * b).sum(),
            Kernel::Rbf { gamma } => {
                let d2: f64 = u.iter().zip(v).map(|(a, b)| (a - b) * (a - b)).sum();
                libm::exp(-gamma * d2)
            }
        }
    }

    /// The scaled vector `z`.
    ///
    /// # Errors
    /// [`ErrorKind::Incompatible`] for a vector of the wrong length or with a
    /// NaN or infinite value.
    pub fn scale(&self, x: &[f64]) -> Result<Vec<f64>, Error> {
        if x.len() != self.dimension() {
            return Err(Error::new(ErrorKind::Incompatible(format!(
                "the vector has {} values, the model takes {}",
                x.len(),
                self.dimension()
            ))));
        }
        if let Some(v) = x.iter().find(|v| !v.is_finite()) {
            return Err(Error::new(ErrorKind::Incompatible(format!(
                "the vector has a non-finite value {v}"
            ))));
        }
        Ok(x.iter()
            .zip(self.scaler.mean.iter().zip(&self.scaler.scale))
            .map(|(v, (m, s))| (v - m) / s)
            .collect())
    }

    fn machine_decision(&self, m: &Machine, z: &[f64]) -> f64 {
        m.support_vectors
            .iter()
            .zip(&m.dual_coef)
            .map(|(sv, c)| c * self.kernel(sv, z))
            .sum::<f64>()
            + m.bias
    }

    /// Decision values of an unscaled vector `x`: the binary machine first,
    /// then each one-vs-rest machine.
    ///
    /// # Errors
    /// As [`SvmModel::scale`].
    pub fn decision_function(&self, x: &[f64]) -> Result<Vec<f64>, Error> {
        let z = self.scale(x)?;
        Ok(core::iter::once(&self.binary)
            .chain(&self.classes)
            .map(|m| self.machine_decision(m, &z))
            .collect())
    }

    /// The verdict for an unscaled vector `x`.
    ///
    /// # Errors
    /// As [`SvmModel::scale`].
    pub fn predict(&self, x: &[f64]) -> Result<Verdict, Error> {
        let d = self.decision_function(x)?;
        let class = self
            .classes
            .iter()
            .zip(&d[1..])
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|(m, _)| m.positive.clone());
        Ok(Verdict {
            copied: d[0] >= 0.0,
            binary_decision: d[0],
            class,
            class_decisions: d[1..].to_vec(),
            vector: x.to_vec(),
        })
    }

    /// The verdict for suspicious text `a` against source `b`.
    pub fn judge(&self, a: &str, b: &str) -> Result<Verdict, Error> {
        let x = self.vector.vector(a, b, &self.document_frequencies());
        self.predict(&x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    /// A 2-feature RBF model with one machine, by hand.
    fn tiny() -> SvmModel {
        SvmModel {
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
            },
            classes: vec![],
            provenance: serde_json::Value::Null,
        }
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
            m.judge("one two three four", "one two three four")
                .unwrap()
                .copied
        );
        // Unrelated texts: both 0 -> z = (-1, -2) -> negative.
        assert!(
            !m.judge("alpha beta gamma", "delta epsilon zeta")
                .unwrap()
                .copied
        );
    }

    #[test]
    fn bad_models_and_vectors_are_clear_errors() {
        let good = tiny().to_json();
        assert_eq!(SvmModel::from_json(&good).unwrap(), tiny());
        let e =
            SvmModel::from_json(&good.replacen("\"format\": 1", "\"format\": 2", 1)).unwrap_err();
        assert!(e.to_string().contains("format version 2"), "{e}");
        let e = SvmModel::from_json(&good.replace("\"rbf\"", "\"sigmoid\"")).unwrap_err();
        assert!(e.to_string().contains("unknown variant `sigmoid`"), "{e}");
        let mut m = tiny();
        m.scaler.mean.push(0.0);
        assert!(SvmModel::from_json(&m.to_json())
            .unwrap_err()
            .to_string()
            .contains("scaler has 3 means"));
        let mut m = tiny();
        m.binary.support_vectors[1].push(1.0);
        assert!(SvmModel::from_json(&m.to_json())
            .unwrap_err()
            .to_string()
            .contains("support vector of length 3"));
        let mut m = tiny();
        m.binary.dual_coef.pop();
        assert!(m
            .check()
            .unwrap_err()
            .to_string()
            .contains("2 support vectors and 1 coefficients"));
        let mut m = tiny();
        m.binary.bias = f64::NAN;
        assert!(m
            .check()
            .unwrap_err()
            .to_string()
            .contains("NaN or infinite"));
        let mut m = tiny();
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
            .contains("the vector has 1 values"));
        assert!(m.decision_function(&[1.0, f64::INFINITY]).is_err());
    }

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(keyword_terms("The THE the").is_empty());
        assert_eq!(keyword_terms("The cats").len(), 1);
    }

    #[test]
    fn default_vector_is_finite_and_in_range() {
        let mut df = DocumentFrequencies::new();
        df.add_document(&keyword_terms("inheritance in object oriented programming"));
        let spec = VectorSpec::default();
        let x = spec.vector(
            "Inheritance lets a class reuse another class's fields.",
            "In object oriented programming, inheritance lets a class reuse code.",
            &df,
        );
        assert_eq!(x.len(), 13);
        assert!(
            x.iter().all(|v| v.is_finite() && *v >= 0.0 && *v <= 2.0),
            "{x:?}"
        );
        assert!(x[7] > 0.0, "some word 3-shingles are shared");
    }
}
