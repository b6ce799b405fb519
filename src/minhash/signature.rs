//! MinHash signatures (Broder 1997; Broder, Charikar, Frieze, Mitzenmacher
//! 2000) for estimating the Jaccard resemblance of shingle sets, in two
//! schemes ([`MinHashScheme`]).
//!
//! **Classic scheme.** A signature has `num_perm` values. Value `i` of a set
//! `S` of shingle hashes is `min_{x ∈ S} h_i(x)` with
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
//! Cost: `num_perm` multiply-add-shift-min steps per shingle.
//!
//! **One-permutation scheme** (the default): one hash per shingle into
//! `num_perm` bins, empty bins filled by optimal densification (Shrivastava
//! 2017); see [`super::one_permutation`]. Cost: one hash per shingle.
//!
//! **Estimator** (both schemes). `Ĵ = (number of i with sig_a[i] = sig_b[i])
//! / num_perm`, unbiased for the Jaccard resemblance. For the classic scheme
//! its standard error is `sqrt(J (1 − J) / num_perm)` (plus a collision term
//! below 2^-32); the one-permutation scheme's is at most about that (smaller
//! for sets much larger than `num_perm`: bins sample without replacement).
//! The property tests check estimates fall within 4 standard errors, and
//! compare the two schemes' bias and variance on small and large sets.
//!
//! **Cost.** See `BENCHMARKS.md`.

use super::one_permutation::{mask_words, Keys};
use crate::document::Document;
use crate::error::{check_range, Error};
use crate::hash::{Spec, SplitMix64};
use crate::index::snapshot::{corrupt, Reader, Writer};
use crate::shingle::{ShinglePiece, Shingling};
use alloc::format;
use alloc::vec::Vec;

/// The default number of values of a signature.
const DEFAULT_NUM_PERM: usize = 128;

/// Largest `num_perm` accepted.
pub const MAX_PERM: usize = 4096;
/// The value of every slot of the signature of an empty set (defined with
/// the one-permutation bins, whose empty bin it also marks).
pub use super::one_permutation::EMPTY_VALUE;

const MAGIC: &[u8; 4] = b"NDMH";
/// Format 1: classic signatures (unchanged since the first release).
/// Format 2: adds the scheme byte; one-permutation signatures.
pub(crate) const FORMAT_CLASSIC: u16 = 1;
pub(crate) const FORMAT_SCHEMES: u16 = 2;

/// How the values of a MinHash signature are made.
///
/// Signatures of different schemes are never compared (an
/// [`crate::ErrorKind::Incompatible`] error). Persisted as a byte: 0 classic,
/// 1 one-permutation. In JS and on the command line: `"classic"`, `"oph"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "alloc::string::String", into = "&'static str")
)]
pub enum MinHashScheme {
    /// `num_perm` independent multiply-shift hashes per shingle (Broder
    /// 1997): the textbook scheme, `num_perm` hashes per shingle.
    Classic,
    /// One-permutation hashing with optimal densification (Li, Owen, Zhang
    /// 2012; Shrivastava 2017): one hash per shingle. The default.
    #[default]
    OnePermutation,
}

impl TryFrom<alloc::string::String> for MinHashScheme {
    type Error = Error;

    /// As [`str::parse`]: `"classic"` or `"oph"`.
    fn try_from(s: alloc::string::String) -> Result<Self, Error> {
        s.parse()
    }
}

impl From<MinHashScheme> for &'static str {
    fn from(s: MinHashScheme) -> &'static str {
        s.name()
    }
}

impl MinHashScheme {
    /// The persisted byte.
    pub(crate) fn code(self) -> u8 {
        match self {
            MinHashScheme::Classic => 0,
            MinHashScheme::OnePermutation => 1,
        }
    }

    /// The scheme of a persisted byte.
    pub(crate) fn from_code(code: u8) -> Option<MinHashScheme> {
        match code {
            0 => Some(MinHashScheme::Classic),
            1 => Some(MinHashScheme::OnePermutation),
            _ => None,
        }
    }

    /// The name used in JS and on the command line: `"classic"` or `"oph"`.
    pub fn name(self) -> &'static str {
        match self {
            MinHashScheme::Classic => "classic",
            MinHashScheme::OnePermutation => "oph",
        }
    }
}

impl core::fmt::Display for MinHashScheme {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for MinHashScheme {
    type Err = Error;

    /// `"classic"` or `"oph"`.
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "classic" => Ok(MinHashScheme::Classic),
            "oph" => Ok(MinHashScheme::OnePermutation),
            _ => Err(Error::option(
                "scheme",
                format!("must be classic or oph, got {s:?}"),
            )),
        }
    }
}

