//! UAX #29 word segments, with an exact fast path for ASCII that segments
//! and normalises in one pass, eight bytes at a time, or 64 with SIMD.
//!
//! `unicode-segmentation` implements the default word boundary rules of
//! UAX #29 for all of Unicode; on mostly-English prose it is the slowest step
//! of the pipeline (about 26 MB/s here). Most of such text is ASCII, where the
//! rules reduce to a few cases, so:
//!
//! 1. The text is cut at runs of ASCII whitespace into **pieces**. A boundary
//!    always falls before such a run (no rule joins a non-space to a
//!    following space) and after it unless the next character is `Extend`,
//!    `Format` or `ZWJ` (rule WB4), which are never ASCII.
//! 2. A piece that is all ASCII is segmented by the ASCII reading of the
//!    rules: letters, digits and `_` join (WB5, WB8–WB10, WB13a/b); `:` `.`
//!    `'` join two letters (WB6/7); `,` `;` `.` `'` join two digits
//!    (WB11/12); everything else breaks (WB999). Its word segments are
//!    normalised on the spot: NFKC is the identity on ASCII and folding keeps
//!    the letters and digits, lowercased. The typographic quotation marks
//!    and dashes of prose (`‘ ’ “ ” – — …`, `typographic`) are read here as
//!    their ASCII counterparts are: `‘` `’` join as `'` does, the others
//!    break, and none is kept in a token.
//! 3. Any other piece, together with the whitespace run before it and any
//!    non-ASCII pieces that follow it after whitespace, is handed to
//!    `unicode-segmentation` and the general normalisation (a non-ASCII space
//!    joins the ASCII spaces after it by WB3d, and the joined run can then
//!    absorb an `Extend` by WB4, so consecutive non-ASCII pieces are
//!    segmented together). No rule looks across the remaining cuts, so the
//!    segments that hold words are the same.
//!
//! The pass does not look ahead for step 2's "all ASCII": it normalises a
//! piece's words as it meets them and, on meeting a byte ≥ 0x80, takes back
//! what it wrote since the piece began and hands the piece to step 3. The
//! run of letters and digits in a word is measured a word (`u64`) at a
//! time: SWAR range tests mark the bytes that are letters, digits or `_`
//! and the uppercase ones, and the first byte that is not ends the run
//! (its position by `trailing_zeros`). A word of letters and digits is
//! copied whole and lowercased in place.
//!
//! Where a piece starts, the next 64 bytes are classified at once into one
//! bit a byte per class (letters, digits, `_`, the joining punctuation,
//! whitespace, bytes ≥ 0x80): sixteen bytes a comparison with 128-bit SIMD
//! (the `wide` crate: SSE2 on x86-64, NEON, WebAssembly SIMD when built with
//! `simd128`), each class's lanes gathered into a `u64` mask (`Block`), or
//! all 64 a comparison where the CPU has AVX-512 (`avx512.rs`).
//! Up to the last piece that starts in the block before any byte ≥ 0x80,
//! the word segments are the runs of letters, digits, `_` and the
//! punctuation that joins two letters or two digits (the masks shifted by
//! one byte each way): they are found by `trailing_zeros` on the runs'
//! starts and ends, with no byte-by-byte step. The block ends after
//! whitespace, so no segment crosses it and no rule looks across it.
//! Targets without SIMD (WebAssembly built without `simd128`) keep the
//! eight-bytes-at-a-time path alone: classifying eight classes with SWAR
//! cost more than it saved (normalisation 370 → 310 MiB/s when tried).
//!
//! The tokens go to a [`Sink`]: the normalised text and the token records
//! ([`Written`], what `Normalized` holds), or only each token's hash
//! (`word_hashes.rs`, for word shingles), one implementation of the
//! segmentation and normalisation for both. Where the CPU has AVX-512
//! VBMI2, both sinks take a block's segments at once instead of one by one
//! (`avx512.rs`: [`Written`] the kept bytes compressed by one instruction,
//! the hashes' sink each segment's two 8-byte words permuted out).
//!
//! `normalize::tests::fast_path_equals_the_general_path` checks the equality
//! with `unicode-segmentation` and the general normalisation on random
//! strings of troublesome characters; `tests/segmentation.rs` on the real
//! corpora.

use super::token::{append_token, Token};
use alloc::vec::Vec;
use unicode_segmentation::UnicodeSegmentation;

