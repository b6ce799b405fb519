//! Undoing the tricks that hide a copy from a checker (SPEC.md §1, step 0,
//! the normalisation named `…-unmasked`): invisible characters removed and
//! look-alike letters of another script mapped to the letters they imitate.
//!
//! Two find-and-replace tricks defeat any shingle-based checker while
//! leaving a text unchanged on screen: characters that render as nothing
//! inside words (a zero-width space splits a word in two for UAX #29, a
//! soft hyphen makes `co­py` a token of its own), and letters of another
//! script that look like the text's own (Cyrillic `а е о с р х у і` for
//! Latin `a e o c p x y i`, Greek `ο`). Commercial checkers call them
//! "hidden text" and "character replacement".
//!
//! 1. **Invisible characters**: every `Default_Ignorable_Code_Point` (UCD
//!    `DerivedCoreProperties.txt`: soft hyphen, zero-width space, joiner and
//!    non-joiner, word joiner, bidirectional controls, variation selectors,
//!    tag characters, Hangul fillers, …) is removed. The property is read
//!    from `unmask_tables.rs`, derived from the `unicode-security` crate
//!    (UTS #39's skeleton drops exactly these characters).
//! 2. **The main script**: the script (UAX #24, `unicode-script`) with the
//!    most letters that imitate no basic letter of another of Latin, Greek
//!    and Cyrillic (Cyrillic `а` looks Latin and does not vote; `ж` and
//!    Latin `t` do), so that a trick on most of the letters still reads in
//!    the script it hides; with no such letter, the script with the most
//!    letters. `Common` and `Inherited` do not count; ties go to the script
//!    met first.
//! 3. **Look-alike letters**, only where the main script is Latin, Greek or
//!    Cyrillic: a letter `x` of another script is a look-alike of the main
//!    script's letter `y` (from its basic alphabet: `A–Z a–z`; `Α–Ω α–ω`;
//!    `Ѐ–џ`) when their UTS #39 confusable skeletons are equal (the
//!    `confusables.txt` data: which basic letters share each character's
//!    skeleton is `unmask_tables.rs`, derived from `unicode-security` and
//!    held to it for every code point by a test); `x`'s base letter
//!    is compared, its combining marks kept (`ё` → `ë`). Among several `y`,
//!    one of `x`'s case is taken, then the first in alphabet order. Letters
//!    of one script are never mapped to each other (`rn`/`m`, `l`/`I`/`1`,
//!    `0`/`O` stay as they are: phonetic codes and spelling read them).
//!    Which words are mapped is decided by words (maximal runs of letters,
//!    digits, marks and invisible characters):
//!    * a word mixing letters of the main script with look-alikes of other
//!      scripts, and no other letter of another script, is a **mixed** word:
//!      its look-alikes are mapped;
//!    * a word of other-script letters that are all look-alikes is a
//!      **look-alike word** (`сору`: four Cyrillic letters);
//!    * a word with a letter of another script that imitates nothing is a
//!      **foreign** word (`это`, `και`).
//!
//!    Look-alike words are mapped when mixed and look-alike words together
//!    outnumber foreign words (the trick changes whole words; a quoted
//!    Russian or Greek sentence has mostly foreign words); a look-alike
//!    word of one letter (`α` in a formula, Cyrillic `а` for the article
//!    `a`) only when, besides, the text has a mixed word or a look-alike
//!    word of two letters or more.
//!
//! What was undone is counted in [`Obfuscation`]: look-alike letters
//! mapped, and invisible characters removed **inside a word of an
//! alphabetic script** (both neighbours letters or digits of Latin, Greek,
//! Cyrillic, Armenian, Georgian or `Common`): a joiner in Arabic, Persian or
//! an Indic script, a variation selector after an ideograph or an emoji, a
//! byte-order mark or a space-like invisible between words are removed but
//! not counted, since they have a use there.
//!
//! A text with none of these characters is returned as it came (`None`):
//! its normalisation is exactly the plain one's. Deciding so costs one pass
//! over the text's non-ASCII characters (ASCII skipped 64 bytes at a time;
//! Latin-1, Latin Extended and General Punctuation answered without the
//! tables), the whole cost on most honest text.

use super::script::script;
use super::TextRange;
use alloc::string::String;
use alloc::vec::Vec;
use unicode_script::Script;

#[path = "unmask_tables.rs"]
#[rustfmt::skip]
mod tables;

/// Most byte ranges an [`Obfuscation`] keeps (the counts are always exact).
pub const MAX_OBFUSCATION_RANGES: usize = 100_000;

/// What the unmasked normalisation undid in one text (SPEC.md §1, step 0),
/// and what a document reader left out as hidden: the evidence that a text
/// was made to look other than it is to a checker.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct Obfuscation {
    /// Letters of another script replaced by the letter of the text's main
    /// script they imitate (Cyrillic `а` → Latin `a`), 0 or more.
    pub lookalikes: u64,
    /// Invisible characters (`Default_Ignorable_Code_Point`) removed from
    /// inside words of an alphabetic script, 0 or more.
    pub invisible: u64,
    /// Runs of text a document reader left out as hidden from the eye
    /// (hidden, white or tiny text), 0 or more; 0 for a text given as text.
    pub hidden: u64,
    /// Where the replaced and removed characters were: byte ranges (UTF-8;
    /// UTF-16 code units in JavaScript) into the original text, in order,
    /// adjacent ones merged; at most [`MAX_OBFUSCATION_RANGES`].
    pub ranges: Vec<TextRange>,
    /// What was found, in one sentence for a reader ("12 look-alike letters
    /// of another script read as the letters they imitate, 40 invisible
    /// characters inside words removed: a known way to hide copying from a
    /// checker."), or `None` when nothing was: what every surface shows.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub warning: Option<String>,
}

