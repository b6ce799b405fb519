//! One-permutation MinHash's fold of an ASCII text's character q-grams at
//! spec 2, four windows at a time with AVX2 (x86-64, detected when the
//! program runs; the `std` feature), for the processors without AVX-512
//! (`super::avx512`, eight at a time). The values are the scalar path's.
//!
//! The same steps as `super::avx512`: each window of `q` bytes (`q` in
//! 4..=8) is hashed by XXH3-64's 4–8-byte formula
//! (`crate::hash::avx2::Windows4`, four windows shuffled out of one 16-byte
//! load), then by the scheme's `fmix64(x ^ key)` (Li, Owen & Zhang 2012,
//! see [`super::one_permutation`]), and the four (bin, value) pairs are
//! folded by scalar code, in order. The 64-bit products are
//! `crate::hash::avx2::Mul`'s, three 32-bit ones each. A text's word
//! k-shingles are folded one at a time: in these lanes they took longer
//! (BENCHMARKS.md, "AVX2 where AVX-512 is missing").
//!
//! `unsafe` (as in `crate::hash::avx2`): calling the kernel, compiled for
//! AVX2, once the CPU has been seen to have it, and its loads, each inside
//! the slice.
#![allow(unsafe_code)]

use crate::hash::avx2::{fmix64, splat, Windows4};
use core::arch::x86_64::{__m256i, _mm256_min_epu32, _mm256_storeu_si256, _mm256_xor_si256};

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
        let b = &mut bins[(h >> 57) as usize];
        *b = (*b).min(h as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::{v2, SplitMix64};
    use crate::minhash::one_permutation::{Keys, EMPTY_VALUE};

    /// The kernel's bins against each window hashed and folded alone
    /// (`v2::xxh3`, the reference XXH3-64, then `Keys::fold`): q 4 to 8,
    /// 0 to 99 bytes, random ASCII, three seeds; it covers the whole groups
    /// of four whose 16 bytes are in the slice.
    #[test]
    fn the_kernel_folds_as_each_window_alone() {
        let mut rng = SplitMix64::new(17);
        for seed in [0u64, 1, 0xdead_beef_0bad_cafe] {
            let keys = Keys::new(seed);
            for q in 4..=8 {
                for len in 0..100 {
                    let bytes: alloc::vec::Vec<u8> =
                        (0..len).map(|_| (rng.next() % 0x80) as u8).collect();
                    let mut part = [EMPTY_VALUE; 128];
                    match fold_windows(&mut part, &bytes, q, v2::flip8(seed), keys.key()) {
                        None => assert!(!available()),
                        Some(m) => {
                            let groups = if len < 16 { 0 } else { (len - 16) / 4 + 1 };
                            assert_eq!(m, 4 * groups, "q {q}, {len} bytes");
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
        assert_eq!(fold_windows(&mut [0; 128], &[0; 32], 3, 0, 0), None);
    }
}
