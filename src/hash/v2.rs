//! Spec version 2's text → shingle hashes (`SPEC.md` §3a),
//! chosen by measurement (`benches/spec_v2_candidates.rs`, BENCHMARKS.md
//! "Toward the machine's limit"): 1.5× version 1's throughput from text to
//! word 5-shingles, with no collision on the benchmark's megabyte.
//!
//! * Byte strings (word tokens, character q-grams, phonetic codes) are
//!   hashed by **XXH3-64 with a seed** (Yann Collet, the xxHash
//!   specification v0.8, `doc/xxhash_spec.md` of the xxHash repository; the
//!   `xxhash-rust` crate): it reads up to 16 bytes with two loads, where
//!   FNV-1a multiplies once per byte in sequence.
//! * A word k-shingle is the **Rabin–Karp polynomial** of its k token hashes,
//!   `H = Σ_m t_m · P^(k−1−m)` (mod 2^64), rolled from one position to the
//!   next in two multiplications, and finalised once: `fmix64(H ^ seed)`
//!   (Karp & Rabin 1987). Version 1 applied `fmix64` k times in sequence.
//!   The token hashes are uniform 64-bit values and `P` is odd, so two
//!   different windows collide with probability 2^-64, as with version 1.

use super::fmix64;
use alloc::vec::Vec;

/// The polynomial's base `P`: odd, its bits spread (2^64 / φ, as in
/// SplitMix64).
pub const POLY_BASE: u64 = 0x9e37_79b9_7f4a_7c15;

/// XXH3-64 of `bytes` with `seed` (xxHash specification v0.8). Seed 0 gives
/// the plain XXH3-64: `xxh3(0, b"") = 0x2d06800538d394c2`.
#[inline]
pub fn xxh3(seed: u64, bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64_with_seed(bytes, seed)
}

/// The word k-shingle hash of one window of token hashes:
/// `fmix64(seed ^ Σ_m t_m · P^(k−1−m))`, `k = window.len()`.
pub fn window(seed: u64, tokens: &[u64]) -> u64 {
    fmix64(seed ^ polynomial(tokens))
}

fn polynomial(tokens: &[u64]) -> u64 {
    tokens
        .iter()
        .fold(0u64, |h, &t| h.wrapping_mul(POLY_BASE).wrapping_add(t))
}

/// Word k-shingle hashes by position (shape as [`crate::shingle::word_shingles`]):
/// [`window`] of tokens `i .. i + k`, rolled; for `n < k` tokens, one value
/// for all of them. `k = 0` is treated as 1.
pub fn word_shingles(tokens: &[u64], k: usize, seed: u64) -> Vec<u64> {
    let k = k.max(1);
    if tokens.is_empty() {
        return Vec::new();
    }
    if tokens.len() <= k {
        return alloc::vec![window(seed, tokens)];
    }
    // P^(k−1): what the token leaving the window weighs.
    let top = (1..k).fold(1u64, |x, _| x.wrapping_mul(POLY_BASE));
    let mut h = polynomial(&tokens[..k]);
    let mut out = Vec::with_capacity(tokens.len() - k + 1);
    out.push(fmix64(seed ^ h));
    for (&old, &new) in tokens.iter().zip(&tokens[k..]) {
        h = h
            .wrapping_sub(old.wrapping_mul(top))
            .wrapping_mul(POLY_BASE)
            .wrapping_add(new);
        out.push(fmix64(seed ^ h));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // XXH3-64 values of the reference C implementation (xxHash 0.8, through
    // the `xxhash` Python package 4.1.0), one for each of the algorithm's
    // length classes (0, 1–3, 4–8, 9–16, 17–128, 129–240, > 240 bytes).
    // The empty string's is the specification's published value.
    #[test]
    fn xxh3_matches_the_reference_implementation() {
        let y200 = [b'y'; 200];
        let long: Vec<u8> = (0..512u32).map(|i| (i % 256) as u8).collect();
        let cases: [(&[u8], u64, u64); 9] = [
            (b"", 0, 0x2d06_8005_38d3_94c2),
            (b"a", 0, 0xe6c6_32b6_1e96_4e1f),
            (b"abc", 7, 0x48ff_56f5_69e3_9912),
            (b"foobar", 0, 0xd78f_da63_144c_5c84),
            (b"neardup!", 1, 0x3600_2f63_2f04_5728),
            (b"hello world, 16b", 0, 0xb7fd_8ab6_f8e2_ad5a),
            (
                &[b'x'; 100],
                12_345_678_901_234_567_890,
                0x59ee_3e18_a44c_5ce4,
            ),
            (&y200, 3, 0xe50b_f027_ba20_1fe8),
            (&long, 9, 0x19ff_ce24_3600_b509),
        ];
        for (bytes, seed, want) in cases {
            assert_eq!(
                xxh3(seed, bytes),
                want,
                "{} bytes, seed {seed}",
                bytes.len()
            );
        }
    }

    #[test]
    fn rolled_windows_equal_windows_computed_afresh() {
        let t: Vec<u64> = (0..40u64).map(|i| fmix64(i + 1)).collect();
        for k in 1..=9 {
            let rolled = word_shingles(&t, k, 77);
            let fresh: Vec<u64> = t.windows(k).map(|w| window(77, w)).collect();
            assert_eq!(rolled, fresh, "k = {k}");
        }
        assert_eq!(word_shingles(&t[..3], 5, 1), [window(1, &t[..3])]);
        assert!(word_shingles(&[], 5, 1).is_empty());
    }
}