impl Obfuscation {
    /// Everything undone to read the text, in one count: look-alike
    /// letters, invisible characters and hidden runs (the class CSV's
    /// `obfuscation_a`/`obfuscation_b`).
    pub fn undone(&self) -> u64 {
        self.lookalikes + self.invisible + self.hidden
    }

    /// `true` when nothing was found: no look-alike, no invisible character,
    /// no hidden run.
    pub fn is_empty(&self) -> bool {
        self.lookalikes == 0 && self.invisible == 0 && self.hidden == 0
    }

    /// Counts `hidden` runs left out by a document reader, and says so.
    pub fn add_hidden(&mut self, runs: u64) {
        self.hidden += runs;
        self.warning = self.describe();
    }

    /// The sentence of [`Obfuscation::warning`] for the counts as they are.
    fn describe(&self) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let plural = |n: u64, one: &str, many: &str| match n {
            1 => alloc::format!("1 {one}"),
            n => alloc::format!("{n} {many}"),
        };
        let mut parts = Vec::new();
        if self.lookalikes > 0 {
            parts.push(plural(
                self.lookalikes,
                "look-alike letter of another script read as the letter it imitates",
                "look-alike letters of another script read as the letters they imitate",
            ));
        }
        if self.invisible > 0 {
            parts.push(plural(
                self.invisible,
                "invisible character inside a word removed",
                "invisible characters inside words removed",
            ));
        }
        if self.hidden > 0 {
            parts.push(plural(
                self.hidden,
                "run of hidden text left out",
                "runs of hidden text left out",
            ));
        }
        Some(alloc::format!(
            "{}: a known way to hide copying from a checker.",
            parts.join(", ")
        ))
    }

    fn mark(&mut self, start: usize, end: usize) {
        if let Some(last) = self.ranges.last_mut() {
            if last.end == start {
                last.end = end;
                return;
            }
        }
        if self.ranges.len() < MAX_OBFUSCATION_RANGES {
            self.ranges.push(TextRange { start, end });
        }
    }
}

/// A replaced or removed piece: `clean_len` bytes at `clean` of the
/// unmasked text stand for `orig_len` bytes at `orig` of the original
/// (`clean_len` 0: removed).
#[derive(Clone, Copy, Debug)]
struct Span {
    clean: u32,
    clean_len: u32,
    orig: u32,
    orig_len: u32,
}

impl Span {
    fn clean(&self) -> usize {
        self.clean as usize
    }

    fn clean_end(&self) -> usize {
        (self.clean + self.clean_len) as usize
    }

    fn orig(&self) -> usize {
        self.orig as usize
    }

    fn orig_end(&self) -> usize {
        (self.orig + self.orig_len) as usize
    }
}

/// A text with its tricks undone, and the way back to the original.
#[derive(Debug)]
pub(crate) struct Unmasked {
    /// The text with invisible characters removed and look-alikes mapped.
    pub(crate) text: String,
    spans: Vec<Span>,
    /// What was undone.
    pub(crate) obfuscation: Obfuscation,
}

impl Unmasked {
    /// The original offset of a range's start at `p` (a char boundary of
    /// the unmasked text): after anything removed just before it.
    pub(crate) fn start_of(&self, p: usize) -> usize {
        // The last span starting at or before p.
        let i = self.spans.partition_point(|s| s.clean() <= p);
        match i.checked_sub(1).map(|i| self.spans[i]) {
            None => p,
            Some(s) if p < s.clean_end() => s.orig(),
            Some(s) => s.orig_end() + (p - s.clean_end()),
        }
    }

    /// The original offset of a range's end at `p`: before anything removed
    /// just after it.
    pub(crate) fn end_of(&self, p: usize) -> usize {
        // The last span starting before p.
        let i = self.spans.partition_point(|s| s.clean() < p);
        match i.checked_sub(1).map(|i| self.spans[i]) {
            None => p,
            Some(s) => s.orig_end() + p.saturating_sub(s.clean_end()),
        }
    }
}

/// `true` for a `Default_Ignorable_Code_Point`: UTS #39's skeleton (step 2)
/// removes exactly these, and no other character's skeleton is empty
/// ([`tables::INVISIBLE`], derived from `unicode-security`).
fn is_invisible(c: char) -> bool {
    let u = c as u32;
    if u < 0xAD {
        return false;
    }
    let i = tables::INVISIBLE.partition_point(|&(_, last)| last < u);
    tables::INVISIBLE
        .get(i)
        .is_some_and(|&(first, _)| first <= u)
}

/// A fast answer for the non-ASCII characters of most Latin-script text:
/// Latin-1, Latin Extended-A and -B (U+0080–U+024F) and the General
/// Punctuation that is not invisible (U+2010–U+2027, U+2030–U+205E): each
/// is a Latin letter or no letter, and only U+00AD is invisible. `Some`
/// with whether it is invisible, or `None` for any other character (ask
/// the tables). Held to the tables over both ranges by a test.
fn common_latin(c: char) -> Option<bool> {
    match c as u32 {
        0x80..=0x24F => Some(c == '\u{AD}'),
        0x2010..=0x2027 | 0x2030..=0x205E => Some(false),
        _ => None,
    }
}

/// The script a letter counts for, or `None` for a character of no script
/// of its own (`Common`, `Inherited`, `Unknown`) or not a letter.
fn letter_script(c: char) -> Option<Script> {
    if c.is_ascii_alphabetic() {
        return Some(Script::Latin);
    }
    if c.is_ascii() || !c.is_alphabetic() {
        return None;
    }
    match script(c) {
        Script::Common | Script::Inherited | Script::Unknown => None,
        s => Some(s),
    }
}

/// Scripts whose words have no use for an invisible character inside them.
fn plain_alphabet(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            script(c),
            Script::Latin
                | Script::Greek
                | Script::Cyrillic
                | Script::Armenian
                | Script::Georgian
                | Script::Common
        )
}

