//! One-permutation MinHash's fold of an ASCII text's character q-grams,
//! and of a text's word k-shingles, at spec 2, eight windows at a time
//! with AVX-512 (x86-64, detected when the program runs; the `std`
//! feature). The values are the scalar path's.
//!
//! Character q-grams: each window of `q` bytes (`q` in 4..=8) is hashed
//! by XXH3-64's 4–8-byte formula (xxHash specification v0.8, `XXH3_len_4to8_64b`), then by the
//! scheme's `fmix64(x ^ key)` (Li, Owen & Zhang 2012, see
//! [`super::one_permutation`]), and its value folded into its bin of 128.
//!
//! The eight windows at byte `i` are read from one 16-byte load: each
//! 64-bit lane is shuffled out of it (`vpshufb`), then hashed in the lanes
//! (`vprolq`, `vpmullq`), by `crate::hash::avx512`'s `Windows8`, which
//! also gives the q-grams' hashes themselves; the eight (bin, value) pairs
//! are folded by scalar code, in order, so that two windows of one bin
//! meet as they do one by one. A minimum does not depend on the order of its terms, so
//! the bins are those of the scalar fold (tested against it).
//!
//! Word k-shingles: eight windows of `k` token hashes, each lane's
//! polynomial by Horner's rule from `k` unaligned 8-token loads
//! (`vpmullq`), then `fmix64(seed ^ ·)` (the shingle's hash, SPEC.md §3)
//! and the scheme's `fmix64(· ^ key)`, folded by the same scalar code: no
//! rolling, so the eight are independent.
//!
//! `unsafe` (as in `crate::hash::avx512`): calling the kernels, compiled for
//! AVX-512F, BW and DQ, once the CPU has been seen to have them, and their
//! loads, each inside the slice.
#![allow(unsafe_code)]

use crate::hash::avx512::Windows8;
use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_loadu_si512, _mm512_min_epu32, _mm512_mullo_epi64,
    _mm512_set1_epi64, _mm512_srli_epi64, _mm512_storeu_si512, _mm512_xor_si512,
};

pub(crate) use crate::hash::avx512::available;

/// Folds the windows of `q` bytes of `bytes` that start at `0, 1, …, m −
/// 1` into `bins`, and returns `m`: a multiple of 8, every window whose 16
/// bytes from its start lie in `bytes` and of its group of 8. `flip8` is
/// XXH3's 4–8-byte key for the seed, `key` the scheme's. `None` when the
/// CPU lacks AVX-512 or `q` is not in 4..=8 (nothing folded).
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
    // SAFETY: the CPU has AVX-512F, BW and DQ (checked just above).
    Some(unsafe { fold_windows_avx512(bins, bytes, q, flip8, key) })
}

#[target_feature(enable = "avx512f,avx512bw,avx512dq")]
fn fold_windows_avx512(
    bins: &mut [u32; 128],
    bytes: &[u8],
    q: usize,
    flip8: u64,
    key: u64,
) -> usize {
    let windows = Windows8::new(q, flip8);
    let key = _mm512_set1_epi64(key as i64);
    let mut i = 0;
    while i + 16 <= bytes.len() {
        // SAFETY: bytes[i..i + 16] is in the slice.
        let h = unsafe { windows.hash(bytes.as_ptr().add(i)) };
        // The scheme's hash: fmix64(x ^ key).
        fold8(bins, fmix64(_mm512_xor_si512(h, key)));
        i += 8;
    }
    i
}

/// Folds the word k-shingles of `tokens` (spec 2: `fmix64(seed ^ P(w))`,
/// `P` the polynomial of window `w` of `k` token hashes in
/// [`crate::hash::v2::POLY_BASE`], by Horner's rule in the lanes) whose
/// windows start at `0, 1, …, m − 1` into `bins`, and returns `m`: a
/// multiple of 8, every group of 8 windows that lies in `tokens`. `key` is
/// the scheme's. `None` when the CPU lacks AVX-512 (nothing folded); `k =
/// 0` is taken as 1.
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
    // SAFETY: the CPU has AVX-512F, BW and DQ (checked just above).
    Some(unsafe { fold_word_windows_avx512(bins, tokens, k.max(1), seed, key) })
}

#[target_feature(enable = "avx512f,avx512bw,avx512dq")]
fn fold_word_windows_avx512(
    bins: &mut [u32; 128],
    tokens: &[u64],
    k: usize,
    seed: u64,
    key: u64,
) -> usize {
    let base = _mm512_set1_epi64(crate::hash::v2::POLY_BASE as i64);
    let seed = _mm512_set1_epi64(seed as i64);
    let key = _mm512_set1_epi64(key as i64);
    let mut i = 0;
    while i + 8 + k - 1 <= tokens.len() {
        // SAFETY: tokens[i + j..i + j + 8] is in the slice for j < k.
        let load = |j: usize| unsafe { _mm512_loadu_si512(tokens.as_ptr().add(i + j).cast()) };
        let mut p = load(0);
        for j in 1..k {
            p = _mm512_add_epi64(_mm512_mullo_epi64(p, base), load(j));
        }
        let x = fmix64(_mm512_xor_si512(p, seed));
        fold8(bins, fmix64(_mm512_xor_si512(x, key)));
        i += 8;
    }
    i
}

/// MurmurHash3's `fmix64` in each lane.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq")]
fn fmix64(mut h: __m512i) -> __m512i {
    const FMIX_1: i64 = 0xff51_afd7_ed55_8ccd_u64 as i64;
    const FMIX_2: i64 = 0xc4ce_b9fe_1a85_ec53_u64 as i64;
    h = _mm512_xor_si512(h, _mm512_srli_epi64::<33>(h));
    h = _mm512_mullo_epi64(h, _mm512_set1_epi64(FMIX_1));
    h = _mm512_xor_si512(h, _mm512_srli_epi64::<33>(h));
    h = _mm512_mullo_epi64(h, _mm512_set1_epi64(FMIX_2));
    _mm512_xor_si512(h, _mm512_srli_epi64::<33>(h))
}

/// Folds the scheme's eight hashes `h` into their bins of 128, in lane
/// order: bin the top 7 bits (`(hi32(h) · 128) >> 32`), value the low 32
/// capped at 2^32 − 2 (an empty bin is 2^32 − 1).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq")]
fn fold8(bins: &mut [u32; 128], h: __m512i) {
    // Each lane's low half capped, its high half, the bin, left as it is.
    let cap = _mm512_set1_epi64(0xffff_ffff_ffff_fffe_u64 as i64);
    let mut out = [0u64; 8];
    // SAFETY: `out` is 64 bytes.
    unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast::<__m512i>(), _mm512_min_epu32(h, cap)) };
    for &h in &out {
        super::one_permutation::Keys::fold_capped(bins, h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minhash::kernel_tests;

    /// The kernel's bins against each window folded alone
    /// (`kernel_tests::folds_as_each_window_alone`), 8 windows a group.
    #[test]
    fn the_kernel_folds_as_each_window_alone() {
        kernel_tests::folds_as_each_window_alone(fold_windows, 8, available());
    }

    /// The word kernel's bins against each word shingle folded alone
    /// (`kernel_tests::folds_as_each_shingle_alone`), 8 windows a group.
    #[test]
    fn the_word_kernel_folds_as_each_shingle_alone() {
        kernel_tests::folds_as_each_shingle_alone(fold_word_windows, 8, available());
    }
}
