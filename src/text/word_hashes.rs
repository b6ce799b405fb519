//! A text's word-token hashes under spec version 2 (`SPEC.md` §3a: XXH3-64
//! of each token's bytes with the seed) straight from the normaliser, for
//! word shingles, which read nothing else of a text.
//!
//! The tokens are the normaliser's ([`super::normalize_with`]: the same
//! segmentation, the same normal forms, the same order, by the same code,
//! `segment::normalize_into`); only where they go differs. Instead of the
//! normalised text and a 32-byte record a token, each token is hashed where
//! it is found: an ASCII word of letters and digits of at most 16 bytes (nine
//! words in ten of English prose) from the two 8-byte words that hold its
//! first and last bytes, lowercased in registers ([`ShortXxh3`]); any other
//! token from its normal form written out, by [`xxh3`]. Where the CPU has
//! AVX-512 VBMI2, a 64-byte block's segments are gathered at once
//! (`super::avx512::short_words`) and hashed eight at a time at the end.
//!
//! Equal to `token_hashes(&normalize_with(text, how), seed, Spec::V2)` on
//! every text (tested on random strings of troublesome characters and on
//! the real corpora).

use super::normalize::normalize_plain_into;
#[cfg(any(
    target_feature = "sse2",
    all(target_arch = "aarch64", target_feature = "neon"),
    target_feature = "simd128"
))]
use super::segment::Kernels;
use super::segment::{load8, lower_plain8, push_ascii_normal_form, Sink};
use super::Normalization;
use crate::hash::v2::{xxh3, ShortXxh3};
use alloc::vec::Vec;

/// The spec-2 hash of each word token of `input` normalised as `how` says,
/// in order: as many as [`super::Normalized::tokens`] of
/// [`super::normalize_with`]`(input, how)`, each `xxh3(seed, token)`.
/// Time linear in `input.len()`; memory 8 bytes a token.
pub(crate) fn word_hashes(input: &str, how: Normalization, seed: u64) -> Vec<u64> {
    let mut sink = Hashes {
        hashes: Vec::with_capacity(input.len() / 6 + 1),
        short: ShortXxh3::new(seed),
        seed,
        scratch: Vec::new(),
        later: Later::new(input.len() / 6 + 1),
    };
    // Step 0 as `normalize_with` takes it: the unmasked text when
    // something was undone.
    let unmasked = match how.unmask {
        true => super::unmask::unmask(input),
        false => None,
    };
    let text = unmasked.as_ref().map_or(input, |u| u.text.as_str());
    normalize_plain_into(text, how.fold_diacritics, &mut sink);
    if let Some(later) = &sink.later {
        sink.short
            .hash_in_place(&mut sink.hashes, &later.lasts, &later.lens);
    }
    sink.hashes
}

/// The short words' other halves, when they are hashed after the text is
/// read, many at a time (where the CPU hashes eight at once,
/// [`ShortXxh3::hash_in_place`]): for each token, its last 8 bytes and its
/// length (1 to 16), or a length of 0 for a token hashed already; the
/// first 8 bytes wait in `Hashes::hashes`, in the token's place.
struct Later {
    lasts: Vec<u64>,
    lens: Vec<u8>,
}

impl Later {
    /// Room for `tokens`, where hashing later pays; `None` where it does
    /// not (one by one, each token is hashed where it is found).
    fn new(tokens: usize) -> Option<Self> {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if crate::hash::avx512::available() {
            return Some(Later {
                lasts: Vec::with_capacity(tokens),
                lens: Vec::with_capacity(tokens),
            });
        }
        let _ = tokens;
        None
    }
}

/// The tokens' hashes.
struct Hashes {
    hashes: Vec<u64>,
    short: ShortXxh3,
    seed: u64,
    /// A token's normal form, when it is written out.
    scratch: Vec<u8>,
    /// The short words' other halves, when they are hashed at the end.
    later: Option<Later>,
}

impl Hashes {
    /// A token hashed already.
    #[inline(always)]
    fn push_hash(&mut self, h: u64) {
        self.hashes.push(h);
        if let Some(later) = &mut self.later {
            later.lasts.push(0);
            later.lens.push(0);
        }
    }
}

impl Sink for Hashes {
    #[inline]
    fn mark(&self) -> (usize, usize) {
        (self.hashes.len(), 0)
    }

    #[inline]
    fn take_back(&mut self, (hashes, _): (usize, usize)) {
        self.hashes.truncate(hashes);
        if let Some(later) = &mut self.later {
            later.lasts.truncate(hashes);
            later.lens.truncate(hashes);
        }
    }