/// The scripts whose basic alphabets take part: a main script of another
/// kind has no look-alikes mapped.
const ALPHABETS: [Script; 3] = [Script::Latin, Script::Greek, Script::Cyrillic];

/// The script of [`ALPHABETS`] whose basic alphabet has `y` (one of
/// [`tables::CLASSES`]' letters).
fn script_of_basic(y: char) -> Script {
    match y as u32 {
        0x391..=0x3C9 => Script::Greek,
        0x400..=0x45F => Script::Cyrillic,
        _ => Script::Latin,
    }
}

/// The letters of the basic alphabets of [`ALPHABETS`] (`A–Z a–z`, `Α–Ω
/// α–ω`, `Ѐ–џ`) whose UTS #39 skeleton is `c`'s, in code point order
/// (which is each alphabet's order); empty for most characters. A binary
/// search of [`tables::LOOKALIKE`].
fn basic_lookalikes(c: char) -> &'static [char] {
    let u = c as u32;
    let i = tables::LOOKALIKE.partition_point(|&e| e >> 8 < u);
    match tables::LOOKALIKE.get(i) {
        Some(&e) if e >> 8 == u => tables::CLASSES[(e & 0xFF) as usize],
        _ => &[],
    }
}

/// Does letter `c` of `script` look like a basic letter of another
/// alphabet (Cyrillic `а`, Latin `a`: yes; Cyrillic `ж`, Latin `t`: no)?
/// Such letters do not decide a text's main script.
fn is_shared(c: char, script: Script) -> bool {
    ALPHABETS.contains(&script)
        && basic_lookalikes(c)
            .iter()
            .any(|&y| script_of_basic(y) != script)
}

/// The letter of `main`'s basic alphabet that `x` (of another script)
/// imitates, with `x`'s combining marks, or `None` (always for a `main`
/// not of [`ALPHABETS`]).
fn lookalike(x: char, main: Script) -> Option<String> {
    let mut base = None;
    let mut marks = String::new();
    unicode_normalization::char::decompose_canonical(x, |c| match base {
        None => base = Some(c),
        Some(_) => marks.push(c),
    });
    let base = base?;
    let mut found: Option<char> = None;
    for &y in basic_lookalikes(base) {
        if script_of_basic(y) == main {
            if y.is_uppercase() == base.is_uppercase() {
                found = Some(y);
                break;
            }
            found.get_or_insert(y);
        }
    }
    let mut out = String::new();
    out.push(found?);
    out.push_str(&marks);
    Some(out)
}

/// How a word's other-script letters read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WordKind {
    /// No letter of another script with a look-alike.
    Plain,
    /// Main-script letters and look-alikes, no other foreign letter.
    Mixed,
    /// Only look-alikes, this many.
    Lookalike(usize),
    /// A foreign letter that imitates nothing.
    Foreign,
}

/// The characters of `input` that are not ASCII, in order (ASCII skipped
/// 64, then eight bytes at a time).
fn non_ascii(input: &str) -> impl Iterator<Item = char> + '_ {
    let bytes = input.as_bytes();
    let mut i = 0;
    core::iter::from_fn(move || {
        i += ascii_prefix(bytes.get(i..)?);
        let c = input.get(i..)?.chars().next()?;
        i += c.len_utf8();
        Some(c)
    })
}

/// The length of the run of ASCII bytes that starts `bytes`: 64 bytes a
/// step (four 16-byte vectors ORed, their high bits gathered: SSE2, NEON or
/// WebAssembly SIMD, the `wide` crate), then 8, then one. Every text is
/// scanned so before it is normalised: a byte at a time took 6 % of the
/// dedup pipeline's time on word 5-shingles.
fn ascii_prefix(bytes: &[u8]) -> usize {
    let mut i = 0;
    #[cfg(any(
        target_feature = "sse2",
        all(target_arch = "aarch64", target_feature = "neon"),
        target_feature = "simd128"
    ))]
    {
        use wide::u8x16;
        let vector = |c: &[u8]| {
            let mut a = [0u8; 16];
            a.copy_from_slice(c);
            u8x16::new(a)
        };
        for block in bytes.chunks_exact(64) {
            let any = block
                .chunks_exact(16)
                .map(vector)
                .fold(u8x16::splat(0), |acc, v| acc | v);
            if any.to_bitmask() != 0 {
                break;
            }
            i += 64;
        }
    }
    while let Some(w) = bytes.get(i..i + 8) {
        let w = u64::from_le_bytes(w.try_into().unwrap_or([0x80; 8]));
        if w & 0x8080_8080_8080_8080 != 0 {
            break;
        }
        i += 8;
    }
    while bytes.get(i).is_some_and(|b| b.is_ascii()) {
        i += 1;
    }
    i
}

/// The script counted most (the first met of equals).
fn most(counts: &[(Script, usize)]) -> Option<Script> {
    let mut best: Option<(Script, usize)> = None;
    for &(s, n) in counts {
        if best.is_none_or(|(_, m)| n > m) {
            best = Some((s, n));
        }
    }
    best.map(|(s, _)| s)
}

fn bump(counts: &mut Vec<(Script, usize)>, s: Script) {
    match counts.iter_mut().find(|(t, _)| *t == s) {
        Some((_, n)) => *n += 1,
        None => counts.push((s, 1)),
    }
}

/// What kind `word` is, its main script being `main`.
fn kind(word: &str, main: Script) -> WordKind {
    if main == Script::Latin && word.is_ascii() {
        return WordKind::Plain;
    }
    let (mut m, mut k, mut g) = (0usize, 0usize, 0usize);
    for c in word.chars() {
        match letter_script(c) {
            None => {}
            Some(s) if s == main => m += 1,
            Some(_) if lookalike(c, main).is_some() => k += 1,
            Some(_) => g += 1,
        }
    }
    match (m, k, g) {
        (0, _, 1..) => WordKind::Foreign,
        (_, _, 1..) | (_, 0, _) => WordKind::Plain,
        (0, k, _) => WordKind::Lookalike(k),
        _ => WordKind::Mixed,
    }
}