/// ASCII whitespace (`u8::is_ascii_whitespace`: space, tab, LF, FF, CR).
const SPACE: u8 = 1;
/// A letter, digit or `_` (`ALetter`, `Numeric`, `ExtendNumLet`).
const WORD: u8 = 2;
/// An ASCII letter (`ALetter`).
const LETTER: u8 = 4;
/// An ASCII digit (`Numeric`).
const DIGIT: u8 = 8;
/// Joins two letters: `:` (`MidLetter`), `.` `'` (`MidNumLetQ`).
const MID_LETTER: u8 = 16;
/// Joins two digits: `,` `;` (`MidNum`), `.` `'` (`MidNumLetQ`).
const MID_NUM: u8 = 32;
/// A byte ≥ 0x80: part of a non-ASCII character.
const HIGH: u8 = 64;

/// The flags of every byte, so that the scalar steps index a table.
const FLAGS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = match b as u8 {
            b'a'..=b'z' | b'A'..=b'Z' => WORD | LETTER,
            b'0'..=b'9' => WORD | DIGIT,
            b'_' => WORD,
            b':' => MID_LETTER,
            b',' | b';' => MID_NUM,
            b'.' | b'\'' => MID_LETTER | MID_NUM,
            b' ' | b'\t' | b'\n' | b'\x0C' | b'\r' => SPACE,
            0x80..=0xFF => HIGH,
            _ => 0,
        };
        b += 1;
    }
    t
};

