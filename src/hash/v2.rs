//! Spec version 2's text → shingle hashes (`SPEC.md` §3a),
//! chosen by measurement (`benches/spec_v2_candidates.rs`, BENCHMARKS.md
//! "Toward the machine's limit"): 1.5× version 1's throughput from text to
//! word 5-shingles, with no collision on the benchmark's megabyte.
//!
//! * Byte strings (word tokens, character q-grams, phonetic codes) are
//!   hashed by **XXH3-64 with a seed** (Yann Collet, the xxHash
//!   specification v0.8, `doc/xxhash_spec.md` of the xxHash repository; the
//!   `xxhash-rust` crate): it reads up to 16 bytes with two loads, where
//!   FNV-1a multiplies once per byte in sequence.
//! * A word k-shingle is the **Rabin–Karp polynomial** of its k token hashes,
//!   `H = Σ_m t_m · P^(k−1−m)` (mod 2^64), rolled from one position to the
//!   next in two multiplications, and finalised once: `fmix64(H ^ seed)`
//!   (Karp & Rabin 1987). Version 1 applied `fmix64` k times in sequence.
//!   The token hashes are uniform 64-bit values and `P` is odd, so two
//!   different windows collide with probability 2^-64, as with version 1.

use super::fmix64;
use alloc::vec::Vec;

/// The polynomial's base `P`: odd, its bits spread (2^64 / φ, as in
/// SplitMix64).
pub const POLY_BASE: u64 = 0x9e37_79b9_7f4a_7c15;

/// XXH3-64 of `bytes` with `seed` (xxHash specification v0.8). Seed 0 gives
/// the plain XXH3-64: `xxh3(0, b"") = 0x2d06800538d394c2`.
#[inline]
pub fn xxh3(seed: u64, bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64_with_seed(bytes, seed)
}

/// The first 56 bytes of XXH3's default secret (`kSecret`, xxHash
/// specification v0.8): all that inputs of 1 to 16 bytes read.
const SECRET: [u8; 56] = [
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
    0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
    0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
    0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e,
];

const fn secret64(at: usize) -> u64 {
    let mut v = 0u64;
    let mut i = 8;
    while i > 0 {
        i -= 1;
        v = (v << 8) | SECRET[at + i] as u64;
    }
    v
}

const fn secret32(at: usize) -> u64 {
    secret64(at) & 0xffff_ffff
}

/// XXH3-64 of inputs of 1 to 16 bytes for one seed, from two 8-byte reads
/// of the input: the three formulas of the specification (1–3, 4–8 and 9–16
/// bytes) without the length dispatch and the memory reads of a call to
/// [`xxh3`]. Equal to [`xxh3`] for every input of 1 to 16 bytes (tested).
///
/// Natively the input's formula is chosen by branches on its length. A
/// text's words vary in length at random, so these are often mispredicted,
/// yet computing all three formulas and keeping one without a branch (the
/// form before) was slower: 3–4 % of `neardup dedup --shingle word:5`
/// (BENCHMARKS.md, "Word hashes straight from the normaliser").
///
/// On wasm32 the 9–16-byte formula is computed only for the inputs that need
/// it (one word in ten of docs-bench's prose): its 128-bit product costs some
/// thirty instructions there (see `mul_fold`), more than the mispredicted
/// branches it saves, and hashing a text's tokens took 2.4× native time
/// (BENCHMARKS.md, "WebAssembly at the pipeline's spec"); the other two are
/// computed and one kept without a branch, which measured faster there than
/// branching on all three.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ShortXxh3 {
    /// 1–3 bytes: `(secret32[0] ^ secret32[4]) + seed`.
    pub(super) flip3: u64,
    /// 4–8 bytes: `(secret64[8] ^ secret64[16]) - (seed ^ bswap32(seed) << 32)`.
    pub(super) flip8: u64,
    /// 9–16 bytes: `(secret64[24] ^ secret64[32]) + seed` and
    /// `(secret64[40] ^ secret64[48]) - seed`.
    pub(super) flip16: (u64, u64),
}