/// Is `c` part of a word for the decision (letters, digits, marks,
/// invisible characters)?
fn in_word(c: char) -> bool {
    c.is_alphanumeric()
        || (!c.is_ascii() && (matches!(script(c), Script::Inherited) || is_invisible(c)))
}

/// The maximal runs of word characters ([`in_word`]) and of the others:
/// `(start, end, is_word)`, covering the text in order. ASCII bytes are
/// classed as they are, without decoding them as characters.
fn runs(input: &str) -> impl Iterator<Item = (usize, usize, bool)> + '_ {
    let bytes = input.as_bytes();
    // Whether the character at `at` (a character boundary) is a word
    // character, and its length in bytes.
    let class = move |at: usize| match bytes[at] {
        b if b.is_ascii() => (b.is_ascii_alphanumeric(), 1),
        _ => input[at..]
            .chars()
            .next()
            .map_or((false, 1), |c| (in_word(c), c.len_utf8())),
    };
    let mut i = 0;
    core::iter::from_fn(move || {
        let start = i;
        let (word, len) = (start < bytes.len()).then(|| class(start))?;
        i += len;
        while i < bytes.len() {
            let (w, len) = class(i);
            if w != word {
                break;
            }
            i += len;
        }
        Some((start, i, word))
    })
}

impl Unmasked {
    /// Records `len` bytes removed at `at` of the original, where the
    /// unmasked text now ends.
    fn remove(&mut self, at: usize, len: usize) {
        // Offsets fit 32 bits: `unmask` takes texts under 4 GiB.
        let (clean, at, len) = (self.text.len() as u32, at as u32, len as u32);
        if let Some(s) = self.spans.last_mut() {
            if s.clean_len == 0 && s.clean == clean && s.orig + s.orig_len == at {
                s.orig_len += len;
                return;
            }
        }
        self.spans.push(Span {
            clean,
            clean_len: 0,
            orig: at,
            orig_len: len,
        });
    }
}

/// Undoes the tricks in `input` (see the module docs), or `None` when it
/// holds nothing to undo. Time linear in `input.len()`; memory the text's
/// length plus 16 bytes a run of characters changed (at most 4 bytes a byte
/// of text). A text of 4 GiB or more (past every surface's limit) is left
/// as it is.
pub(crate) fn unmask(input: &str) -> Option<Unmasked> {
    if ascii_prefix(input.as_bytes()) == input.len() || input.len() >= u32::MAX as usize {
        return None;
    }
    // Pass 0, on the non-ASCII characters only: is anything invisible,
    // is any letter of a script other than Latin? Most texts that are not
    // ASCII (curly quotes, dashes, accents) end here, unchanged.
    let (mut invisible, mut other) = (false, false);
    for c in non_ascii(input) {
        if let Some(x) = common_latin(c) {
            invisible |= x;
            continue;
        }
        match letter_script(c) {
            Some(Script::Latin) => {}
            Some(_) => other = true,
            None => invisible = invisible || is_invisible(c),
        }
        if invisible && other {
            break;
        }
    }
    if !invisible && !other {
        return None;
    }
    // Pass 1: letters by script (ASCII letters are Latin).
    let mut counts: Vec<(Script, usize)> = Vec::new();
    let ascii = input.bytes().filter(u8::is_ascii_alphabetic).count();
    if ascii > 0 {
        counts.push((Script::Latin, ascii));
    }
    for c in non_ascii(input) {
        if let Some(s) = letter_script(c) {
            bump(&mut counts, s);
        }
    }
    // The main script: the one with the most letters that imitate no
    // letter of another alphabet (a trick adds none: `сору` is four
    // Cyrillic letters that each look Latin), else the most letters.
    let several = counts.len() > 1;
    let main = if several {
        let mut votes: Vec<(Script, usize)> = Vec::new();
        // ASCII letters (most of a text in a Latin script) looked up once
        // each, not once per occurrence, and Latin's votes counted apart,
        // put in `votes` where Latin was first met.
        let mut ascii_votes = [false; 128];
        for b in (b'A'..=b'Z').chain(b'a'..=b'z') {
            ascii_votes[usize::from(b)] = !is_shared(char::from(b), Script::Latin);
        }
        let (mut latin, mut latin_at) = (0usize, 0usize);
        let mut vote_latin = |votes: &Vec<(Script, usize)>| {
            if latin == 0 {
                latin_at = votes.len();
            }
            latin += 1;
        };
        let bytes = input.as_bytes();
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if b.is_ascii() {
                if ascii_votes[usize::from(b)] {
                    vote_latin(&votes);
                }
                i += 1;
                continue;
            }
            let Some(c) = input[i..].chars().next() else {
                break;
            };
            i += c.len_utf8();
            match letter_script(c) {
                Some(s) if !is_shared(c, s) && s == Script::Latin => vote_latin(&votes),
                Some(s) if !is_shared(c, s) => bump(&mut votes, s),
                _ => {}
            }
        }
        if latin > 0 {
            votes.insert(latin_at, (Script::Latin, latin));
        }
        most(&votes).or_else(|| most(&counts))
    } else {
        most(&counts)
    };
    // The main script whose look-alikes are mapped: one of several scripts,
    // one of ALPHABETS.
    let targets = main.filter(|m| several && ALPHABETS.contains(m));
    if !invisible && targets.is_none() {
        return None;
    }
    // Pass 2: what each word is, and so which words are mapped.
    let kinds: Vec<WordKind> = match targets {
        Some(m) => runs(input)
            .filter(|r| r.2)
            .map(|(s, e, _)| kind(&input[s..e], m))
            .collect(),
        None => Vec::new(),
    };
    let count = |f: &dyn Fn(&WordKind) -> bool| kinds.iter().filter(|w| f(w)).count();
    let mixed = count(&|w| *w == WordKind::Mixed);
    let long = count(&|w| matches!(w, WordKind::Lookalike(n) if *n >= 2));
    let foreign = count(&|w| *w == WordKind::Foreign);
    let map_long = mixed + long > foreign;
    let map_single = map_long && mixed + long > 0;
    // Pass 3: the unmasked text.
    let mut out = Unmasked {
        text: String::with_capacity(input.len()),
        spans: Vec::new(),
        obfuscation: Obfuscation::default(),
    };
    let mut kinds = kinds.into_iter();
    let mut copied = 0; // input[copied..] is not yet in out.text
    for (start, end, is_word) in runs(input) {
        if !is_word {
            continue;
        }
        let map = match kinds.next() {
            Some(WordKind::Mixed) => true,
            Some(WordKind::Lookalike(n)) => (n >= 2 && map_long) || map_single,
            _ => false,
        };
        let word = &input[start..end];
        if word.is_ascii() {
            continue;
        }
        let mut prev: Option<char> = None;
        for (i, c) in word.char_indices() {
            let at = start + i;
            if is_invisible(c) {
                out.text.push_str(&input[copied..at]);
                copied = at + c.len_utf8();
                out.remove(at, c.len_utf8());
                let next = word[i..].chars().skip(1).find(|&n| !is_invisible(n));
                let inside = matches!((prev, next), (Some(p), Some(n))
                    if p.is_alphanumeric() && n.is_alphanumeric()
                        && plain_alphabet(p) && plain_alphabet(n));
                if inside {
                    out.obfuscation.invisible += 1;
                    out.obfuscation.mark(at, copied);
                }
                continue;
            }
            prev = Some(c);
            if !map || letter_script(c).is_none_or(|s| Some(s) == main) {
                continue;
            }
            if let Some(y) = targets.and_then(|m| lookalike(c, m)) {
                out.text.push_str(&input[copied..at]);
                copied = at + c.len_utf8();
                out.spans.push(Span {
                    clean: out.text.len() as u32,
                    clean_len: y.len() as u32,
                    orig: at as u32,
                    orig_len: c.len_utf8() as u32,
                });
                out.text.push_str(&y);
                out.obfuscation.lookalikes += 1;
                out.obfuscation.mark(at, copied);
            }
        }
    }
    out.text.push_str(&input[copied..]);
    out.obfuscation.warning = out.obfuscation.describe();
    Some(out)
}

