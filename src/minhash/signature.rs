//! MinHash signatures (Broder 1997; Broder, Charikar, Frieze, Mitzenmacher
//! 2000) for estimating the Jaccard resemblance of shingle sets.
//!
//! **Scheme.** A signature has `num_perm` values. Value `i` of a set `S` of
//! shingle hashes is `min_{x ∈ S} h_i(x)` with
//!
//! ```text
//! h_i(x) = ((a_i · x + b_i) mod 2^64) >> 32        (a 32-bit value)
//! ```
//!
//! the multiply-shift family of Dietzfelbinger, Hagerup, Katajainen and
//! Penttonen (1997), with `a_i` odd. The inputs `x` are the project's shingle
//! hashes (`fmix64`-finalised, SPEC.md §2), so each `h_i` acts on
//! well-mixed keys. The coefficients come from SplitMix64 (Steele, Lea, Flood
//! 2014) seeded with `seed ^ 0x6d696e6861736821` ("minhash!"): for
//! `i = 0, 1, …`, `a_i = next() | 1`, then `b_i = next()`. They are generated
//! inside the crate, so they never change with a dependency or platform.
//!
//! **Estimator.** `Ĵ = (number of i with sig_a[i] = sig_b[i]) / num_perm`,
//! unbiased for the Jaccard resemblance with standard error
//! `sqrt(J (1 − J) / num_perm)` (plus a collision term below 2^-32). The
//! property tests check estimates fall within 4 standard errors.
//!
//! **Cost.** `num_perm` multiply-add-shift-min steps per shingle; see
//! `BENCHMARKS.md`.

use crate::document::Document;
use crate::error::{check_range, Error};
use crate::hash::SplitMix64;
use crate::index::snapshot::{corrupt, Reader, Writer};
use crate::shingle::Shingling;
use alloc::format;
use alloc::vec::Vec;

/// Largest `num_perm` accepted.
pub const MAX_PERM: usize = 4096;
/// The value of every slot of the signature of an empty set.
pub const EMPTY_VALUE: u32 = u32::MAX;

const MAGIC: &[u8; 4] = b"NDMH";
const FORMAT_VERSION: u16 = 1;

/// How MinHash signatures are made: checked once by [`MinHashConfig::check`]
/// (which [`MinHasher::new`] calls).
///
/// Defaults: 128 values, seed 0, word 5-shingles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", default, deny_unknown_fields)
)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub struct MinHashConfig {
    /// Values per signature, 1..=4096 (default 128).
    pub num_perm: u32,
    /// Seed of the shingle hashes and the permutations (default 0).
    pub seed: u64,
    /// Shingles of texts: `"word:K"`, `"char:Q"` or `"custom"` (default `"word:5"`).
    #[cfg_attr(feature = "wasm", tsify(type = "string"))]
    pub shingle: Shingling,
}

impl Default for MinHashConfig {
    fn default() -> Self {
        MinHashConfig {
            num_perm: 128,
            seed: crate::hash::DEFAULT_SEED,
            shingle: Shingling::Words(5),
        }
    }
}

crate::config::setters!(MinHashConfig {
    /// Sets `num_perm`.
    num_perm: u32,
    /// Sets the seed.
    seed: u64,
    /// Sets the shingling.
    shingle: Shingling,
});

impl MinHashConfig {
    /// Checks every option.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for `num_perm` outside 1..=4096 or a
    /// shingle size outside 1..=32.
    pub fn check(&self) -> Result<(), Error> {
        check_range("num_perm", self.num_perm, 1..=MAX_PERM as u32)?;
        self.shingle.check()
    }
}

/// Makes MinHash signatures: holds the `num_perm` hash coefficients.
#[derive(Clone, Debug)]
pub struct MinHasher {
    seed: u64,
    shingling: Shingling,
    a: Vec<u64>,
    b: Vec<u64>,
}

impl MinHasher {
    /// A hasher of `config.num_perm` values, with `config.seed` for both the
    /// shingle hashes and the coefficients, and `config.shingle` for
    /// documents given to [`MinHasher::signature_of`].
    ///
    /// # Errors
    /// As [`MinHashConfig::check`].
    pub fn new(config: &MinHashConfig) -> Result<Self, Error> {
        config.check()?;
        let (num_perm, seed, shingling) = (config.num_perm as usize, config.seed, config.shingle);
        let mut rng = SplitMix64::new(seed ^ 0x6d69_6e68_6173_6821);
        let (mut a, mut b) = (Vec::with_capacity(num_perm), Vec::with_capacity(num_perm));
        for _ in 0..num_perm {
            a.push(rng.next() | 1);
            b.push(rng.next());
        }
        Ok(MinHasher {
            seed,
            shingling,
            a,
            b,
        })
    }