impl ShortXxh3 {
    pub(crate) fn new(seed: u64) -> Self {
        ShortXxh3 {
            flip3: (secret32(0) ^ secret32(4)).wrapping_add(seed),
            flip8: flip8(seed),
            flip16: (
                (secret64(24) ^ secret64(32)).wrapping_add(seed),
                (secret64(40) ^ secret64(48)).wrapping_sub(seed),
            ),
        }
    }

    /// [`ShortXxh3::hash`] in place of many inputs: `firsts[i]` becomes
    /// `hash(firsts[i], lasts[i], lens[i])` where `lens[i]` is 1 to 16, and
    /// stays where it is 0 (a value hashed already). Eight at a time with
    /// AVX-512 (x86-64, `std`), else one by one. The slices are of one
    /// length (the shortest's inputs are hashed).
    pub(crate) fn hash_in_place(&self, firsts: &mut [u64], lasts: &[u64], lens: &[u8]) {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        let done = super::avx512::hash_short(self, firsts, lasts, lens).unwrap_or(0);
        #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
        let done = 0;
        let rest = firsts.iter_mut().zip(lasts.iter().zip(lens)).skip(done);
        for (first, (&last, &len)) in rest {
            if len != 0 {
                *first = self.hash(*first, last, usize::from(len));
            }
        }
    }

    /// XXH3-64 of an input of `len` bytes (1 to 16), given `first`, its
    /// first 8 bytes read little-endian, and `last`, the 8 bytes that end
    /// it: bytes of either that are not the input's are read but not used.
    #[inline(always)]
    pub(crate) fn hash(&self, first: u64, last: u64, len: usize) -> u64 {
        let n = len as u64;
        // 1–3 bytes: the first, middle (at len / 2: 0 or 1) and last bytes,
        // and the length.
        let c1 = first & 0xff;
        let c2 = (first >> (((len >> 1) & 1) * 8)) & 0xff;
        let c3 = last >> 56;
        let combo = (c1 << 16) | (c2 << 24) | c3 | (n << 8);
        let h3 = xxh64_avalanche(combo ^ self.flip3);
        let h8 = self.hash4to8(first, last, n);
        // 9–16 bytes: the first and last eight.
        let h16 = || {
            let lo = first ^ self.flip16.0;
            let hi = last ^ self.flip16.1;
            let acc = n
                .wrapping_add(lo.swap_bytes())
                .wrapping_add(hi)
                .wrapping_add(mul_fold(lo, hi));
            xxh3_avalanche(acc)
        };
        // On wasm32, a branch around the costly formula (see the type's docs).
        #[cfg(target_arch = "wasm32")]
        if len > 8 {
            return h16();
        }
        #[cfg(target_arch = "wasm32")]
        return core::hint::select_unpredictable(len < 4, h3, h8);
        #[cfg(not(target_arch = "wasm32"))]
        {
            if len < 4 {
                return h3;
            }
            if len <= 8 {
                return h8;
            }
            h16()
        }
    }

    /// XXH3-64 of a window of `q` bytes (4 to 8, `w.len() == q`), from its
    /// first four and last four bytes.
    #[inline(always)]
    fn window(&self, w: &[u8], q: usize) -> u64 {
        let four = |at: usize| -> u64 {
            let b: [u8; 4] = w
                .get(at..at + 4)
                .and_then(|b| b.try_into().ok())
                .unwrap_or_default();
            u64::from(u32::from_le_bytes(b))
        };
        self.hash4to8(four(0), four(q - 4) << 32, q as u64)
    }

    /// XXH3-64 of an input of `n` bytes (4 to 8): its first four bytes are
    /// the low half of `first`, its last four the high half of `last`.
    #[inline(always)]
    fn hash4to8(&self, first: u64, last: u64, n: u64) -> u64 {
        let x = ((first & 0xffff_ffff) << 32).wrapping_add(last >> 32) ^ self.flip8;
        strong_avalanche(x, n)
    }
}