#[inline]
fn flags(b: u8) -> u8 {
    FLAGS[b as usize]
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Bit 7 of each byte of `w7` (bytes < 0x80) set when the byte is in
/// `lo..=hi`: `x + (0x80 - lo)` reaches bit 7 when `x >= lo`, `x + (0x7F -
/// hi)` when `x > hi`, and neither sum carries out of its byte.
#[inline]
fn in_range(w7: u64, lo: u8, hi: u8) -> u64 {
    let ge = w7.wrapping_add(ONES * u64::from(0x80 - lo));
    let gt = w7.wrapping_add(ONES * u64::from(0x7F - hi));
    ge & !gt & HIGHS
}

/// For eight bytes read little-endian: bit 7 of each byte set when the
/// byte is a letter, digit or `_`.
#[inline]
fn classify8(w: u64) -> u64 {
    let w7 = w & !HIGHS;
    let letter = in_range(w7 | (ONES * 0x20), b'a', b'z');
    let digit = in_range(w7, b'0', b'9');
    let under = in_range(w7, b'_', b'_');
    (letter | digit | under) & !w
}

/// Eight bytes with their ASCII uppercase letters lowercased: bit 5 (0x20)
/// set on each byte in `A..=Z` (the reference `lower_plain8` is tested
/// against).
#[cfg(test)]
fn lower8(w: u64) -> u64 {
    w | ((in_range(w & !HIGHS, b'A', b'Z') & !w) >> 2)
}

/// Eight bytes with bit 5 (0x20) set on every byte: on the bytes of ASCII
/// letters and digits, `lower8` in one instruction (an uppercase letter
/// gains the bit, a lowercase letter and a digit, `0x30..=0x39`, have it),
/// for a plain word's bytes only (the other bytes of the eight are changed,
/// and must not be used).
#[inline]
pub(super) fn lower_plain8(w: u64) -> u64 {
    w | (ONES * 0x20)
}

/// Eight bytes from `at`, little-endian; past the end, spaces (not word bytes).
#[inline]
pub(super) fn load8(bytes: &[u8], at: usize) -> u64 {
    match bytes.get(at..at + 8) {
        Some(b) => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        None => {
            let mut buf = [b' '; 8];
            let rest = &bytes[at.min(bytes.len())..];
            buf[..rest.len()].copy_from_slice(rest);
            u64::from_le_bytes(buf)
        }
    }
}

/// Scans the ASCII word segment starting at `start` (a letter, digit or
/// `_`). Returns its end and whether it is letters and digits only (no `_`
/// and no joining punctuation).
#[inline]
fn scan_word(bytes: &[u8], start: usize) -> (usize, bool) {
    let n = bytes.len();
    let mut i = start;
    let mut plain = true;
    loop {
        // The run of letters, digits and `_`, eight bytes at a time.
        let (w, len) = loop {
            let w = load8(bytes, i);
            let word = classify8(w);
            let unders = underscores(w);
            let stop = !word & HIGHS;
            if stop == 0 {
                plain &= unders == 0;
                i += 8;
                continue;
            }
            // The bytes before the first stop: `len` (0 to 7) whole bytes.
            let len = stop.trailing_zeros() / 8;
            let below = (1u64 << (len * 8)).wrapping_sub(1);
            plain &= unders & below == 0;
            i += len as usize;
            break (w, len);
        };
        // WB6/7 and WB11/12: punctuation joining two letters or two digits.
        // The stopping byte is in `w` (a space past the end).
        let cur = flags((w >> (len * 8)) as u8);
        if cur & (MID_LETTER | MID_NUM) != 0 && i + 1 < n {
            let (prev, next) = (flags(bytes[i - 1]), flags(bytes[i + 1]));
            let letters = prev & next & LETTER != 0 && cur & MID_LETTER != 0;
            let digits = prev & next & DIGIT != 0 && cur & MID_NUM != 0;
            if letters || digits {
                plain = false;
                i += 2;
                continue;
            }
        }
        // `‘` `’` join as `'` does (both `MidNumLetQ`).
        if cur & HIGH != 0 && i + 3 < n && typographic(bytes, i) == Some(true) {
            let (prev, next) = (flags(bytes[i - 1]), flags(bytes[i + 3]));
            // Two letters or two digits: no byte is both.
            if prev & next & (LETTER | DIGIT) != 0 {
                plain = false;
                i += 4;
                continue;
            }
        }
        return (i, plain);
    }
}

/// The typographic punctuation of prose that the fast path reads as it
/// reads ASCII punctuation, each three bytes (`E2 80 xx`) and none kept in
/// a token (the general path drops them too: a segment of it alone has no
/// letter or digit, and `‘` `’` are folded punctuation): `‘` `’` (U+2018,
/// U+2019, `MidNumLet` in UAX #29, joining two letters or two digits as
/// `'` does) give `Some(true)`; `“` `”` (U+201C, U+201D), `–` `—`
/// (U+2013, U+2014) and `…` (U+2026), `Other`, breaking on both sides as
/// `(` does, give `Some(false)`. `None` for anything else at `i`: that
/// piece takes the general path.
#[inline]
fn typographic(bytes: &[u8], i: usize) -> Option<bool> {
    match bytes.get(i..i + 3)? {
        [0xE2, 0x80, 0x98 | 0x99] => Some(true),
        [0xE2, 0x80, 0x93 | 0x94 | 0x9C | 0x9D | 0xA6] => Some(false),
        _ => None,
    }
}

/// Bit 7 set on each `_` byte of `w`.
#[inline]
fn underscores(w: u64) -> u64 {
    in_range(w & !HIGHS, b'_', b'_') & !w
}

/// 64 bytes classified: bit `k` of each mask is about byte `k`.
#[cfg(any(
    target_feature = "sse2",
    all(target_arch = "aarch64", target_feature = "neon"),
    target_feature = "simd128"
))]
struct Block {
    /// Letters, digits and `_`, and the punctuation joining two letters or
    /// two digits (the bytes of word segments).
    word: u64,
    /// `_` and the joining punctuation (a segment holding one is not copied
    /// whole: only its letters and digits are kept).
    impure: u64,
    /// Letters and digits.
    alnum: u64,
    /// `_`.
    under: u64,
    /// ASCII whitespace.
    space: u64,
    /// Bytes ≥ 0x80.
    high: u64,
}

#[cfg(any(
    target_feature = "sse2",
    all(target_arch = "aarch64", target_feature = "neon"),
    target_feature = "simd128"
))]
impl Block {
    /// Classifies `bytes[at..at + 64]` (in bounds): with AVX-512 where
    /// `kernels` has it (`super::avx512::classes`, the block at once), else
    /// sixteen bytes at a time (the `wide` crate's `u8x16`: SSE2, NEON or
    /// WebAssembly SIMD): comparisons, then each class's lanes gathered
    /// into bits. The byte before `at` is whitespace and so joins nothing;
    /// the byte after the block is taken as whitespace (callers use the
    /// block up to a piece start only, so a join it would have made is
    /// never used).
    #[inline]
    fn classify(bytes: &[u8], at: usize, kernels: Kernels) -> Block {
        Self::of(Self::classes(bytes, at, kernels))
    }

