//! XXH3-64 of an ASCII text's windows of 4 to 8 bytes (its character
//! q-grams) four at a time with AVX2 (x86-64, detected when the program
//! runs; the `std` feature), for the processors without AVX-512
//! (`super::avx512`, eight at a time): the 4–8-byte formula of the xxHash
//! specification v0.8 (`XXH3_len_4to8_64b`), the same values, in four
//! 64-bit lanes. [`Windows4`] shuffles the four windows from byte `i` out
//! of one 16-byte load, as `super::avx512`'s `Windows8` does eight;
//! `crate::minhash`'s fold of q-grams shares it.
//!
//! AVX2 has no 64-bit multiplication: each `a · c (mod 2^64)` by one of the
//! formula's constants is made from three 32 × 32 → 64-bit products
//! (`vpmuludq`, [`Mul`]), and a rotation is two shifts. On an AMD EPYC
//! (Zen 3) the lanes still take less time than one window at a time, where
//! one 64-bit multiplier makes every product in turn (BENCHMARKS.md, "AVX2
//! where AVX-512 is missing"). A text's short word tokens are not hashed
//! here: their three formulas, all computed in the lanes, cost more than
//! the branches of one at a time (the same section).
//!
//! `unsafe`: calling the kernels, compiled for AVX2, once the CPU has been
//! seen to have it, and their loads and stores, each inside its slice.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_broadcastsi128_si256, _mm256_loadu_si256, _mm256_mul_epu32,
    _mm256_or_si256, _mm256_set1_epi64x, _mm256_shuffle_epi8, _mm256_slli_epi64, _mm256_srli_epi64,
    _mm256_storeu_si256, _mm256_xor_si256, _mm_loadu_si128,
};

/// Whether this CPU has AVX2, which every AVX2 kernel of the crate needs
/// (detected once and cached by `std`), and `NEARDUP_DISABLE_CPU_FEATURES`
/// does not switch it off ([`super::cpu`]).
#[inline]
pub(crate) fn available() -> bool {
    !super::cpu::switched_off(super::cpu::Tier::Avx2) && std::is_x86_feature_detected!("avx2")
}

/// `x` in each lane.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn splat(x: u64) -> __m256i {
    _mm256_set1_epi64x(x as i64)
}

/// Multiplication of each lane by a constant `c`, modulo 2^64, from three
/// 32 × 32 → 64-bit products: `lo(a)·lo(c) + (hi(a)·lo(c) + lo(a)·hi(c)) ·
/// 2^32`.
#[derive(Clone, Copy)]
struct Mul {
    /// `c` (its low half is what `vpmuludq` reads).
    lo: __m256i,
    /// `c >> 32`.
    hi: __m256i,
}

impl Mul {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(c: u64) -> Self {
        Mul {
            lo: splat(c),
            hi: splat(c >> 32),
        }
    }

    /// `a · c (mod 2^64)` in each lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn of(self, a: __m256i) -> __m256i {
        let lo_lo = _mm256_mul_epu32(a, self.lo);
        let hi_lo = _mm256_mul_epu32(_mm256_srli_epi64::<32>(a), self.lo);
        let lo_hi = _mm256_mul_epu32(a, self.hi);
        _mm256_add_epi64(
            lo_lo,
            _mm256_slli_epi64::<32>(_mm256_add_epi64(hi_lo, lo_hi)),
        )
    }
}

/// MurmurHash3's `fmix64` in each lane.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn fmix64(mut h: __m256i) -> __m256i {
    let (m1, m2) = (
        Mul::new(0xff51_afd7_ed55_8ccd),
        Mul::new(0xc4ce_b9fe_1a85_ec53),
    );
    h = _mm256_xor_si256(h, _mm256_srli_epi64::<33>(h));
    h = m1.of(h);
    h = _mm256_xor_si256(h, _mm256_srli_epi64::<33>(h));
    h = m2.of(h);
    _mm256_xor_si256(h, _mm256_srli_epi64::<33>(h))
}

