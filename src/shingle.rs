//! Shingles (Broder 1997): word k-grams and character q-grams, hashed to
//! `u64` by [`crate::hash`]. Specified in `SPEC.md` §3.
//!
//! * A **word k-shingle** is `k` consecutive normalised word tokens; its hash
//!   is [`hash::combine`]`(seed, [t_i, …, t_(i+k-1)])` where
//!   `t_j = `[`hash::bytes_hash`]`(seed, token_j)` over the token's UTF-8 bytes.
//! * A **character q-gram** is `q` consecutive Unicode scalar values of the
//!   normalised text ([`crate::Normalized::text`], where whitespace is folded
//!   to single spaces); its hash is `bytes_hash(seed, utf8 of the q chars)`. A
//!   q-gram never splits a UTF-8 sequence.
//!
//! A text with fewer than `k` tokens (or `q` characters) but at least one has
//! exactly one shingle: all of it. A text with none has no shingles.

use crate::error::Error;
#[cfg(feature = "serde")]
use crate::error::ErrorKind;
use crate::hash::{self, Spec};
use crate::text::Normalized;
use alloc::collections::VecDeque;
use alloc::sync::Arc;
use alloc::vec::Vec;

/// The hash of each word token of `n`, in order: `spec.bytes_hash(seed, token)`.
pub fn token_hashes(n: &Normalized, seed: u64, spec: Spec) -> Vec<u64> {
    match spec {
        Spec::V1 => n
            .token_strs()
            .map(|t| hash::bytes_hash(seed, t.as_bytes()))
            .collect(),
        Spec::V2 => hash::v2::xxh3_ranges(
            seed,
            n.text().as_bytes(),
            n.tokens().iter().map(|t| (t.norm.start, t.norm.end)),
        ),
    }
}

/// Word k-shingle hashes by position, from the token hashes of a text.
///
/// Shape: `max(n - k + 1, 1)` values for `n >= 1` tokens, none for `n = 0`;
/// value `i` covers tokens `i .. min(i + k, n)`. `k = 0` is treated as 1.
pub fn word_shingles(token_hashes: &[u64], k: usize, seed: u64, spec: Spec) -> Vec<u64> {
    spec.word_shingles(token_hashes, k, seed)
}

/// Character q-gram hashes by position over [`Normalized::text`]: each
/// q-gram's UTF-8 bytes hashed by `spec.bytes_hash(seed, ·)`.
///
/// Shape: `max(c - q + 1, 1)` values for a normalised text of `c >= 1`
/// characters, none when it is empty. `q = 0` is treated as 1.
pub fn char_shingles(n: &Normalized, q: usize, seed: u64, spec: Spec) -> Vec<u64> {
    // At most one q-gram a byte.
    let mut out = Vec::with_capacity(n.text().len());
    for_each_char_shingle(n, q, seed, spec, |h| out.push(h));
    out
}

/// [`char_shingles`] written straight into a shared slice, as a document
/// memoises them (`Document::shingles`): their number is known before they
/// are hashed (`max(c − q + 1, 1)` of `c ≥ 1` characters), so no vector is
/// filled and then copied behind the slice's counts (a copy of `8 · c`
/// bytes, about a twentieth of `dedup --method simhash`'s CPU). An ASCII
/// text's q-grams at spec 2 (`q` 4 to 8), and the windows inside the
/// ASCII runs of any other text's, are hashed by the SIMD kernels straight
/// into the slice ([`hash::v2::fill_xxh3_windows`]), not handed over one
/// by one: `dedup --method simhash` on docs-bench 0.928× the CPU
/// (BENCHMARKS.md, "Q-grams hashed straight into a document's slice").
pub(crate) fn char_shingles_shared(n: &Normalized, q: usize, seed: u64, spec: Spec) -> Arc<[u64]> {
    let q = q.max(1);
    // Written in place: `repeat_n` has a known length.
    let mut out: Arc<[u64]> = core::iter::repeat_n(0, char_shingle_count(n.text(), q)).collect();
    let text = n.text();
    if spec == Spec::V2 && (4..=8).contains(&q) && text.len() >= q {
        // `for_each_char_shingle`'s windows, hashed straight into place.
        if let Some(slots) = Arc::get_mut(&mut out) {
            if text.is_ascii() {
                hash::v2::fill_xxh3_windows(seed, text.as_bytes(), q, slots);
                return out;
            }
            // At least two windows: each has q characters.
            if slots.len() >= 2 {
                fill_mixed_v2(text, q, seed, slots);
                return out;
            }
        }
    }
    if let Some(slots) = Arc::get_mut(&mut out) {
        let (mut at, mut more) = (slots.iter_mut(), false);
        for_each_char_shingle(n, q, seed, spec, |h| match at.next() {
            Some(slot) => *slot = h,
            None => more = true,
        });
        if !more && at.next().is_none() {
            return out;
        }
    }
    // Not reached (the count is exact); the vector's values if it were.
    char_shingles(n, q, seed, spec).into()
}

