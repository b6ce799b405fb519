//! SimHash's bit counts with AVX-512 (x86-64, detected when the program
//! runs; the `std` feature): for each of the 64 bits, how many feature
//! hashes have it set (Charikar 2002; `V_i = 2 · ones_i − n` with every
//! occurrence weighing 1, [`super::fingerprint::fingerprint`]).
//!
//! A hash is the mask of one byte addition (`vpaddb` under a mask register,
//! AVX-512BW): byte `i` of a register adds 1 where bit `i` of the hash is
//! set, so a register holds 64 counters and a feature costs one
//! instruction, where the byte lanes of the portable path cost sixteen
//! loads and additions. Four registers take the features in turn (no
//! addition waits on the one before), each emptied into the 64-bit counts
//! before it passes 255. The counts are the portable path's (tested
//! against counting each bit).
//!
//! `unsafe` (as in `crate::hash::avx512`): calling the kernel, compiled for
//! AVX-512F, BW and DQ, once the CPU has been seen to have them, and its
//! stores, each into an array of 64 bytes.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm512_mask_add_epi8, _mm512_set1_epi8, _mm512_setzero_si512, _mm512_storeu_si512,
};

/// Adds to `ones[i]` the number of `hashes` with bit `i` set, for every
/// `i` in 0..64, and returns `true`; `false` when the CPU lacks AVX-512
/// (nothing added).
pub(crate) fn add_bit_counts(ones: &mut [u64; 64], hashes: &[u64]) -> bool {
    if !crate::hash::avx512::available() {
        return false;
    }
    // SAFETY: the CPU has AVX-512F, BW and DQ (checked just above).
    unsafe { add_bit_counts_avx512(ones, hashes) };
    true
}

#[target_feature(enable = "avx512f,avx512bw,avx512dq")]
fn add_bit_counts_avx512(ones: &mut [u64; 64], hashes: &[u64]) {
    let one = _mm512_set1_epi8(1);
    // 255 features a register at most between two emptyings.
    for chunk in hashes.chunks(4 * 255) {
        let mut acc: [__m512i; 4] = [_mm512_setzero_si512(); 4];
        let mut quads = chunk.chunks_exact(4);
        for q in &mut quads {
            for (a, &h) in acc.iter_mut().zip(q) {
                *a = _mm512_mask_add_epi8(*a, h, *a, one);
            }
        }
        for (a, &h) in acc.iter_mut().zip(quads.remainder()) {
            *a = _mm512_mask_add_epi8(*a, h, *a, one);
        }
        for a in acc {
            let mut bytes = [0u8; 64];
            // SAFETY: `bytes` is 64 bytes.
            unsafe { _mm512_storeu_si512(bytes.as_mut_ptr().cast::<__m512i>(), a) };
            for (o, &b) in ones.iter_mut().zip(&bytes) {
                *o += u64::from(b);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernel's counts against each bit counted
    /// (`kernel_tests::counts_each_bit`; here four registers emptied every 1,020 features).
    #[test]
    fn the_kernel_counts_each_bit() {
        crate::simhash::kernel_tests::counts_each_bit(
            add_bit_counts,
            crate::hash::avx512::available(),
        );
    }
}
