//! Dictionary correction of misspelt words (Varol & Hari 2015, seed 003):
//! a word that is not in the dictionary is replaced by the best dictionary
//! word among its candidates — the words with the same phonetic code, and the
//! words within Damerau–Levenshtein distance 2, found with a symmetric-delete
//! index (Garbe's SymSpell, 2012).
//!
//! **Dictionary** ([`Dictionary`]): words (lowercase) with their frequency in
//! a large corpus. The built-in English one is made by
//! `scripts/make-dictionary.sh` from the word-frequency list shipped in the
//! PyPI package `symspellpy` (MIT licence; Google Books Ngram counts of the
//! SCOWL word list), 82,765 words; it is `assets/dictionary-en.bin`.
//!
//! **Candidates** of a word `w` not in the dictionary: every dictionary word
//! `c` with `DL(w, c) ≤ 2` (DL: [`distance::damerau_levenshtein`]), and every
//! word with `w`'s SoundD code ([`crate::phonetic`]) at distance 3.
//!
//! **Ranking** (lowest cost first): `typing_distance(w, c)` (slips between
//! neighbouring keys and transpositions cost less; [`distance`]), minus 0.5
//! when the codes agree, minus `0.05 · log2(frequency)`; ties go to the more
//! frequent word. The weights were set by hand on the reasoning above, not
//! fitted to the evaluation lists (EVALUATION.md reports them held out).
//!
//! **Index** (in memory only, built when the dictionary is loaded): the
//! deletes at distance ≤ 2 of each word's first 7 letters (SymSpell's
//! prefix), as sorted `(hash, word)` pairs; about 25 pairs per word.

pub mod distance;
mod memo;

pub use memo::MEMO_WORDS;

use crate::error::Error;
use crate::hash;
use crate::index::snapshot::{corrupt, Reader, Writer};
use crate::phonetic::{encode_into, fold, Algorithm};
use alloc::string::String;
use alloc::vec::Vec;

const MAGIC: &[u8; 4] = b"NDDC";
const FORMAT_VERSION: u16 = 1;
/// Letters of a word whose deletes are indexed (SymSpell's prefix length).
const PREFIX: usize = 7;
/// Largest distance of a candidate found by deletes.
const MAX_DISTANCE: usize = 2;
/// Largest dictionary accepted: 2^20 words. With its indexes a dictionary
/// takes about 500–600 bytes a word (measured: the English one, 82,813
/// words, 40 MB; one of 2^20 random words, 0.6 GB and 1.9 s to load, 0.7 GB
/// and 3.3 s to build), so the largest loads within 1 GB (RELIABILITY.md).
pub const MAX_WORDS: usize = 1 << 20;
/// Longest word accepted in a dictionary or as a query: 64 bytes.
pub const MAX_WORD_LEN: usize = 64;
// A query is always a bit-parallel pattern (`candidates`).
const _: () = assert!(MAX_WORD_LEN <= distance::Pattern::MAX_LEN);
/// The encoder whose codes make candidates and agree in the ranking.
const CODE: Algorithm = Algorithm::SoundD;

/// A candidate correction.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Candidate {
    /// The dictionary word.
    pub word: String,
    /// Its Damerau–Levenshtein distance to the query.
    pub distance: u32,
    /// The ranking cost (lower is better; module docs).
    pub cost: f32,
}

/// An English (or any) dictionary with word frequencies and the indexes of
/// a speller. Memory: about 500 bytes per word with its indexes.
#[derive(Clone, Debug)]
pub struct Dictionary {
    /// The words, most frequent first.
    words: Vec<String>,
    /// `round(256 · log2(count))` per word.
    log_freq: Vec<u16>,
    /// `(hash of word, id)`.
    exact: Table,
    /// `(hash of a delete of the word's prefix, id)`.
    deletes: Table,
    /// `(hash of the word's SoundD code, id)`.
    codes: Table,
    /// The hash of each word's SoundD code, by id.
    code_of: Vec<u64>,
    /// The set of letters of each word ([`letter_mask`]), by id.
    mask_of: Vec<u32>,
    /// The corrections found so far ([`memo`]).
    memo: memo::Memo,
}

