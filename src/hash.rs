//! The project's hashes for shingles, specified in `SPEC.md` §3: version 1
//! here, version 2 in [`v2`], chosen per value by [`Spec`].
//!
//! Every value that is stored or compared (shingle hashes, and everything
//! derived from them) is computed by the functions here, on bytes, with
//! explicit 64-bit arithmetic: the result is identical on every platform
//! (little- or big-endian, 32- or 64-bit, native or `wasm32`). Nothing here
//! uses `core::hash::Hash`, `RandomState` or `usize`.
//!
//! * [`bytes_hash`]: keyed FNV-1a 64 (Fowler, Noll, Vo; IETF draft
//!   `draft-eastlake-fnv`) over the bytes, then MurmurHash3's 64-bit finaliser
//!   [`fmix64`] (Appleby) so that every output bit depends on every input bit
//!   (FNV alone leaves the low bits weak, which MinHash and SimHash would see).
//! * [`combine`]: the ordered combination of token hashes into a word-shingle
//!   hash, so that each token's bytes are hashed once, not k times.
//! * [`SplitMix64`]: the seeded generator that derives every other constant
//!   (MinHash coefficients) from a seed, inside the crate, so that no
//!   dependency or platform can change them.

use crate::error::Error;
use alloc::vec::Vec;
use core::hash::Hasher;

#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(crate) mod avx2;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(crate) mod avx512;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(crate) mod cpu;
#[cfg(all(test, feature = "std", target_arch = "x86_64"))]
mod kernel_tests;
pub mod v2;

/// The version of the text → shingle hash specification (`SPEC.md`) a value
/// is made under: how tokens, word shingles and character q-grams are
/// hashed. Normalisation, MinHash, band keys and SimHash are the same in
/// every version; values are comparable only under the same version (and
/// seed), and every persisted value records its version.
///
/// * [`Spec::V1`] (the default): keyed FNV-1a 64 + `fmix64` per token and
///   q-gram, word shingles by `combine` (k `fmix64`).
/// * [`Spec::V2`]: XXH3-64 per token and q-gram, word shingles by a rolling
///   polynomial and one `fmix64` ([`v2`]); about 1.5× faster from text to
///   word shingles.
///
/// Written as the number 1 or 2 (JSON, JS, Python, the CLI's `--spec`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Spec {
    /// Version 1 (`SPEC.md` §3): FNV-1a tokens, `combine` shingles.
    #[default]
    V1,
    /// Version 2 (`SPEC.md` §3a): XXH3-64 tokens, polynomial shingles.
    V2,
}

impl Spec {
    /// Every version this build reads and writes, oldest first.
    pub const ALL: [Spec; 2] = [Spec::V1, Spec::V2];

    /// Its number: 1 or 2.
    pub const fn number(self) -> u16 {
        match self {
            Spec::V1 => 1,
            Spec::V2 => 2,
        }
    }

    /// The version numbered `n`.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] (option `spec`) for any number but
    /// 1 or 2.
    pub fn from_number(n: u64) -> Result<Spec, Error> {
        match n {
            1 => Ok(Spec::V1),
            2 => Ok(Spec::V2),
            _ => Err(Error::option(
                "spec",
                alloc::format!("must be 1 or 2 (the shingle hash specification), got {n}"),
            )),
        }
    }

    /// The hash of a byte string (a normalised token, a q-gram's bytes, a
    /// phonetic code): version 1 [`bytes_hash`], version 2 [`v2::xxh3`].
    #[inline]
    pub fn bytes_hash(self, seed: u64, bytes: &[u8]) -> u64 {
        match self {
            Spec::V1 => bytes_hash(seed, bytes),
            Spec::V2 => v2::xxh3(seed, bytes),
        }
    }

    /// Word k-shingle hashes by position from token hashes (shape as
    /// [`crate::shingle::word_shingles`]): version 1 [`combine`] per
    /// window, version 2 [`v2::word_shingles`].
    pub fn word_shingles(self, tokens: &[u64], k: usize, seed: u64) -> Vec<u64> {
        self.collect_word_shingles(tokens, k, seed)
    }

    /// [`Spec::word_shingles`] into any collection, written in place (an
    /// `Arc<[u64]>` is not copied from a vector).
    pub(crate) fn collect_word_shingles<C: FromIterator<u64>>(
        self,
        tokens: &[u64],
        k: usize,
        seed: u64,
    ) -> C {
        match self {
            Spec::V1 => v1_word_shingle_values(tokens, k, seed).collect(),
            Spec::V2 => v2::collect_word_shingles(tokens, k, seed),
        }
    }