    /// Number of values per signature.
    pub fn num_perm(&self) -> usize {
        self.a.len()
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The shingling used for texts.
    pub fn shingling(&self) -> Shingling {
        self.shingling
    }

    /// The signature of an empty set (every value [`EMPTY_VALUE`]).
    pub fn empty(&self) -> Signature {
        Signature {
            seed: self.seed,
            shingling: self.shingling,
            values: alloc::vec![EMPTY_VALUE; self.a.len()],
        }
    }

    /// Adds shingle hashes to `sig` (the signature of the union).
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] when `sig` was made by another hasher.
    pub fn update(&self, sig: &mut Signature, shingles: &[u64]) -> Result<(), Error> {
        self.check_compatible(sig)?;
        let vals = &mut sig.values[..];
        let (a, b) = (&self.a[..vals.len()], &self.b[..vals.len()]);
        // Permutation-major: each value is a min-reduction over the shingles,
        // kept in 64-bit lanes (the high half of a·x + b) so that the loop
        // vectorises without an unsigned 32-bit min.
        for ((v, &ai), &bi) in vals.iter_mut().zip(a).zip(b) {
            let m = shingles
                .iter()
                .map(|&x| ai.wrapping_mul(x).wrapping_add(bi) >> 32)
                .fold(u64::from(*v), u64::min);
            *v = m as u32;
        }
        Ok(())
    }

    /// The signature of a set of shingle hashes (repeats do not matter).
    pub fn signature(&self, shingles: &[u64]) -> Signature {
        let mut sig = self.empty();
        // Cannot fail: the signature was made by this hasher.
        let _ = self.update(&mut sig, shingles);
        sig
    }

    /// The signature of a document's shingles under this hasher's shingling
    /// (its distinct shingles, memoised in the document). A document without
    /// words gives the empty signature; [`Shingling::Custom`] gives the empty
    /// signature too. Time `num_perm` steps per distinct shingle; memory
    /// `4 · num_perm` bytes besides the document's shingle set.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] when the document's seed is not the
    /// hasher's.
    pub fn signature_of(&self, doc: &Document) -> Result<Signature, Error> {
        if doc.seed() != self.seed {
            return Err(Error::incompatible(
                "document",
                format!("seed {}", self.seed),
                format!("seed {}", doc.seed()),
            ));
        }
        Ok(self.signature(doc.shingle_set(self.shingling).as_slice()))
    }

    /// The signature of a text: [`MinHasher::signature_of`] a new
    /// [`Document`] with the hasher's seed.
    pub fn signature_of_text(&self, text: &str) -> Signature {
        self.signature(
            Document::new(text, self.seed)
                .shingle_set(self.shingling)
                .as_slice(),
        )
    }

    fn describe(num_perm: usize, seed: u64, shingling: Shingling) -> alloc::string::String {
        format!("num_perm {num_perm}, seed {seed}, {shingling}")
    }

    fn check_compatible(&self, sig: &Signature) -> Result<(), Error> {
        if sig.values.len() != self.a.len()
            || sig.seed != self.seed
            || sig.shingling != self.shingling
        {
            return Err(Error::incompatible(
                "signature",
                Self::describe(self.a.len(), self.seed, self.shingling),
                Self::describe(sig.values.len(), sig.seed, sig.shingling),
            ));
        }
        Ok(())
    }
}

/// A MinHash signature: `num_perm` 32-bit values, with the seed and
/// shingling that made it. Memory: `4 · num_perm` bytes plus 40.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    seed: u64,
    shingling: Shingling,
    values: Vec<u32>,
}

impl Signature {
    /// A signature from its parts; `None` when `values` is empty or longer
    /// than [`MAX_PERM`], or `shingling` is out of range.
    pub fn from_parts(seed: u64, shingling: Shingling, values: Vec<u32>) -> Option<Signature> {
        if values.is_empty() || values.len() > MAX_PERM || shingling.check().is_err() {
            return None;
        }
        Some(Signature {
            seed,
            shingling,
            values,
        })
    }

    /// The values, `num_perm` of them.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// Number of values.
    pub fn num_perm(&self) -> usize {
        self.values.len()
    }

    /// The seed it was made with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The shingling it was made with.
    pub fn shingling(&self) -> Shingling {
        self.shingling
    }