    /// The classes' masks of `bytes[at..at + 64]` (in bounds), in the order
    /// [`Block::of`] takes them.
    #[inline]
    fn classes(bytes: &[u8], at: usize, kernels: Kernels) -> [u64; 7] {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if let Some(k) = kernels.avx512 {
            let block: &[u8; 64] = bytes[at..at + 64].try_into().expect("in bounds");
            return super::avx512::classes(k, block);
        }
        let _ = kernels;
        use wide::u8x16;
        let lanes = |b: u8| u8x16::splat(b);
        // Bytes of `v` in `lo..=lo + span`: `v - lo` at most `span`, unsigned.
        let within = |v: u8x16, lo: u8, span: u8| {
            let d = v + lanes(lo.wrapping_neg());
            d.min(lanes(span)).simd_eq(d)
        };
        let eq = |v: u8x16, b: u8| v.simd_eq(lanes(b));
        let bits = |v: u8x16| u64::from(v.to_bitmask());
        let (mut letter, mut digit, mut under, mut mid_letter, mut mid_num) = (0, 0, 0, 0, 0);
        let (mut space, mut high) = (0u64, 0u64);
        for (k, chunk) in bytes[at..at + 64].chunks_exact(16).enumerate() {
            let mut a = [0u8; 16];
            a.copy_from_slice(chunk);
            let v = u8x16::new(a);
            let shift = 16 * k;
            letter |= bits(within(v | lanes(0x20), b'a', 25)) << shift;
            digit |= bits(within(v, b'0', 9)) << shift;
            under |= bits(eq(v, b'_')) << shift;
            let both = eq(v, b'.') | eq(v, b'\'');
            mid_letter |= bits(both | eq(v, b':')) << shift;
            mid_num |= bits(both | eq(v, b',') | eq(v, b';')) << shift;
            let ws = within(v, b'\t', 1) | within(v, b'\x0C', 1) | eq(v, b' ');
            space |= bits(ws) << shift;
            high |= bits(v) << shift;
        }
        [letter, digit, under, mid_letter, mid_num, space, high]
    }

    /// The block of the classes' masks: letters, digits, `_`, the
    /// punctuation joining two letters, that joining two digits,
    /// whitespace, bytes ≥ 0x80.
    #[inline]
    fn of([letter, digit, under, mid_letter, mid_num, space, high]: [u64; 7]) -> Block {
        // WB6/7 and WB11/12: joining punctuation between two letters, or
        // between two digits.
        let joins =
            (mid_letter & (letter << 1) & (letter >> 1)) | (mid_num & (digit << 1) & (digit >> 1));
        Block {
            word: letter | digit | under | joins,
            impure: under | joins,
            alnum: letter | digit,
            under,
            space,
            high,
        }
    }
}

/// The kernels the fast path may take on this CPU, found once a text: on
/// x86-64 with `std`, the proofs of AVX-512 (a block's classes) and of its
/// VBMI2 (a block's segments given to a [`Sink`] at once) where the CPU has
/// them; the default, the 128-bit path and a segment at a time.
#[cfg(any(
    target_feature = "sse2",
    all(target_arch = "aarch64", target_feature = "neon"),
    target_feature = "simd128"
))]
#[derive(Clone, Copy, Default)]
pub(crate) struct Kernels {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    avx512: Option<super::avx512::Avx512>,
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    pub(crate) vbmi2: Option<super::avx512::Vbmi2>,
}

#[cfg(any(
    target_feature = "sse2",
    all(target_arch = "aarch64", target_feature = "neon"),
    target_feature = "simd128"
))]
impl Kernels {
    /// What this CPU has.
    fn detect() -> Self {
        Kernels {
            #[cfg(all(feature = "std", target_arch = "x86_64"))]
            avx512: super::avx512::Avx512::detect(),
            #[cfg(all(feature = "std", target_arch = "x86_64"))]
            vbmi2: super::avx512::Vbmi2::detect(),
        }
    }
}

