//! The project's one hash for shingles, specified in `SPEC.md` §3.
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

use core::hash::Hasher;

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
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64-bit value.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
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