/// The letters of `w` as a bit set (bit `c - 'a'`). One edit (insertion,
/// deletion, substitution, transposition) adds at most one letter to
/// either word's set that the other lacks, so words whose sets differ by
/// more than `d` letters one way are more than `d` edits apart: a filter
/// that never drops a candidate the distance would keep.
fn letter_mask(w: &[u8]) -> u32 {
    w.iter()
        .fold(0, |m, &c| m | 1 << (c.wrapping_sub(b'a') & 31))
}

/// Whether the letter sets `a`, `b` allow a distance of at most `limit`.
fn masks_allow(a: u32, b: u32, limit: usize) -> bool {
    (a & !b).count_ones() as usize <= limit && (b & !a).count_ones() as usize <= limit
}

fn fold_word(word: &str) -> Vec<u8> {
    let mut v = Vec::new();
    fold(word, &mut v);
    v
}

/// Every string obtained from `w` by deleting at most `d` bytes, hashed.
fn deletes(w: &[u8], d: usize, out: &mut Vec<u64>) {
    out.push(hash::bytes_hash(0, w));
    if d == 0 || w.is_empty() {
        return;
    }
    let mut buf = Vec::with_capacity(w.len());
    for i in 0..w.len() {
        buf.clear();
        buf.extend_from_slice(&w[..i]);
        buf.extend_from_slice(&w[i + 1..]);
        deletes(&buf, d - 1, out);
    }
}

fn code_hash(word: &str, letters: &mut Vec<u8>, code: &mut String) -> u64 {
    code.clear();
    encode_into(CODE, word, letters, code);
    hash::bytes_hash(0, code.as_bytes())
}

/// `(hash, id)` pairs sorted by hash, with a directory on the hashes' top
/// bits (about one entry per pair) so that a look-up reads one directory
/// slot and a short run instead of binary-searching the whole array.
#[derive(Clone, Debug)]
struct Table {
    pairs: Vec<(u64, u32)>,
    starts: Vec<u32>,
    shift: u32,
}

