//! 64-bit SimHash fingerprints (Charikar, "Similarity estimation techniques
//! from rounding algorithms", STOC 2002), specified in SPEC.md §10.
//!
//! Features are shingles ([`Shingling`]: words, word k-shingles or character
//! q-grams), each hashed to 64 bits by the project's hash (SPEC.md §2), each
//! with a weight `w_f > 0`. For bit `i` (the bit of value `1 << i`),
//! `V_i = Σ_f w_f · (+1 if bit i of hash(f) is 1 else −1)`, and bit `i` of the
//! fingerprint is 1 iff `V_i > 0` (a tie, `V_i = 0`, gives 0; a text without
//! features gives fingerprint 0 and is *empty*: it matches nothing in an
//! index). With [`Weighting::Tf`], `w_f` is the feature's count in the text
//! (each occurrence adds 1), summed in integers; with [`Weighting::Binary`]
//! every distinct feature weighs 1; [`fingerprint_weighted`] takes any
//! weights (e.g. tf-idf), summed in `f64` in the order given.
//!
//! A [`Fingerprint`] carries its [`SimHashConfig`] as a MinHash signature
//! carries its own, so that fingerprints of different shinglings are never
//! compared.
//!
//! **Similarity.** The Hamming distance `d` of two fingerprints estimates the
//! angle between the weighted feature vectors: `P[bit differs] = θ/π`, so
//! `cos θ ≈ cos(π d / 64)` ([`cosine_estimate`]).

use crate::document::Document;
use crate::error::Error;
use crate::hash::Spec;
use crate::shingle::Shingling;
use alloc::format;
use alloc::string::String;

/// How features are weighted in a fingerprint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub enum Weighting {
    /// Term frequency: every occurrence of a feature adds weight 1.
    Tf,
    /// Every distinct feature weighs 1.
    Binary,
}

/// What a fingerprint is made of: shingling, weighting and seed. Checked
/// once by [`SimHashConfig::check`].
///
/// Defaults: word 3-shingles, term-frequency weights, seed 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", default, deny_unknown_fields)
)]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct SimHashConfig {
    /// Features: `"word:1"` (words), `"word:K"` or `"char:Q"` (default `"word:3"`).
    #[cfg_attr(feature = "wasm-bindings", tsify(type = "string"))]
    pub shingle: Shingling,
    /// Feature weights: `"tf"` (default) or `"binary"`.
    pub weights: Weighting,
    /// Hash seed (default 0).
    pub seed: u64,
    /// The version of the shingle hash specification (SPEC.md §3): 1 (the
    /// default) or 2. Fingerprints of different versions never compare.
    #[cfg_attr(feature = "wasm-bindings", tsify(type = "1 | 2"))]
    pub spec: Spec,
}

impl Default for SimHashConfig {
    fn default() -> Self {
        SimHashConfig {
            shingle: Shingling::Words(3),
            weights: Weighting::Tf,
            seed: crate::hash::DEFAULT_SEED,
            spec: Spec::V1,
        }
    }
}

crate::config::setters!(SimHashConfig {
    /// Sets the shingling.
    shingle: Shingling,
    /// Sets the weighting.
    weights: Weighting,
    /// Sets the seed.
    seed: u64,
    /// Sets the spec version.
    spec: Spec,
});

impl SimHashConfig {
    /// The configuration of fingerprints supplied by the caller as plain
    /// 64-bit values (custom features, seed 0).
    pub const CUSTOM: SimHashConfig = SimHashConfig {
        shingle: Shingling::Custom,
        weights: Weighting::Tf,
        seed: 0,
        spec: Spec::V1,
    };

    /// Checks the shingle size.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for a size outside 1..=32.
    pub fn check(&self) -> Result<(), Error> {
        self.shingle.check()
    }

    /// The fingerprint of a document (its shingles, memoised in it). Time
    /// linear in the shingles (64 bit counters, bit-sliced); memory that of
    /// the shingle sequence (8 bytes per shingle).
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for an out-of-range or custom
    /// shingling; [`crate::ErrorKind::Incompatible`] when the document's
    /// seed or spec version is not the configuration's.
    pub fn fingerprint_of(&self, doc: &Document) -> Result<Fingerprint, Error> {
        self.check()?;
        if self.shingle == Shingling::Custom {
            return Err(Error::option(
                "shingle",
                "a text fingerprint needs word or character shingles, not custom",
            ));
        }
        if doc.seed() != self.seed || doc.spec() != self.spec {
            return Err(Error::incompatible(
                "document",
                format!("seed {}, {}", self.seed, self.spec),
                format!("seed {}, {}", doc.seed(), doc.spec()),
            ));
        }
        let value = match self.weights {
            Weighting::Tf => fingerprint(&doc.shingles(self.shingle)),
            Weighting::Binary => fingerprint(doc.shingle_set(self.shingle).as_slice()),
        };
        Ok(Fingerprint {
            value,
            config: *self,
            empty: doc.is_empty(),
        })
    }