#[cfg(test)]
mod tests {
    use crate::text::{normalize, normalize_with, Normalization};
    use alloc::string::String;
    use alloc::vec::Vec;

    /// The ASCII run's length is the position of the first byte ≥ 0x80,
    /// wherever it falls (in a block of 64, in the 8-byte steps, at the
    /// end), for every length to 200, with a byte of each kind ≥ 0x80.
    #[test]
    fn the_ascii_prefix_ends_at_the_first_high_byte() {
        for n in 0..200usize {
            let mut bytes: Vec<u8> = (0..n).map(|i| b' ' + (i % 95) as u8).collect();
            assert_eq!(super::ascii_prefix(&bytes), n);
            for at in 0..n {
                for high in [0x80u8, 0xC3, 0xFF] {
                    let keep = bytes[at];
                    bytes[at] = high;
                    assert_eq!(
                        super::ascii_prefix(&bytes),
                        at,
                        "length {n}, {high:#x} at {at}"
                    );
                    bytes[at] = keep;
                }
            }
        }
    }

    const ENGLISH: &str = "Inheritance in object oriented programming is a way to form new \
        classes using classes that have already been defined. The new classes, known as derived \
        classes, take over attributes and behaviour of the pre-existing classes, which are \
        referred to as base classes. It is intended to help reuse existing code with little or \
        no modification. Copy it, please: a copy is a copy.";

    fn unmasked(s: &str) -> crate::Normalized {
        normalize_with(s, Normalization::default().unmasking(true))
    }

    fn tokens(n: &crate::Normalized) -> Vec<String> {
        n.token_strs().map(String::from).collect()
    }

    /// Latin letters typed as their Cyrillic look-alikes, as the trick does.
    fn cyrillic(s: &str) -> String {
        s.chars()
            .map(|c| match c {
                'a' => 'а',
                'e' => 'е',
                'o' => 'о',
                'c' => 'с',
                'p' => 'р',
                'x' => 'х',
                'y' => 'у',
                'i' => 'і',
                'A' => 'А',
                'E' => 'Е',
                'O' => 'О',
                'C' => 'С',
                'T' => 'Т',
                _ => c,
            })
            .collect()
    }

    /// An invisible character after every second letter of each word.
    fn every_second(s: &str, invisible: char) -> String {
        let mut out = String::new();
        let mut run = 0;
        for c in s.chars() {
            out.push(c);
            if c.is_alphabetic() {
                run += 1;
                if run % 2 == 0 {
                    out.push(invisible);
                }
            } else {
                run = 0;
            }
        }
        out
    }

