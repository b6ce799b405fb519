//! XXH3-64 of short inputs (1 to 16 bytes, a text's word tokens), eight at a
//! time with AVX-512 (x86-64, detected when the program runs; the `std`
//! feature): the three formulas of the xxHash specification v0.8 for such
//! lengths (`XXH3_len_1to3_64b`, `XXH3_len_4to8_64b`, `XXH3_len_9to16_64b`)
//! computed in every lane and each lane's kept by its length, as
//! [`super::v2::ShortXxh3`] does one input at a time.
//!
//! One by one, the formula is chosen by branches on the length, which a
//! text's words make at random (a mispredicted branch every few words);
//! in the lanes nothing branches. The 9–16-byte formula's 64 × 64 →
//! 128-bit product is made from four 32 × 32 → 64-bit ones (`vpmuludq`),
//! the other products are `vpmullq`.
//!
//! [`xxh3_windows`] hashes the windows of 4 to 8 bytes of an ASCII text
//! (its character q-grams) eight at a time: the eight windows from byte
//! `i` are shuffled out of one 16-byte load ([`Windows8`], which
//! `crate::minhash`'s fold of q-grams shares) and hashed by the 4–8-byte
//! formula in the lanes.
//!
//! The CPU's features are also what `crate::minhash`'s kernels need:
//! [`available`] is theirs too.
//!
//! `unsafe`: calling the kernel, compiled for AVX-512F, BW and DQ, once
//! the CPU has been seen to have them, and its loads and stores, each
//! inside its slice.
#![allow(unsafe_code)]

use super::v2::ShortXxh3;
use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_broadcast_i32x4, _mm512_cmpeq_epu64_mask,
    _mm512_cmple_epu64_mask, _mm512_cmplt_epu64_mask, _mm512_cvtepu8_epi64, _mm512_loadu_si512,
    _mm512_mask_blend_epi64, _mm512_mul_epu32, _mm512_mullo_epi64, _mm512_or_si512,
    _mm512_rol_epi64, _mm512_set1_epi64, _mm512_shuffle_epi8, _mm512_slli_epi64, _mm512_srli_epi64,
    _mm512_srlv_epi64, _mm512_storeu_si512, _mm512_xor_si512, _mm_loadl_epi64, _mm_loadu_si128,
};

/// Whether this CPU has AVX-512F, BW and DQ, which every kernel of the
/// crate needs (detected once and cached by `std`), and
/// `NEARDUP_DISABLE_CPU_FEATURES` does not switch them off ([`super::cpu`]).
#[inline]
pub(crate) fn available() -> bool {
    !super::cpu::switched_off(super::cpu::Tier::Avx512)
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512dq")
}

/// Hashes in place the inputs of groups of eight, with `short`'s keys
/// (its seed's): for each `i < m`, where `lens[i]` is 1 to 16, `firsts[i]`
/// becomes XXH3-64 of the `lens[i]` bytes whose first 8 (read
/// little-endian) `firsts[i]` held and whose last 8 `lasts[i]` holds; where
/// `lens[i]` is 0, `firsts[i]` is kept (a value hashed already). Returns `m`, the largest multiple of 8 not above
/// the three slices' shortest length; `None` when the CPU lacks AVX-512
/// (nothing done). Lengths above 16 are not inputs (their lanes get a
/// value of no use).
pub(crate) fn hash_short(
    short: &ShortXxh3,
    firsts: &mut [u64],
    lasts: &[u64],
    lens: &[u8],
) -> Option<usize> {
    if !available() {
        return None;
    }
    let n = firsts.len().min(lasts.len()).min(lens.len());
    // SAFETY: the CPU has AVX-512F, BW and DQ (checked just above).
    Some(unsafe { hash_short_avx512(short, &mut firsts[..n], &lasts[..n], &lens[..n]) })
}

