//! SimHash's bit counts with AVX2 (x86-64, detected when the program runs;
//! the `std` feature), for the processors without AVX-512
//! (`super::avx512`): for each of the 64 bits, how many feature hashes
//! have it set (Charikar 2002; `V_i = 2 · ones_i − n` with every
//! occurrence weighing 1, [`super::fingerprint::fingerprint`]).
//!
//! Two registers hold the 64 counters, a byte each. A hash is spread over
//! them (`vpshufb`: byte `j` of the pair holds byte `j / 8` of the hash),
//! each byte's one bit kept (`vpand` with `1 << (j % 8)`), compared into
//! 0 or −1 (`vpcmpeqb`) and subtracted from its counter: ten instructions
//! a feature where the byte lanes of the portable path take sixteen loads
//! and additions. The counters are emptied into the 64-bit counts every
//! 255 features, before they overflow. The counts are the portable path's
//! (tested against counting each bit).
//!
//! `unsafe` (as in `crate::hash::avx2`): calling the kernel, compiled for
//! AVX2, once the CPU has been seen to have it, and its stores, each into
//! an array of 32 bytes.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_set1_epi64x, _mm256_setr_epi8,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_storeu_si256, _mm256_sub_epi8,
};

/// Adds to `ones[i]` the number of `hashes` with bit `i` set, for every
/// `i` in 0..64, and returns `true`; `false` when the CPU lacks AVX2
/// (nothing added).
pub(crate) fn add_bit_counts(ones: &mut [u64; 64], hashes: &[u64]) -> bool {
    if !crate::hash::avx2::available() {
        return false;
    }
    // SAFETY: the CPU has AVX2 (checked just above).
    unsafe { add_bit_counts_avx2(ones, hashes) };
    true
}

#[target_feature(enable = "avx2")]
fn add_bit_counts_avx2(ones: &mut [u64; 64], hashes: &[u64]) {
    // With the hash in every 64-bit lane, `vpshufb` (within each 128-bit
    // lane) puts byte `j / 8` of it in byte `j`: bytes 0 and 1 in the low
    // lane, 2 and 3 in the high one; 4 to 7 likewise for bits 32 to 63.
    #[rustfmt::skip]
    let spread_lo = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
        2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
    );
    #[rustfmt::skip]
    let spread_hi = _mm256_setr_epi8(
        4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5,
        6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7,
    );
    // Byte j: 1 << (j % 8).
    let bits = _mm256_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
    // Byte j of `spread` is 0xff (−1) where bit j of the hash is set.
    let set = |v: __m256i, spread: __m256i| {
        _mm256_cmpeq_epi8(_mm256_and_si256(_mm256_shuffle_epi8(v, spread), bits), bits)
    };
    for chunk in hashes.chunks(255) {
        let (mut lo, mut hi) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        for &h in chunk {
            let v = _mm256_set1_epi64x(h as i64);
            lo = _mm256_sub_epi8(lo, set(v, spread_lo));
            hi = _mm256_sub_epi8(hi, set(v, spread_hi));
        }
        let mut bytes = [0u8; 64];
        // SAFETY: `bytes` is 64 bytes: two stores of 32.
        unsafe {
            _mm256_storeu_si256(bytes.as_mut_ptr().cast::<__m256i>(), lo);
            _mm256_storeu_si256(bytes.as_mut_ptr().add(32).cast::<__m256i>(), hi);
        }
        for (o, &b) in ones.iter_mut().zip(&bytes) {
            *o += u64::from(b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernel's counts against each bit counted
    /// (`kernel_tests::counts_each_bit`; here two registers emptied every 255 features).
    #[test]
    fn the_kernel_counts_each_bit() {
        crate::simhash::kernel_tests::counts_each_bit(
            add_bit_counts,
            crate::hash::avx2::available(),
        );
    }
}