    /// `true` for the signature of an empty set.
    pub fn is_empty(&self) -> bool {
        self.values.iter().all(|&v| v == EMPTY_VALUE)
    }

    /// Estimated Jaccard resemblance with `other`, in [0, 1]: the share of
    /// equal values. 0 when either set is empty.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] when the signatures differ in length,
    /// seed or shingling.
    pub fn jaccard(&self, other: &Signature) -> Result<f64, Error> {
        self.compatible(other)?;
        if self.is_empty() || other.is_empty() {
            return Ok(0.0);
        }
        let eq = self
            .values
            .iter()
            .zip(&other.values)
            .filter(|(a, b)| a == b)
            .count();
        Ok(eq as f64 / self.values.len() as f64)
    }

    /// `num_perm`, seed and shingling, as a phrase for messages.
    pub(crate) fn describe(&self) -> alloc::string::String {
        MinHasher::describe(self.values.len(), self.seed, self.shingling)
    }

    pub(crate) fn compatible(&self, other: &Signature) -> Result<(), Error> {
        if self.values.len() != other.values.len()
            || self.seed != other.seed
            || self.shingling != other.shingling
        {
            return Err(Error::incompatible(
                "signature",
                self.describe(),
                other.describe(),
            ));
        }
        Ok(())
    }

    /// Merges `other` into `self`: the signature of the union of the sets.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] as for [`Signature::jaccard`].
    pub fn merge(&mut self, other: &Signature) -> Result<(), Error> {
        self.compatible(other)?;
        for (a, &b) in self.values.iter_mut().zip(&other.values) {
            *a = (*a).min(b);
        }
        Ok(())
    }

    /// The bytes of the signature (format 1):
    /// `"NDMH"`, `u16` format 1, `u16` spec version, `u32` num_perm, `u64`
    /// seed, `u8` shingling kind (0 custom, 1 words, 2 chars), `u8` its size,
    /// num_perm × `u32` values, `u32` CRC-32 — all little-endian.
    /// Length `26 + 4 · num_perm`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(MAGIC, FORMAT_VERSION);
        w.u32(self.values.len() as u32);
        w.u64(self.seed);
        let (kind, n) = self.shingling.code();
        w.u8(kind);
        w.u8(n);
        for &v in &self.values {
            w.u32(v);
        }
        w.finish()
    }

    /// Reads [`Signature::to_bytes`] output.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Corrupt`] for wrong magic, a bad checksum, truncation,
    /// inconsistent lengths or trailing bytes; [`crate::ErrorKind::Version`] for
    /// another format or spec version.
    pub fn from_bytes(bytes: &[u8]) -> Result<Signature, Error> {
        const WHAT: &str = "MinHash signature";
        let mut r = Reader::open(bytes, MAGIC, FORMAT_VERSION, WHAT)?;
        let n = r.u32()? as usize;
        if !(1..=MAX_PERM).contains(&n) {
            return Err(corrupt(WHAT, format!("numPerm {n} is out of range")));
        }
        let seed = r.u64()?;
        let (kind, size) = (r.u8()?, r.u8()?);
        let shingling = Shingling::from_code(kind, size)
            .ok_or_else(|| corrupt(WHAT, format!("unknown shingling ({kind}, {size})")))?;
        if r.remaining() != 4 * n {
            return Err(corrupt(
                WHAT,
                format!("{} value bytes for numPerm {n}", r.remaining()),
            ));
        }
        let values = (0..n).map(|_| r.u32()).collect::<Result<Vec<_>, _>>()?;
        r.end()?;
        Ok(Signature {
            seed,
            shingling,
            values,
        })
    }
}