    #[inline(always)]
    fn ascii_word(&mut self, bytes: &[u8], start: usize, end: usize, plain: bool) {
        let len = end - start;
        // Letters and digits, 1 to 16 of them, with 8 bytes before the end
        // in the text: its normal form is its bytes lowercased, and the
        // 8-byte words from its start and to its end hold all the formula
        // reads (bytes past the word in the first, before it in the last,
        // are read but not used).
        if plain && len.wrapping_sub(1) < 16 && end >= 8 {
            // Lowercased by setting bit 5 of every byte: right on the
            // word's letters and digits, the only bytes the formula uses.
            let first = lower_plain8(load8(bytes, start));
            let last = lower_plain8(load8(bytes, end - 8));
            match &mut self.later {
                Some(later) => {
                    self.hashes.push(first);
                    later.lasts.push(last);
                    later.lens.push(len as u8);
                }
                None => self.hashes.push(self.short.hash(first, last, len)),
            }
            return;
        }
        self.scratch.clear();
        push_ascii_normal_form(&bytes[start..end], &mut self.scratch);
        if !self.scratch.is_empty() {
            let h = xxh3(self.seed, &self.scratch);
            self.push_hash(h);
        }
    }

    #[inline]
    fn word(&mut self, _start: usize, _end: usize, norm: &[u8]) {
        if !norm.is_empty() {
            self.push_hash(xxh3(self.seed, norm));
        }
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
        // Where the CPU has AVX-512 VBMI2, the segments gathered at once.
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if let (Some(k), Some(later)) = (kernels.vbmi2, &mut self.later) {
            let base = self.hashes.len();
            let mut others = super::avx512::short_words(
                k,
                bytes,
                at,
                word,
                alnum,
                &mut self.hashes,
                &mut later.lasts,
                &mut later.lens,
            );
            // The segments longer than 16 bytes or with joining
            // punctuation: hashed from their normal forms written out.
            let (mut starts, mut ends) = (word & !(word << 1), !word & (word << 1));
            let mut k = 0;
            while others != 0 {
                let next = others.trailing_zeros();
                others &= others - 1;
                while k < next {
                    starts &= starts - 1;
                    ends &= ends - 1;
                    k += 1;
                }
                let start = at + starts.trailing_zeros() as usize;
                let end = at + ends.trailing_zeros() as usize;
                self.scratch.clear();
                push_ascii_normal_form(&bytes[start..end], &mut self.scratch);
                self.hashes[base + k as usize] = xxh3(self.seed, &self.scratch);
                later.lens[base + k as usize] = 0;
            }
            return true;
        }
        let _ = (kernels, bytes, at, word, alnum);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::normalize_with;
    use alloc::string::String;

    /// The hashes are XXH3-64 (the `xxhash-rust` crate) of the tokens that
    /// `normalize_with` gives, for every normalisation and two seeds, on
    /// random strings that take each of the normaliser's paths: 64-byte
    /// blocks of ASCII words, the word-at-a-time path near the ends, words
    /// of 1 to 19 bytes, words with `_` or joining punctuation, a word
    /// taken back when its piece turns out to hold a byte ≥ 0x80,
    /// non-ASCII pieces, and the tricks unmasking undoes (a zero-width
    /// space, a Cyrillic `о` among Latin letters).
    #[test]
    fn hashes_are_xxh3_of_the_normalised_tokens() {
        // Pieces of one character, then longer ones.
        let mut alphabet: Vec<String> =
            "abZ7_:.',;-(    \n\té\u{301}\u{200b}\u{43e}ß\u{fb01}日\u{1f600}"
                .chars()
                .map(String::from)
                .collect();
        alphabet.extend(
            [
                "word",
                "Words",
                "abcdefgh",
                "ABCDEFGHIJKLMNOPQRS",
                "can't",
                "3.14",
                "e.g.",
                "x_1",
                "don\u{2019}t",
                "\u{2018}",
                "\u{201c}",
                "\u{201d}",
                "\u{2014}",
                "\u{2013}",
            ]
            .map(String::from),
        );
        let mut rng = crate::testing::XorShift(0x2545_f491_4f6c_dd1d);
        let mut tokens = 0;
        for _ in 0..6_000 {
            let len = (rng.next_u64() % 160) as usize;
            let s: String = (0..len)
                .map(|_| alphabet[(rng.next_u64() % alphabet.len() as u64) as usize].as_str())
                .collect();
            for fold in [false, true] {
                for unmask in [false, true] {
                    let how = Normalization::folding(fold).unmasking(unmask);
                    let n = normalize_with(&s, how);
                    for seed in [0, 0x9e37_79b9_7f4a_7c15] {
                        let want: Vec<u64> = n
                            .token_strs()
                            .map(|t| xxhash_rust::xxh3::xxh3_64_with_seed(t.as_bytes(), seed))
                            .collect();
                        assert_eq!(word_hashes(&s, how, seed), want, "{s:?}, {}", how.name());
                    }
                    tokens += n.tokens().len();
                }
            }
        }
        assert!(tokens > 400_000, "{tokens} tokens");
    }
}