/// How MinHash signatures are made: checked once by [`MinHashConfig::check`]
/// (which [`MinHasher::new`] calls).
///
/// Defaults: 128 values, seed 0, word 5-shingles, the one-permutation scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", default, deny_unknown_fields)
)]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct MinHashConfig {
    /// Values per signature, 1..=4096 (default 128).
    pub num_perm: u32,
    /// Seed of the shingle hashes and the permutations (default 0).
    pub seed: u64,
    /// Shingles of texts: `"word:K"`, `"char:Q"` or `"custom"` (default `"word:5"`).
    #[cfg_attr(feature = "wasm-bindings", tsify(type = "string"))]
    pub shingle: Shingling,
    /// How values are made: `"oph"` (one hash per shingle, the default) or
    /// `"classic"` (`num_perm` hashes per shingle).
    #[cfg_attr(feature = "wasm-bindings", tsify(type = "\"oph\" | \"classic\""))]
    pub scheme: MinHashScheme,
    /// The version of the shingle hash specification (SPEC.md §3): 1 (the
    /// default) or 2 (XXH3-64 tokens and q-grams, polynomial word shingles,
    /// about 1.5× faster). Signatures of different versions never compare.
    #[cfg_attr(feature = "wasm-bindings", tsify(type = "1 | 2"))]
    pub spec: Spec,
}