    /// The fingerprint of `text`: [`SimHashConfig::fingerprint_of`] a new
    /// [`Document`] with this seed and spec version.
    ///
    /// # Errors
    /// As [`SimHashConfig::fingerprint_of`].
    pub fn fingerprint(&self, text: &str) -> Result<Fingerprint, Error> {
        self.fingerprint_of(&Document::for_shingling(
            text,
            self.seed,
            Default::default(),
            self.spec,
            self.shingle,
        ))
    }

    /// A phrase for messages.
    pub(crate) fn describe(&self) -> String {
        let w = match self.weights {
            Weighting::Tf => "tf",
            Weighting::Binary => "binary",
        };
        let mut s = format!("{} {w} seed {}", self.shingle, self.seed);
        if self.spec != Spec::V1 {
            s += &format!(" {}", self.spec);
        }
        s
    }
}

/// A 64-bit SimHash fingerprint with the configuration that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    value: u64,
    config: SimHashConfig,
    empty: bool,
}

impl Fingerprint {
    /// A fingerprint computed elsewhere (e.g. by [`fingerprint`] or
    /// [`fingerprint_weighted`] from custom features), under
    /// [`SimHashConfig::CUSTOM`]. Never empty.
    pub fn from_value(value: u64) -> Fingerprint {
        Fingerprint {
            value,
            config: SimHashConfig::CUSTOM,
            empty: false,
        }
    }

    /// The fingerprint of custom features given by their hashes, each
    /// occurrence weighing 1 ([`fingerprint`]), under
    /// [`SimHashConfig::CUSTOM`]. No hashes give the empty fingerprint: it
    /// matches nothing, as a text without features.
    pub fn from_shingles(feature_hashes: &[u64]) -> Fingerprint {
        Fingerprint {
            value: fingerprint(feature_hashes),
            config: SimHashConfig::CUSTOM,
            empty: feature_hashes.is_empty(),
        }
    }

    /// A fingerprint with every part given.
    pub(crate) fn new(value: u64, config: SimHashConfig, empty: bool) -> Fingerprint {
        Fingerprint {
            value,
            config,
            empty,
        }
    }

    /// A fingerprint with its parts, as read from a snapshot: a text
    /// fingerprint of value 0 is that of a text without features (empty).
    pub(crate) fn from_parts(value: u64, config: SimHashConfig) -> Fingerprint {
        Fingerprint {
            value,
            config,
            empty: value == 0 && config.shingle != Shingling::Custom,
        }
    }

    /// The 64 bits.
    pub fn value(&self) -> u64 {
        self.value
    }

    /// The configuration that made it.
    pub fn config(&self) -> SimHashConfig {
        self.config
    }

    /// `true` for the fingerprint of a text without features.
    pub fn is_empty(&self) -> bool {
        self.empty
    }

    /// Hamming distance to `other`, 0..=64.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] when the configurations differ.
    pub fn distance(&self, other: &Fingerprint) -> Result<u32, Error> {
        if self.config != other.config {
            return Err(Error::incompatible(
                "fingerprint",
                self.config.describe(),
                other.config.describe(),
            ));
        }
        Ok(hamming_distance(self.value, other.value))
    }
}

/// `SPREAD[x]`: the eight bits of `x`, bit `i` as the low bit of byte `i`.
const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut x = 0;
    while x < 256 {
        let mut i = 0;
        while i < 8 {
            if (x >> i) & 1 == 1 {
                t[x] |= 1 << (8 * i);
            }
            i += 1;
        }
        x += 1;
    }
    t
};

/// The SimHash of features given by their hashes, each occurrence weighing 1
/// (repeat a hash to weigh it more). Exact integer sums.
pub fn fingerprint(feature_hashes: &[u64]) -> u64 {
    // ones[i] = number of features with bit i set; V_i = 2·ones[i] − n.
    let mut ones = [0u64; 64];
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    let counted = super::avx512::add_bit_counts(&mut ones, feature_hashes)
        || super::avx2::add_bit_counts(&mut ones, feature_hashes);
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    let counted = false;
    if !counted {
        add_bit_counts(&mut ones, feature_hashes);
    }
    let n = feature_hashes.len() as u64;
    let mut fp = 0u64;
    for (i, &o) in ones.iter().enumerate() {
        if 2 * o > n {
            fp |= 1 << i;
        }
    }
    fp
}

/// Adds to `ones[i]` the number of `hashes` with bit `i` set, in byte
/// lanes: each byte of a hash, spread by a table into one bit a byte, is
/// added to a word of eight 8-bit counters, which are emptied into `ones`
/// every 255 features before they overflow (16 loads and additions a
/// feature, without a branch on the data). Where the CPU has AVX-512,
/// `super::avx512` counts instead, one instruction a feature; where it has
/// AVX2 alone, `super::avx2`, ten.
fn add_bit_counts(ones: &mut [u64; 64], feature_hashes: &[u64]) {
    for chunk in feature_hashes.chunks(255) {
        let mut lanes = [0u64; 8];
        for &h in chunk {
            for (b, lane) in lanes.iter_mut().enumerate() {
                *lane += SPREAD[((h >> (8 * b)) & 0xff) as usize];
            }
        }
        for (b, lane) in lanes.iter().enumerate() {
            for i in 0..8 {
                ones[8 * b + i] += (lane >> (8 * i)) & 0xff;
            }
        }
    }
}