#[target_feature(enable = "avx512f,avx512bw,avx512dq")]
fn hash_short_avx512(short: &ShortXxh3, firsts: &mut [u64], lasts: &[u64], lens: &[u8]) -> usize {
    let set = |x: u64| _mm512_set1_epi64(x as i64);
    let (flip3, flip8) = (set(short.flip3), set(short.flip8));
    let (flip16_lo, flip16_hi) = (set(short.flip16.0), set(short.flip16.1));
    let byte = set(0xff);
    let one = set(1);
    // Each lane's bytes reversed (`swap_bytes`), within its 16-byte lane.
    let mut rev = [0u8; 64];
    for (i, r) in rev.iter_mut().enumerate() {
        *r = ((i & !7) % 16 + 7 - i % 8) as u8;
    }
    // SAFETY: `rev` is 64 bytes.
    let rev = unsafe { _mm512_loadu_si512(rev.as_ptr().cast::<__m512i>()) };
    let mut i = 0;
    while i + 8 <= firsts.len() {
        // SAFETY: the 8 values (and 8 lengths) from `i` are in the slices.
        let (f, l, n) = unsafe {
            (
                _mm512_loadu_si512(firsts.as_ptr().add(i).cast()),
                _mm512_loadu_si512(lasts.as_ptr().add(i).cast()),
                _mm512_cvtepu8_epi64(_mm_loadl_epi64(lens.as_ptr().add(i).cast())),
            )
        };
        // 1–3 bytes: the first, middle (at len / 2: byte 0 or 1) and last
        // bytes, and the length.
        let c1 = _mm512_and_si512(f, byte);
        let middle = _mm512_slli_epi64::<3>(_mm512_and_si512(_mm512_srli_epi64::<1>(n), one));
        let c2 = _mm512_and_si512(_mm512_srlv_epi64(f, middle), byte);
        let c3 = _mm512_srli_epi64::<56>(l);
        let combo = _mm512_or_si512(
            _mm512_or_si512(_mm512_slli_epi64::<16>(c1), _mm512_slli_epi64::<24>(c2)),
            _mm512_or_si512(c3, _mm512_slli_epi64::<8>(n)),
        );
        let h3 = xxh64_avalanche(_mm512_xor_si512(combo, flip3));
        // 4–8 bytes: the first four as the high half, the last four as the low.
        let x = _mm512_add_epi64(_mm512_slli_epi64::<32>(f), _mm512_srli_epi64::<32>(l));
        let h8 = strong_avalanche(_mm512_xor_si512(x, flip8), n);
        // 9–16 bytes: the first and last eight.
        let lo = _mm512_xor_si512(f, flip16_lo);
        let hi = _mm512_xor_si512(l, flip16_hi);
        let acc = _mm512_add_epi64(
            _mm512_add_epi64(n, _mm512_shuffle_epi8(lo, rev)),
            _mm512_add_epi64(hi, mul_fold(lo, hi)),
        );
        let h16 = xxh3_avalanche(acc);
        let mut h = _mm512_mask_blend_epi64(_mm512_cmple_epu64_mask(n, set(8)), h16, h8);
        h = _mm512_mask_blend_epi64(_mm512_cmplt_epu64_mask(n, set(4)), h, h3);
        h = _mm512_mask_blend_epi64(_mm512_cmpeq_epu64_mask(n, set(0)), h, f);
        // SAFETY: firsts[i..i + 8] is in the slice.
        unsafe { _mm512_storeu_si512(firsts.as_mut_ptr().add(i).cast(), h) };
        i += 8;
    }
    i
}

/// XXH3-64 (the 4–8-byte formula, `flip8` its key for the seed,
/// [`super::v2::flip8`]) of each window of `q` bytes of `bytes` that starts
/// at `0, 1, …, m − 1`, written to `out[..m]`; returns `m`: a multiple of
/// 8, every group of eight windows whose 16 bytes from its first start lie
/// in `bytes`, as many as `out` holds. `None` when the CPU lacks AVX-512 or
/// `q` is not in 4..=8 (nothing written).
pub(crate) fn xxh3_windows(out: &mut [u64], bytes: &[u8], q: usize, flip8: u64) -> Option<usize> {
    if !(4..=8).contains(&q) || !available() {
        return None;
    }
    // SAFETY: the CPU has AVX-512F, BW and DQ (checked just above).
    Some(unsafe { xxh3_windows_avx512(out, bytes, q, flip8) })
}