impl Default for MinHashConfig {
    fn default() -> Self {
        MinHashConfig {
            num_perm: DEFAULT_NUM_PERM as u32,
            seed: crate::hash::DEFAULT_SEED,
            shingle: Shingling::Words(5),
            scheme: MinHashScheme::default(),
            spec: Spec::default(),
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
    /// Sets the scheme.
    scheme: MinHashScheme,
    /// Sets the spec version.
    spec: Spec,
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

/// Makes MinHash signatures: holds the scheme's hash coefficients.
#[derive(Clone, Debug)]
pub struct MinHasher {
    spec: Spec,
    seed: u64,
    shingling: Shingling,
    scheme: MinHashScheme,
    num_perm: usize,
    /// Classic scheme: the `a_i` and `b_i` (empty for one-permutation).
    a: Vec<u64>,
    b: Vec<u64>,
    oph: Keys,
}

impl MinHasher {
    /// A hasher of `config.num_perm` values in `config.scheme`, with
    /// `config.seed` for both the shingle hashes and the scheme's hashes,
    /// and `config.shingle` for documents given to
    /// [`MinHasher::signature_of`].
    ///
    /// # Errors
    /// As [`MinHashConfig::check`].
    pub fn new(config: &MinHashConfig) -> Result<Self, Error> {
        config.check()?;
        let (num_perm, seed, shingling) = (config.num_perm as usize, config.seed, config.shingle);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        if config.scheme == MinHashScheme::Classic {
            let mut rng = SplitMix64::new(seed ^ 0x6d69_6e68_6173_6821);
            a.reserve_exact(num_perm);
            b.reserve_exact(num_perm);
            for _ in 0..num_perm {
                a.push(rng.next() | 1);
                b.push(rng.next());
            }
        }
        Ok(MinHasher {
            spec: config.spec,
            seed,
            shingling,
            scheme: config.scheme,
            num_perm,
            a,
            b,
            oph: Keys::new(seed),
        })
    }

    /// Number of values per signature.
    pub fn num_perm(&self) -> usize {
        self.num_perm
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The spec version of the shingle hashes.
    pub fn spec(&self) -> Spec {
        self.spec
    }

    /// The shingling used for texts.
    pub fn shingling(&self) -> Shingling {
        self.shingling
    }

    /// The scheme.
    pub fn scheme(&self) -> MinHashScheme {
        self.scheme
    }

    /// Spec version, seed, shingling and scheme of the signatures it makes.
    pub fn kind(&self) -> SignatureKind {
        SignatureKind {
            spec: self.spec,
            seed: self.seed,
            shingling: self.shingling,
            scheme: self.scheme,
        }
    }

    /// The signature of an empty set (every value [`EMPTY_VALUE`]).
    pub fn empty(&self) -> Signature {
        let extra = match self.scheme {
            MinHashScheme::Classic => 0,
            MinHashScheme::OnePermutation => mask_words(self.num_perm),
        };
        let mut data = alloc::vec![EMPTY_VALUE; self.num_perm + extra];
        data[self.num_perm..].fill(0);
        Signature {
            spec: self.spec,
            seed: self.seed,
            shingling: self.shingling,
            scheme: self.scheme,
            num_perm: self.num_perm as u32,
            data,
        }
    }

    /// Adds shingle hashes to `sig` (the signature of the union). Repeats
    /// do not matter. Time: classic `num_perm` steps per shingle;
    /// one-permutation one step per shingle plus the densification.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] when `sig` was made by another hasher.
    pub fn update(&self, sig: &mut Signature, shingles: &[u64]) -> Result<(), Error> {
        self.check_compatible(sig)?;
        match self.scheme {
            MinHashScheme::Classic => {
                let vals = &mut sig.data[..];
                let (a, b) = (&self.a[..vals.len()], &self.b[..vals.len()]);
                // Permutation-major: each value is a min-reduction over the
                // shingles, kept in 64-bit lanes (the high half of a·x + b) so
                // that the loop vectorises without an unsigned 32-bit min.
                for ((v, &ai), &bi) in vals.iter_mut().zip(a).zip(b) {
                    let m = shingles
                        .iter()
                        .map(|&x| ai.wrapping_mul(x).wrapping_add(bi) >> 32)
                        .fold(u64::from(*v), u64::min);
                    *v = m as u32;
                }
            }
            MinHashScheme::OnePermutation => self.fold_bins(sig, |bins| {
                match <&mut [u32; DEFAULT_NUM_PERM]>::try_from(&mut *bins) {
                    Ok(fixed) => self.oph.add(fixed, shingles),
                    Err(_) => self.oph.add(bins, shingles),
                }
                !shingles.is_empty()
            }),
        }
        Ok(())
    }

    /// One-permutation: `sig`'s raw bins given to `fill`, which folds
    /// shingles into them and says whether it met any; they are densified
    /// again only then (nothing added leaves `sig` as it was).
    fn fold_bins(&self, sig: &mut Signature, fill: impl FnOnce(&mut [u32]) -> bool) {
        let mut bins = sig.bins();
        if fill(&mut bins) {
            sig.set_bins(&bins);
        }
    }

    /// The signature of a set of shingle hashes (repeats do not matter).
    pub fn signature(&self, shingles: &[u64]) -> Signature {
        let mut sig = self.empty();
        // Cannot fail: the signature was made by this hasher.
        let _ = self.update(&mut sig, shingles);
        sig
    }

    /// The signature of a document's shingles under this hasher's shingling.
    /// The classic scheme reads the document's distinct shingles (memoised
    /// in the document); the one-permutation scheme reads its shingle
    /// sequence, since repeats do not change a minimum. A document without
    /// words gives the empty signature; [`Shingling::Custom`] gives the empty
    /// signature too. Time: classic `num_perm` steps per distinct shingle,
    /// one-permutation one step per shingle; memory `4 · num_perm` bytes
    /// besides the document's shingles.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] when the document's seed is not the
    /// hasher's.
    pub fn signature_of(&self, doc: &Document) -> Result<Signature, Error> {
        let mut sig = self.empty();
        self.update_document(&mut sig, doc)?;
        Ok(sig)
    }

    /// Adds a document's shingles (under this hasher's shingling) to `sig`:
    /// [`MinHasher::update`] with the document's distinct shingles for the
    /// classic scheme, its shingle sequence for the one-permutation scheme.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] when `sig` was made by another
    /// hasher or the document's seed or spec version is not the hasher's.
    pub fn update_document(&self, sig: &mut Signature, doc: &Document) -> Result<(), Error> {
        if doc.seed() != self.seed || doc.spec() != self.spec {
            return Err(Error::incompatible(
                "document",
                format!("seed {}, {}", self.seed, self.spec),
                format!("seed {}, {}", doc.seed(), doc.spec()),
            ));
        }
        match self.scheme {
            MinHashScheme::Classic => self.update(sig, doc.shingle_set(self.shingling).as_slice()),
            MinHashScheme::OnePermutation => {
                // The shingles streamed into the bins as they are hashed.
                self.check_compatible(sig)?;
                self.fold_bins(sig, |bins| {
                    let mut any = false;
                    // The default 128 bins as an array: the bin of a hash is
                    // then a shift, with no bounds check (the same bin).
                    match <&mut [u32; DEFAULT_NUM_PERM]>::try_from(&mut *bins) {
                        // An ASCII run's q-grams folded many at a time.
                        Ok(fixed) => doc.for_each_shingle_piece(self.shingling, |p| {
                            match (p, self.shingling) {
                                (ShinglePiece::Ascii(b), Shingling::Chars(q)) => {
                                    self.oph.fold_windows(fixed, self.seed, b, q as usize)
                                }
                                (ShinglePiece::Tokens(t), Shingling::Words(k)) => {
                                    self.oph.fold_word_windows(fixed, self.seed, t, k as usize)
                                }
                                (ShinglePiece::Ascii(_) | ShinglePiece::Tokens(_), _) => {}
                                (ShinglePiece::Hash(x), _) => self.oph.fold(fixed, x),
                            }
                            any = true;
                        }),
                        Err(_) => doc.for_each_shingle(self.shingling, |x| {
                            self.oph.fold(bins, x);
                            any = true;
                        }),
                    }
                    any
                });
                Ok(())
            }
        }
    }

    /// The signature of a text: [`MinHasher::signature_of`] a new
    /// [`Document`] with the hasher's seed and spec version.
    pub fn signature_of_text(&self, text: &str) -> Signature {
        let doc = Document::for_shingling(
            text,
            self.seed,
            Default::default(),
            self.spec,
            self.shingling,
        );
        // Cannot fail: the document has the hasher's seed.
        self.signature_of(&doc).unwrap_or_else(|_| self.empty())
    }

    fn check_compatible(&self, sig: &Signature) -> Result<(), Error> {
        if sig.num_perm() != self.num_perm || sig.kind() != self.kind() {
            return Err(Error::incompatible(
                "signature",
                format!("num_perm {}, {}", self.num_perm, self.kind()),
                sig.describe(),
            ));
        }
        Ok(())
    }
}

/// What besides `num_perm` makes two signatures comparable: the spec
/// version, the seed, the shingling and the scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SignatureKind {
    /// The spec version of the shingle hashes (persisted in the header).
    pub spec: Spec,
    /// Seed of the shingle hashes and of the scheme's hashes.
    pub seed: u64,
    /// The shingling of texts.
    pub shingling: Shingling,
    /// The scheme.
    pub scheme: MinHashScheme,
}

impl core::fmt::Display for SignatureKind {
    /// `seed S, SHINGLING, scheme NAME`, then `, spec N` for a version
    /// other than 1.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "seed {}, {}, scheme {}",
            self.seed, self.shingling, self.scheme
        )?;
        if self.spec != Spec::V1 {
            write!(f, ", {}", self.spec)?;
        }
        Ok(())
    }
}

impl SignatureKind {
    /// The persisted format for signatures of this kind: 1 (no scheme byte)
    /// for classic ones, 2 for the others.
    pub(crate) fn format(&self) -> u16 {
        match self.scheme {
            MinHashScheme::Classic => FORMAT_CLASSIC,
            _ => FORMAT_SCHEMES,
        }
    }