/// The SimHash of weighted features `(hash, weight)`; weights must be finite
/// (negative weights count against their feature). Sums in `f64` in order.
///
/// # Errors
/// [`crate::ErrorKind::InvalidOption`] for a NaN or infinite weight.
pub fn fingerprint_weighted(features: &[(u64, f64)]) -> Result<u64, Error> {
    let mut v = [0f64; 64];
    for &(h, w) in features {
        if !w.is_finite() {
            return Err(Error::option(
                "weights",
                format!("feature weight {w} is not finite"),
            ));
        }
        for (i, vi) in v.iter_mut().enumerate() {
            if (h >> i) & 1 == 1 {
                *vi += w;
            } else {
                *vi -= w;
            }
        }
    }
    Ok(v.iter()
        .enumerate()
        .fold(0u64, |fp, (i, &x)| if x > 0.0 { fp | (1 << i) } else { fp }))
}

/// Number of differing bits, 0..=64.
pub fn hamming_distance(a: u64, b: u64) -> u32 {
    (a ^ b).count_ones()
}

/// Charikar's estimate of the cosine similarity from the Hamming distance
/// `d` of 64-bit fingerprints: `cos(π d / 64)`, in [−1, 1].
pub fn cosine_estimate(d: u32) -> f64 {
    libm::cos(core::f64::consts::PI * d.min(64) as f64 / 64.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::SplitMix64;
    use alloc::vec::Vec;

    #[test]
    fn fingerprint_bits_by_hand() {
        // Bit 0 set in 2 of 3 features -> 1; bit 1 set in 1 of 3 -> 0;
        // bit 2 set in 1 of 2 equal-weight -> tie -> 0.
        assert_eq!(fingerprint(&[0b011, 0b001, 0b100]) & 0b111, 0b001);
        assert_eq!(fingerprint(&[0b100, 0b000]) & 0b100, 0);
        assert_eq!(fingerprint(&[]), 0);
        assert_eq!(fingerprint(&[0xdead_beef]), 0xdead_beef);
        assert_eq!(
            fingerprint_weighted(&[(0b1, 3.0), (0b0, 2.0)]).unwrap() & 1,
            1
        );
        assert_eq!(
            fingerprint_weighted(&[(0b1, 1.0), (0b0, 2.0)]).unwrap() & 1,
            0
        );
        assert!(fingerprint_weighted(&[(1, f64::NAN)]).is_err());
        assert_eq!(hamming_distance(0, u64::MAX), 64);
        assert!((cosine_estimate(0) - 1.0).abs() < 1e-15);
        assert!(cosine_estimate(32).abs() < 1e-15);
    }

    #[test]
    fn lane_counts_equal_plain_counts() {
        let mut rng = SplitMix64::new(1);
        for n in [
            0usize, 1, 2, 3, 64, 254, 255, 256, 511, 1000, 70_000, 140_001,
        ] {
            // Skewed bits too: AND of two values sets each bit with p = 1/4.
            let hs: Vec<u64> = (0..n)
                .map(|i| {
                    if i % 2 == 0 {
                        rng.next()
                    } else {
                        rng.next() & rng.next()
                    }
                })
                .collect();
            let mut plain = 0u64;
            for i in 0..64 {
                let ones = hs.iter().filter(|&&h| (h >> i) & 1 == 1).count() as u64;
                if 2 * ones > n as u64 {
                    plain |= 1 << i;
                }
            }
            assert_eq!(fingerprint(&hs), plain, "n = {n}");
            // The portable byte lanes alone (what runs without AVX-512).
            let mut lanes = [0u64; 64];
            add_bit_counts(&mut lanes, &hs);
            for (i, &o) in lanes.iter().enumerate() {
                let want = hs.iter().filter(|&&h| (h >> i) & 1 == 1).count() as u64;
                assert_eq!(o, want, "bit {i}, n = {n}");
            }
        }
    }

    #[test]
    fn similar_texts_are_close() {
        let c = SimHashConfig::default();
        let a = c
            .fingerprint("the quick brown fox jumps over the lazy dog near the river bank today")
            .unwrap()
            .value();
        let b = c
            .fingerprint("the quick brown fox jumps over the lazy dog near the river bank tonight")
            .unwrap()
            .value();
        let x = c
            .fingerprint("completely unrelated words about compilers and parsing tables")
            .unwrap()
            .value();
        assert!(hamming_distance(a, b) < hamming_distance(a, x));
        let empty = c.fingerprint("").unwrap();
        assert!(empty.is_empty() && empty.value() == 0);
        let chars = SimHashConfig::default().shingle(Shingling::Chars(5));
        let f = chars.fingerprint("some text here").unwrap();
        assert!(f
            .distance(&c.fingerprint("some text here").unwrap())
            .is_err());
        assert_eq!(f.distance(&f).unwrap(), 0);
    }
}