/// XXH3-64's key of its 4–8-byte formula for `seed` (`XXH3_len_4to8_64b`):
/// `(secret64[8] ^ secret64[16]) - (seed ^ bswap32(seed) << 32)`.
pub(crate) fn flip8(seed: u64) -> u64 {
    let seed8 = seed ^ (u64::from((seed as u32).swap_bytes()) << 32);
    (secret64(8) ^ secret64(16)).wrapping_sub(seed8)
}

/// [`xxh3`] with `seed` of every window of `q` bytes of `bytes`, in order
/// (`bytes.len() - q + 1` values), each given to `f`, for `q` in 4..=8 and `bytes` at least `q`
/// long: an ASCII text's character q-grams. One formula of the
/// specification applies to every window, so it is computed inline from two
/// 4-byte reads, without the length dispatch of a call to [`xxh3`]; where
/// the CPU has AVX-512, eight windows at a time (`super::avx512`), with
/// AVX2 four (`super::avx2`), 256 hashed before they are given. Other `q`
/// go through [`xxh3`]; `bytes` shorter than `q` gives no value.
pub(crate) fn for_each_xxh3_window(seed: u64, bytes: &[u8], q: usize, mut f: impl FnMut(u64)) {
    if !(4..=8).contains(&q) {
        return bytes.windows(q.max(1)).for_each(|w| f(xxh3(seed, w)));
    }
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    let bytes = {
        let (mut out, mut at) = ([0u64; 256], 0);
        while let Some(m @ 1..) = windows_kernel(seed, &mut out, &bytes[at..], q) {
            out[..m].iter().for_each(|&h| f(h));
            at += m;
        }
        // The windows from `at` on, one by one.
        &bytes[at..]
    };
    let short = ShortXxh3::new(seed);
    bytes.windows(q).for_each(|w| f(short.window(w, q)));
}

/// [`for_each_xxh3_window`]'s values written to `out` in order, for `q` in
/// 4..=8 and `out` as long as `bytes` has windows (`bytes.len() − q + 1`;
/// a shorter `out` takes the first windows, a longer one keeps the rest):
/// the SIMD kernels write straight into it, with no buffer between. Other
/// `q` go through [`xxh3`].
pub(crate) fn fill_xxh3_windows(seed: u64, bytes: &[u8], q: usize, out: &mut [u64]) {
    if !(4..=8).contains(&q) {
        let hashes = bytes.windows(q.max(1)).map(|w| xxh3(seed, w));
        return out.iter_mut().zip(hashes).for_each(|(o, h)| *o = h);
    }
    #[allow(unused_mut)]
    let mut at = 0;
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    while let Some(m @ 1..) = windows_kernel(seed, &mut out[at..], &bytes[at..], q) {
        at += m;
    }
    let short = ShortXxh3::new(seed);
    let rest = bytes[at.min(bytes.len())..].windows(q);
    for (o, w) in out[at..].iter_mut().zip(rest) {
        *o = short.window(w, q);
    }
}

/// The windows of `q` bytes (4 to 8) at the start of `bytes` hashed by
/// AVX-512, else AVX2, into `out`: how many (a multiple of the kernel's
/// width, bounded by both slices), `None` where the CPU has neither.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[inline(always)]
fn windows_kernel(seed: u64, out: &mut [u64], bytes: &[u8], q: usize) -> Option<usize> {
    let flip = flip8(seed);
    super::avx512::xxh3_windows(out, bytes, q, flip)
        .or_else(|| super::avx2::xxh3_windows(out, bytes, q, flip))
}

/// The 128-bit product of `a` and `b`, its two halves XORed (XXH3's
/// `mul128_fold64`). One instruction on 64-bit machines.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn mul_fold(a: u64, b: u64) -> u64 {
    let wide = u128::from(a) * u128::from(b);
    (wide as u64) ^ ((wide >> 64) as u64)
}

