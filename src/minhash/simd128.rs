//! The one-permutation fold of an ASCII text's character q-grams (4 to 8
//! bytes) in WebAssembly's 128-bit SIMD (`simd128`, the npm package's SIMD
//! module), two windows a vector, as `super::avx2` does four natively:
//! each window hashed by XXH3-64's 4–8-byte formula (`XXH3_len_4to8_64b`,
//! the xxHash specification v0.8; SPEC.md §3), then the scheme's
//! `fmix64(h ^ key)`, then folded into its bin by the scalar code's rule.
//!
//! Each 64-bit lane is shuffled out of a 16-byte load (`i8x16.swizzle`),
//! its first four bytes as the high half and its last four as the low: the
//! eight windows that start in a load's first eight bytes (the last ends at
//! its byte 15 when q is 8) come out of it in four vectors, whose chains
//! the engine interleaves; the products are `i64x2.mul`. In Node, text →
//! MinHash at char:5 (normalisation and fold) takes 0.874× the time it took
//! with one window at a time (in Chromium, no difference); four windows a
//! load took 1.14× the time of eight, sixteen a step (two loads) 1.15×
//! (BENCHMARKS.md, "Character q-grams two at a time in WebAssembly").
//!
//! `unsafe`: the 16-byte loads, each inside the slice.
#![allow(unsafe_code)]

use core::arch::wasm32::{
    i64x2_add, i64x2_mul, i64x2_shl, i8x16_swizzle, u32x4_min, u64x2_extract_lane, u64x2_shr,
    u64x2_splat, v128, v128_load, v128_or, v128_xor,
};

/// `x` rotated left by `r` bits in each lane.
#[inline(always)]
fn rotl(x: v128, r: u32) -> v128 {
    v128_or(i64x2_shl(x, r), u64x2_shr(x, 64 - r))
}

/// XXH3's `rrmxmx` (the 4–8-byte formula's mix), `len` each lane's length.
#[inline(always)]
fn strong_avalanche(x: v128, len: v128) -> v128 {
    let mul = u64x2_splat(0x9fb2_1c65_1e98_df25);
    let mut h = v128_xor(x, v128_xor(rotl(x, 49), rotl(x, 24)));
    h = i64x2_mul(h, mul);
    h = v128_xor(h, i64x2_add(u64x2_shr(h, 35), len));
    h = i64x2_mul(h, mul);
    v128_xor(h, u64x2_shr(h, 28))
}

/// MurmurHash3's `fmix64` in each lane.
#[inline(always)]
fn fmix64(mut h: v128) -> v128 {
    h = v128_xor(h, u64x2_shr(h, 33));
    h = i64x2_mul(h, u64x2_splat(0xff51_afd7_ed55_8ccd));
    h = v128_xor(h, u64x2_shr(h, 33));
    h = i64x2_mul(h, u64x2_splat(0xc4ce_b9fe_1a85_ec53));
    v128_xor(h, u64x2_shr(h, 33))
}

/// The shuffle that makes lane `l` (0, 1) the input of the window of `q`
/// bytes that starts `first + l` bytes into a 16-byte load: its last four
/// bytes, then its first four.
fn windows_shuffle(q: usize, first: usize) -> v128 {
    let mut s = [0u8; 16];
    for l in 0..2 {
        for t in 0..4 {
            s[l * 8 + t] = (first + l + q - 4 + t) as u8;
            s[l * 8 + 4 + t] = (first + l + t) as u8;
        }
    }
    // SAFETY: `s` is 16 bytes.
    unsafe { v128_load(s.as_ptr().cast()) }
}

/// Folds the windows of `q` bytes of `bytes` that start at `0, 1, …, m −
/// 1` into `bins`, and returns `m`: a multiple of 8, every group of eight
/// windows whose 16 bytes from the group's start lie in `bytes`. `flip8`
/// is XXH3's 4–8-byte key for the seed ([`crate::hash::v2::flip8`]), `key` the scheme's.
/// `None` when `q` is not in 4..=8 (nothing folded).
pub(crate) fn fold_windows(
    bins: &mut [u32; 128],
    bytes: &[u8],
    q: usize,
    flip8: u64,
    key: u64,
) -> Option<usize> {
    if !(4..=8).contains(&q) {
        return None;
    }
    let shuffles = [0, 2, 4, 6].map(|first| windows_shuffle(q, first));
    let (flip, len, key) = (u64x2_splat(flip8), u64x2_splat(q as u64), u64x2_splat(key));
    // A bin's value is the low half capped at 2^32 − 2 (2^32 − 1 is an
    // empty bin); the high half, the bin, is left as it is.
    let cap = u64x2_splat(0xffff_ffff_ffff_fffe);
    let hash = |chunk: v128, shuffle: v128| {
        let x = v128_xor(i8x16_swizzle(chunk, shuffle), flip);
        u32x4_min(fmix64(v128_xor(strong_avalanche(x, len), key)), cap)
    };
    let mut fold = |h: u64| super::one_permutation::Keys::fold_capped(bins, h);
    let mut i = 0;
    while i + 16 <= bytes.len() {
        // SAFETY: bytes[i..i + 16] is in the slice.
        let chunk = unsafe { v128_load(bytes.as_ptr().add(i).cast()) };
        for h in shuffles.map(|shuffle| hash(chunk, shuffle)) {
            fold(u64x2_extract_lane::<0>(h));
            fold(u64x2_extract_lane::<1>(h));
        }
        i += 8;
    }
    Some(i)
}