    /// Writes `u64` seed, `u8` shingling kind, `u8` size and, in format 2,
    /// `u8` scheme (SPEC.md §8).
    pub(crate) fn write(&self, w: &mut Writer) {
        w.u64(self.seed);
        let (code, n) = self.shingling.code();
        w.u8(code);
        w.u8(n);
        if self.format() == FORMAT_SCHEMES {
            w.u8(self.scheme.code());
        }
    }

    /// Reads what [`SignatureKind::write`] wrote in `format` (the spec
    /// version from the value's header).
    pub(crate) fn read(
        r: &mut Reader<'_>,
        format: u16,
        what: &'static str,
    ) -> Result<SignatureKind, Error> {
        let seed = r.u64()?;
        let (code, n) = (r.u8()?, r.u8()?);
        let shingling = Shingling::from_code(code, n)
            .ok_or_else(|| corrupt(what, format!("unknown shingling ({code}, {n})")))?;
        let scheme = if format == FORMAT_CLASSIC {
            MinHashScheme::Classic
        } else {
            let code = r.u8()?;
            MinHashScheme::from_code(code)
                .ok_or_else(|| corrupt(what, format!("unknown scheme {code}")))?
        };
        Ok(SignatureKind {
            spec: r.spec(),
            seed,
            shingling,
            scheme,
        })
    }
}

/// A MinHash signature: `num_perm` 32-bit values, with the seed, shingling
/// and scheme that made it. Memory: `4 · num_perm` bytes plus 48 (plus
/// `⌈num_perm / 32⌉ · 4` bytes for the one-permutation scheme's mask of
/// filled bins, which makes [`Signature::merge`] exact).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    spec: Spec,
    seed: u64,
    shingling: Shingling,
    scheme: MinHashScheme,
    num_perm: u32,
    /// The values; for the one-permutation scheme followed by the mask of
    /// bins that held a shingle of their own (bit `i % 32` of word `i / 32`).
    data: Vec<u32>,
}