/// The spec-2 q-grams (`q` 4 to 8) of a text with non-ASCII characters and
/// more than `q` of them, written to `slots` (one a window of `q`
/// characters, in order): the windows inside a run of ASCII bytes hashed
/// by [`hash::v2::fill_xxh3_windows`] in place, the others (those reaching
/// a non-ASCII character) one by one. Prose is mostly ASCII even where it
/// has an accent or a foreign name, so most of its windows go through the
/// SIMD kernels instead of one call of [`hash::v2::xxh3`] each.
fn fill_mixed_v2(text: &str, q: usize, seed: u64, slots: &mut [u64]) {
    let b = text.as_bytes();
    let (mut c, mut i) = (0usize, 0usize);
    while c < slots.len() && i < b.len() {
        let run = b[i..]
            .iter()
            .position(|x| !x.is_ascii())
            .unwrap_or(b.len() - i);
        if run >= q {
            // Every window that starts in the run and ends in it: one byte
            // a character.
            let m = (run - q + 1).min(slots.len() - c);
            hash::v2::fill_xxh3_windows(seed, &b[i..i + run], q, &mut slots[c..c + m]);
            (c, i) = (c + m, i + m);
            continue;
        }
        // The window from here (`i` is a character's start): its q
        // characters (every window has them).
        let rest = &text[i..];
        let end = rest.char_indices().nth(q).map_or(rest.len(), |(at, _)| at);
        slots[c] = hash::v2::xxh3(seed, &rest.as_bytes()[..end]);
        c += 1;
        i += rest.chars().next().map_or(1, char::len_utf8);
    }
}

/// How many values [`char_shingles`] gives for `text` (normalised) and `q ≥
/// 1`: `max(c − q + 1, 1)` of `c ≥ 1` characters, none of none.
fn char_shingle_count(text: &str, q: usize) -> usize {
    let chars = match text.is_ascii() {
        true => text.len(),
        false => text.chars().count(),
    };
    match chars {
        0 => 0,
        c => (c + 1).saturating_sub(q).max(1),
    }
}

/// Calls `f` with each value of [`char_shingles`], in order, without
/// keeping them: the streaming form a one-permutation signature reads
/// (one pass over the text, no `8 · c` bytes written and read back).
/// Under spec version 2, an ASCII text's q-grams of 4 to 8 bytes are hashed
/// by [`hash::v2::for_each_xxh3_window`], the others by [`hash::v2::xxh3`].
pub(crate) fn for_each_char_shingle(
    n: &Normalized,
    q: usize,
    seed: u64,
    spec: Spec,
    f: impl FnMut(u64),
) {
    let (q, text) = (q.max(1), n.text());
    match spec {
        Spec::V1 => for_each_char_shingle_by(text, q, |b| hash::bytes_hash(seed, b), f),
        Spec::V2 if (4..=8).contains(&q) && text.len() >= q && text.is_ascii() => {
            // One byte per character: the q-grams are the byte windows, all
            // hashed by one formula of XXH3-64.
            hash::v2::for_each_xxh3_window(seed, text.as_bytes(), q, f)
        }
        Spec::V2 => for_each_char_shingle_by(text, q, |b| hash::v2::xxh3(seed, b), f),
    }
}

