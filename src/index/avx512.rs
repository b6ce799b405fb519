//! The scan of SimHash's buckets with AVX-512 (x86-64, detected when the
//! program runs; the `std` feature): which of the 64-bit words of a
//! query's buckets lie within Hamming distance `k` of its word (the test
//! each fingerprint of a multi-index hashing bucket meets, Norouzi et al.
//! 2012), eight words a step: XORed with the query's word, their set bits
//! counted at once (`vpopcntq`, AVX512_VPOPCNTDQ) and compared with `k`
//! into one mask of the words within it. The scalar scan
//! (`buckets::each_within`) costs an XOR, a `popcnt` and a comparison a
//! word. Every bucket of a query in one call: a call a bucket (hundreds a
//! query, of a few dozen words each) cost more than the scan it saved. The
//! same words, in the same order (tested against the scalar test).
//!
//! `unsafe` (as in `crate::hash::avx512`): calling the kernel, compiled for
//! AVX-512F and VPOPCNTDQ, once the CPU has been seen to have them, and its
//! masked loads, which read only lanes inside the slice.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    _mm512_mask_cmple_epu64_mask, _mm512_maskz_loadu_epi64, _mm512_popcnt_epi64, _mm512_set1_epi64,
    _mm512_xor_si512,
};

/// Whether this CPU has AVX-512F, BW, DQ and VPOPCNTDQ (AMD Zen 4 and
/// later, Intel Ice Lake and later); detected once and cached by `std`.
#[inline]
pub(crate) fn available() -> bool {
    crate::hash::avx512::available() && std::is_x86_feature_detected!("avx512vpopcntdq")
}

/// For each bucket `r` in `0..runs` (its words `words(r)`), in order, calls
/// `take(r, i)` for every `i`, in order, whose `words(r)[i]` differs from
/// `word` in at most `k` bits (any `k`; 64 and above: every word), and
/// returns `true`; `false` when the CPU lacks the instructions (nothing
/// called).
#[inline]
pub(crate) fn each_within<'a>(
    runs: usize,
    words: impl Fn(usize) -> &'a [u64],
    word: u64,
    k: u32,
    mut take: impl FnMut(usize, usize),
) -> bool {
    if !available() {
        return false;
    }
    // SAFETY: the CPU has AVX-512F and VPOPCNTDQ (checked just above).
    unsafe { each_within_avx512(runs, words, word, k, &mut take) };
    true
}

#[target_feature(enable = "avx512f,avx512vpopcntdq")]
fn each_within_avx512<'a>(
    runs: usize,
    words: impl Fn(usize) -> &'a [u64],
    word: u64,
    k: u32,
    take: &mut impl FnMut(usize, usize),
) {
    let w = _mm512_set1_epi64(word as i64);
    let kv = _mm512_set1_epi64(i64::from(k.min(64)));
    for r in 0..runs {
        let words = words(r);
        let mut i = 0;
        while i < words.len() {
            // The lanes inside the slice: eight, or the last few.
            let left = words.len() - i;
            let lanes: u8 = if left >= 8 { 0xFF } else { (1u8 << left) - 1 };
            // SAFETY: `i < words.len()`, and the masked load reads only the
            // lanes set in `lanes`, each inside `words` (a lane masked off
            // cannot fault).
            let v = unsafe { _mm512_maskz_loadu_epi64(lanes, words.as_ptr().add(i).cast()) };
            let bits = _mm512_popcnt_epi64(_mm512_xor_si512(v, w));
            let mut near = _mm512_mask_cmple_epu64_mask(lanes, bits, kv);
            while near != 0 {
                take(r, i + near.trailing_zeros() as usize);
                near &= near - 1;
            }
            i += 8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// The kernel against the scalar test of each word: buckets of every
    /// length 0 to 40 (whole steps and each remainder) in one call, words
    /// near the query and far, distances 0, 1, 10, 63, 64 and above.
    #[test]
    fn the_kernel_finds_the_words_within_k() {
        if !available() {
            // Nothing called: the scalar scan is the one this CPU runs
            // (tested in `buckets`).
            assert!(!each_within(
                1,
                |_| &[0u64][..],
                0,
                64,
                |_, _| panic!("called")
            ));
            return;
        }
        let mut rng = crate::hash::SplitMix64::new(50);
        let word = rng.next();
        let runs: Vec<Vec<u64>> = (0..=40usize)
            .map(|len| {
                (0..len)
                    .map(|i| match i % 3 {
                        // A few bits flipped, or a random word, or the word.
                        0 => word ^ (rng.next() & rng.next() & rng.next() & rng.next()),
                        1 => rng.next(),
                        _ => word,
                    })
                    .collect()
            })
            .collect();
        for k in [0u32, 1, 10, 32, 63, 64, 100] {
            let mut got = Vec::new();
            let words = |r: usize| runs[r].as_slice();
            assert!(each_within(runs.len(), words, word, k, |r, i| got.push((r, i))));
            let want: Vec<(usize, usize)> = (0..runs.len())
                .flat_map(|r| (0..runs[r].len()).map(move |i| (r, i)))
                .filter(|&(r, i)| (runs[r][i] ^ word).count_ones() <= k)
                .collect();
            assert_eq!(got, want, "k {k}");
        }
    }
}