    fn assert_undone(tricked: &str, lookalikes: bool, invisible: bool) {
        let plain = normalize(ENGLISH);
        let n = unmasked(tricked);
        assert_ne!(
            tokens(&normalize(tricked)),
            tokens(&plain),
            "the trick works without unmasking"
        );
        assert_eq!(tokens(&n), tokens(&plain), "{tricked}");
        assert_eq!(n.text(), plain.text());
        let o = n.obfuscation();
        assert_eq!(o.lookalikes > 0, lookalikes, "{o:?}");
        assert_eq!(o.invisible > 0, invisible, "{o:?}");
        // Every token's range is a word of the tricked text.
        for (t, p) in n.tokens().iter().zip(plain.tokens()) {
            let word = &tricked[t.orig.start..t.orig.end];
            let shown: String = word.chars().filter(|c| !super::is_invisible(*c)).collect();
            assert_eq!(
                shown.chars().count(),
                ENGLISH[p.orig.start..p.orig.end].chars().count(),
                "{word:?}"
            );
            assert!(
                !word.starts_with(super::is_invisible) && !word.ends_with(super::is_invisible),
                "{word:?}"
            );
        }
        // Every range marks what changed.
        for r in &o.ranges {
            let s = &tricked[r.start..r.end];
            assert!(s.chars().all(|c| !c.is_ascii()), "{s:?}");
        }
    }

    #[test]
    fn cyrillic_lookalikes_are_mapped() {
        let t = cyrillic(ENGLISH);
        assert_undone(&t, true, false);
        let n = unmasked(&t);
        let changed = t.chars().filter(|c| !c.is_ascii()).count() as u64;
        assert_eq!(n.obfuscation().lookalikes, changed);
    }

    /// A trick that replaces more letters than it leaves (Cyrillic `ѕ һ ј
    /// ԁ` too, and capitals) still reads as Latin: the letters that imitate
    /// another alphabet do not decide the main script.
    #[test]
    fn a_trick_on_most_letters_still_reads_latin() {
        let t: String = cyrillic(ENGLISH)
            .chars()
            .map(|c| match c {
                's' => 'ѕ',
                'h' => 'һ',
                'j' => 'ј',
                'd' => 'ԁ',
                'I' => 'І',
                'B' => 'В',
                'H' => 'Н',
                'M' => 'М',
                'K' => 'К',
                c => c,
            })
            .collect();
        let latin = t.chars().filter(|c| c.is_ascii_alphabetic()).count();
        let other = t
            .chars()
            .filter(|c| c.is_alphabetic() && !c.is_ascii())
            .count();
        assert!(other > latin, "{other} {latin}");
        assert_undone(&t, true, false);
    }

    /// Two scripts with as many letters that vote (that imitate no letter
    /// of another alphabet): the main script is the one met first, and so
    /// decides which way a mixed word's look-alikes are mapped (SPEC.md §1,
    /// step 0). Latin's votes are counted apart from the others'.
    #[test]
    fn equal_votes_go_to_the_script_met_first() {
        use alloc::format;
        use unicode_script::Script;
        let latin = (b'a'..=b'z')
            .map(char::from)
            .find(|&c| !super::is_shared(c, Script::Latin))
            .expect("a Latin letter that votes");
        assert!(!super::is_shared('ж', Script::Cyrillic));
        let ours = format!("{latin}{latin}{latin}");
        // `сору` with a Latin `o`: a mixed word in either script.
        let mixed = "с\u{6f}ру";
        for (text, want) in [
            (format!("жжж {ours} {mixed}"), "сору"),
            (format!("{ours} жжж {mixed}"), "copy"),
            (format!("{mixed} жжж, {ours}"), "сору"),
            (format!("{mixed} {ours}, жжж"), "copy"),
        ] {
            let n = unmasked(&text);
            assert!(
                tokens(&n).iter().any(|t| t == want),
                "{text}: {:?}",
                tokens(&n)
            );
        }
    }

    /// The runs are the maximal runs of characters alike by `in_word`,
    /// read a character at a time, on random strings of ASCII letters,
    /// digits and punctuation, Cyrillic and Greek letters, a combining mark
    /// and invisible characters.
    #[test]
    fn runs_are_the_characters_runs() {
        let alphabet: Vec<char> = "aZ09_.' -\nжоω\u{301}\u{200b}\u{ad}é".chars().collect();
        let mut rng = crate::testing::XorShift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2_000 {
            let len = (rng.next_u64() % 40) as usize;
            let s: String = (0..len)
                .map(|_| alphabet[(rng.next_u64() % alphabet.len() as u64) as usize])
                .collect();
            let mut want: Vec<(usize, usize, bool)> = Vec::new();
            for (i, c) in s.char_indices() {
                let (end, word) = (i + c.len_utf8(), super::in_word(c));
                match want.last_mut() {
                    Some(r) if r.2 == word => r.1 = end,
                    _ => want.push((i, end, word)),
                }
            }
            assert_eq!(super::runs(&s).collect::<Vec<_>>(), want, "{s:?}");
        }
    }

    #[test]
    fn zero_width_spaces_soft_hyphens_and_joiners_are_removed() {
        for c in [
            '\u{200B}',
            '\u{AD}',
            '\u{200D}',
            '\u{2060}',
            '\u{FEFF}',
            '\u{E0041}',
            '\u{FE0F}',
        ] {
            let t = every_second(ENGLISH, c);
            assert_undone(&t, false, true);
            let n = unmasked(&t);
            assert_eq!(
                n.obfuscation().invisible as usize,
                t.chars().filter(|&x| x == c).count() - trailing(&t, c)
            );
        }
    }

    /// Invisible characters after a word's last letter are not inside it.
    fn trailing(t: &str, c: char) -> usize {
        let v: Vec<char> = t.chars().collect();
        (0..v.len())
            .filter(|&i| v[i] == c && !v.get(i + 1).is_some_and(|n| n.is_alphanumeric()))
            .count()
    }

    #[test]
    fn greek_omicron_with_joiners() {
        let t: String = ENGLISH
            .chars()
            .flat_map(|c| match c {
                'o' => ['\u{200D}', 'ο'].into_iter().collect::<Vec<_>>(),
                c => alloc::vec![c],
            })
            .collect();
        assert_undone(&t, true, true);
    }

    #[test]
    fn both_tricks_at_once() {
        assert_undone(&every_second(&cyrillic(ENGLISH), '\u{200B}'), true, true);
    }