/// A part of a text's shingles (see [`for_each_char_shingle_piece`] and
/// `Document::for_each_shingle_piece`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShinglePiece<'a> {
    /// ASCII bytes, at least `q` of them, every window of `q` bytes of which
    /// is a q-gram, hashed by XXH3-64 (spec 2, `q` in 4..=8).
    Ascii(&'a [u8]),
    /// Word-token hashes, at least `k` of them, every window of `k` of which
    /// is a word k-shingle (spec 2: [`hash::v2::word_shingles`]).
    Tokens(&'a [u64]),
    /// One shingle's hash.
    Hash(u64),
}

/// The character q-gram hashes of [`for_each_char_shingle`] (the same
/// multiset), given to `f` in parts and in no set order: at spec 2 with `q`
/// in 4..=8, each maximal ASCII run of at least `q` bytes as
/// [`ShinglePiece::Ascii`] (its byte windows are its q-grams), and the other
/// q-grams one by one (those with a non-ASCII character, and a text shorter
/// than `q` characters, whose one q-gram is the text); at any other spec or
/// `q`, every hash in order. For a fold whose result does not depend on the
/// order (a minimum): one-permutation MinHash, which then hashes a run's
/// windows many at a time.
pub(crate) fn for_each_char_shingle_piece(
    n: &Normalized,
    q: usize,
    seed: u64,
    spec: Spec,
    mut f: impl FnMut(ShinglePiece<'_>),
) {
    let (q, text) = (q.max(1), n.text());
    if spec != Spec::V2 || !(4..=8).contains(&q) {
        return for_each_char_shingle(n, q, seed, spec, |h| f(ShinglePiece::Hash(h)));
    }
    let b = text.as_bytes();
    if text.is_ascii() {
        match b.len() {
            0 => {}
            len if len < q => f(ShinglePiece::Hash(hash::v2::xxh3(seed, b))),
            _ => f(ShinglePiece::Ascii(b)),
        }
        return;
    }
    // The maximal ASCII runs of q bytes or more.
    let mut i = 0;
    while i < b.len() {
        let run = b[i..]
            .iter()
            .position(|&c| !c.is_ascii())
            .unwrap_or(b.len() - i);
        if run >= q {
            f(ShinglePiece::Ascii(&b[i..i + run]));
        }
        i += run;
        i += b[i..]
            .iter()
            .position(|c| c.is_ascii())
            .unwrap_or(b.len() - i);
    }
    // The windows of q characters with a non-ASCII one (more than q bytes),
    // from the byte starts of the last q characters (slot `k % q`: char k).
    let mut starts = [0usize; 8];
    let (mut chars, mut slot) = (0usize, 0usize);
    // A window of q characters is pure ASCII (in a run above) when it is q
    // bytes long.
    let mut window = |s: usize, e: usize, full: bool| {
        if !full || e - s != q {
            f(ShinglePiece::Hash(hash::v2::xxh3(seed, &b[s..e])));
        }
    };
    for (i, _) in text.char_indices() {
        if chars >= q {
            window(starts[slot], i, true);
        }
        starts[slot] = i;
        chars += 1;
        slot = if slot + 1 == q { 0 } else { slot + 1 };
    }
    match chars >= q {
        true => window(starts[slot], b.len(), true),
        // Fewer than q characters: the one q-gram is the text.
        false => window(0, b.len(), false),
    }
}

fn for_each_char_shingle_by(
    text: &str,
    q: usize,
    hash: impl Fn(&[u8]) -> u64,
    mut f: impl FnMut(u64),
) {
    if text.is_empty() {
        return;
    }
    if text.is_ascii() {
        // One byte per character: the q-grams are the byte windows.
        let bytes = text.as_bytes();
        if bytes.len() < q {
            return f(hash(bytes));
        }
        return bytes.windows(q).for_each(|w| f(hash(w)));
    }
    char_shingles_general(text, q, hash, f)
}

/// [`char_shingles`] for any text (`q ≥ 1`, `text` not empty), each value
/// given to `f`.
fn char_shingles_general(
    text: &str,
    q: usize,
    hash: impl Fn(&[u8]) -> u64,
    mut f: impl FnMut(u64),
) {
    // Byte offsets of the last q character starts.
    let mut starts: VecDeque<usize> = VecDeque::with_capacity(q + 1);
    let mut any = false;
    for (i, _) in text.char_indices() {
        if starts.len() == q {
            let s = starts.pop_front().unwrap_or(0);
            f(hash(&text.as_bytes()[s..i]));
            any = true;
        }
        starts.push_back(i);
    }
    if let Some(&s) = starts.front() {
        if starts.len() == q || !any {
            f(hash(&text.as_bytes()[s..]));
        }
    }
}

/// Which shingles a sketch (MinHash signature, SimHash fingerprint) is built
/// from. Recorded in persisted sketches, so that sketches of different
/// shinglings are never compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shingling {
    /// Word k-shingles, `k` in 1..=32.
    Words(u32),
    /// Character q-grams, `q` in 1..=32.
    Chars(u32),
    /// Word k-shingles over the phonetic codes of the words
    /// ([`crate::phonetic`]), `k` in 1..=32: `"phonetic:soundex:3"`.
    Phonetic(crate::phonetic::Algorithm, u32),
    /// Shingle hashes supplied by the caller (`update_hashes`).
    Custom,
}

impl Shingling {
    /// Checks `k` or `q` is in 1..=32.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for option `shingle` otherwise.
    pub fn check(&self) -> Result<(), Error> {
        match *self {
            Shingling::Words(n) | Shingling::Chars(n) | Shingling::Phonetic(_, n)
                if !(1..=32).contains(&n) =>
            {
                Err(Error::option(
                    "shingle",
                    alloc::format!("size must be in 1..=32, got {n}"),
                ))
            }
            _ => Ok(()),
        }
    }

    /// The shingle hashes by position of a normalised text whose word
    /// tokens hash to `token_hashes` (with `seed` under `spec`); empty for
    /// [`Shingling::Custom`] and for a text without words. Prefer
    /// [`crate::Document::shingles`], which computes this once per text.
    pub fn compute(&self, n: &Normalized, token_hashes: &[u64], seed: u64, spec: Spec) -> Vec<u64> {
        match *self {
            Shingling::Words(k) => word_shingles(token_hashes, k as usize, seed, spec),
            Shingling::Chars(q) => char_shingles(n, q as usize, seed, spec),
            Shingling::Phonetic(a, k) => word_shingles(
                &crate::phonetic::code_hashes(n, a, seed, spec),
                k as usize,
                seed,
                spec,
            ),
            Shingling::Custom => Vec::new(),
        }
    }

    /// `(kind, n)` as persisted: kind 0 custom, 1 words, 2 characters,
    /// 16 + the algorithm's number for phonetic shingles (SPEC.md §12).
    pub(crate) fn code(&self) -> (u8, u8) {
        match *self {
            Shingling::Custom => (0, 0),
            Shingling::Words(n) => (1, n as u8),
            Shingling::Chars(n) => (2, n as u8),
            Shingling::Phonetic(a, n) => (16 + a.code(), n as u8),
        }
    }

    pub(crate) fn from_code(kind: u8, n: u8) -> Option<Shingling> {
        let s = match kind {
            0 => Shingling::Custom,
            1 => Shingling::Words(n as u32),
            2 => Shingling::Chars(n as u32),
            16.. => {
                Shingling::Phonetic(crate::phonetic::Algorithm::from_code(kind - 16)?, n as u32)
            }
            _ => return None,
        };
        s.check().ok().map(|_| s)
    }
}

impl core::fmt::Display for Shingling {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Shingling::Words(n) => write!(f, "word:{n}"),
            Shingling::Chars(n) => write!(f, "char:{n}"),
            Shingling::Phonetic(a, n) => write!(f, "phonetic:{a}:{n}"),
            Shingling::Custom => write!(f, "custom"),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Shingling {
    /// As its spec string, e.g. `"word:5"`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Shingling {
    /// From its spec string, e.g. `"char:5"`.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <alloc::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
        s.parse().map_err(|e: Error| match e.kind() {
            ErrorKind::InvalidOption { reason, .. } => serde::de::Error::custom(reason),
            _ => serde::de::Error::custom(e),
        })
    }
}

impl core::str::FromStr for Shingling {
    type Err = Error;

    /// Parses `word:K`, `char:Q`, `phonetic:K` (the default encoder,
    /// [`crate::phonetic::DEFAULT_ALGORITHM`]), `phonetic:ALGO:K` or
    /// `custom`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            Error::option(
                "shingle",
                alloc::format!(
                    "must be word:K, char:Q, phonetic:K or phonetic:ALGO:K (K, Q in 1..=32; \
                     ALGO one of soundex, phonex, dsound, soundd, phonix, metaphone) or custom, got {s:?}"
                ),
            )
        };
        if s == "custom" {
            return Ok(Shingling::Custom);
        }
        let (kind, n) = s.split_once(':').ok_or_else(bad)?;
        let (algorithm, n) = match (kind, n.split_once(':')) {
            ("phonetic", Some((a, n))) => (
                crate::phonetic::Algorithm::from_name(a).map_err(|_| bad())?,
                n,
            ),
            _ => (crate::phonetic::DEFAULT_ALGORITHM, n),
        };
        let n: u32 = n.parse().map_err(|_| bad())?;
        let sh = match kind {
            "word" | "words" => Shingling::Words(n),
            "char" | "chars" => Shingling::Chars(n),
            "phonetic" => Shingling::Phonetic(algorithm, n),
            _ => return Err(bad()),
        };
        sh.check().map_err(|_| bad())?;
        Ok(sh)
    }
}

