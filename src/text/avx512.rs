//! A text's ASCII blocks with AVX-512 (x86-64, detected when the program
//! runs; the `std` feature).
//!
//! [`classes`]: the classes of 64 bytes (letters, digits, `_`, the joining
//! punctuation, whitespace, bytes ≥ 0x80), each a mask from one comparison
//! of the whole block, where the 128-bit path (`wide`) takes four a class.
//!
//! [`write_block`] (with VBMI2's byte compress): the normalised text of a
//! block's word segments — each segment's letters and digits lowercased,
//! after a space unless the text is still empty — is one mask of the bytes
//! kept (the letters and digits, and the byte before each segment, made a
//! space) compressed into place by one instruction and one store, and each
//! token's ranges come from counts of that mask. Word at a time
//! (`segment::push_word`), each segment is a call with its own bounds
//! checks, an 8-byte loop and a truncation. The same text and tokens as
//! word at a time, for blocks whose every segment holds a letter or digit:
//! a segment of `_` alone writes nothing, not even its space, so a block
//! with a `_` is left to the word-at-a-time path.
//!
//! [`short_words`] (with VBMI's byte permutes and VBMI2's compress): for
//! word shingles, which hash each token where it is found, a block's
//! segments as XXH3's short inputs, gathered at once — each segment's start
//! and end compressed out of the block's masks, and its first and last
//! eight bytes permuted out of the 128 bytes around the block, eight
//! segments an instruction — for `crate::hash`'s kernel to hash eight at a
//! time. Segments longer than 16 bytes or with joining punctuation are
//! marked for the caller to hash one by one.
//!
//! All three are held to `unicode-segmentation` by the fast path's tests
//! (`normalize::tests::fast_path_equals_the_general_path`,
//! `word_hashes::tests::hashes_are_xxh3_of_the_normalised_tokens`,
//! `tests/segmentation.rs`), which take these kernels on a CPU that has
//! them, and the classes to the byte table for every byte at every place
//! (`segment::tests::a_block_s_classes_are_the_table_s`).
//!
//! `unsafe`: calling the kernels, compiled for the features a proof value
//! ([`Avx512`], [`Vbmi2`]) says the CPU has, made only once they were seen;
//! their loads, each of a 64-byte array, and their stores, into room
//! reserved in the vectors.
#![allow(unsafe_code)]

use super::token::Token;
use super::TextRange;
use alloc::vec::Vec;
use core::arch::x86_64::{
    __m512i, _mm512_add_epi8, _mm512_cmpeq_epi8_mask, _mm512_cmpgt_epu8_mask,
    _mm512_cmple_epu8_mask, _mm512_loadu_si512, _mm512_mask_blend_epi8, _mm512_maskz_compress_epi8,
    _mm512_movepi8_mask, _mm512_or_si512, _mm512_permutex2var_epi8, _mm512_permutexvar_epi8,
    _mm512_set1_epi8, _mm512_storeu_si512, _mm512_sub_epi8,
};

/// Proof that this CPU has AVX-512F, BW and DQ: made only by
/// [`Avx512::detect`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512(());

impl Avx512 {
    /// The proof, where this CPU has the features (detected once and cached
    /// by `std`).
    pub(crate) fn detect() -> Option<Self> {
        crate::hash::avx512::available().then_some(Avx512(()))
    }
}

/// Proof that this CPU also has AVX-512 VBMI and VBMI2 (byte permutes and
/// compresses; every CPU with VBMI2 so far has VBMI): made only by
/// [`Vbmi2::detect`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vbmi2(());

impl Vbmi2 {
    /// The proof, where this CPU has the features.
    pub(crate) fn detect() -> Option<Self> {
        (crate::hash::avx512::available()
            && std::is_x86_feature_detected!("avx512vbmi")
            && std::is_x86_feature_detected!("avx512vbmi2"))
        .then_some(Vbmi2(()))
    }
}

/// The classes of the 64 bytes of `block`, bit `k` about byte `k`: ASCII
/// letters, digits, `_`, the punctuation that joins two letters (`:` `.`
/// `'`), that joining two digits (`,` `;` `.` `'`), ASCII whitespace, and
/// bytes ≥ 0x80 — `segment::Classes`' fields, in that order.
pub(crate) fn classes(_: Avx512, block: &[u8; 64]) -> [u64; 7] {
    // SAFETY: the proof says the CPU has the kernel's features.
    unsafe { classes_avx512(block) }
}