/// Normalises the pieces of `bytes[at..]` that start in the next 64 bytes,
/// when `at` starts a piece (the byte before it, if any, is whitespace)
/// and the block is in bounds: gives their words to `sink`
/// and returns where the next piece starts and where the whitespace before
/// it starts. `None` when nothing can be done a block at a time here (the
/// piece at `at` runs to the block's end, or holds a byte ≥ 0x80).
#[cfg(any(
    target_feature = "sse2",
    all(target_arch = "aarch64", target_feature = "neon"),
    target_feature = "simd128"
))]
#[inline]
fn block_pieces<S: Sink>(
    bytes: &[u8],
    at: usize,
    sink: &mut S,
    kernels: Kernels,
) -> Option<(usize, usize)> {
    if at + 64 > bytes.len() {
        return None;
    }
    let b = Block::classify(bytes, at, kernels);
    // Pieces start after whitespace; the last one that starts before the
    // first byte ≥ 0x80 ends the block (it may hold that byte).
    let starts = !b.space & (b.space << 1);
    let before_high = if b.high == 0 {
        u64::MAX
    } else {
        (1u64 << b.high.trailing_zeros()) - 1
    };
    let usable = starts & before_high;
    if usable == 0 {
        return None;
    }
    let end = 63 - usable.leading_zeros();
    let below = (1u64 << end) - 1;
    let word = b.word & below;
    // At once where the sink can, when every segment holds a letter or
    // digit (a segment of `_` alone writes nothing).
    if b.under & below == 0 && sink.ascii_block(kernels, bytes, at, word, b.alnum & below) {
        let ws = 64 - (!b.space & below).leading_zeros();
        return Some((at + end as usize, at + ws as usize));
    }
    let mut runs = word & !(word << 1);
    let mut ends = !word & (word << 1) & below;
    while runs != 0 {
        let (s, e) = (runs.trailing_zeros(), ends.trailing_zeros());
        runs &= runs - 1;
        ends &= ends - 1;
        let inside = (1u64 << e) - (1u64 << s);
        sink.ascii_word(
            bytes,
            at + s as usize,
            at + e as usize,
            b.impure & inside == 0,
        );
    }
    // The whitespace before the next piece: after the last non-space byte.
    let ws = 64 - (!b.space & below).leading_zeros();
    Some((at + end as usize, at + ws as usize))
}

/// Normalises `input` into `sink` (see the module docs): ASCII pieces
/// here, every other run of pieces by `slow(sink, start, end)` for each of
/// its UAX #29 segments from `unicode-segmentation`.
pub(crate) fn normalize_into<S: Sink>(
    input: &str,
    sink: &mut S,
    mut slow: impl FnMut(&mut S, usize, usize),
) {
    let bytes = input.as_bytes();
    let n = bytes.len();
    #[cfg(any(
        target_feature = "sse2",
        all(target_arch = "aarch64", target_feature = "neon"),
        target_feature = "simd128"
    ))]
    let kernels = Kernels::detect();
    // The current piece: where the whitespace before it starts, and what
    // was written before it (to take back on a byte ≥ 0x80).
    let mut mark = (0usize, sink.mark());
    // A pending run of non-ASCII pieces: from the whitespace before the
    // first to the end of the last.
    let mut pending: Option<(usize, usize)> = None;
    let mut flush = |pending: &mut Option<(usize, usize)>, sink: &mut S| {
        if let Some((s, e)) = pending.take() {
            // Piece boundaries are ASCII, so these are char boundaries.
            for (at, seg) in input[s..e].split_word_bound_indices() {
                slow(sink, s + at, s + at + seg.len());
            }
        }
    };
    let mut i = 0;
    while i < n {
        let f = flags(bytes[i]);
        if f & WORD != 0 {
            let (end, plain) = scan_word(bytes, i);
            sink.ascii_word(bytes, i, end, plain);
            i = end;
        } else if f & SPACE != 0 {
            let ws_start = i;
            while i < n && flags(bytes[i]) & SPACE != 0 {
                i += 1;
            }
            if let Some((s, _)) = pending {
                let end = piece_end(bytes, i);
                if bytes[i..end].iter().any(|&b| b >= 0x80) {
                    pending = Some((s, end));
                    i = end;
                    continue;
                }
                flush(&mut pending, sink);
            }
            mark = (ws_start, sink.mark());
            // Pieces a block at a time while they are ASCII.
            #[cfg(any(
                target_feature = "sse2",
                all(target_arch = "aarch64", target_feature = "neon"),
                target_feature = "simd128"
            ))]
            while let Some((next, ws)) = block_pieces(bytes, i, sink, kernels) {
                mark = (ws, sink.mark());
                i = next;
            }
        } else if f & HIGH != 0 && typographic(bytes, i).is_some() {
            // A quotation mark or dash between words: no word, no join.
            i += 3;
        } else if f & HIGH != 0 {
            // Not an ASCII piece after all: take back its words.
            sink.take_back(mark.1);
            let end = piece_end(bytes, i);
            pending = Some((mark.0, end));
            i = end;
        } else {
            i += 1;
        }
    }
    flush(&mut pending, sink);
}