/// A shingle specification as every binding spells it (`--shingle`,
/// `shingle:`): a [`Shingling`] and whether the words are first corrected by
/// a dictionary (`word:K+correct`, [`crate::spell`]). One parser for the
/// CLI, JavaScript, Python and the edge Worker.
///
/// ```
/// use neardup::shingle::{ShingleSpec, Shingling};
/// let s: ShingleSpec = "word:3+correct".parse()?;
/// assert_eq!((s.shingling, s.correct), (Shingling::Words(3), true));
/// assert_eq!(s.to_string(), "word:3+correct");
/// assert!("char:5+correct".parse::<ShingleSpec>().is_err());
/// # Ok::<(), neardup::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShingleSpec {
    /// The shingles.
    pub shingling: Shingling,
    /// Words are corrected by a dictionary before shingling (word shingles
    /// only).
    pub correct: bool,
}

impl ShingleSpec {
    /// The spec of `shingling`, without correction.
    pub const fn plain(shingling: Shingling) -> Self {
        ShingleSpec {
            shingling,
            correct: false,
        }
    }

    /// Checks the size (as [`Shingling::check`]) and that `correct` goes
    /// with word shingles.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for option `shingle`.
    pub fn check(&self) -> Result<(), Error> {
        self.shingling.check()?;
        if self.correct && !matches!(self.shingling, Shingling::Words(_)) {
            return Err(Error::option(
                "shingle",
                alloc::format!(
                    "+correct applies to word:K shingles, got {}+correct",
                    self.shingling
                ),
            ));
        }
        Ok(())
    }
}

impl From<Shingling> for ShingleSpec {
    fn from(s: Shingling) -> Self {
        ShingleSpec::plain(s)
    }
}

/// A [`Shingling`] where an optional [`ShingleSpec`] is set
/// (`DedupConfig::default().shingle(Shingling::Words(3))`).
impl From<Shingling> for Option<ShingleSpec> {
    fn from(s: Shingling) -> Self {
        Some(ShingleSpec::plain(s))
    }
}

impl core::fmt::Display for ShingleSpec {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}", self.shingling)?;
        if self.correct {
            f.write_str("+correct")?;
        }
        Ok(())
    }
}

impl core::str::FromStr for ShingleSpec {
    type Err = Error;

