//! One-permutation MinHash's fold of an ASCII text's character q-grams, and
//! of a text's word k-shingles, at spec 2, four windows at a time with
//! AVX2 (x86-64, detected when the program runs; the `std` feature), for
//! the processors without AVX-512 (`super::avx512`, eight at a time). The
//! values are the scalar path's.
//!
//! The same steps as `super::avx512`: each window of `q` bytes (`q` in
//! 4..=8) is hashed by XXH3-64's 4–8-byte formula
//! (`crate::hash::avx2::Windows4`, four windows shuffled out of one 16-byte
//! load), then by the scheme's `fmix64(x ^ key)` (Li, Owen & Zhang 2012,
//! see [`super::one_permutation`]), and the four (bin, value) pairs are
//! folded by scalar code, in order. The 64-bit products are
//! `crate::hash::avx2::Mul`'s, three 32-bit ones each.
//!
//! Word k-shingles: each window's polynomial is rolled one by one, as the
//! scalar path does (two 64-bit products a window); the two `fmix64` that
//! follow (the shingle's hash, SPEC.md §3, then the scheme's) are made
//! four windows at a time in the lanes, and folded by the same scalar
//! code. Each window's polynomial by Horner's rule in the lanes, as
//! `super::avx512` does, took longer than one at a time here: `k − 1`
//! products of three `vpmuludq` each (BENCHMARKS.md, "AVX2 where AVX-512
//! is missing").
//!
//! `unsafe` (as in `crate::hash::avx2`): calling the kernels, compiled for
//! AVX2, once the CPU has been seen to have it, and their loads, each
//! inside its array or slice.
#![allow(unsafe_code)]

use crate::hash::avx2::{fmix64, splat, Windows4};
use core::arch::x86_64::{
    __m256i, _mm256_loadu_si256, _mm256_min_epu32, _mm256_storeu_si256, _mm256_xor_si256,
};

pub(crate) use crate::hash::avx2::available;

/// Folds the windows of `q` bytes of `bytes` that start at `0, 1, …, m −
/// 1` into `bins`, and returns `m`: a multiple of 4, every window whose 16
/// bytes from its start lie in `bytes` and of its group of 4. `flip8` is
/// XXH3's 4–8-byte key for the seed, `key` the scheme's. `None` when the
/// CPU lacks AVX2 or `q` is not in 4..=8 (nothing folded).
pub(crate) fn fold_windows(
    bins: &mut [u32; 128],
    bytes: &[u8],
    q: usize,
    flip8: u64,
    key: u64,
) -> Option<usize> {
    if !(4..=8).contains(&q) || !available() {
        return None;
    }
    // SAFETY: the CPU has AVX2 (checked just above).
    Some(unsafe { fold_windows_avx2(bins, bytes, q, flip8, key) })
}

#[target_feature(enable = "avx2")]
fn fold_windows_avx2(bins: &mut [u32; 128], bytes: &[u8], q: usize, flip8: u64, key: u64) -> usize {
    let windows = Windows4::new(q, flip8);
    let key = splat(key);
    let mut i = 0;
    while i + 16 <= bytes.len() {
        // SAFETY: bytes[i..i + 16] is in the slice.
        let h = unsafe { windows.hash(bytes.as_ptr().add(i)) };
        // The scheme's hash: fmix64(x ^ key).
        fold4(bins, fmix64(_mm256_xor_si256(h, key)));
        i += 4;
    }
    i
}

/// Folds the word k-shingles of `tokens` (spec 2: `fmix64(seed ^ P(w))`,
/// `P` the polynomial of window `w` of `k` token hashes in
/// [`crate::hash::v2::POLY_BASE`]) whose windows start at `0, 1, …, m −
/// 1` into `bins`, and returns `m`: a multiple of 4, every group of 4
/// windows that lies in `tokens`. The polynomials are rolled one by one,
/// as the scalar path does (two 64-bit products a window, which AVX2 would
/// make from six 32-bit ones); the two `fmix64` of four windows at a time
/// in the lanes. `key` is the scheme's. `None` when the CPU lacks AVX2
/// (nothing folded); `k = 0` is taken as 1.
pub(crate) fn fold_word_windows(
    bins: &mut [u32; 128],
    tokens: &[u64],
    k: usize,
    seed: u64,
    key: u64,
) -> Option<usize> {
    if !available() {
        return None;
    }
    // SAFETY: the CPU has AVX2 (checked just above).
    Some(unsafe { fold_word_windows_avx2(bins, tokens, k.max(1), seed, key) })
}

#[target_feature(enable = "avx2")]
fn fold_word_windows_avx2(
    bins: &mut [u32; 128],
    tokens: &[u64],
    k: usize,
    seed: u64,
    key: u64,
) -> usize {
    use crate::hash::v2::POLY_BASE;
    let windows = (tokens.len() + 1).saturating_sub(k);
    let m = windows / 4 * 4;
    if m == 0 {
        return 0;
    }
    // P^(k−1): what the token leaving the window weighs.
    let top = (1..k).fold(1u64, |x, _| x.wrapping_mul(POLY_BASE));
    let mut h = tokens[..k]
        .iter()
        .fold(0u64, |h, &t| h.wrapping_mul(POLY_BASE).wrapping_add(t));
    let (seed, key) = (splat(seed), splat(key));
    let mut p = [0u64; 4];
    let mut i = 0;
    while i < m {
        for (j, slot) in p.iter_mut().enumerate() {
            *slot = h;
            // Rolled to the next window, where there is one.
            if let (Some(&old), Some(&new)) = (tokens.get(i + j), tokens.get(i + j + k)) {
                h = h
                    .wrapping_sub(old.wrapping_mul(top))
                    .wrapping_mul(POLY_BASE)
                    .wrapping_add(new);
            }
        }
        // SAFETY: `p` is 32 bytes.
        let v = unsafe { _mm256_loadu_si256(p.as_ptr().cast::<__m256i>()) };
        let x = fmix64(_mm256_xor_si256(v, seed));
        fold4(bins, fmix64(_mm256_xor_si256(x, key)));
        i += 4;
    }
    m
}

/// Folds the scheme's four hashes `h` into their bins of 128, in lane
/// order: bin the top 7 bits (`(hi32(h) · 128) >> 32`), value the low 32
/// capped at 2^32 − 2 (an empty bin is 2^32 − 1). (Hashing a block of 8 to
/// 256 windows before folding them measured no faster.)
#[inline]
#[target_feature(enable = "avx2")]
fn fold4(bins: &mut [u32; 128], h: __m256i) {
    // Each lane's low half capped, its high half, the bin, left as it is.
    let cap = splat(0xffff_ffff_ffff_fffe);
    let mut out = [0u64; 4];
    // SAFETY: `out` is 32 bytes.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast::<__m256i>(), _mm256_min_epu32(h, cap)) };
    for &h in &out {
        super::one_permutation::Keys::fold_capped(bins, h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minhash::kernel_tests;

    /// The kernel's bins against each window folded alone
    /// (`kernel_tests::folds_as_each_window_alone`), 4 windows a group.
    #[test]
    fn the_kernel_folds_as_each_window_alone() {
        kernel_tests::folds_as_each_window_alone(fold_windows, 4, available());
    }

    /// The word kernel's bins against each word shingle folded alone
    /// (`kernel_tests::folds_as_each_shingle_alone`), 4 windows a group.
    #[test]
    fn the_word_kernel_folds_as_each_shingle_alone() {
        kernel_tests::folds_as_each_shingle_alone(fold_word_windows, 4, available());
    }
}