/// WebAssembly has no 64 × 64 → 128-bit multiplication: Rust's `u128`
/// product is a call to `__multi3`, which returns through the stack in
/// memory, and LLVM turns the schoolbook product by halves back into that
/// call. With SIMD, the four 32 × 32 → 64-bit products are two
/// `i64x2.extmul_low_i32x4_u`, which it leaves alone.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn mul_fold(a: u64, b: u64) -> u64 {
    use core::arch::wasm32::{i64x2_extmul_low_u32x4, u64x2, u64x2_extract_lane};
    // Lanes as u32: (a_lo, a_hi, ·, ·) times (b_lo, b_lo, ·, ·) and
    // (b_hi, b_hi, ·, ·).
    let av = u64x2(a, 0);
    let lo = i64x2_extmul_low_u32x4(av, u64x2(b & 0xffff_ffff | (b << 32), 0));
    let hi = i64x2_extmul_low_u32x4(av, u64x2((b >> 32) | (b & !0xffff_ffff), 0));
    let (lo_lo, hi_lo) = (u64x2_extract_lane::<0>(lo), u64x2_extract_lane::<1>(lo));
    let (lo_hi, hi_hi) = (u64x2_extract_lane::<0>(hi), u64x2_extract_lane::<1>(hi));
    fold_halves(lo_lo, hi_lo, lo_hi, hi_hi)
}

/// Without SIMD, the call (the module for browsers without SIMD).
#[cfg(all(target_arch = "wasm32", not(target_feature = "simd128")))]
#[inline(always)]
fn mul_fold(a: u64, b: u64) -> u64 {
    mul_fold_by_halves(a, b)
}

/// The fold of a 128-bit product from its four 32 × 32 → 64-bit partial
/// products (schoolbook): no sum overflows, since `(2^32 − 1)^2 +
/// 2 (2^32 − 1) = 2^64 − 1`.
#[inline(always)]
fn fold_halves(lo_lo: u64, hi_lo: u64, lo_hi: u64, hi_hi: u64) -> u64 {
    const LOW: u64 = 0xffff_ffff;
    let cross = (lo_lo >> 32) + (hi_lo & LOW) + lo_hi;
    let upper = (hi_lo >> 32) + (cross >> 32) + hi_hi;
    let lower = (cross << 32) | (lo_lo & LOW);
    upper ^ lower
}

/// [`mul_fold`] from the four products of 32-bit halves.
#[cfg_attr(
    not(all(target_arch = "wasm32", not(target_feature = "simd128"))),
    allow(dead_code)
)]
#[inline(always)]
fn mul_fold_by_halves(a: u64, b: u64) -> u64 {
    const LOW: u64 = 0xffff_ffff;
    let (a_lo, a_hi, b_lo, b_hi) = (a & LOW, a >> 32, b & LOW, b >> 32);
    fold_halves(a_lo * b_lo, a_hi * b_lo, a_lo * b_hi, a_hi * b_hi)
}

#[inline(always)]
fn xxh64_avalanche(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    h ^= h >> 29;
    h = h.wrapping_mul(0x1656_67b1_9e37_79f9);
    h ^ (h >> 32)
}

#[inline(always)]
fn xxh3_avalanche(mut h: u64) -> u64 {
    h ^= h >> 37;
    h = h.wrapping_mul(0x1656_6791_9e37_79f9);
    h ^ (h >> 32)
}

#[inline(always)]
fn strong_avalanche(mut h: u64, len: u64) -> u64 {
    h ^= h.rotate_left(49) ^ h.rotate_left(24);
    h = h.wrapping_mul(0x9fb2_1c65_1e98_df25);
    h ^= (h >> 35).wrapping_add(len);
    h = h.wrapping_mul(0x9fb2_1c65_1e98_df25);
    h ^ (h >> 28)
}

/// [`xxh3`] with `seed` of each byte range `start..end` of `text`, in order
/// (word tokens: ranges in bounds, on character boundaries). Ranges of 1 to
/// 16 bytes with 8 bytes of `text` on both sides of them in bounds go
/// through [`ShortXxh3`]; the others through [`xxh3`].
pub(crate) fn xxh3_ranges(
    seed: u64,
    text: &[u8],
    ranges: impl ExactSizeIterator<Item = (usize, usize)>,
) -> Vec<u64> {
    let short = ShortXxh3::new(seed);
    let read = |at: usize| -> Option<u64> {
        let b: [u8; 8] = text.get(at..at + 8)?.try_into().ok()?;
        Some(u64::from_le_bytes(b))
    };
    let mut out = Vec::with_capacity(ranges.len());
    for (start, end) in ranges {
        let len = end.wrapping_sub(start);
        let quick = match (len.wrapping_sub(1) < 16, end.checked_sub(8)) {
            (true, Some(back)) => read(start).zip(read(back)),
            _ => None,
        };
        out.push(match quick {
            Some((first, last)) => short.hash(first, last, len),
            None => xxh3(seed, text.get(start..end).unwrap_or_default()),
        });
    }
    out
}