    /// A [`Shingling`] spec, optionally followed by `+correct`.
    fn from_str(s: &str) -> Result<Self, Error> {
        let (spec, correct) = match s.strip_suffix("+correct") {
            Some(spec) => (spec, true),
            None => (s, false),
        };
        let spec = ShingleSpec {
            shingling: spec.parse()?,
            correct,
        };
        spec.check()?;
        Ok(spec)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for ShingleSpec {
    /// As its spec string, e.g. `"word:3+correct"`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for ShingleSpec {
    /// From its spec string, e.g. `"char:5"` or `"word:3+correct"`.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <alloc::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
        s.parse().map_err(|e: Error| match e.kind() {
            ErrorKind::InvalidOption { reason, .. } => serde::de::Error::custom(reason),
            _ => serde::de::Error::custom(e),
        })
    }
}

/// The hashes in their order, less most repeats: each hash goes through a
/// direct-mapped table of the last hash seen in each slot (slot: its low
/// bits, at most 8,192 slots, as many as `n` rounded up) and is dropped
/// when it is the one there — a repeat of a recent or a frequent shingle.
/// Branch-free; every distinct hash is kept (a hash is dropped only when
/// equal to one kept before it). Prose repeats about half its q-grams
/// (docs-bench's character 5-grams: 53 %), and the frequent ones (" the ",
/// "ing t") mostly land here, so the sort that follows has about half the
/// hashes: a set made in 7.3–7.6 ns a q-gram of docs-bench instead of
/// 9.4–10.2 (AMD EPYC Zen 3; `cargo bench --features serde --bench
/// shingle_sets`, BENCHMARKS.md "Repeats dropped before the sort").
fn without_recent_repeats(v: &[u64]) -> Vec<u64> {
    let bits = (usize::BITS - v.len().leading_zeros()).clamp(1, 13);
    let mask = (1usize << bits) - 1;
    // Slot `i` starts with `i ^ 1`, whose low bits are not `i`: no hash
    // that maps to slot `i` equals it.
    let mut seen: Vec<u64> = (0..=mask as u64).map(|i| i ^ 1).collect();
    let mut out = alloc::vec![0u64; v.len()];
    let mut kept = 0usize;
    for &h in v {
        let slot = &mut seen[h as usize & mask];
        out[kept] = h;
        kept += (*slot != h) as usize;
        *slot = h;
    }
    out.truncate(kept);
    out
}

/// The hashes sorted ascending (repeats kept): for a few hundred or more,
/// by a least-significant-digit radix sort of their leading `⌈log2 n⌉ + 2`
/// bits (two passes of at most 12 bits below 4,194,304 hashes, three
/// above, each a counting scatter without a branch on the data; the
/// digits' counts taken in one pass; below 1,024 hashes two of 5–6 bits,
/// not one of 11–12, whose 2,048–4,096 counts summed one after another
/// cost more than a second scatter of a few hundred hashes: 0.77× the time
/// for the sets of 70-word texts, BENCHMARKS.md, "SimHash's bucket headers
/// prefetched, short sets in two passes"), then one insertion pass
/// that orders the hashes sharing those bits (about `n / 8` pairs of
/// uniform hashes: fewer, narrower digits cost less than the moves they
/// leave, BENCHMARKS.md, "Character q-grams written in place"). Should the
/// hashes not be uniform (many sharing their leading bits), the insertion
/// pass gives up after `4n` moves and a comparison sort finishes, so that
/// any input still sorts in `O(n log n)`. The same order as a comparison
/// sort.
fn sorted_hashes(mut v: Vec<u64>) -> Vec<u64> {
    let n = v.len();
    if n < 256 {
        v.sort_unstable();
        return v;
    }
    let total = (usize::BITS - n.leading_zeros() + 2).min(64);
    let passes = total.div_ceil(12).max(2);
    let width = total.div_ceil(passes);
    let mask = (1u64 << width) - 1;
    let radix = 1usize << width;
    // The digit of pass p (least significant first) is the `width` bits
    // starting `width · (passes − p)` bits from the top.
    let shift = |p: u32| 64 - width * (passes - p);
    let mut counts = alloc::vec![0u32; radix * passes as usize];
    if passes == 2 {
        // Up to 4,194,303 hashes: both digits' counts in one loop the
        // compiler sees whole.
        let (low, high) = counts.split_at_mut(radix);
        let (s0, s1) = (shift(0), shift(1));
        for &x in &v {
            low[((x >> s0) & mask) as usize] += 1;
            high[((x >> s1) & mask) as usize] += 1;
        }
    } else {
        for &x in &v {
            for p in 0..passes {
                counts[p as usize * radix + ((x >> shift(p)) & mask) as usize] += 1;
            }
        }
    }
    let mut src = v;
    let mut dst = alloc::vec![0u64; n];
    for p in 0..passes {
        let at = &mut counts[p as usize * radix..(p as usize + 1) * radix];
        let mut sum = 0u32;
        for c in at.iter_mut() {
            let here = *c;
            *c = sum;
            sum += here;
        }
        let s = shift(p);
        for &x in &src {
            let d = ((x >> s) & mask) as usize;
            dst[at[d] as usize] = x;
            at[d] += 1;
        }
        core::mem::swap(&mut src, &mut dst);
    }
    let mut out = src;
    let mut moves = 0usize;
    for i in 1..n {
        let x = out[i];
        let mut j = i;
        while j > 0 && out[j - 1] > x {
            out[j] = out[j - 1];
            j -= 1;
        }
        out[j] = x;
        moves += i - j;
        if moves > 4 * n {
            out.sort_unstable();
            break;
        }
    }
    out
}

/// A set of shingle hashes: sorted ascending, without duplicates.
///
/// Memory: 8 bytes per distinct shingle. Set operations are linear merges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShingleSet {
    hashes: Vec<u64>,
}

impl ShingleSet {
    /// Builds the set from hashes in any order, with repeats.
    pub fn from_hashes(hashes: Vec<u64>) -> Self {
        Self::from_slice(&hashes)
    }

    /// Builds the set from hashes in any order, with repeats, without
    /// taking them.
    pub fn from_slice(hashes: &[u64]) -> Self {
        let mut hashes = sorted_hashes(without_recent_repeats(hashes));
        // Repeats dropped without a branch on the data.
        if let Some(&first) = hashes.first() {
            let (mut kept, mut last) = (1usize, first);
            for i in 1..hashes.len() {
                let x = hashes[i];
                hashes[kept] = x;
                kept += (x != last) as usize;
                last = x;
            }
            hashes.truncate(kept);
            // Sets are kept (the pipeline's verification holds one per
            // document): the room of the repeats is given back.
            hashes.shrink_to_fit();
        }
        ShingleSet { hashes }
    }

