//! Multireference cosine signatures (Mohammadi & Khasteh, "A fast and
//! accurate method for near-duplicate detection using multireference
//! cosine", 2020): a short, fixed-size signature of a text — its cosines
//! with the `P` partitions of a reference text of character 3-grams — whose
//! cosine with another text's signature approximates the cosine of their
//! 3-gram frequency vectors.
//!
//! * [`reference`](mod@reference): the [`Reference`] and [`Reference::signature_of`];
//! * here: [`MultiRefSignature`] (versioned bytes), [`similarity`],
//!   [`Thresholds`] (the paper's t1/t2 decision), the [`exact_cosine`] it
//!   approximates, the reference's JSON format, and the [`Projector`] that
//!   turns a signature into 64 sign-random-projection bits for the Hamming
//!   index (Charikar 2002), so that search does not compare all pairs.
//!
//! The reference is trained by a genetic algorithm (`neardup multiref
//! train`); EVALUATION.md measures the approximation.

pub mod reference;

pub use reference::{gram_hash, Reference, GRAMS, MAX_GRAMS, MAX_PARTITIONS};

use crate::document::Document;
use crate::error::{Error, ErrorKind};
use crate::hash::SplitMix64;
use crate::index::snapshot::{corrupt, Reader, Writer};
use crate::measures::TermFrequencies;
use alloc::format;
use alloc::vec::Vec;

const MAGIC: &[u8; 4] = b"NDMR";
const FORMAT_VERSION: u16 = 1;

/// A multireference signature: `P` cosines in [0, 1], with the id of the
/// reference that made it.
#[derive(Clone, Debug, PartialEq)]
pub struct MultiRefSignature {
    pub(crate) reference: u64,
    pub(crate) values: Vec<f32>,
}

impl MultiRefSignature {
    /// A signature of `reference` from its values (e.g. kept by a caller).
    ///
    /// # Errors
    /// [`ErrorKind::Incompatible`] when there are not `P` values, or one is
    /// outside [0, 1].
    pub fn from_values(reference: &Reference, values: Vec<f32>) -> Result<Self, Error> {
        let p = reference.partitions();
        if values.len() != p || values.iter().any(|v| !(0.0..=1.0).contains(v)) {
            return Err(Error::incompatible(
                "multireference signature",
                format!("{p} values in [0, 1]"),
                format!("{} values", values.len()),
            ));
        }
        Ok(MultiRefSignature {
            reference: reference.id(),
            values,
        })
    }

    /// The `P` values.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// The id of the reference that made it ([`Reference::id`]).
    pub fn reference(&self) -> u64 {
        self.reference
    }

    /// The bytes (format 1): `"NDMR"`, `u16` 1, `u16` spec version, `u64`
    /// reference id, `u32` P, P × `f32` (IEEE 754 bits, little-endian),
    /// `u32` CRC-32. Length `24 + 4·P`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(MAGIC, FORMAT_VERSION);
        w.u64(self.reference);
        w.u32(self.values.len() as u32);
        for &v in &self.values {
            w.u32(v.to_bits());
        }
        w.finish()
    }

    /// Reads [`MultiRefSignature::to_bytes`] output.
    ///
    /// # Errors
    /// [`ErrorKind::Corrupt`] or [`ErrorKind::Version`] as every decoder.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        const WHAT: &str = "multireference signature";
        let mut r = Reader::open(bytes, MAGIC, FORMAT_VERSION, WHAT)?;
        let reference = r.u64()?;
        let p = r.u32()? as usize;
        if p == 0 || p > MAX_PARTITIONS || r.remaining() != 4 * p {
            return Err(corrupt(WHAT, format!("{p} values do not fit the data")));
        }
        let values = (0..p)
            .map(|_| r.u32().map(f32::from_bits))
            .collect::<Result<Vec<f32>, _>>()?;
        if values.iter().any(|v| !(0.0..=1.0).contains(v)) {
            return Err(corrupt(WHAT, "a value is outside [0, 1]".into()));
        }
        r.end()?;
        Ok(MultiRefSignature { reference, values })
    }
}