impl Table {
    fn new(mut pairs: Vec<(u64, u32)>) -> Self {
        pairs.sort_unstable();
        pairs.dedup();
        let bits = (usize::BITS - pairs.len().leading_zeros()).clamp(4, 24);
        let shift = 64 - bits;
        let mut starts = alloc::vec![0u32; (1usize << bits) + 1];
        for &(h, _) in &pairs {
            starts[(h >> shift) as usize + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        Table {
            pairs,
            starts,
            shift,
        }
    }

    /// The pairs whose hash is `h`.
    fn get(&self, h: u64) -> &[(u64, u32)] {
        let p = (h >> self.shift) as usize;
        let bucket = &self.pairs[self.starts[p] as usize..self.starts[p + 1] as usize];
        let lo = bucket.partition_point(|&(x, _)| x < h);
        let hi = lo + bucket[lo..].partition_point(|&(x, _)| x == h);
        &bucket[lo..hi]
    }
}

impl Dictionary {
    /// A dictionary of `(word, count)` pairs: words are lowercased and
    /// folded to Latin letters (SPEC.md §13); the counts of words that fold
    /// alike are added; words with no letter are skipped.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] (option `dictionary`) when there
    /// are no words, more than [`MAX_WORDS`], or a word longer than
    /// [`MAX_WORD_LEN`] bytes.
    pub fn from_counts<'a>(
        counts: impl IntoIterator<Item = (&'a str, u64)>,
    ) -> Result<Self, Error> {
        let mut merged: alloc::collections::BTreeMap<Vec<u8>, u64> = Default::default();
        for (w, c) in counts {
            let f = fold_word(w);
            if f.is_empty() {
                continue;
            }
            if f.len() > MAX_WORD_LEN {
                return Err(Error::option(
                    "dictionary",
                    alloc::format!("a word is longer than {MAX_WORD_LEN} bytes"),
                ));
            }
            *merged.entry(f).or_insert(0) += c;
            if merged.len() > MAX_WORDS {
                return Err(Error::option(
                    "dictionary",
                    alloc::format!("more than {MAX_WORDS} words"),
                ));
            }
        }
        if merged.is_empty() {
            return Err(Error::option("dictionary", String::from("no words")));
        }
        let mut v: Vec<(Vec<u8>, u64)> = merged.into_iter().collect();
        v.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let log_freq = v
            .iter()
            .map(|&(_, c)| libm::round(libm::log2(c.max(1) as f64) * 256.0).min(65535.0) as u16)
            .collect();
        // Folded words are ASCII letters, hence UTF-8.
        let words = v
            .into_iter()
            .map(|(w, _)| String::from_utf8(w).unwrap_or_default())
            .collect();
        Ok(Self::with_indexes(words, log_freq))
    }

    fn with_indexes(words: Vec<String>, log_freq: Vec<u16>) -> Self {
        let mut exact = Vec::with_capacity(words.len());
        let mut dels = Vec::with_capacity(words.len() * 25);
        let mut codes = Vec::with_capacity(words.len());
        let mut code_of = Vec::with_capacity(words.len());
        let mask_of = words.iter().map(|w| letter_mask(w.as_bytes())).collect();
        let (mut scratch, mut letters, mut code) = (Vec::new(), Vec::new(), String::new());
        for (id, w) in words.iter().enumerate() {
            let id = id as u32;
            let b = w.as_bytes();
            exact.push((hash::bytes_hash(0, b), id));
            scratch.clear();
            deletes(&b[..b.len().min(PREFIX)], MAX_DISTANCE, &mut scratch);
            scratch.sort_unstable();
            scratch.dedup();
            dels.extend(scratch.iter().map(|&h| (h, id)));
            let c = code_hash(w, &mut letters, &mut code);
            codes.push((c, id));
            code_of.push(c);
        }
        Dictionary {
            words,
            log_freq,
            exact: Table::new(exact),
            deletes: Table::new(dels),
            codes: Table::new(codes),
            code_of,
            mask_of,
            memo: memo::Memo::default(),
        }
    }

    /// Number of words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// `true` when there are no words (never, for a checked dictionary).
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// `true` when `word` (folded) is a dictionary word.
    pub fn contains(&self, word: &str) -> bool {
        self.id(&fold_word(word)).is_some()
    }

    fn id(&self, folded: &[u8]) -> Option<u32> {
        self.exact
            .get(hash::bytes_hash(0, folded))
            .iter()
            .find(|&&(_, id)| self.words[id as usize].as_bytes() == folded)
            .map(|&(_, id)| id)
    }

    /// The candidate corrections of `word`, best first, at most `max`
    /// (module docs); empty when the word is a dictionary word, has no Latin
    /// letter or is longer than [`MAX_WORD_LEN`] bytes. Time: a few hundred
    /// index look-ups and distance computations per word.
    pub fn candidates(&self, word: &str, max: usize) -> Vec<Candidate> {
        let w = fold_word(word);
        if max == 0 || w.is_empty() || w.len() > MAX_WORD_LEN || self.id(&w).is_some() {
            return Vec::new();
        }
        let (mut letters, mut code) = (Vec::new(), String::new());
        let wcode = code_hash(word, &mut letters, &mut code);
        let mut ids: Vec<u32> = Vec::new();
        let mut hashes = Vec::new();
        deletes(&w[..w.len().min(PREFIX)], MAX_DISTANCE, &mut hashes);
        hashes.sort_unstable();
        hashes.dedup();
        for h in hashes {
            ids.extend(self.deletes.get(h).iter().map(|&(_, id)| id));
        }
        ids.extend(self.codes.get(wcode).iter().map(|&(_, id)| id));
        ids.sort_unstable();
        ids.dedup();
        // The candidates within their distance limit, each with a lower
        // bound of its cost: every edit of the weighted distance costs at
        // least MIN_EDIT_COST, so `typing_distance ≥ MIN_EDIT_COST · DL`
        // (less a margin for f32 rounding).
        let wmask = letter_mask(&w);
        // A query has at most MAX_WORD_LEN bytes, which a pattern holds
        // (asserted at compile time beside MAX_WORD_LEN): `None` cannot happen.
        let Some(pattern) = distance::Pattern::new(&w) else {
            return Vec::new();
        };
        let mut within: Vec<(f32, u32, u32, bool)> = Vec::new();
        for id in ids {
            let c = self.words[id as usize].as_bytes();
            let same_code = self.code_of[id as usize] == wcode;
            let limit = if same_code {
                MAX_DISTANCE + 1
            } else {
                MAX_DISTANCE
            };
            if c.len().abs_diff(w.len()) > limit
                || !masks_allow(wmask, self.mask_of[id as usize], limit)
            {
                continue;
            }
            let d = pattern.distance(c, limit);
            if d > limit {
                continue;
            }
            let bound = self.cost(distance::MIN_EDIT_COST * d as f32 - 0.01, same_code, id);
            within.push((bound, id, d as u32, same_code));
        }
        // The weighted distance in order of the bound, until the bound
        // exceeds the cost of the `max`-th best so far: no later candidate
        // can then rank among the first `max` (nor tie with them).
        within.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let rank = |a: &(Candidate, u16), b: &(Candidate, u16)| {
            a.0.cost
                .total_cmp(&b.0.cost)
                .then_with(|| b.1.cmp(&a.1))
                .then_with(|| a.0.word.cmp(&b.0.word))
        };
        let mut out: Vec<(Candidate, u16)> = Vec::new();
        for (bound, id, d, same_code) in within {
            if out.len() >= max && out.last().is_some_and(|l| bound > l.0.cost) {
                break;
            }
            let c = self.words[id as usize].as_bytes();
            let limit = (MAX_DISTANCE + usize::from(same_code)) as f32;
            let cost = self.cost(distance::typing_distance(&w, c, limit + 1.0), same_code, id);
            let entry = (
                Candidate {
                    word: self.words[id as usize].clone(),
                    distance: d,
                    cost,
                },
                self.log_freq[id as usize],
            );
            let at = out.partition_point(|x| rank(x, &entry).is_lt());
            if at < max {
                out.insert(at, entry);
                out.truncate(max);
            }
        }
        out.into_iter().map(|(c, _)| c).collect()
    }

    /// The ranking cost of word `id` at weighted distance `typing` (module
    /// docs).
    fn cost(&self, typing: f32, same_code: bool, id: u32) -> f32 {
        typing
            - if same_code { 0.5 } else { 0.0 }
            - 0.05 * f32::from(self.log_freq[id as usize]) / 256.0
    }

    /// The correction of `word`: the best candidate, or `None` when the word
    /// is known, has no Latin letter, or has no candidate.
    pub fn correct(&self, word: &str) -> Option<String> {
        self.candidates(word, 1).pop().map(|c| c.word)
    }

    /// The misspelt words of `text` with their corrections, in text order:
    /// each word token (as [`crate::text::normalize`] finds them) that is
    /// not in the dictionary and has a candidate, as its byte range in
    /// `text` and the correction. A word repeated is corrected once.
    /// Time: [`Dictionary::candidates`] per distinct unknown word not met
    /// before by this dictionary (with feature `std`, up to [`MEMO_WORDS`]
    /// words are remembered across texts and threads; module `memo`).
    pub fn corrections(&self, text: &str) -> Vec<(crate::text::TextRange, String)> {
        let n = crate::text::normalize(text);
        let mut seen: alloc::collections::BTreeMap<&str, Option<String>> = Default::default();
        let mut out = Vec::new();
        let mut folded = Vec::new();
        for (i, t) in n.tokens().iter().enumerate() {
            let word = n.token_str(i).unwrap_or_default();
            let fix = seen.entry(word).or_insert_with(|| {
                folded.clear();
                fold(word, &mut folded);
                // Known words, words with no letter and words over
                // MAX_WORD_LEN are never corrected (`candidates`): only the
                // other ones are searched, and remembered by their folded
                // form, on which a correction depends alone.
                if folded.is_empty() || folded.len() > MAX_WORD_LEN || self.id(&folded).is_some() {
                    None
                } else {
                    self.memo.get_or(&folded, || self.correct(word))
                }
            });
            if let Some(c) = fix {
                out.push((t.orig, c.clone()));
            }
        }
        out
    }

    /// `text` with every misspelt word replaced by its correction
    /// ([`Dictionary::corrections`]); everything else is kept as it was.
    /// Word k-shingles of the result are the `word:K+correct` shingles of
    /// seed 003 (SPEC.md §13).
    ///
    /// ```
    /// use neardup::spell::Dictionary;
    /// let words = [("the", 100), ("committee", 5), ("received", 9), ("report", 7)];
    /// let d = Dictionary::from_counts(words).unwrap();
    /// assert_eq!(
    ///     d.correct_text("The comittee recieved the report."),
    ///     "The committee received the report."
    /// );
    /// ```
    pub fn correct_text(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() + 16);
        let mut at = 0;
        for (r, c) in self.corrections(text) {
            out.push_str(&text[at..r.start]);
            out.push_str(&c);
            at = r.end;
        }
        out.push_str(&text[at..]);
        out
    }

    /// The dictionary as bytes (format 1): `"NDDC"`, `u16` 1, `u16` spec
    /// version, `u32` count, the words most frequent first joined by `\n`
    /// (one length-prefixed string), `count × u16` log-frequencies
    /// (`round(256 · log2(count))`), `u32` CRC-32. Little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(MAGIC, FORMAT_VERSION);
        w.u32(self.words.len() as u32);
        w.str(&self.words.join("\n"));
        for &f in &self.log_freq {
            w.u16(f);
        }
        w.finish()
    }