/// Where [`normalize_into`] puts a text's word tokens: the normalised text
/// and the token records ([`Written`], what [`super::Normalized`] holds),
/// or only each token's hash (`super::word_hashes`, for word shingles).
/// The same tokens, in the same order, go to either.
pub(crate) trait Sink {
    /// How much has been written, for [`Sink::take_back`].
    fn mark(&self) -> (usize, usize);
    /// Forgets what was written since `mark` was taken.
    fn take_back(&mut self, mark: (usize, usize));
    /// ASCII word segment `bytes[start..end]` (letters, digits, `_` and
    /// joining punctuation; `plain` when letters and digits only): a token
    /// of its letters and digits lowercased, or nothing when it has none
    /// (`__`).
    fn ascii_word(&mut self, bytes: &[u8], start: usize, end: usize, plain: bool);
    /// A word segment of original bytes `start..end` normalised elsewhere
    /// to `norm`: a token, or nothing when `norm` is empty.
    fn word(&mut self, start: usize, end: usize, norm: &[u8]);
    /// The word segments of the block `bytes[at..at + 64]` (in bounds) at
    /// once, where the sink can: `word`'s runs of bits (bit `k` is byte
    /// `at + k`; none ends at bit 63), `alnum` their letters and digits,
    /// at least one in every run. `false` when it cannot (with `kernels`,
    /// this CPU's), and then each segment goes to [`Sink::ascii_word`].
    #[cfg(any(
        target_feature = "sse2",
        all(target_arch = "aarch64", target_feature = "neon"),
        target_feature = "simd128"
    ))]
    #[inline]
    fn ascii_block(
        &mut self,
        kernels: Kernels,
        bytes: &[u8],
        at: usize,
        word: u64,
        alnum: u64,
    ) -> bool {
        let _ = (kernels, bytes, at, word, alnum);
        false
    }
}

/// The normalised text (tokens separated by one space) and its tokens.
pub(crate) struct Written {
    pub(crate) text: Vec<u8>,
    pub(crate) tokens: Vec<Token>,
}

impl Written {
    /// Empty, with room for `text` bytes and `tokens` tokens.
    pub(crate) fn with_capacity(text: usize, tokens: usize) -> Self {
        Written {
            text: Vec::with_capacity(text),
            tokens: Vec::with_capacity(tokens),
        }
    }
}

impl Sink for Written {
    #[inline]
    fn mark(&self) -> (usize, usize) {
        (self.text.len(), self.tokens.len())
    }

    #[inline]
    fn take_back(&mut self, (text, tokens): (usize, usize)) {
        self.text.truncate(text);
        self.tokens.truncate(tokens);
    }

    #[inline(always)]
    fn ascii_word(&mut self, bytes: &[u8], start: usize, end: usize, plain: bool) {
        push_word(bytes, start, end, plain, &mut self.text, &mut self.tokens);
    }

    #[inline]
    fn word(&mut self, start: usize, end: usize, norm: &[u8]) {
        append_token(&mut self.text, &mut self.tokens, start, end, |text| {
            text.extend_from_slice(norm)
        });
    }

    #[cfg(any(
        target_feature = "sse2",
        all(target_arch = "aarch64", target_feature = "neon"),
        target_feature = "simd128"
    ))]
    #[inline]
    fn ascii_block(
        &mut self,
        kernels: Kernels,
        bytes: &[u8],
        at: usize,
        word: u64,
        alnum: u64,
    ) -> bool {
        // Where the CPU has AVX-512 VBMI2, the kept bytes compressed at once.
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if let Some(k) = kernels.vbmi2 {
            super::avx512::write_block(k, bytes, at, word, alnum, &mut self.text, &mut self.tokens);
            return true;
        }
        let _ = (kernels, bytes, at, word, alnum);
        false
    }
}

/// The end of the piece holding `i`: the next ASCII whitespace, or `n`.
#[inline]
fn piece_end(bytes: &[u8], i: usize) -> usize {
    bytes[i..]
        .iter()
        .position(|&b| flags(b) & SPACE != 0)
        .map_or(bytes.len(), |p| i + p)
}