#[target_feature(enable = "avx512f,avx512bw,avx512dq")]
fn xxh3_windows_avx512(out: &mut [u64], bytes: &[u8], q: usize, flip8: u64) -> usize {
    let windows = Windows8::new(q, flip8);
    let mut i = 0;
    while i + 16 <= bytes.len() && i + 8 <= out.len() {
        // SAFETY: bytes[i..i + 16] and out[i..i + 8] are in their slices.
        unsafe {
            let h = windows.hash(bytes.as_ptr().add(i));
            _mm512_storeu_si512(out.as_mut_ptr().add(i).cast(), h);
        }
        i += 8;
    }
    i
}

/// The eight windows of `q` bytes (4 to 8) that start at a byte, hashed by
/// XXH3-64's 4–8-byte formula in the lanes: each 64-bit lane is shuffled
/// out of one 16-byte load (`vpshufb`, the load repeated in each 128-bit
/// lane), its first four bytes as the high half and its last four as the
/// low, then keyed and mixed (`rrmxmx`).
pub(crate) struct Windows8 {
    /// The shuffle that makes lane `l` window `l`'s input.
    idx: __m512i,
    flip: __m512i,
    len: __m512i,
}

impl Windows8 {
    /// The shuffle for windows of `q` bytes (4 to 8), with XXH3's
    /// 4–8-byte key `flip8`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq")]
    pub(crate) fn new(q: usize, flip8: u64) -> Self {
        let mut s = [0u8; 64];
        for l in 0..8 {
            for t in 0..4 {
                s[l * 8 + t] = (l + q - 4 + t) as u8;
                s[l * 8 + 4 + t] = (l + t) as u8;
            }
        }
        Windows8 {
            // SAFETY: `s` is 64 bytes.
            idx: unsafe { _mm512_loadu_si512(s.as_ptr().cast::<__m512i>()) },
            flip: _mm512_set1_epi64(flip8 as i64),
            len: _mm512_set1_epi64(q as i64),
        }
    }

    /// The hashes of the eight windows that start at `at`, `at + 1`, …,
    /// `at + 7`.
    ///
    /// # Safety
    /// The 16 bytes from `at` are readable.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq")]
    pub(crate) unsafe fn hash(&self, at: *const u8) -> __m512i {
        // SAFETY: the caller's: 16 bytes from `at`.
        let chunk = unsafe { _mm_loadu_si128(at.cast()) };
        let x = _mm512_xor_si512(
            _mm512_shuffle_epi8(_mm512_broadcast_i32x4(chunk), self.idx),
            self.flip,
        );
        strong_avalanche(x, self.len)
    }
}