impl Signature {
    /// A signature from its parts; `None` when `values` is empty or longer
    /// than [`MAX_PERM`], or `shingling` is out of range.
    ///
    /// For [`MinHashScheme::Classic`], `values` are the values. For
    /// [`MinHashScheme::OnePermutation`] they are the bins before
    /// densification, as [`Signature::bins`] returns them ([`EMPTY_VALUE`]
    /// for an empty bin); the signature densifies them.
    pub fn from_parts(kind: SignatureKind, values: Vec<u32>) -> Option<Signature> {
        let SignatureKind {
            spec,
            seed,
            shingling,
            scheme,
        } = kind;
        if values.is_empty() || values.len() > MAX_PERM || shingling.check().is_err() {
            return None;
        }
        let mut sig = Signature {
            spec,
            seed,
            shingling,
            scheme,
            num_perm: values.len() as u32,
            data: values,
        };
        if scheme == MinHashScheme::OnePermutation {
            let bins = core::mem::take(&mut sig.data);
            sig.data = alloc::vec![0; bins.len() + mask_words(bins.len())];
            sig.set_bins(&bins);
        }
        Some(sig)
    }

    /// Its words: the values, then for the one-permutation scheme the mask
    /// of filled bins (what [`Signature::from_data`] reads back).
    pub(crate) fn data(&self) -> &[u32] {
        &self.data
    }

    /// A signature of `kind` from [`Signature::data`]'s words (`num_perm`
    /// values, and the mask for the one-permutation scheme); `None` when
    /// the length does not fit.
    pub(crate) fn from_data(kind: SignatureKind, num_perm: usize, data: Vec<u32>) -> Option<Self> {
        let want = match kind.scheme {
            MinHashScheme::Classic => num_perm,
            MinHashScheme::OnePermutation => num_perm + mask_words(num_perm),
        };
        (data.len() == want && (1..=MAX_PERM).contains(&num_perm)).then_some(Signature {
            spec: kind.spec,
            seed: kind.seed,
            shingling: kind.shingling,
            scheme: kind.scheme,
            num_perm: num_perm as u32,
            data,
        })
    }

    /// The values, `num_perm` of them (after densification for the
    /// one-permutation scheme): what [`Signature::jaccard`] and the LSH
    /// bands compare.
    pub fn values(&self) -> &[u32] {
        &self.data[..self.num_perm as usize]
    }