/// The estimate: the cosine of two signatures, `Σ a_p b_p / (‖a‖ ‖b‖)` in
/// [0, 1], summed in `f64` in order; 0 when either is zero.
///
/// # Errors
/// [`ErrorKind::Incompatible`] for signatures of different references.
pub fn similarity(a: &MultiRefSignature, b: &MultiRefSignature) -> Result<f64, Error> {
    if a.reference != b.reference || a.values.len() != b.values.len() {
        return Err(Error::incompatible(
            "multireference signature",
            format!("reference {:016x} ({} values)", a.reference, a.values.len()),
            format!("reference {:016x} ({} values)", b.reference, b.values.len()),
        ));
    }
    Ok(cosine(
        a.values.iter().copied().zip(b.values.iter().copied()),
    ))
}

/// The cosine of two signatures' values given pairwise, summed in `f64` in
/// order, clamped to [0, 1]; 0 when either is zero ([`similarity`]).
pub(crate) fn cosine(pairs: impl Iterator<Item = (f32, f32)>) -> f64 {
    let (mut dot, mut aa, mut bb) = (0.0f64, 0.0f64, 0.0f64);
    for (x, y) in pairs {
        let (x, y) = (x as f64, y as f64);
        dot += x * y;
        aa += x * x;
        bb += y * y;
    }
    let den = libm::sqrt(aa) * libm::sqrt(bb);
    if den == 0.0 {
        0.0
    } else {
        (dot / den).clamp(0.0, 1.0)
    }
}

/// The exact cosine of the 3-gram frequency vectors of two documents, the
/// quantity the signatures approximate, in [0, 1].
pub fn exact_cosine(a: &Document, b: &Document) -> f64 {
    let tf = |d: &Document| {
        TermFrequencies::from_hashes(&crate::shingle::char_shingles(
            d.normalized(),
            3,
            0,
            crate::hash::Spec::V1,
        ))
    };
    crate::measures::sets::cosine(&tf(a), &tf(b))
}

/// What the thresholds say of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub enum Decision {
    /// Similarity at least `t1`.
    Duplicate,
    /// Similarity in `[t2, t1)`.
    NearDuplicate,
    /// Similarity below `t2`.
    Different,
}

/// The paper's two thresholds, `0 ≤ t2 ≤ t1 ≤ 1`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Thresholds {
    /// Duplicate at or above this.
    pub t1: f64,
    /// Near duplicate at or above this (and below `t1`).
    pub t2: f64,
}

impl Thresholds {
    /// Checks `0 ≤ t2 ≤ t1 ≤ 1`.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] otherwise.
    pub fn check(&self) -> Result<(), Error> {
        if !(0.0 <= self.t2 && self.t2 <= self.t1 && self.t1 <= 1.0) {
            return Err(Error::option(
                "t1",
                format!(
                    "need 0 ≤ t2 ≤ t1 ≤ 1, got t1 {} and t2 {}",
                    self.t1, self.t2
                ),
            ));
        }
        Ok(())
    }

    /// The decision for a similarity.
    pub fn decide(&self, similarity: f64) -> Decision {
        if similarity >= self.t1 {
            Decision::Duplicate
        } else if similarity >= self.t2 {
            Decision::NearDuplicate
        } else {
            Decision::Different
        }
    }
}

/// 64 sign-random-projection bits of a (centred) signature: bit `i` is 1
/// iff `(s − mean) · g_i > 0` for Gaussian vectors `g_i` drawn from
/// SplitMix64 seeded by the reference id (Box–Muller, `libm`). Hamming
/// distance of the bits estimates the angle between centred signatures
/// (Charikar 2002), so near signatures are found by the SimHash index.
#[derive(Clone, Debug)]
pub struct Projector {
    reference: u64,
    mean: Vec<f64>,
    /// 64 × P, row-major.
    planes: Vec<f64>,
}