/// The 128-bit product of each lane's `a` and `b`, its two halves xored
/// (XXH3's `mul128_fold64`), from the four products of 32-bit halves: no
/// sum overflows, since `(2^32 − 1)^2 + 2 (2^32 − 1) = 2^64 − 1`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq")]
fn mul_fold(a: __m512i, b: __m512i) -> __m512i {
    let low = _mm512_set1_epi64(0xffff_ffff);
    let (a_hi, b_hi) = (_mm512_srli_epi64::<32>(a), _mm512_srli_epi64::<32>(b));
    let lo_lo = _mm512_mul_epu32(a, b);
    let hi_lo = _mm512_mul_epu32(a_hi, b);
    let lo_hi = _mm512_mul_epu32(a, b_hi);
    let hi_hi = _mm512_mul_epu32(a_hi, b_hi);
    let cross = _mm512_add_epi64(
        _mm512_add_epi64(_mm512_srli_epi64::<32>(lo_lo), _mm512_and_si512(hi_lo, low)),
        lo_hi,
    );
    let upper = _mm512_add_epi64(
        _mm512_add_epi64(
            _mm512_srli_epi64::<32>(hi_lo),
            _mm512_srli_epi64::<32>(cross),
        ),
        hi_hi,
    );
    let lower = _mm512_or_si512(_mm512_slli_epi64::<32>(cross), _mm512_and_si512(lo_lo, low));
    _mm512_xor_si512(upper, lower)
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq")]
fn xxh64_avalanche(mut h: __m512i) -> __m512i {
    h = _mm512_xor_si512(h, _mm512_srli_epi64::<33>(h));
    h = _mm512_mullo_epi64(h, _mm512_set1_epi64(0xc2b2_ae3d_27d4_eb4f_u64 as i64));
    h = _mm512_xor_si512(h, _mm512_srli_epi64::<29>(h));
    h = _mm512_mullo_epi64(h, _mm512_set1_epi64(0x1656_67b1_9e37_79f9_u64 as i64));
    _mm512_xor_si512(h, _mm512_srli_epi64::<32>(h))
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq")]
fn xxh3_avalanche(mut h: __m512i) -> __m512i {
    h = _mm512_xor_si512(h, _mm512_srli_epi64::<37>(h));
    h = _mm512_mullo_epi64(h, _mm512_set1_epi64(0x1656_6791_9e37_79f9_u64 as i64));
    _mm512_xor_si512(h, _mm512_srli_epi64::<32>(h))
}

/// XXH3's `rrmxmx` (the 4–8-byte formula's), `len` each lane's length.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq")]
pub(crate) fn strong_avalanche(x: __m512i, len: __m512i) -> __m512i {
    let mul = _mm512_set1_epi64(0x9fb2_1c65_1e98_df25_u64 as i64);
    let mut h = _mm512_xor_si512(
        x,
        _mm512_xor_si512(_mm512_rol_epi64::<49>(x), _mm512_rol_epi64::<24>(x)),
    );
    h = _mm512_mullo_epi64(h, mul);
    h = _mm512_xor_si512(h, _mm512_add_epi64(_mm512_srli_epi64::<35>(h), len));
    h = _mm512_mullo_epi64(h, mul);
    _mm512_xor_si512(h, _mm512_srli_epi64::<28>(h))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::{v2, SplitMix64};

    /// The kernel's hashes against XXH3-64 (the `xxhash-rust` crate) of
    /// each input: random bytes of every length 1 to 16 (the bytes around
    /// an input random too, as a text's are), mixed with values kept
    /// (length 0), in slices of 0 to 40, three seeds.
    #[test]
    fn the_kernel_hashes_as_xxh3() {
        let mut rng = SplitMix64::new(3);
        for seed in [0u64, 1, 0xdead_beef_0bad_cafe] {
            let short = v2::ShortXxh3::new(seed);
            for n in 0..40 {
                let mut firsts = alloc::vec::Vec::new();
                let mut lasts = alloc::vec::Vec::new();
                let mut lens = alloc::vec::Vec::new();
                let mut want = alloc::vec::Vec::new();
                for _ in 0..n {
                    let len = (rng.next() % 17) as usize;
                    // 8 bytes, the input, 8 bytes.
                    let buf: alloc::vec::Vec<u8> =
                        (0..len + 16).map(|_| rng.next() as u8).collect();
                    let input = &buf[8..8 + len];
                    let word = |at: usize| u64::from_le_bytes(buf[at..at + 8].try_into().unwrap());
                    let keep = rng.next();
                    firsts.push(if len == 0 { keep } else { word(8) });
                    lasts.push(word(len));
                    lens.push(len as u8);
                    want.push(if len == 0 {
                        keep
                    } else {
                        v2::xxh3(seed, input)
                    });
                }
                match hash_short(&short, &mut firsts, &lasts, &lens) {
                    None => assert!(!available()),
                    Some(m) => {
                        assert_eq!(m, n / 8 * 8);
                        assert_eq!(firsts[..m], want[..m], "seed {seed}, {n} inputs");
                    }
                }
            }
        }
    }

    /// The window kernel's hashes against XXH3-64 of each window alone
    /// (`kernel_tests::window_kernel_hashes_as_xxh3`), eight a group.
    #[test]
    fn the_window_kernel_hashes_as_xxh3() {
        crate::hash::kernel_tests::window_kernel_hashes_as_xxh3(xxh3_windows, 8, available());
    }
}