    /// Reads [`Dictionary::to_bytes`] output and builds the indexes.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Corrupt`] for wrong magic, a bad checksum,
    /// truncation, a count that does not match the words, an empty or
    /// unfolded word, or more than [`MAX_WORDS`] words;
    /// [`crate::ErrorKind::Version`] for another format or spec version.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        const WHAT: &str = "dictionary";
        let mut r = Reader::open(bytes, MAGIC, FORMAT_VERSION, WHAT)?;
        let n = r.u32()? as usize;
        if n > MAX_WORDS {
            return Err(corrupt(
                WHAT,
                alloc::format!("{n} words, more than the limit of {MAX_WORDS}"),
            ));
        }
        if n == 0 || n > r.remaining() / 4 {
            return Err(corrupt(
                WHAT,
                alloc::format!("{n} words cannot fit in the data"),
            ));
        }
        let joined = r.str()?;
        let words: Vec<String> = joined.split('\n').map(String::from).collect();
        if words.len() != n {
            return Err(corrupt(
                WHAT,
                alloc::format!("{} words, the header says {n}", words.len()),
            ));
        }
        if words.iter().any(|w| {
            w.is_empty() || w.len() > MAX_WORD_LEN || !w.bytes().all(|b| b.is_ascii_lowercase())
        }) {
            return Err(corrupt(
                WHAT,
                "a word is empty, too long or not folded".into(),
            ));
        }
        let log_freq = (0..n).map(|_| r.u16()).collect::<Result<Vec<u16>, _>>()?;
        r.end()?;
        Ok(Self::with_indexes(words, log_freq))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The letter-set filter never rejects a pair within the distance: on
    /// random words over a small alphabet (so that many pairs are close) and
    /// their random edits.
    #[test]
    fn letter_masks_never_reject_a_close_pair() {
        let mut rng = crate::testing::XorShift(0x9e37_79b9_7f4a_7c15);
        let mut next = |n: u64| rng.below(n);
        let (mut close, mut rejected) = (0, 0);
        for _ in 0..20_000 {
            let len = 1 + next(9) as usize;
            let a: Vec<u8> = (0..len).map(|_| b'a' + next(6) as u8).collect();
            let mut b = a.clone();
            for _ in 0..next(4) {
                let i = next(b.len() as u64 + 1) as usize;
                match next(4) {
                    0 if i < b.len() => drop(b.remove(i)),
                    1 => b.insert(i, b'a' + next(8) as u8),
                    2 if i < b.len() => b[i] = b'a' + next(8) as u8,
                    _ if i + 1 < b.len() => b.swap(i, i + 1),
                    _ => {}
                }
            }
            for limit in 0..=3 {
                let allowed = masks_allow(letter_mask(&a), letter_mask(&b), limit);
                if distance::damerau_levenshtein(&a, &b, limit) <= limit {
                    close += 1;
                    assert!(allowed, "{a:?} {b:?} within {limit}");
                } else if !allowed {
                    rejected += 1;
                }
            }
        }
        assert!(close > 10_000 && rejected > 1_000, "{close} {rejected}");
    }