#[target_feature(enable = "avx512f,avx512bw")]
fn classes_avx512(block: &[u8; 64]) -> [u64; 7] {
    // SAFETY: 64 bytes read from a 64-byte array.
    let v = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
    let eq = |b: u8| _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b as i8));
    // Bytes of `x` in `lo..=lo + span`: `x - lo` at most `span`, unsigned.
    let within = |x: __m512i, lo: u8, span: u8| {
        _mm512_cmple_epu8_mask(
            _mm512_sub_epi8(x, _mm512_set1_epi8(lo as i8)),
            _mm512_set1_epi8(span as i8),
        )
    };
    let letter = within(_mm512_or_si512(v, _mm512_set1_epi8(0x20)), b'a', 25);
    let digit = within(v, b'0', 9);
    let both = eq(b'.') | eq(b'\'');
    let space = within(v, b'\t', 1) | within(v, b'\x0C', 1) | eq(b' ');
    [
        letter,
        digit,
        eq(b'_'),
        both | eq(b':'),
        both | eq(b',') | eq(b';'),
        space,
        _mm512_movepi8_mask(v),
    ]
}

/// Appends to `text` and `tokens` the word segments of `bytes[at..at +
/// 64]`: `word`'s runs of set bits (bit `k` is byte `at + k`), each a
/// segment, and `alnum` its bytes that are letters or digits (at least one
/// in every run; the others, `_` and joining punctuation, are dropped), as
/// `segment::push_word` appends them one by one. The byte before `at`, if
/// any, is not part of a segment, and no run ends at bit 63 (the block
/// ends in whitespace).
///
/// # Panics
/// When `bytes` has fewer than `at + 64` bytes (callers check).
pub(crate) fn write_block(
    _: Vbmi2,
    bytes: &[u8],
    at: usize,
    word: u64,
    alnum: u64,
    text: &mut Vec<u8>,
    tokens: &mut Vec<Token>,
) {
    let block: &[u8; 64] = bytes[at..at + 64].try_into().expect("64 bytes");
    // SAFETY: the proof says the CPU has the kernel's features.
    unsafe { write_block_avx512(block, at, word, alnum, text, tokens) }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt,bmi1")]
fn write_block_avx512(
    block: &[u8; 64],
    at: usize,
    word: u64,
    alnum: u64,
    text: &mut Vec<u8>,
    tokens: &mut Vec<Token>,
) {
    let starts = word & !(word << 1);
    if starts == 0 {
        return;
    }
    let ends = !word & (word << 1);
    // Each segment's space: the byte before it (never a segment's byte),
    // the first segment's only when the text is not empty, and written on
    // its own when the block starts with that segment.
    let first = starts.trailing_zeros();
    let mut slots = starts >> 1;
    if text.is_empty() {
        slots &= !((1u64 << first) >> 1);
    } else if first == 0 {
        text.push(b' ');
    }
    let keep = (alnum & word) | slots;
    let base = text.len();
    text.reserve(64);
    // SAFETY: 64 bytes read from `block`; 64 written where `reserve` made
    // room for them, of which the first `keep.count_ones()` are the text's
    // (ASCII), the length set to those.
    unsafe {
        let v = _mm512_loadu_si512(block.as_ptr().cast());
        let space = _mm512_set1_epi8(b' ' as i8);
        // Letters and digits lowercased by bit 5 (a digit has it), the
        // slots made spaces, then the kept bytes packed to the front.
        let out = _mm512_mask_blend_epi8(slots, _mm512_or_si512(v, space), space);
        let packed = _mm512_maskz_compress_epi8(keep, out);
        _mm512_storeu_si512(text.as_mut_ptr().add(base).cast(), packed);
        text.set_len(base + keep.count_ones() as usize);
    }
    let (mut starts, mut ends) = (starts, ends);
    let kept_below = |k: u32| base + (keep & ((1u64 << k) - 1)).count_ones() as usize;
    while starts != 0 {
        let (s, e) = (starts.trailing_zeros(), ends.trailing_zeros());
        starts &= starts - 1;
        ends &= ends - 1;
        tokens.push(Token {
            orig: TextRange {
                start: at + s as usize,
                end: at + e as usize,
            },
            norm: TextRange {
                start: kept_below(s),
                end: kept_below(e),
            },
        });
    }
}

/// A block's word segments as the short inputs of XXH3-64
/// (`crate::hash::v2::ShortXxh3::hash_in_place`), appended in order: for
/// each of `word`'s runs of set bits (bit `k` is byte `at + k`; no run ends
/// at bit 63), its first 8 bytes to `firsts`, the 8 bytes that end it to
/// `lasts` (both read little-endian, bit 5 set on every byte: a letter or
/// digit lowercased; bytes outside the text read as 0) and its length in
/// bytes to `lens`. Returns the runs whose three values are of no use, bit
/// `k` for the `k`-th run: those longer than 16 bytes and those with a byte
/// not in `alnum` (joining punctuation, dropped from the token), which the
/// caller hashes otherwise. `word` has no `_`.
///
/// One by one (`word_hashes::Hashes::ascii_word`), each segment is two
/// loads and three appends; here the starts and ends are compressed out of
/// the block's masks, and the 8-byte words of eight segments are each
/// permuted out of the 128 bytes around the block by one instruction.
///
/// # Panics
/// When `bytes` has fewer than `at + 64` bytes (callers check).
#[allow(clippy::too_many_arguments)]
pub(crate) fn short_words(
    _: Vbmi2,
    bytes: &[u8],
    at: usize,
    word: u64,
    alnum: u64,
    firsts: &mut Vec<u64>,
    lasts: &mut Vec<u64>,
    lens: &mut Vec<u8>,
) -> u32 {
    assert!(at + 64 <= bytes.len(), "a block of 64 bytes");
    // The 128 bytes from `at - 32`: every byte a segment's two words read
    // (copied, with 0 outside the text, near the text's ends).
    let mut padded = [0u8; 128];
    let window: &[u8; 128] = match at.checked_sub(32).and_then(|from| bytes.get(from..at + 96)) {
        Some(w) => w.try_into().expect("128 bytes"),
        None => {
            let from = at.saturating_sub(32);
            let to = (at + 96).min(bytes.len());
            padded[from + 32 - at..to + 32 - at].copy_from_slice(&bytes[from..to]);
            &padded
        }
    };
    // SAFETY: the proof says the CPU has the kernel's features.
    unsafe { short_words_avx512(window, word, alnum, firsts, lasts, lens) }
}

/// Byte `i` is `i`.
const IOTA: [u8; 64] = lanes(1, 0);
/// Lane `8 j + i` of a group of eight runs is run `j`'s byte `i`: `j`.
const LANE_RUN: [u8; 64] = lanes(8, 0);
/// `i`.
const LANE_BYTE: [u8; 64] = lanes(1, 8);

/// Byte `i` is `i / div`, or `i % modulo` when `modulo` is not 0.
const fn lanes(div: usize, modulo: usize) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = if modulo == 0 { i / div } else { i % modulo } as u8;
        i += 1;
    }
    t
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
fn short_words_avx512(
    window: &[u8; 128],
    word: u64,
    alnum: u64,
    firsts: &mut Vec<u64>,
    lasts: &mut Vec<u64>,
    lens: &mut Vec<u8>,
) -> u32 {
    let starts = word & !(word << 1);
    let ends = !word & (word << 1);
    // At most 32 runs: each is followed by a clear bit.
    let runs = starts.count_ones() as usize;
    if runs == 0 {
        return 0;
    }
    let base = firsts.len();
    firsts.reserve(32);
    lasts.reserve(32);
    lens.reserve(64);
    // SAFETY: the loads are of 64-byte arrays; each store is inside the room
    // `reserve` made (groups of 8 runs, at most 32; 64 lengths), and the
    // lengths are set to the `runs` values written.
    let long = unsafe {
        let lo = _mm512_loadu_si512(window.as_ptr().cast());
        let hi = _mm512_loadu_si512(window.as_ptr().add(64).cast());
        let iota = _mm512_loadu_si512(IOTA.as_ptr().cast());
        let lane_run = _mm512_loadu_si512(LANE_RUN.as_ptr().cast());
        let lane_byte = _mm512_loadu_si512(LANE_BYTE.as_ptr().cast());
        let s = _mm512_maskz_compress_epi8(starts, iota);
        let e = _mm512_maskz_compress_epi8(ends, iota);
        let len = _mm512_sub_epi8(e, s);
        // In the window, a run's first byte is at `32 + s`, the 8 bytes
        // that end it from `24 + e`.
        let first_at = _mm512_add_epi8(lane_byte, _mm512_set1_epi8(32));
        let last_at = _mm512_add_epi8(lane_byte, _mm512_set1_epi8(24));
        let lower = _mm512_set1_epi8(0x20);
        for g in (0..runs).step_by(8) {
            let sel = _mm512_add_epi8(lane_run, _mm512_set1_epi8(g as i8));
            let at_first = _mm512_add_epi8(_mm512_permutexvar_epi8(sel, s), first_at);
            let at_last = _mm512_add_epi8(_mm512_permutexvar_epi8(sel, e), last_at);
            let first = _mm512_or_si512(_mm512_permutex2var_epi8(lo, at_first, hi), lower);
            let last = _mm512_or_si512(_mm512_permutex2var_epi8(lo, at_last, hi), lower);
            _mm512_storeu_si512(firsts.as_mut_ptr().add(base + g).cast(), first);
            _mm512_storeu_si512(lasts.as_mut_ptr().add(base + g).cast(), last);
        }
        _mm512_storeu_si512(lens.as_mut_ptr().add(base).cast(), len);
        firsts.set_len(base + runs);
        lasts.set_len(base + runs);
        lens.set_len(base + runs);
        _mm512_cmpgt_epu8_mask(len, _mm512_set1_epi8(16))
    };
    let mut others = (long & ((1u64 << runs) - 1)) as u32;
    // A run with joining punctuation: the runs that start at or before it.
    let mut joins = word & !alnum;
    while joins != 0 {
        let p = joins.trailing_zeros();
        joins &= joins - 1;
        let k = (starts & ((2u64 << p) - 1)).count_ones() - 1;
        others |= 1 << k;
    }
    others
}