    fn untouched(s: &str) {
        let n = unmasked(s);
        assert_eq!(n, normalize(s), "{s}");
        assert!(n.obfuscation().is_empty());
    }

    #[test]
    fn texts_in_other_scripts_are_not_tricks() {
        // Russian, Greek, Serbian in both alphabets, Ukrainian.
        untouched("Наследование в объектно-ориентированном программировании — это способ создавать новые классы на основе уже существующих. Он работает с Python и C++.");
        untouched("Η κληρονομικότητα στον αντικειμενοστρεφή προγραμματισμό είναι ένας τρόπος να σχηματίζονται νέες κλάσεις από ήδη ορισμένες.");
        untouched("Наслеђивање у објектно оријентисаном програмирању је начин да се формирају нове класе.");
        untouched("Nasleđivanje u objektno orijentisanom programiranju je način da se formiraju nove klase.");
        untouched(
            "Успадкування — це спосіб створювати нові класи з уже існуючих; її значення велике.",
        );
    }

    #[test]
    fn formulas_and_quotations_are_not_tricks() {
        untouched("Let α be the angle and β the slope; then tan α = β, and π r² is the area of a circle of radius r with Δx → 0.");
        untouched("The motto reads «Москва не сразу строилась», that is, Rome was not built in a day, and the Greek ο λόγος means the word.");
    }

    #[test]
    fn joiners_with_a_use_are_removed_uncounted() {
        // Persian (ZWNJ), Hindi (ZWJ after a virama), an emoji sequence,
        // a variation selector after an ideograph, a byte-order mark.
        for s in [
            "می\u{200C}خواهم بروم",
            "क्\u{200D}ष और",
            "family 👩\u{200D}👩\u{200D}👧 day",
            "漢\u{E0100}字",
            "\u{FEFF}A text",
        ] {
            let n = unmasked(s);
            assert_eq!(n.obfuscation().invisible, 0, "{s}");
            assert_eq!(n.obfuscation().lookalikes, 0, "{s}");
        }
    }

    /// The basic alphabet of a script of [`super::ALPHABETS`], in order.
    #[cfg(feature = "std")]
    fn alphabet(script: unicode_script::Script) -> Vec<char> {
        use unicode_script::Script;
        let ranges: &[(char, char)] = match script {
            Script::Latin => &[('A', 'Z'), ('a', 'z')],
            Script::Greek => &[
                ('\u{391}', '\u{3A1}'),
                ('\u{3A3}', '\u{3A9}'),
                ('\u{3B1}', '\u{3C9}'),
            ],
            Script::Cyrillic => &[('\u{400}', '\u{45F}')],
            _ => &[],
        };
        ranges.iter().flat_map(|&(a, b)| a..=b).collect()
    }

    /// UTS #39 skeleton of one character (`unicode-security`).
    #[cfg(feature = "std")]
    fn skeleton(c: char) -> String {
        let mut buf = [0u8; 4];
        unicode_security::skeleton(c.encode_utf8(&mut buf)).collect()
    }

    /// `unmask_tables.rs` as `unicode-security` gives it: the source text,
    /// and per code point the basic letters of its skeleton and whether the
    /// skeleton is empty.
    #[cfg(feature = "std")]
    fn tables_from_uts39() -> (String, Vec<(u32, Vec<char>, bool)>) {
        use core::fmt::Write;
        let mut classes: Vec<(String, Vec<char>)> = Vec::new();
        for y in super::ALPHABETS.iter().flat_map(|&s| alphabet(s)) {
            let sk = skeleton(y);
            match classes.iter_mut().find(|(k, _)| *k == sk) {
                Some((_, letters)) => letters.push(y),
                None => classes.push((sk, alloc::vec![y])),
            }
        }
        for (_, letters) in &mut classes {
            letters.sort_unstable();
        }
        assert!(classes.len() <= 256, "a class number is 8 bits");
        let by_skeleton: std::collections::HashMap<&str, usize> = classes
            .iter()
            .enumerate()
            .map(|(i, (k, _))| (k.as_str(), i))
            .collect();
        let mut per_char = Vec::new();
        let (mut lookalike, mut invisible) = (Vec::new(), Vec::<(u32, u32)>::new());
        for u in 0..=0x10FFFFu32 {
            let Some(c) = char::from_u32(u) else { continue };
            let sk = skeleton(c);
            let class = by_skeleton.get(sk.as_str()).copied();
            if let Some(i) = class {
                lookalike.push(u << 8 | i as u32);
            }
            let empty = u >= 0xAD && sk.is_empty();
            if empty {
                match invisible.last_mut() {
                    Some((_, last)) if *last + 1 == u => *last = u,
                    _ => invisible.push((u, u)),
                }
            }
            if class.is_some() || empty || u % 97 == 0 {
                per_char.push((u, class.map_or(Vec::new(), |i| classes[i].1.clone()), empty));
            }
        }
        let mut out = String::new();
        out.push_str(
            "//! The Unicode data of the unmasked normalisation (SPEC.md §1, step 0),\n\
             //! derived from UTS #39 (`confusables.txt` skeletons and\n\
             //! `Default_Ignorable_Code_Point`, through the `unicode-security` crate)\n\
             //! by the test `the_tables_are_uts39s` of `unmask.rs`, which holds them to\n\
             //! it for every code point. Generated: do not edit. When the crate's data\n\
             //! changes, that test fails and writes the new file to\n\
             //! `target/unmask_tables.rs`.\n\n",
        );
        let _ = writeln!(
            out,
            "/// Every character whose skeleton is that of a letter of the basic Latin,\n\
             /// Greek or Cyrillic alphabet, as `code point << 8 | class` (an index of\n\
             /// [`CLASSES`]), ascending.\n\
             pub(super) const LOOKALIKE: [u32; {}] = [",
            lookalike.len()
        );
        for row in lookalike.chunks(8) {
            let row: Vec<String> = row.iter().map(|e| alloc::format!("0x{e:08X}")).collect();
            let _ = writeln!(out, "    {},", row.join(", "));
        }
        let _ = writeln!(
            out,
            "];\n\n/// Per class, the basic letters that share one skeleton, in code point\n\
             /// order.\n\
             pub(super) const CLASSES: [&[char]; {}] = [",
            classes.len()
        );
        for (_, letters) in &classes {
            let letters: Vec<String> = letters
                .iter()
                .map(|y| alloc::format!("'\\u{{{:X}}}'", *y as u32))
                .collect();
            let _ = writeln!(out, "    &[{}],", letters.join(", "));
        }
        let _ = writeln!(
            out,
            "];\n\n/// The characters from U+00AD whose skeleton is empty\n\
             /// (`Default_Ignorable_Code_Point`): inclusive ranges of code points,\n\
             /// ascending.\n\
             pub(super) const INVISIBLE: [(u32, u32); {}] = [",
            invisible.len()
        );
        for (a, b) in &invisible {
            let _ = writeln!(out, "    (0x{a:04X}, 0x{b:04X}),");
        }
        out.push_str("];\n");
        (out, per_char)
    }