    fn tiny() -> Dictionary {
        Dictionary::from_counts([
            ("the", 1000),
            ("receive", 50),
            ("received", 40),
            ("separate", 30),
            ("government", 30),
            ("committee", 20),
            ("comet", 5),
            ("recipe", 10),
            ("Café", 3),
            ("1984", 9),
        ])
        .unwrap()
    }

    #[test]
    fn corrects_real_misspellings() {
        let d = tiny();
        assert_eq!(d.len(), 9, "1984 has no letter");
        assert!(d.contains("The") && d.contains("cafe") && d.contains("café"));
        assert_eq!(d.correct("recieve").as_deref(), Some("receive"));
        assert_eq!(d.correct("seperate").as_deref(), Some("separate"));
        assert_eq!(d.correct("goverment").as_deref(), Some("government"));
        assert_eq!(d.correct("comittee").as_deref(), Some("committee"));
        assert_eq!(d.correct("teh").as_deref(), Some("the"));
        assert_eq!(d.correct("the"), None, "known");
        assert_eq!(d.correct("東京"), None);
        assert_eq!(d.correct("xylophone"), None, "nothing close");
    }

    /// A dictionary shared by threads corrects each text as a fresh one
    /// does: the memo of corrections (module `memo`) changes time only.
    #[cfg(feature = "std")]
    #[test]
    fn corrections_remembered_across_texts_and_threads_are_the_same() {
        let texts = [
            "The comittee recieved teh report.",
            "Teh goverment and the comittee, seperate.",
            "xylophone recieve RECIEVE Recieve teh",
            "東京 1984 teh cafe",
        ];
        let shared = tiny();
        std::thread::scope(|s| {
            for t in 0..4 {
                let shared = &shared;
                s.spawn(move || {
                    for k in 0..50 {
                        let text = texts[(t + k) % texts.len()];
                        assert_eq!(shared.correct_text(text), tiny().correct_text(text));
                    }
                });
            }
        });
        assert_eq!(
            shared.correct_text(texts[1]),
            "the government and the committee, separate.",
            "a correction is the dictionary word, in lowercase"
        );
        // The words unknown to `tiny()`, folded, once each: recieve (also
        // RECIEVE, Recieve), recieved, comittee, teh (Teh), goverment,
        // seperate, xylophone, report, and.
        assert_eq!(shared.memo.len(), 9);
        // A word over MAX_WORD_LEN bytes is left alone and not remembered.
        let long = "q".repeat(MAX_WORD_LEN + 1);
        assert_eq!(shared.correct_text(&long), long);
        assert_eq!(shared.memo.len(), 9);
    }

    #[test]
    fn bytes_round_trip_and_corruption() {
        let d = tiny();
        let bytes = d.to_bytes();
        let back = Dictionary::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.correct("recieve").as_deref(), Some("receive"));
        for i in (0..bytes.len()).step_by(3) {
            let mut b = bytes.clone();
            b[i] ^= 0x20;
            crate::testing::assert_damaged(
                Dictionary::from_bytes(&b).map(|d| d.len()),
                format_args!("flip at {i}"),
            );
            crate::testing::assert_damaged(
                Dictionary::from_bytes(&bytes[..i]).map(|d| d.len()),
                format_args!("truncated at {i}"),
            );
        }
        assert!(Dictionary::from_counts([("123", 1)]).is_err());
    }
}