/// Appends ASCII word segment `bytes[start..end]` as a token
/// ([`super::token::append_token`]): its letters and digits lowercased;
/// nothing when it has none (`__`). A word of letters and digits is copied
/// and lowercased eight bytes at a time (what the last copy writes past its
/// end is cut off).
#[inline]
fn push_word(
    bytes: &[u8],
    start: usize,
    end: usize,
    plain: bool,
    text: &mut Vec<u8>,
    tokens: &mut Vec<Token>,
) {
    append_token(
        text,
        tokens,
        start,
        end,
        #[inline(always)]
        |text| {
            if plain {
                let norm_start = text.len();
                let mut at = start;
                while at < end {
                    // What is written past the word's end is cut off below.
                    text.extend_from_slice(&lower_plain8(load8(bytes, at)).to_le_bytes());
                    at += 8;
                }
                text.truncate(norm_start + (end - start));
            } else {
                push_ascii_normal_form(&bytes[start..end], text);
            }
        },
    );
}

/// Appends the normal form of an ASCII word segment to `out`: its letters
/// and digits, lowercased (`_` and the joining punctuation dropped; nothing
/// for `__`). Every byte is written and the end moved past it only when it
/// is kept: no branch on the bytes, which a word's joins ("don't", "U.S.",
/// "1,000") would make at random.
#[inline]
pub(super) fn push_ascii_normal_form(segment: &[u8], out: &mut Vec<u8>) {
    let from = out.len();
    out.resize(from + segment.len(), 0);
    let dst = &mut out[from..];
    let mut kept = 0;
    for &b in segment {
        // `kept` is at most the bytes read before `b`: inside `dst`.
        dst[kept] = b.to_ascii_lowercase();
        kept += b.is_ascii_alphanumeric() as usize;
    }
    out.truncate(from + kept);
}

/// The reference: every segment from `unicode-segmentation` on the whole text.
#[cfg(any(test, feature = "std"))]
pub(crate) fn word_segments_reference(input: &str, mut f: impl FnMut(usize, usize)) {
    for (s, seg) in input.split_word_bound_indices() {
        f(s, s + seg.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value at every place of a block gets the classes of the
    /// byte table (`FLAGS`), from the 128-bit path and, where the CPU has
    /// it, from AVX-512's.
    #[cfg(any(
        target_feature = "sse2",
        all(target_arch = "aarch64", target_feature = "neon"),
        target_feature = "simd128"
    ))]
    #[test]
    fn a_block_s_classes_are_the_table_s() {
        let kernels = [Kernels::default(), Kernels::detect()];
        let classes = [LETTER, DIGIT, WORD, MID_LETTER, MID_NUM, SPACE, HIGH];
        for k in kernels {
            for step in [1usize, 37, 101] {
                for start in 0..256usize {
                    let block: Vec<u8> =
                        (0..64).map(|i| ((start + i * step) % 256) as u8).collect();
                    let got = Block::classes(&block, 0, k);
                    for (c, &flag) in classes.iter().enumerate() {
                        let want = block.iter().enumerate().fold(0u64, |m, (i, &b)| {
                            // `_` is the one word byte that is neither letter nor digit.
                            let f = flags(b);
                            let hit = match flag {
                                WORD => b == b'_',
                                _ => f & flag != 0,
                            };
                            m | (u64::from(hit) << i)
                        });
                        assert_eq!(got[c], want, "class {c}, bytes {block:?}");
                    }
                }
            }
        }
    }

    /// The SWAR classes equal the table's on every byte, at every position
    /// of the word.
    #[test]
    fn classify8_matches_the_table() {
        for b in 0..=255u8 {
            for pos in 0..8 {
                let mut buf = [b'a'; 8];
                buf[pos] = b;
                let w = u64::from_le_bytes(buf);
                let bit = 0x80u64 << (pos * 8);
                assert_eq!(
                    classify8(w) & bit != 0,
                    flags(b) & WORD != 0,
                    "byte {b:#x} at {pos}"
                );
                let lowered = lower8(w).to_le_bytes()[pos];
                assert_eq!(lowered, b.to_ascii_lowercase(), "byte {b:#x} at {pos}");
                if b.is_ascii_alphanumeric() {
                    let plain = lower_plain8(w).to_le_bytes()[pos];
                    assert_eq!(plain, b.to_ascii_lowercase(), "byte {b:#x} at {pos}");
                }
            }
        }
    }
}