/// Standard error of the MinHash Jaccard estimate at true resemblance `j`
/// with `num_perm` values: `sqrt(j (1 − j) / num_perm)`.
pub fn standard_error(j: f64, num_perm: usize) -> f64 {
    libm::sqrt((j * (1.0 - j)).max(0.0) / num_perm.max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::SplitMix64;
    use crate::shingle::ShingleSet;
    use crate::ErrorKind;

    fn hasher(k: u32) -> MinHasher {
        MinHasher::new(
            &MinHashConfig::default()
                .num_perm(k)
                .shingle(Shingling::Words(3)),
        )
        .unwrap()
    }

    /// Two sets with planted resemblance from a deterministic stream.
    fn sets(common: usize, only_a: usize, only_b: usize, salt: u64) -> (Vec<u64>, Vec<u64>) {
        let mut rng = SplitMix64::new(salt);
        let c: Vec<u64> = (0..common).map(|_| rng.next()).collect();
        let mut a = c.clone();
        let mut b = c;
        a.extend((0..only_a).map(|_| rng.next()));
        b.extend((0..only_b).map(|_| rng.next()));
        (a, b)
    }

    #[test]
    fn estimates_fall_within_four_standard_errors() {
        let h = hasher(256);
        let mut worst: f64 = 0.0;
        for (salt, (c, x, y)) in [
            (10, 90, 0),
            (50, 50, 50),
            (200, 100, 0),
            (30, 300, 300),
            (500, 10, 10),
            (1, 99, 0),
        ]
        .into_iter()
        .enumerate()
        {
            for rep in 0..20u64 {
                let (a, b) = sets(c, x, y, salt as u64 * 1000 + rep);
                let j = ShingleSet::from_hashes(a.clone())
                    .intersection_len(&ShingleSet::from_hashes(b.clone()))
                    as f64
                    / (c + x + y) as f64;
                let est = h.signature(&a).jaccard(&h.signature(&b)).unwrap();
                let se = standard_error(j, 256);
                let z = (est - j).abs() / se.max(1e-9);
                worst = worst.max(z);
                assert!(z < 4.0, "J {j} estimate {est} se {se}");
            }
        }
        assert!(worst > 0.1, "estimates suspiciously exact");
    }

    #[test]
    fn estimator_is_unbiased_on_average() {
        // Mean of 200 estimates of J = 1/3 is within 4 standard errors of the mean.
        let h = hasher(64);
        let mut sum = 0.0;
        for rep in 0..200 {
            let (a, b) = sets(100, 100, 100, 7_000 + rep);
            sum += h.signature(&a).jaccard(&h.signature(&b)).unwrap();
        }
        let mean = sum / 200.0;
        let se_mean = standard_error(1.0 / 3.0, 64) / libm::sqrt(200.0);
        assert!((mean - 1.0 / 3.0).abs() < 4.0 * se_mean, "mean {mean}");
    }

    #[test]
    fn identical_disjoint_empty_and_merge() {
        let h = hasher(128);
        let (a, b) = sets(0, 50, 50, 1);
        let (sa, sb) = (h.signature(&a), h.signature(&b));
        assert_eq!(sa.jaccard(&sa).unwrap(), 1.0);
        assert!(sa.jaccard(&sb).unwrap() < 0.1);
        assert_eq!(h.empty().jaccard(&h.empty()).unwrap(), 0.0);
        let mut u = sa.clone();
        u.merge(&sb).unwrap();
        let mut all = a.clone();
        all.extend(&b);
        assert_eq!(u, h.signature(&all));
    }

    #[test]
    fn incompatible_signatures_are_refused() {
        let s1 = hasher(128).signature(&[1, 2, 3]);
        let s2 = hasher(64).signature(&[1, 2, 3]);
        let s3 = MinHasher::new(
            &MinHashConfig::default()
                .seed(1)
                .shingle(Shingling::Words(3)),
        )
        .unwrap()
        .signature(&[1, 2, 3]);
        let s4 = MinHasher::new(&MinHashConfig::default().shingle(Shingling::Chars(5)))
            .unwrap()
            .signature(&[1, 2, 3]);
        for s in [&s2, &s3, &s4] {
            assert!(matches!(
                s1.jaccard(s).unwrap_err().kind(),
                ErrorKind::Incompatible { .. }
            ));
        }
        assert!(MinHasher::new(&MinHashConfig::default().num_perm(0)).is_err());
        assert!(MinHasher::new(&MinHashConfig::default().shingle(Shingling::Words(0))).is_err());
    }

    #[test]
    fn bytes_round_trip_and_corruption_is_refused() {
        let s = hasher(16).signature_of_text("the quick brown fox jumps over the lazy dog");
        let bytes = s.to_bytes();
        assert_eq!(bytes.len(), 26 + 4 * 16);
        assert_eq!(Signature::from_bytes(&bytes).unwrap(), s);
        // Every single-byte change and every truncation is refused.
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x40;
            assert!(Signature::from_bytes(&b).is_err(), "flip at {i}");
            assert!(
                Signature::from_bytes(&bytes[..i]).is_err(),
                "truncated at {i}"
            );
        }
        let mut v2 = bytes.clone();
        v2[4] = 2;
        let e = Signature::from_bytes(&v2).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::Version { found: 2, .. }),
            "{e}"
        );
    }
}