/// The word k-shingle hash of one window of token hashes:
/// `fmix64(seed ^ Σ_m t_m · P^(k−1−m))`, `k = window.len()`.
pub fn window(seed: u64, tokens: &[u64]) -> u64 {
    fmix64(seed ^ polynomial(tokens))
}

fn polynomial(tokens: &[u64]) -> u64 {
    tokens
        .iter()
        .fold(0u64, |h, &t| h.wrapping_mul(POLY_BASE).wrapping_add(t))
}

/// Word k-shingle hashes by position (shape as [`crate::shingle::word_shingles`]):
/// [`window`] of tokens `i .. i + k`, rolled; for `n < k` tokens, one value
/// for all of them. `k = 0` is treated as 1.
pub fn word_shingles(tokens: &[u64], k: usize, seed: u64) -> Vec<u64> {
    collect_word_shingles(tokens, k, seed)
}

/// [`word_shingles`] into any collection: from an iterator of known
/// length, so that an `Arc<[u64]>` is written in place, not copied from a
/// vector.
pub(crate) fn collect_word_shingles<C: FromIterator<u64>>(
    tokens: &[u64],
    k: usize,
    seed: u64,
) -> C {
    word_shingle_values(tokens, k, seed).collect()
}

/// [`word_shingles`]' values in order, computed as they are read (of
/// known length, so that they collect in place).
pub(crate) fn word_shingle_values(
    tokens: &[u64],
    k: usize,
    seed: u64,
) -> impl Iterator<Item = u64> + '_ {
    let k = k.max(1);
    // Fewer than k + 1 tokens: one value for all of them (none for none),
    // nothing rolled.
    let (head, incoming) = match tokens.len() <= k {
        true => (tokens, &tokens[..0]),
        false => tokens.split_at(k),
    };
    // P^(k−1): what the token leaving the window weighs.
    let top = (1..k).fold(1u64, |x, _| x.wrapping_mul(POLY_BASE));
    let mut h = polynomial(head);
    let first = (!head.is_empty()).then(|| fmix64(seed ^ h));
    let rolled = tokens.iter().zip(incoming).map(move |(&old, &new)| {
        h = h
            .wrapping_sub(old.wrapping_mul(top))
            .wrapping_mul(POLY_BASE)
            .wrapping_add(new);
        fmix64(seed ^ h)
    });
    first.into_iter().chain(rolled)
}

#[cfg(test)]
mod tests {
    use super::*;

    // XXH3-64 values of the reference C implementation (xxHash 0.8, through
    // the `xxhash` Python package 4.1.0), one for each of the algorithm's
    // length classes (0, 1–3, 4–8, 9–16, 17–128, 129–240, > 240 bytes).
    // The empty string's is the specification's published value.
    #[test]
    fn xxh3_matches_the_reference_implementation() {
        let y200 = [b'y'; 200];
        let long: Vec<u8> = (0..512u32).map(|i| (i % 256) as u8).collect();
        let cases: [(&[u8], u64, u64); 9] = [
            (b"", 0, 0x2d06_8005_38d3_94c2),
            (b"a", 0, 0xe6c6_32b6_1e96_4e1f),
            (b"abc", 7, 0x48ff_56f5_69e3_9912),
            (b"foobar", 0, 0xd78f_da63_144c_5c84),
            (b"neardup!", 1, 0x3600_2f63_2f04_5728),
            (b"hello world, 16b", 0, 0xb7fd_8ab6_f8e2_ad5a),
            (
                &[b'x'; 100],
                12_345_678_901_234_567_890,
                0x59ee_3e18_a44c_5ce4,
            ),
            (&y200, 3, 0xe50b_f027_ba20_1fe8),
            (&long, 9, 0x19ff_ce24_3600_b509),
        ];
        for (bytes, seed, want) in cases {
            assert_eq!(
                xxh3(seed, bytes),
                want,
                "{} bytes, seed {seed}",
                bytes.len()
            );
        }
    }