/// XXH3's `rrmxmx` (the 4–8-byte formula's), `len` each lane's length.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn strong_avalanche(x: __m256i, len: __m256i) -> __m256i {
    let mul = Mul::new(0x9fb2_1c65_1e98_df25);
    let rol49 = _mm256_or_si256(_mm256_slli_epi64::<49>(x), _mm256_srli_epi64::<15>(x));
    let rol24 = _mm256_or_si256(_mm256_slli_epi64::<24>(x), _mm256_srli_epi64::<40>(x));
    let mut h = _mm256_xor_si256(x, _mm256_xor_si256(rol49, rol24));
    h = mul.of(h);
    h = _mm256_xor_si256(h, _mm256_add_epi64(_mm256_srli_epi64::<35>(h), len));
    h = mul.of(h);
    _mm256_xor_si256(h, _mm256_srli_epi64::<28>(h))
}

/// The four windows of `q` bytes (4 to 8) that start at a byte, hashed by
/// XXH3-64's 4–8-byte formula in the lanes: each 64-bit lane is shuffled
/// out of one 16-byte load (`vpshufb`, the load repeated in both 128-bit
/// lanes), its first four bytes as the high half and its last four as the
/// low, then keyed and mixed (`rrmxmx`).
pub(crate) struct Windows4 {
    /// The shuffle that makes lane `l` window `l`'s input.
    idx: __m256i,
    flip: __m256i,
    len: __m256i,
}

impl Windows4 {
    /// The shuffle for windows of `q` bytes (4 to 8), with XXH3's
    /// 4–8-byte key `flip8`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn new(q: usize, flip8: u64) -> Self {
        let mut s = [0u8; 32];
        for l in 0..4 {
            for t in 0..4 {
                s[l * 8 + t] = (l + q - 4 + t) as u8;
                s[l * 8 + 4 + t] = (l + t) as u8;
            }
        }
        Windows4 {
            // SAFETY: `s` is 32 bytes.
            idx: unsafe { _mm256_loadu_si256(s.as_ptr().cast::<__m256i>()) },
            flip: splat(flip8),
            len: splat(q as u64),
        }
    }

    /// The hashes of the four windows that start at `at`, …, `at + 3`.
    ///
    /// # Safety
    /// The 16 bytes from `at` are readable.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn hash(&self, at: *const u8) -> __m256i {
        // SAFETY: the caller's: 16 bytes from `at`.
        let chunk = unsafe { _mm_loadu_si128(at.cast()) };
        let x = _mm256_xor_si256(
            _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(chunk), self.idx),
            self.flip,
        );
        strong_avalanche(x, self.len)
    }
}

/// XXH3-64 (the 4–8-byte formula, `flip8` its key for the seed,
/// [`super::v2::flip8`]) of each window of `q` bytes of `bytes` that starts
/// at `0, 1, …, m − 1`, written to `out[..m]`; returns `m`: a multiple of
/// 4, every group of four windows whose 16 bytes from its first start lie
/// in `bytes`, as many as `out` holds. `None` when the CPU lacks AVX2 or
/// `q` is not in 4..=8 (nothing written).
pub(crate) fn xxh3_windows(out: &mut [u64], bytes: &[u8], q: usize, flip8: u64) -> Option<usize> {
    if !(4..=8).contains(&q) || !available() {
        return None;
    }
    // SAFETY: the CPU has AVX2 (checked just above).
    Some(unsafe { xxh3_windows_avx2(out, bytes, q, flip8) })
}

#[target_feature(enable = "avx2")]
fn xxh3_windows_avx2(out: &mut [u64], bytes: &[u8], q: usize, flip8: u64) -> usize {
    let windows = Windows4::new(q, flip8);
    let mut i = 0;
    while i + 16 <= bytes.len() && i + 4 <= out.len() {
        // SAFETY: bytes[i..i + 16] and out[i..i + 4] are in their slices.
        unsafe {
            let h = windows.hash(bytes.as_ptr().add(i));
            _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), h);
        }
        i += 4;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window kernel's hashes against XXH3-64 of each window alone
    /// (`kernel_tests::window_kernel_hashes_as_xxh3`), four a group.
    #[test]
    fn the_window_kernel_hashes_as_xxh3() {
        crate::hash::kernel_tests::window_kernel_hashes_as_xxh3(xxh3_windows, 4, available());
    }
}