    /// The bins before densification: for the one-permutation scheme the
    /// values of the bins that held a shingle and [`EMPTY_VALUE`] for the
    /// others; for the classic scheme the values. This is what is persisted.
    pub fn bins(&self) -> Vec<u32> {
        let k = self.num_perm as usize;
        match self.scheme {
            MinHashScheme::Classic => self.data.clone(),
            MinHashScheme::OnePermutation => {
                let (values, mask) = self.data.split_at(k);
                values
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| {
                        if mask[i / 32] >> (i % 32) & 1 == 1 {
                            v
                        } else {
                            EMPTY_VALUE
                        }
                    })
                    .collect()
            }
        }
    }

    /// Replaces a one-permutation signature's bins (`num_perm` of them) and
    /// densifies them.
    fn set_bins(&mut self, bins: &[u32]) {
        let (values, mask) = self.data.split_at_mut(self.num_perm as usize);
        Keys::new(self.seed).densify(bins, values, mask);
    }

    /// Number of values.
    pub fn num_perm(&self) -> usize {
        self.num_perm as usize
    }

    /// The seed it was made with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The shingling it was made with.
    pub fn shingling(&self) -> Shingling {
        self.shingling
    }

    /// The scheme it was made with.
    pub fn scheme(&self) -> MinHashScheme {
        self.scheme
    }

    /// The spec version of its shingle hashes.
    pub fn spec(&self) -> Spec {
        self.spec
    }

    /// Its spec version, seed, shingling and scheme.
    pub fn kind(&self) -> SignatureKind {
        SignatureKind {
            spec: self.spec,
            seed: self.seed,
            shingling: self.shingling,
            scheme: self.scheme,
        }
    }

    /// `true` for the signature of an empty set.
    pub fn is_empty(&self) -> bool {
        self.values().iter().all(|&v| v == EMPTY_VALUE)
    }

    /// Estimated Jaccard resemblance with `other`, in [0, 1]: the share of
    /// equal values. 0 when either set is empty.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] when the signatures differ in length,
    /// seed, shingling or scheme.
    pub fn jaccard(&self, other: &Signature) -> Result<f64, Error> {
        self.compatible(other)?;
        Ok(estimate(self.values(), other.values()))
    }

    /// `num_perm`, seed, shingling and scheme, as a phrase for messages.
    pub(crate) fn describe(&self) -> alloc::string::String {
        format!("num_perm {}, {}", self.num_perm, self.kind())
    }

    pub(crate) fn compatible(&self, other: &Signature) -> Result<(), Error> {
        if self.num_perm != other.num_perm || self.kind() != other.kind() {
            return Err(Error::incompatible(
                "signature",
                self.describe(),
                other.describe(),
            ));
        }
        Ok(())
    }

    /// Merges `other` into `self`: exactly the signature of the union of the
    /// sets (for the one-permutation scheme, the union of the bins,
    /// densified again).
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] as for [`Signature::jaccard`].
    pub fn merge(&mut self, other: &Signature) -> Result<(), Error> {
        self.compatible(other)?;
        match self.scheme {
            MinHashScheme::Classic => {
                for (a, &b) in self.data.iter_mut().zip(&other.data) {
                    *a = (*a).min(b);
                }
            }
            MinHashScheme::OnePermutation => {
                let mut bins = self.bins();
                for (a, b) in bins.iter_mut().zip(other.bins()) {
                    *a = (*a).min(b);
                }
                self.set_bins(&bins);
            }
        }
        Ok(())
    }

    /// The bytes of the signature. A classic signature is written in format
    /// 1: `"NDMH"`, `u16` format 1, `u16` spec version, `u32` num_perm, `u64`
    /// seed, `u8` shingling kind (0 custom, 1 words, 2 chars, 16 + n
    /// phonetic), `u8` its size, num_perm × `u32` values, `u32` CRC-32 — all
    /// little-endian; length `26 + 4 · num_perm`. Any other scheme is written
    /// in format 2: the same with a `u8` scheme (0 classic, 1
    /// one-permutation) after the shingling size, and the bins before
    /// densification ([`Signature::bins`]) as the values; length
    /// `27 + 4 · num_perm`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let kind = self.kind();
        let mut w = Writer::with_spec(MAGIC, kind.format(), kind.spec);
        w.u32(self.num_perm);
        kind.write(&mut w);
        for v in self.bins() {
            w.u32(v);
        }
        w.finish()
    }

    /// Reads [`Signature::to_bytes`] output (formats 1 and 2).
    ///
    /// # Errors
    /// [`crate::ErrorKind::Corrupt`] for wrong magic, a bad checksum, truncation,
    /// an unknown scheme, inconsistent lengths or trailing bytes;
    /// [`crate::ErrorKind::Version`] for another format or spec version.
    pub fn from_bytes(bytes: &[u8]) -> Result<Signature, Error> {
        const WHAT: &str = "MinHash signature";
        let (mut r, format) = Reader::open_specs(
            bytes,
            MAGIC,
            FORMAT_CLASSIC..=FORMAT_SCHEMES,
            WHAT,
            Spec::V2,
        )?;
        let n = r.u32()? as usize;
        if !(1..=MAX_PERM).contains(&n) {
            return Err(corrupt(WHAT, format!("numPerm {n} is out of range")));
        }
        let kind = SignatureKind::read(&mut r, format, WHAT)?;
        if r.remaining() != 4 * n {
            return Err(corrupt(
                WHAT,
                format!("{} value bytes for numPerm {n}", r.remaining()),
            ));
        }
        let values = (0..n).map(|_| r.u32()).collect::<Result<Vec<_>, _>>()?;
        r.end()?;
        Signature::from_parts(kind, values)
            .ok_or_else(|| corrupt(WHAT, "the signature is invalid".into()))
    }
}