    /// The distinct hashes, ascending.
    pub fn as_slice(&self) -> &[u64] {
        &self.hashes
    }

    /// Number of distinct shingles, `|S|`.
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// `true` when the set is empty.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// `true` when `hash` is in the set (binary search).
    pub fn contains(&self, hash: u64) -> bool {
        self.hashes.binary_search(&hash).is_ok()
    }

    /// The counts `|S ∩ T|`, `|S|`, `|T|` behind every set measure.
    pub fn counts(&self, other: &ShingleSet) -> crate::measures::SetCounts {
        crate::measures::SetCounts {
            intersection: self.intersection_len(other),
            a: self.len(),
            b: other.len(),
        }
    }

    /// `|S ∩ T|`, by a linear merge.
    pub fn intersection_len(&self, other: &ShingleSet) -> usize {
        self.intersection_at_least(other, 0).unwrap_or(0)
    }

    /// `|S ∩ T|` when it is at least `need`, else `None`: the merge stops
    /// once the overlap found plus the shorter remainder falls below
    /// `need` (checked every 64 steps). Time: the merged prefix. Where the
    /// CPU has AVX-512, eight hashes of each set at a time
    /// (`measures::avx512`), with AVX2 alone four (`measures::avx2`), then
    /// one by one where fewer than a block are left.
    pub(crate) fn intersection_at_least(&self, other: &ShingleSet, need: usize) -> Option<usize> {
        let (x, y) = (&self.hashes, &other.hashes);
        let (na, nb) = (x.len(), y.len());
        let (mut i, mut j, mut n) = (0usize, 0usize, 0usize);
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        loop {
            // The bound holds in the blocks' state too: what is left to find
            // lies in `x[i..]` and `y[j..]`.
            if n + (na - i).min(nb - j) < need {
                return None;
            }
            match crate::measures::intersect_blocks(x, y, i, j) {
                Some((i2, j2, found)) if (i2, j2) != (i, j) => (i, j, n) = (i2, j2, n + found),
                _ => break,
            }
        }
        loop {
            if n + (na - i).min(nb - j) < need {
                return None;
            }
            // Without a branch on the data (random hashes defeat
            // prediction), then the bound again.
            let (stop_a, stop_b) = ((i + 64).min(na), (j + 64).min(nb));
            while i < stop_a && j < stop_b {
                let (u, v) = (x[i], y[j]);
                n += (u == v) as usize;
                i += (u <= v) as usize;
                j += (v <= u) as usize;
            }
            if i == na || j == nb {
                return Some(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::normalize;

    /// The parts of a text's q-grams, their runs' windows hashed, are the
    /// q-grams of `for_each_char_shingle` as a multiset: ASCII texts,
    /// non-ASCII characters at the start, the end, side by side and alone,
    /// runs shorter and longer than q, texts shorter than q characters but
    /// q bytes long; both specs, q 1 to 9.
    #[test]
    fn char_shingle_parts_are_the_q_grams() {
        let texts = [
            "",
            "abc",
            "héllo",
            "é abc",
            "the quick brown fox jumps over the lazy dog",
            "caf\u{e9} cr\u{e8}me br\u{fb}l\u{e9}e, \u{e0} la carte",
            "\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}",
            "naïve ab naïve abcdefgh naïve",
            "日本語の文章 and some english text 日本",
            "x\u{2014}y \u{201c}quoted words here\u{201d} end",
        ];
        for t in texts {
            let n = normalize(t);
            for spec in [Spec::V1, Spec::V2] {
                for q in 1..=9 {
                    let mut want = Vec::new();
                    for_each_char_shingle(&n, q, 5, spec, |h| want.push(h));
                    let mut got = Vec::new();
                    for_each_char_shingle_piece(&n, q, 5, spec, |p| match p {
                        ShinglePiece::Hash(h) => got.push(h),
                        ShinglePiece::Ascii(b) => {
                            assert!(b.is_ascii() && b.len() >= q, "{t:?} q {q}");
                            b.windows(q).for_each(|w| got.push(hash::v2::xxh3(5, w)))
                        }
                        ShinglePiece::Tokens(_) => panic!("word tokens for q-grams"),
                    });
                    want.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, want, "{t:?}, {spec}, q {q}");
                }
            }
        }
    }

    /// The bucketed sort against the standard one: uniform hashes, hashes
    /// sharing their leading bits (one crowded bucket), repeats, and every
    /// size around the switch.
    #[test]
    fn hashes_sort_as_a_comparison_sort_does() {
        let mut rng = crate::hash::SplitMix64::new(11);
        for n in [
            0usize, 1, 255, 256, 257, 1000, 1023, 1024, 1025, 5000, 70_000,
        ] {
            for kind in 0..3 {
                let v: Vec<u64> = (0..n)
                    .map(|_| match kind {
                        0 => rng.next(),
                        1 => rng.next() >> 40,
                        _ => rng.next() % 50,
                    })
                    .collect();
                let mut want = v.clone();
                want.sort_unstable();
                assert_eq!(sorted_hashes(v.clone()), want, "n {n}, kind {kind}");
            }
        }
    }

    /// The repeat filter keeps the first of each hash, in order, and drops
    /// only hashes kept before: against a set built by hand, for hashes
    /// equal to the table's starting values (`i ^ 1`), hashes sharing a slot,
    /// repeats near and far, and sizes around the table's (13 bits).
    #[test]
    fn the_repeat_filter_drops_only_repeats() {
        let mut rng = crate::hash::SplitMix64::new(3);
        for n in [0usize, 1, 2, 3, 100, 8191, 8192, 8193, 40_000] {
            for kind in 0..4 {
                let v: Vec<u64> = (0..n)
                    .map(|i| match kind {
                        0 => rng.next() % (n as u64 / 2 + 1),
                        1 => (i as u64 % 17) ^ 1,
                        2 => (rng.next() % 64) << 13,
                        _ => rng.next(),
                    })
                    .collect();
                let got = without_recent_repeats(&v);
                let mut first = alloc::collections::BTreeSet::new();
                let firsts: Vec<u64> = v.iter().copied().filter(|&h| first.insert(h)).collect();
                // Every distinct hash, first occurrences in order.
                let mut seen = alloc::collections::BTreeSet::new();
                let got_firsts: Vec<u64> =
                    got.iter().copied().filter(|&h| seen.insert(h)).collect();
                assert_eq!(got_firsts, firsts, "n {n}, kind {kind}");
                assert!(got.len() <= v.len());
                let mut want = v.clone();
                want.sort_unstable();
                want.dedup();
                assert_eq!(
                    ShingleSet::from_slice(&v).as_slice(),
                    &want[..],
                    "n {n}, kind {kind}"
                );
            }
        }
        // A run of one hash keeps one; alternating hashes of two slots too.
        assert_eq!(without_recent_repeats(&[7; 50]), [7]);
        assert_eq!(without_recent_repeats(&[4, 5, 4, 5, 4, 5]), [4, 5]);
    }

    /// Spec 2's q-grams of an ASCII text are the XXH3-64 of each window of
    /// `q` bytes (for `q` of 4 to 8, computed inline), for every `q` around
    /// that range and texts shorter than `q`.
    #[test]
    fn ascii_char_shingles_are_xxh3_of_each_window() {
        let mut rng = crate::hash::SplitMix64::new(5);
        // Every length to 24 (the q-grams within 8 bytes of the end take
        // another read than those before them), then longer texts.
        for len in (1usize..=24).chain([40, 300]) {
            let text: alloc::string::String = (0..len)
                .map(|_| match rng.next() % 4 {
                    0 => ' ',
                    _ => char::from(b'a' + (rng.next() % 26) as u8),
                })
                .collect();
            let n = normalize(&text);
            let norm = n.text().as_bytes();
            if norm.is_empty() {
                continue;
            }
            for q in 1..=12usize {
                for seed in [0, 42, u64::MAX] {
                    let want: Vec<u64> = if norm.len() < q {
                        alloc::vec![hash::v2::xxh3(seed, norm)]
                    } else {
                        norm.windows(q).map(|w| hash::v2::xxh3(seed, w)).collect()
                    };
                    let got = char_shingles(&n, q, seed, Spec::V2);
                    assert_eq!(got, want, "{text:?}, q {q}, seed {seed}");
                }
            }
        }
    }

    #[test]
    fn shapes() {
        for spec in Spec::ALL {
            let n = normalize("a b c d e");
            let t = token_hashes(&n, 0, spec);
            assert_eq!(word_shingles(&t, 3, 0, spec).len(), 3);
            assert_eq!(word_shingles(&t, 9, 0, spec).len(), 1);
            assert_eq!(word_shingles(&t, 5, 0, spec).len(), 1);
            assert_eq!(word_shingles(&t[..0], 3, 0, spec).len(), 0);
            // "a b c d e" is 9 characters: 5 q-grams of 5, 1 when q > 9.
            assert_eq!(char_shingles(&n, 5, 0, spec).len(), 5);
            assert_eq!(char_shingles(&n, 20, 0, spec).len(), 1);
            assert_eq!(char_shingles(&n, 9, 0, spec).len(), 1);
            assert!(char_shingles(&normalize(""), 5, 0, spec).is_empty());
        }
    }

    /// The two versions give different values (a value of one is never
    /// mistaken for the other's), each its own function of the seed.
    #[test]
    fn versions_differ() {
        let n = normalize("the quick brown fox jumps");
        let (t1, t2) = (token_hashes(&n, 0, Spec::V1), token_hashes(&n, 0, Spec::V2));
        assert!(t1.iter().all(|x| !t2.contains(x)));
        assert_eq!(t2[0], hash::v2::xxh3(0, b"the"));
        assert_ne!(
            char_shingles(&n, 5, 0, Spec::V2),
            char_shingles(&n, 5, 0, Spec::V1)
        );
        assert_ne!(
            word_shingles(&t2, 3, 0, Spec::V2),
            word_shingles(&t2, 3, 1, Spec::V2)
        );
    }

    /// The ASCII path (byte windows) equals the general one (character
    /// starts) for every q and length around q, on random ASCII texts.
    #[test]
    fn ascii_qgrams_equal_the_general_path() {
        let mut rng = crate::testing::XorShift(0x51_7cc1_b727_220a);
        for _ in 0..3_000 {
            let len = 1 + (rng.next_u64() % 24) as usize;
            let text: alloc::string::String = (0..len)
                .map(|_| b"ab z9"[(rng.next_u64() % 5) as usize] as char)
                .collect();
            for q in 1..=8 {
                let n = normalize(&text);
                if n.text().is_empty() {
                    continue;
                }
                for spec in Spec::ALL {
                    assert_eq!(
                        char_shingles(&n, q, 7, spec),
                        {
                            let mut all = Vec::new();
                            char_shingles_general(
                                n.text(),
                                q,
                                |b| spec.bytes_hash(7, b),
                                |h| all.push(h),
                            );
                            all
                        },
                        "{text:?} q {q}"
                    );
                }
            }
        }
    }

    /// Asserts that the q-grams of `text` (normalised) written in place
    /// into a shared slice are each window of `q` characters hashed alone
    /// (the whole text when it is shorter), at both specs and every `q`
    /// from 1 to 9, and that the count taken before hashing is the number
    /// hashed.
    fn assert_each_window_hashed(text: &str) {
        let n = normalize(text);
        let chars: Vec<usize> = n.text().char_indices().map(|(i, _)| i).collect();
        let bytes = n.text().as_bytes();
        for q in 1..=9usize {
            for spec in Spec::ALL {
                let want: Vec<u64> = match chars.len() {
                    0 => Vec::new(),
                    c if c < q => alloc::vec![spec.bytes_hash(3, bytes)],
                    c => (0..=c - q)
                        .map(|s| {
                            let end = chars.get(s + q).copied().unwrap_or(bytes.len());
                            spec.bytes_hash(3, &bytes[chars[s]..end])
                        })
                        .collect(),
                };
                let got = char_shingles_shared(&n, q, 3, spec);
                assert_eq!(&got[..], &want[..], "{text:?}, q {q}, {spec}");
                // Counted before (else the slice would be the vector's copy).
                assert_eq!(char_shingle_count(n.text(), q), want.len());
            }
        }
    }

    /// Random texts of ASCII and of 2-, 3- and 4-byte characters, empty to
    /// longer than any `q`.
    #[test]
    fn qgrams_written_in_place_are_each_window_hashed() {
        let mut rng = crate::testing::XorShift(0x2f1e_77c3_0d4b_a915);
        let pieces = ["a", "b", "z", "9", " ", "é", "日", "\u{1f600}", "ß"];
        for _ in 0..2_000 {
            let len = (rng.next_u64() % 20) as usize;
            let text: alloc::string::String = (0..len)
                .map(|_| pieces[(rng.next_u64() % pieces.len() as u64) as usize])
                .collect();
            assert_each_window_hashed(&text);
        }
    }

    /// ASCII texts of every length 0 to 100: the SIMD kernels' whole steps,
    /// which need 16 bytes ahead, and each remainder.
    #[test]
    fn ascii_qgrams_written_in_place_are_each_window_hashed() {
        let mut rng = crate::testing::XorShift(0x51d3_0c2e_9a47_be81);
        for len in 0..=100usize {
            let text: alloc::string::String = (0..len)
                .map(|_| b"abcdefgh xyz"[(rng.next_u64() % 12) as usize] as char)
                .collect();
            assert_each_window_hashed(&text);
        }
    }

    /// Texts of ASCII runs of 1 to 40 bytes between characters of 2, 3 and 4
    /// bytes: the SIMD kernels' whole steps inside a run, and the windows
    /// that reach past it.
    #[test]
    fn mixed_qgrams_written_in_place_are_each_window_hashed() {
        let mut rng = crate::testing::XorShift(0x7e21_93ad_40c5_f16b);
        let wide = ["é", "日", "\u{1f600}", "ß", "ø"];
        for _ in 0..400 {
            let mut text = alloc::string::String::new();
            for _ in 0..(rng.next_u64() % 8) {
                let run = 1 + (rng.next_u64() % 40) as usize;
                text.extend((0..run).map(|_| b"abc xyz"[(rng.next_u64() % 7) as usize] as char));
                text.push_str(wide[(rng.next_u64() % wide.len() as u64) as usize]);
            }
            assert_each_window_hashed(&text);
        }
    }

    #[test]
    fn char_qgrams_never_split_utf8() {
        let n = normalize("日本語 ok");
        for spec in Spec::ALL {
            let q = char_shingles(&n, 2, 0, spec);
            // chars: 日 ␠ 本 ␠ 語 ␠ o k = 8 chars -> 7 bigrams
            assert_eq!(q.len(), 7);
            assert_eq!(q[0], spec.bytes_hash(0, "日 ".as_bytes()));
        }
    }

    #[test]
    fn short_text_whole_shingle_is_shared() {
        for spec in Spec::ALL {
            let a = token_hashes(&normalize("Hello world"), 0, spec);
            let b = token_hashes(&normalize("hello, WORLD!"), 0, spec);
            assert_eq!(word_shingles(&a, 5, 0, spec), word_shingles(&b, 5, 0, spec));
        }
    }

    #[test]
    fn set_ops() {
        let s = ShingleSet::from_hashes(alloc::vec![5, 1, 3, 3, 1]);
        let t = ShingleSet::from_hashes(alloc::vec![3, 4, 5]);
        assert_eq!(s.as_slice(), &[1, 3, 5]);
        assert_eq!(s.intersection_len(&t), 2);
        assert!(s.contains(5) && !s.contains(4));
    }
}