    /// The tables the unmasked normalisation reads are UTS #39's, as
    /// `unicode-security` computes skeletons: the file is the one derived
    /// now, and the lookups answer as the skeletons do for every character
    /// that has a look-alike class or is invisible, and every 97th other.
    #[cfg(feature = "std")]
    #[test]
    fn the_tables_are_uts39s() {
        let (want, per_char) = tables_from_uts39();
        crate::testing::assert_generated(
            "unmask_tables.rs",
            include_str!("unmask_tables.rs"),
            &want,
            "unicode-security",
        );
        for (u, letters, empty) in &per_char {
            let c = char::from_u32(*u).unwrap();
            assert_eq!(super::basic_lookalikes(c), &letters[..], "U+{u:04X}");
            assert_eq!(super::is_invisible(c), *empty, "U+{u:04X}");
        }
        // Not vacuous: the trick's letters; a letter that imitates no other
        // alphabet's is its own class; an ideograph has none.
        assert_eq!(super::basic_lookalikes('а'), ['a', '\u{3B1}', 'а']);
        assert_eq!(super::basic_lookalikes('ж'), ['ж']);
        assert!(super::basic_lookalikes('中').is_empty());
        assert!(super::is_invisible('\u{200B}') && !super::is_invisible('é'));
    }

    /// The fast answer for common Latin-script characters is the tables'.
    #[test]
    fn the_fast_answer_is_the_tables() {
        use unicode_script::Script;
        for u in 0x80..0x3000u32 {
            let Some(c) = char::from_u32(u) else { continue };
            if let Some(invisible) = super::common_latin(c) {
                assert_eq!(invisible, super::is_invisible(c), "U+{u:04X}");
                assert!(
                    matches!(super::letter_script(c), None | Some(Script::Latin)),
                    "U+{u:04X} {:?}",
                    super::letter_script(c)
                );
            }
        }
        // Not vacuous: the ranges are answered, the others are not.
        assert_eq!(super::common_latin('é'), Some(false));
        assert_eq!(super::common_latin('\u{AD}'), Some(true));
        assert_eq!(super::common_latin('\u{200B}'), None);
        assert_eq!(super::common_latin('а'), None);
    }

    /// Hostile shapes: an invisible character after every letter of 2 MB
    /// of text (a span each), a text of nothing but invisible characters,
    /// a lone invisible character between words.
    #[test]
    fn hostile_shapes_map_back_exactly() {
        let words = "copy this text ".repeat(140_000);
        let t = every_second(&words, '\u{2060}');
        let n = unmasked(&t);
        assert_eq!(n.text(), normalize(&words).text());
        for (tok, want) in n.tokens().iter().zip(normalize(&words).token_strs()) {
            let shown: String = t[tok.orig.start..tok.orig.end]
                .chars()
                .filter(|&c| c != '\u{2060}')
                .collect();
            assert_eq!(shown, want);
        }
        assert!(n.obfuscation().ranges.len() <= super::MAX_OBFUSCATION_RANGES);
        assert!(n.obfuscation().invisible as usize > super::MAX_OBFUSCATION_RANGES);
        let only = "\u{200B}\u{200D}\u{AD}".repeat(1000);
        assert!(unmasked(&only).is_empty());
        let e = crate::compare(&only, "a text", &crate::CompareConfig::default()).unwrap_err();
        assert!(
            matches!(e.kind(), crate::ErrorKind::EmptyText { which: "a" }),
            "{e}"
        );
        assert_eq!(unmasked("one \u{200B} two").obfuscation().invisible, 0);
    }

    #[test]
    fn latin_lookalikes_of_latin_are_kept() {
        untouched("rn is not m, l is not I nor 1, and 0 is not O: modern, Ill, 1O0.");
    }

    #[test]
    fn nothing_to_undo_normalises_as_before() {
        let mut rng = crate::testing::XorShift(0x51_7cc1_b727_220a);
        const ALPHABET: &[&str] = &[
            "a",
            "Z",
            "7",
            " ",
            ".",
            "'",
            "é",
            "\u{301}",
            "ß",
            "日",
            "ﬁ",
            "Ａ",
            "\u{a0}",
            "😀",
            "\n",
            "word",
            "ünïcödé",
            "\u{2019}",
        ];
        for _ in 0..5_000 {
            let len = (rng.next_u64() % 30) as usize;
            let s: String = (0..len)
                .map(|_| ALPHABET[(rng.next_u64() % ALPHABET.len() as u64) as usize])
                .collect();
            assert_eq!(unmasked(&s), normalize(&s), "{s:?}");
        }
    }
}