/// The Jaccard estimate of two signatures' values (as many of each): the
/// share of equal values, 0 when either is the signature of an empty set
/// (every value [`EMPTY_VALUE`]).
pub(crate) fn estimate(a: &[u32], b: &[u32]) -> f64 {
    let empty = |v: &[u32]| v.iter().all(|&x| x == EMPTY_VALUE);
    if a.is_empty() || empty(a) || empty(b) {
        return 0.0;
    }
    let eq = a.iter().zip(b).filter(|(x, y)| x == y).count();
    eq as f64 / a.len() as f64
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
    use alloc::string::ToString;

    const SCHEMES: [MinHashScheme; 2] = [MinHashScheme::Classic, MinHashScheme::OnePermutation];

    fn hasher_in(k: u32, scheme: MinHashScheme) -> MinHasher {
        MinHasher::new(
            &MinHashConfig::default()
                .num_perm(k)
                .shingle(Shingling::Words(3))
                .scheme(scheme),
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
        for scheme in SCHEMES {
            let h = hasher_in(256, scheme);
            let mut worst: f64 = 0.0;
            for (salt, (c, x, y)) in [
                (10, 90, 0),
                (50, 50, 50),
                (200, 100, 0),
                (30, 300, 300),
                (500, 10, 10),
                (1, 99, 0),
                (3, 3, 3),
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
                    assert!(z < 4.0, "{scheme}: J {j} estimate {est} se {se}");
                }
            }
            assert!(worst > 0.1, "{scheme}: estimates suspiciously exact");
        }
    }

    /// Mean and variance of `reps` estimates of planted pairs.
    fn moments(
        h: &MinHasher,
        (c, x, y): (usize, usize, usize),
        reps: u64,
        salt: u64,
    ) -> (f64, f64) {
        let ests: Vec<f64> = (0..reps)
            .map(|rep| {
                let (a, b) = sets(c, x, y, salt + rep);
                h.signature(&a).jaccard(&h.signature(&b)).unwrap()
            })
            .collect();
        let mean = ests.iter().sum::<f64>() / reps as f64;
        let var = ests.iter().map(|e| (e - mean) * (e - mean)).sum::<f64>() / (reps - 1) as f64;
        (mean, var)
    }

    /// Both schemes are unbiased. The one-permutation scheme's variance is
    /// within the classic one's once a set has about as many shingles as
    /// bins, and at most about twice it on very short sets (a few shingles
    /// in 64 bins: densified bins copy a few values, and two shingles
    /// sharing a bin hide one another), as measured in EVALUATION.md. Each
    /// case takes 600 pairs; the variance of 600 estimates is itself known
    /// to about ±6 %, hence the margins.
    #[test]
    fn one_permutation_is_unbiased_with_variance_near_the_classic_scheme() {
        const K: u32 = 64;
        const REPS: u64 = 600;
        let (classic, oph) = (
            hasher_in(K, MinHashScheme::Classic),
            hasher_in(K, MinHashScheme::OnePermutation),
        );
        for (i, (c, x, y), max_ratio) in [
            ((2, 2, 2), 2.2),
            ((5, 5, 0), 2.2),
            ((8, 4, 4), 2.0),
            ((20, 10, 10), 1.6),
            ((40, 20, 0), 1.3),
            ((50, 100, 100), 1.0),
            ((400, 100, 100), 1.0),
            ((900, 50, 50), 1.05),
        ]
        .into_iter()
        .enumerate()
        .map(|(i, (s, r))| (i, s, r))
        {
            let j = c as f64 / (c + x + y) as f64;
            let salt = 90_000 + i as u64 * 10_000;
            let (mc, vc) = moments(&classic, (c, x, y), REPS, salt);
            let (mo, vo) = moments(&oph, (c, x, y), REPS, salt);
            let theory = j * (1.0 - j) / K as f64;
            for (name, m, v) in [("classic", mc, vc), ("oph", mo, vo)] {
                let se_mean = libm::sqrt(v.max(theory) / REPS as f64);
                assert!(
                    (m - j).abs() < 4.0 * se_mean,
                    "{name} biased at (c {c}, x {x}, y {y}): mean {m}, J {j}"
                );
            }
            // The classic scheme matches its theory, J(1 − J)/k.
            assert!(
                (vc / theory - 1.0).abs() < 0.25,
                "classic variance {vc} vs {theory}"
            );
            assert!(
                vo <= max_ratio * 1.12 * theory,
                "oph variance {vo} vs classic {vc} (theory {theory}) at (c {c}, x {x}, y {y})"
            );
        }
    }

    #[test]
    fn identical_disjoint_empty_and_merge() {
        for scheme in SCHEMES {
            let h = hasher_in(128, scheme);
            let (a, b) = sets(0, 50, 50, 1);
            let (sa, sb) = (h.signature(&a), h.signature(&b));
            assert_eq!(sa.jaccard(&sa).unwrap(), 1.0);
            assert!(sa.jaccard(&sb).unwrap() < 0.1);
            assert_eq!(h.empty().jaccard(&h.empty()).unwrap(), 0.0);
            assert!(h.empty().is_empty() && !sa.is_empty());
            let mut u = sa.clone();
            u.merge(&sb).unwrap();
            let mut all = a.clone();
            all.extend(&b);
            assert_eq!(u, h.signature(&all), "{scheme}");
            // Updating in pieces is the signature of the whole.
            let mut pieces = h.empty();
            for part in all.chunks(7) {
                h.update(&mut pieces, part).unwrap();
            }
            assert_eq!(pieces, u, "{scheme}");
            // Merging with the empty signature changes nothing.
            let mut same = sa.clone();
            same.merge(&h.empty()).unwrap();
            assert_eq!(same, sa);
        }
    }

    #[test]
    fn one_permutation_signature_of_a_document_reads_its_shingle_sequence() {
        let text = "the cat sat on the mat and the cat sat on the hat";
        let oph = hasher_in(32, MinHashScheme::OnePermutation);
        let doc = Document::new(text, 0);
        let from_doc = oph.signature_of(&doc).unwrap();
        let set = doc.shingle_set(Shingling::Words(3));
        assert_eq!(from_doc, oph.signature(set.as_slice()));
        assert_eq!(from_doc, oph.signature_of_text(text));
        assert!(from_doc.values().iter().all(|&v| v != EMPTY_VALUE));
    }

    #[test]
    fn incompatible_signatures_are_refused() {
        let h = |c: MinHashConfig| MinHasher::new(&c).unwrap().signature(&[1, 2, 3]);
        let base = MinHashConfig::default().shingle(Shingling::Words(3));
        let s1 = h(base);
        let others = [
            h(base.num_perm(64)),
            h(base.seed(1)),
            h(base.shingle(Shingling::Chars(5))),
            h(base.scheme(MinHashScheme::Classic)),
        ];
        for s in &others {
            assert!(matches!(
                s1.jaccard(s).unwrap_err().kind(),
                ErrorKind::Incompatible { .. }
            ));
        }
        let e = s1.jaccard(&others[3]).unwrap_err();
        assert!(
            e.to_string().contains("scheme oph") && e.to_string().contains("scheme classic"),
            "{e}"
        );
        assert!(MinHasher::new(&MinHashConfig::default().num_perm(0)).is_err());
        assert!(MinHasher::new(&MinHashConfig::default().shingle(Shingling::Words(0))).is_err());
        assert_eq!(
            "oph".parse::<MinHashScheme>().unwrap(),
            MinHashScheme::OnePermutation
        );
        assert_eq!(
            "classic".parse::<MinHashScheme>().unwrap(),
            MinHashScheme::Classic
        );
        assert!("minhash".parse::<MinHashScheme>().is_err());
    }

    #[test]
    fn bytes_round_trip_and_corruption_is_refused() {
        for (scheme, header) in [
            (MinHashScheme::Classic, 26),
            (MinHashScheme::OnePermutation, 27),
        ] {
            // Two words: three 3-shingles at most, so most bins are densified.
            let s = hasher_in(16, scheme).signature_of_text("the quick brown fox jumps");
            let bytes = s.to_bytes();
            assert_eq!(bytes.len(), header + 4 * 16);
            assert_eq!(bytes[4], if header == 26 { 1 } else { 2 }, "format");
            assert_eq!(Signature::from_bytes(&bytes).unwrap(), s);
            // Every single-byte change and every truncation is refused.
            for i in 0..bytes.len() {
                let mut b = bytes.clone();
                b[i] ^= 0x40;
                crate::testing::assert_damaged(
                    Signature::from_bytes(&b),
                    format_args!("flip at {i}"),
                );
                crate::testing::assert_damaged(
                    Signature::from_bytes(&bytes[..i]),
                    format_args!("truncated at {i}"),
                );
            }
            let mut v3 = bytes.clone();
            v3[4] = 3;
            let e = Signature::from_bytes(&v3).unwrap_err();
            assert!(
                matches!(e.kind(), ErrorKind::Version { found: 3, .. }),
                "{e}"
            );
        }
    }

    #[test]
    fn one_permutation_bytes_hold_the_bins_before_densification() {
        let h = hasher_in(32, MinHashScheme::OnePermutation);
        let s = h.signature(&[5, 6, 7]);
        let bins = s.bins();
        assert!(bins.iter().filter(|&&b| b != EMPTY_VALUE).count() <= 3);
        assert!(s.values().iter().all(|&v| v != EMPTY_VALUE));
        let back = Signature::from_parts(h.kind(), bins).unwrap();
        assert_eq!(back, s);
        // An unknown scheme byte is refused with a clear message.
        let mut bytes = s.to_bytes();
        bytes[22] = 9;
        let n = bytes.len() - 4;
        let crc = crc32fast::hash(&bytes[..n]).to_le_bytes();
        bytes[n..].copy_from_slice(&crc);
        let e = Signature::from_bytes(&bytes).unwrap_err();
        assert!(e.to_string().contains("unknown scheme 9"), "{e}");
    }
}