impl Projector {
    /// The projector of a reference.
    pub fn new(reference: &Reference) -> Projector {
        let p = reference.partitions();
        let mut rng = SplitMix64::new(reference.id() ^ 0x7372_7062_6974_7321);
        let mut uniform = || ((rng.next() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
        let planes = (0..64 * p)
            .map(|_| {
                let (u, v) = (uniform(), uniform());
                libm::sqrt(-2.0 * libm::log(u)) * libm::cos(2.0 * core::f64::consts::PI * v)
            })
            .collect();
        let mean = if reference.mean().is_empty() {
            alloc::vec![0.0; p]
        } else {
            reference.mean().iter().map(|&m| m as f64).collect()
        };
        Projector {
            reference: reference.id(),
            mean,
            planes,
        }
    }

    /// The 64 bits of a signature.
    ///
    /// # Errors
    /// [`ErrorKind::Incompatible`] for a signature of another reference.
    pub fn bits(&self, sig: &MultiRefSignature) -> Result<u64, Error> {
        if sig.reference != self.reference || sig.values.len() != self.mean.len() {
            return Err(Error::new(ErrorKind::Incompatible {
                what: "multireference signature",
                expected: format!("reference {:016x}", self.reference),
                found: format!("reference {:016x}", sig.reference),
            }));
        }
        let p = self.mean.len();
        let mut bits = 0u64;
        for i in 0..64 {
            let row = &self.planes[i * p..(i + 1) * p];
            let dot: f64 = row
                .iter()
                .zip(sig.values.iter().zip(&self.mean))
                .map(|(g, (&s, m))| g * (s as f64 - m))
                .sum();
            if dot > 0.0 {
                bits |= 1 << i;
            }
        }
        Ok(bits)
    }
}

#[cfg(feature = "serde")]
mod json {
    //! The reference's JSON format (format 1).
    use super::*;
    use alloc::string::String;

    /// Format version of the reference JSON.
    pub const REFERENCE_FORMAT: u32 = 1;

    /// A reference as stored: `{"format": 1, "partitions": P, "grams":
    /// ["abc", …], "mean": [f32 …], "thresholds": {"t1", "t2"},
    /// "provenance": {…}}`.
    #[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ReferenceFile {
        /// Always [`REFERENCE_FORMAT`].
        pub format: u32,
        /// Number of partitions `P`.
        pub partitions: u32,
        /// The `R` 3-grams, in order.
        pub grams: Vec<String>,
        /// Mean signature of the training corpus (for random projection).
        #[serde(default)]
        pub mean: Vec<f32>,
        /// The default thresholds of this reference.
        pub thresholds: Thresholds,
        /// How it was trained (free JSON).
        #[serde(default)]
        pub provenance: serde_json::Value,
    }

    impl ReferenceFile {
        /// Parses and checks a reference JSON.
        ///
        /// # Errors
        /// [`ErrorKind::Version`] for another format; [`ErrorKind::Corrupt`]
        /// for malformed JSON, sizes out of range or bad thresholds.
        pub fn from_json(text: &str) -> Result<(ReferenceFile, Reference), Error> {
            const WHAT: &str = "multireference reference";
            let f: ReferenceFile = serde_json::from_str(text)
                .map_err(|e| corrupt(WHAT, format!("not a reference JSON: {e}")))?;
            if f.format != REFERENCE_FORMAT {
                return Err(Error::new(ErrorKind::Version {
                    what: WHAT,
                    found: f.format,
                    supported: REFERENCE_FORMAT,
                }));
            }
            f.thresholds
                .check()
                .map_err(|e| corrupt(WHAT, format!("{e}")))?;
            let r = Reference::new(f.grams.clone(), f.partitions as usize)
                .and_then(|r| r.with_mean(f.mean.clone()))
                .map_err(|e| corrupt(WHAT, format!("{e}")))?;
            Ok((f, r))
        }

        /// The reference as JSON.
        pub fn to_json(&self) -> String {
            serde_json::to_string_pretty(self).unwrap_or_default()
        }
    }
}

#[cfg(feature = "serde")]
pub use json::{ReferenceFile, REFERENCE_FORMAT};

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};

    fn grams(text: &str) -> Vec<String> {
        let chars: Vec<char> = crate::normalize(text).text().chars().collect();
        chars.windows(3).map(|w| w.iter().collect()).collect()
    }

    #[test]
    fn signature_by_hand() {
        // Reference "abc", "bcd" in one partition; document "abcd" has
        // 3-grams abc, bcd once each: cos = 2 / (√2 √2) = 1.
        let r = Reference::new(alloc::vec!["abc".into(), "bcd".into()], 1).unwrap();
        assert_eq!(r.signature("abcd").values(), [1.0]);
        // Two partitions: each sees one of the document's two grams:
        // 1 / (√2 · 1).
        let r2 = Reference::new(alloc::vec!["abc".into(), "bcd".into()], 2).unwrap();
        let v = r2.signature("abcd");
        assert!((v.values()[0] as f64 - 1.0 / libm::sqrt(2.0)).abs() < 1e-7);
        assert_eq!(r2.signature("xyz").values(), [0.0, 0.0]);
        assert_eq!(r2.signature("").values(), [0.0, 0.0]);
        assert!(Reference::new(alloc::vec![], 1).is_err());
        // Issue 26: 1,000 copies of one 3-gram in 1,000 partitions.
        let e = Reference::new(alloc::vec!["the".into(); 1000], 1000).unwrap_err();
        assert!(
            matches!(e.kind(), crate::ErrorKind::InvalidOption { .. }),
            "{e}"
        );
        assert!(
            e.to_string()
                .contains("degenerate reference: 1 distinct 3-grams for 1000 partitions"),
            "{e}"
        );
        assert!(Reference::new(alloc::vec!["the".into(), "cat".into(), "the".into()], 2).is_ok());
        assert!(Reference::new(alloc::vec!["abcd".into()], 1).is_err());
        assert!(Reference::new(alloc::vec!["abc".into()], 2).is_err());
    }

    #[test]
    fn similar_texts_have_similar_signatures_and_bytes_round_trip() {
        let corpus = "the quick brown fox jumps over the lazy dog while the cat sleeps on the warm mat near the door";
        let r = Reference::new(grams(corpus), 8).unwrap();
        let a = r.signature("the quick brown fox jumps over the lazy dog");
        let b = r.signature("the quick brown fox jumped over a lazy dog");
        let c = r.signature("zebras quietly graze in distant savannah fields");
        let ab = similarity(&a, &b).unwrap();
        let ac = similarity(&a, &c).unwrap();
        assert!(ab > ac, "{ab} vs {ac}");
        assert!((similarity(&a, &a).unwrap() - 1.0).abs() < 1e-12);
        let bytes = a.to_bytes();
        assert_eq!(bytes.len(), 24 + 4 * 8);
        assert_eq!(MultiRefSignature::from_bytes(&bytes).unwrap(), a);
        for i in 0..bytes.len() {
            let mut x = bytes.clone();
            x[i] ^= 0x20;
            crate::testing::assert_damaged(
                MultiRefSignature::from_bytes(&x),
                format_args!("flip at {i}"),
            );
        }
        let other = Reference::new(grams("another reference text entirely"), 8).unwrap();
        assert!(similarity(&a, &other.signature("x y z")).is_err());
        // The projector gives near signatures near bits.
        let p = Projector::new(&r);
        let (ba, bb) = (p.bits(&a).unwrap(), p.bits(&b).unwrap());
        assert!((ba ^ bb).count_ones() < 32);
        assert!(p.bits(&other.signature("x")).is_err());
    }

    #[test]
    fn thresholds_decide() {
        let t = Thresholds { t1: 0.9, t2: 0.7 };
        assert_eq!(t.decide(0.95), Decision::Duplicate);
        assert_eq!(t.decide(0.8), Decision::NearDuplicate);
        assert_eq!(t.decide(0.1), Decision::Different);
        assert!(Thresholds { t1: 0.5, t2: 0.7 }.check().is_err());
        assert_eq!(t.check(), Ok(()));
        let _ = "x".to_string();
    }

    #[test]
    fn exact_cosine_by_hand() {
        let a = Document::new("abcd", 0);
        assert!((exact_cosine(&a, &a) - 1.0).abs() < 1e-12);
        assert_eq!(exact_cosine(&a, &Document::new("wxyz", 0)), 0.0);
    }
}
