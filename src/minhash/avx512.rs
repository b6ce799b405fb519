//! One-permutation MinHash's fold of an ASCII text's character q-grams at
//! spec 2, eight windows at a time with AVX-512 (x86-64, detected when the
//! program runs; the `std` feature). The values are the scalar path's:
//! each window of `q` bytes (`q` in 4..=8) is hashed by XXH3-64's 4–8-byte
//! formula (xxHash specification v0.8, `XXH3_len_4to8_64b`), then by the
//! scheme's `fmix64(x ^ key)` (Li, Owen & Zhang 2012, see
//! [`super::one_permutation`]), and its value folded into its bin of 128.
//!
//! The eight windows at byte `i` are read from one 16-byte load: each
//! 64-bit lane is shuffled out of it (`vpshufb`), then hashed in the lanes
//! (`vprolq`, `vpmullq`); the eight (bin, value) pairs are folded by
//! scalar code, in order, so that two windows of one bin meet as they do
//! one by one. A minimum does not depend on the order of its terms, so
//! the bins are those of the scalar fold (tested against it).
//!
//! The one `unsafe` of the crate: calling the kernel, compiled for
//! AVX-512F, BW and DQ, once the CPU has been seen to have them, and its
//! 16-byte loads, each inside the slice.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_broadcast_i32x4, _mm512_loadu_si512, _mm512_min_epu32,
    _mm512_mullo_epi64, _mm512_rol_epi64, _mm512_set1_epi64, _mm512_shuffle_epi8,
    _mm512_srli_epi64, _mm512_storeu_si512, _mm512_xor_si512, _mm_loadu_si128,
};

/// Whether this CPU runs the kernel (AVX-512F, BW and DQ); detected once
/// and cached by `std`.
#[inline]
pub(crate) fn available() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512dq")
}

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

/// The shuffle that makes 64-bit lane `l` of the loaded 16 bytes (repeated
/// in each 128-bit lane) window `l`'s XXH3 input before its key: its first
/// four bytes as the high half, its last four as the low half.
fn shuffle(q: usize) -> [u8; 64] {
    let mut s = [0u8; 64];
    for l in 0..8 {
        for t in 0..4 {
            s[l * 8 + t] = (l + q - 4 + t) as u8;
            s[l * 8 + 4 + t] = (l + t) as u8;
        }
    }
    s
}

#[target_feature(enable = "avx512f,avx512bw,avx512dq")]
fn fold_windows_avx512(
    bins: &mut [u32; 128],
    bytes: &[u8],
    q: usize,
    flip8: u64,
    key: u64,
) -> usize {
    const XXH3_MUL: i64 = 0x9fb2_1c65_1e98_df25_u64 as i64;
    const FMIX_1: i64 = 0xff51_afd7_ed55_8ccd_u64 as i64;
    const FMIX_2: i64 = 0xc4ce_b9fe_1a85_ec53_u64 as i64;
    let table = shuffle(q);
    // SAFETY: `table` is 64 bytes.
    let idx = unsafe { _mm512_loadu_si512(table.as_ptr().cast::<__m512i>()) };
    let flip = _mm512_set1_epi64(flip8 as i64);
    let len = _mm512_set1_epi64(q as i64);
    let key = _mm512_set1_epi64(key as i64);
    let mul = _mm512_set1_epi64(XXH3_MUL);
    let (f1, f2) = (_mm512_set1_epi64(FMIX_1), _mm512_set1_epi64(FMIX_2));
    // Each lane's low half capped at 2^32 − 2 (an empty bin is 2^32 − 1),
    // its high half, the bin, left as it is.
    let cap = _mm512_set1_epi64(0xffff_ffff_ffff_fffe_u64 as i64);
    let mut out = [0u64; 8];
    let mut i = 0;
    while i + 16 <= bytes.len() {
        // SAFETY: bytes[i..i + 16] is in the slice.
        let chunk = unsafe { _mm_loadu_si128(bytes.as_ptr().add(i).cast()) };
        let x = _mm512_xor_si512(
            _mm512_shuffle_epi8(_mm512_broadcast_i32x4(chunk), idx),
            flip,
        );
        // XXH3's rrmxmx avalanche of the 4–8-byte formula.
        let mut h = _mm512_xor_si512(
            x,
            _mm512_xor_si512(_mm512_rol_epi64::<49>(x), _mm512_rol_epi64::<24>(x)),
        );
        h = _mm512_mullo_epi64(h, mul);
        h = _mm512_xor_si512(h, _mm512_add_epi64(_mm512_srli_epi64::<35>(h), len));
        h = _mm512_mullo_epi64(h, mul);
        h = _mm512_xor_si512(h, _mm512_srli_epi64::<28>(h));
        // The scheme's hash: fmix64(x ^ key).
        h = _mm512_xor_si512(h, key);
        h = _mm512_xor_si512(h, _mm512_srli_epi64::<33>(h));
        h = _mm512_mullo_epi64(h, f1);
        h = _mm512_xor_si512(h, _mm512_srli_epi64::<33>(h));
        h = _mm512_mullo_epi64(h, f2);
        h = _mm512_xor_si512(h, _mm512_srli_epi64::<33>(h));
        h = _mm512_min_epu32(h, cap);
        // SAFETY: `out` is 64 bytes.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast::<__m512i>(), h) };
        for &h in &out {
            // The top 7 bits: (hi32(h) · 128) >> 32.
            let b = &mut bins[(h >> 57) as usize];
            *b = (*b).min(h as u32);
        }
        i += 8;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::{v2, SplitMix64};
    use crate::minhash::one_permutation::{Keys, EMPTY_VALUE};

    /// The kernel's bins against each window hashed and folded alone
    /// (`v2::xxh3`, the reference XXH3-64, then `Keys::fold`): q 4 to 8,
    /// 0 to 99 bytes, random ASCII, three seeds. Without AVX-512 the
    /// kernel declines and the windows are folded one at a time.
    #[test]
    fn the_kernel_folds_as_each_window_alone() {
        let mut rng = SplitMix64::new(7);
        for seed in [0u64, 1, 0xdead_beef_0bad_cafe] {
            let keys = Keys::new(seed);
            for q in 4..=8 {
                for len in 0..100 {
                    let bytes: alloc::vec::Vec<u8> =
                        (0..len).map(|_| (rng.next() % 0x80) as u8).collect();
                    let mut want = [EMPTY_VALUE; 128];
                    for w in bytes.windows(q) {
                        keys.fold(&mut want, v2::xxh3(seed, w));
                    }
                    let mut got = [EMPTY_VALUE; 128];
                    keys.fold_windows(&mut got, seed, &bytes, q);
                    assert_eq!(got, want, "seed {seed}, q {q}, {len} bytes");
                    // The kernel alone covers whole groups of eight.
                    let mut part = [EMPTY_VALUE; 128];
                    let flip = v2::flip8(seed);
                    match fold_windows(&mut part, &bytes, q, flip, keys.key()) {
                        None => assert!(!available()),
                        Some(m) => {
                            // Every group of 8 whose 16 bytes are in the slice.
                            let groups = if len < 16 { 0 } else { (len - 16) / 8 + 1 };
                            assert_eq!(m, 8 * groups, "q {q}, {len} bytes");
                            let mut alone = [EMPTY_VALUE; 128];
                            for w in bytes.windows(q).take(m) {
                                keys.fold(&mut alone, v2::xxh3(seed, w));
                            }
                            assert_eq!(part, alone, "seed {seed}, q {q}, {len} bytes");
                        }
                    }
                }
            }
        }
    }
}