    #[test]
    fn rolled_windows_equal_windows_computed_afresh() {
        let t: Vec<u64> = (0..40u64).map(|i| fmix64(i + 1)).collect();
        for k in 1..=9 {
            let rolled = word_shingles(&t, k, 77);
            let fresh: Vec<u64> = t.windows(k).map(|w| window(77, w)).collect();
            assert_eq!(rolled, fresh, "k = {k}");
        }
        assert_eq!(word_shingles(&t[..3], 5, 1), [window(1, &t[..3])]);
        assert!(word_shingles(&[], 5, 1).is_empty());
    }

    /// The branch-free short path equals the `xxhash-rust` crate's XXH3-64
    /// for every range of a buffer of random bytes: every length from 0 to
    /// 40 (0 and past 16 go to the crate), at every start, so at the
    /// buffer's two ends too, for seeds 0, 1 and two random ones.
    #[test]
    fn the_ranges_hash_as_the_crates_xxh3() {
        let mut rng = crate::testing::XorShift(0x0123_4567_89ab_cdef);
        let text: Vec<u8> = (0..97).map(|_| rng.next_u64() as u8).collect();
        for seed in [0, 1, rng.next_u64(), rng.next_u64()] {
            let ranges: Vec<(usize, usize)> = (0..=40)
                .flat_map(|len| (0..=text.len() - len).map(move |s| (s, s + len)))
                .collect();
            let got = xxh3_ranges(seed, &text, ranges.iter().copied());
            for (&(s, e), got) in ranges.iter().zip(got) {
                let want = xxhash_rust::xxh3::xxh3_64_with_seed(&text[s..e], seed);
                assert_eq!(got, want, "bytes {s}..{e}, seed {seed}");
            }
        }
    }

    /// Every window's hash against the `xxhash-rust` crate's XXH3-64 of
    /// it, in order: q 1 to 9, random bytes of 0 to 299 (past the 256
    /// windows hashed at a time where the CPU has AVX-512, and every length
    /// around the 16 bytes of its load), three seeds.
    #[test]
    fn each_window_hashes_as_the_crates_xxh3() {
        let mut rng = crate::testing::XorShift(0x5851_f42d_4c95_7f2d);
        let text: Vec<u8> = (0..299).map(|_| rng.next_u64() as u8).collect();
        for seed in [0, 1, rng.next_u64()] {
            for q in 1..=9 {
                for len in (0..40).chain([255, 256, 263, 271, 272, 299]) {
                    let bytes = &text[..len];
                    let mut got = Vec::new();
                    for_each_xxh3_window(seed, bytes, q, |h| got.push(h));
                    let want: Vec<u64> = bytes
                        .windows(q)
                        .map(|w| xxhash_rust::xxh3::xxh3_64_with_seed(w, seed))
                        .collect();
                    assert_eq!(got, want, "q {q}, {len} bytes, seed {seed}");
                }
            }
        }
    }

    /// The product by 32-bit halves (WebAssembly's) equals the `u128` one,
    /// at the extremes and on random values.
    #[test]
    fn the_product_by_halves_is_the_wide_one() {
        let mut rng = crate::testing::XorShift(0x9e37_79b9_7f4a_7c15);
        let mut cases = alloc::vec![
            (0, 0),
            (u64::MAX, u64::MAX),
            (u64::MAX, 1),
            (1 << 32, 1 << 32)
        ];
        for _ in 0..10_000 {
            let x = rng.next_u64();
            cases.push((x, x.rotate_left(29) ^ 0x5555));
        }
        for (a, b) in cases {
            assert_eq!(mul_fold_by_halves(a, b), mul_fold(a, b), "{a:#x} × {b:#x}");
        }
    }
}