    /// Calls `f` with each of [`Spec::word_shingles`]' values, in order,
    /// without keeping them.
    pub(crate) fn for_each_word_shingle(
        self,
        tokens: &[u64],
        k: usize,
        seed: u64,
        f: impl FnMut(u64),
    ) {
        match self {
            Spec::V1 => v1_word_shingle_values(tokens, k, seed).for_each(f),
            Spec::V2 => v2::word_shingle_values(tokens, k, seed).for_each(f),
        }
    }
}

/// Version 1's word k-shingle hashes in order: [`combine`] of each window
/// of `k` tokens; for `0 < n < k` tokens, one value for all of them.
fn v1_word_shingle_values(tokens: &[u64], k: usize, seed: u64) -> impl Iterator<Item = u64> + '_ {
    let k = k.max(1);
    let short = (!tokens.is_empty() && tokens.len() < k).then(|| combine(seed, tokens));
    short
        .into_iter()
        .chain(tokens.windows(k).map(move |w| combine(seed, w)))
}

impl core::fmt::Display for Spec {
    /// `spec 1` or `spec 2`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "spec {}", self.number())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Spec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u16(self.number())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Spec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = u64::deserialize(d)?;
        Spec::from_number(n).map_err(serde::de::Error::custom)
    }
}

/// FNV-1a 64 offset basis (`0xcbf29ce484222325`).
pub const FNV_OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

/// The seed used when none is given. Any `u64` is a valid seed; values are
/// only comparable when made with the same seed.
pub const DEFAULT_SEED: u64 = 0;

/// MurmurHash3's 64-bit finaliser `fmix64`: a bijection on `u64` with full
/// avalanche.
///
/// `k ^= k >> 33; k *= 0xff51afd7ed558ccd; k ^= k >> 33;
/// k *= 0xc4ceb9fe1a85ec53; k ^= k >> 33` (wrapping multiplication).
#[inline]
pub const fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^= k >> 33;
    k
}

/// Keyed FNV-1a 64 of `bytes`: the standard FNV-1a 64 with the offset basis
/// replaced by `FNV_OFFSET_BASIS ^ seed` (so seed 0 gives plain FNV-1a 64).
///
/// Uses the `fnv` crate's hasher through `Hasher::write`, which hashes the
/// bytes exactly and appends nothing.
#[inline]
pub fn fnv1a64(seed: u64, bytes: &[u8]) -> u64 {
    let mut h = fnv::FnvHasher::with_key(FNV_OFFSET_BASIS ^ seed);
    h.write(bytes);
    h.finish()
}

/// The hash of a byte string: `fmix64(fnv1a64(seed, bytes))`.
///
/// Used for each normalised word token and for each character q-gram (the
/// q characters' UTF-8 bytes).
#[inline]
pub fn bytes_hash(seed: u64, bytes: &[u8]) -> u64 {
    fmix64(fnv1a64(seed, bytes))
}

/// Ordered combination of token hashes `t_1 … t_k` into one shingle hash:
/// `h_0 = seed`, `h_i = fmix64(h_(i-1) ^ t_i)`, result `h_k`.
///
/// Order matters (`combine(s, [x, y]) != combine(s, [y, x])` in general).
/// An empty slice gives `seed`.
#[inline]
pub fn combine(seed: u64, token_hashes: &[u64]) -> u64 {
    token_hashes.iter().fold(seed, |h, &t| fmix64(h ^ t))
}

/// SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): `state += 0x9e3779b97f4a7c15`, then the
/// finaliser with constants `0xbf58476d1ce4e5b9`, `0x94d049bb133111eb`.
///
/// Used to derive hash coefficients from a seed; the stream is part of
/// `SPEC.md` (MinHash §9), so it never changes.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting at `seed`.
    pub const fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64-bit value.
    #[allow(clippy::should_implement_trait)]
    pub const fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Published FNV-1a 64 test vectors (draft-eastlake-fnv, and the FNV page).
    #[test]
    fn fnv1a64_matches_published_vectors() {
        assert_eq!(fnv1a64(0, b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(0, b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(0, b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn fmix64_is_murmur3_finaliser() {
        assert_eq!(fmix64(0), 0);
        // fmix64 is a bijection: distinct inputs stay distinct.
        let xs: alloc::vec::Vec<u64> = (0..1000u64).map(fmix64).collect();
        let mut s = xs.clone();
        s.sort_unstable();
        s.dedup();
        assert_eq!(s.len(), xs.len());
    }

    #[test]
    fn seed_changes_hash_and_combine_is_ordered() {
        assert_ne!(bytes_hash(0, b"word"), bytes_hash(1, b"word"));
        let (x, y) = (bytes_hash(0, b"x"), bytes_hash(0, b"y"));
        assert_ne!(combine(0, &[x, y]), combine(0, &[y, x]));
        assert_eq!(combine(7, &[]), 7);
    }
}
