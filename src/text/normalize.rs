//! Normalisation and word tokens (SPEC.md §1–2).
//!
//! Tokens are found on the **original** text by the Unicode word-boundary
//! rules (UAX #29, via `unicode-segmentation`), so every token knows its byte
//! range in the original and passages can be highlighted exactly. A segment
//! between two boundaries is a word token when it contains at least one
//! alphanumeric character (`char::is_alphanumeric`: letters of any script,
//! digits, ideographs); other segments (whitespace, punctuation, symbols,
//! emoji) are dropped. Each kept segment is normalised:
//!
//! 1. Unicode NFKC (UAX #15, via `unicode-normalization`);
//! 2. case folding: the Unicode default lowercase mapping (`char::to_lowercase`),
//!    with `ß → ss` and final `ς → σ` as in full case folding (`CaseFolding.txt`),
//!    then NFKC again, since lowercasing can denormalise;
//! 3. punctuation folding: the characters UAX #29 allows inside a word
//!    (apostrophes, periods, colons, commas, middle dots, connectors such as
//!    `_`) are removed, so `don't`, `don’t` and `dont` are one token.
//!
//! Scripts written without spaces and without a dictionary segmenter in
//! UAX #29 (Han ideographs, Hiragana, Thai, …) give one token per character,
//! so CJK text never collapses into one token.
//!
//! The normalised text ([`Normalized::text`]) is the tokens joined by single
//! spaces: whitespace is folded and punctuation outside words removed.
//!
//! With [`Normalization::fold_diacritics`], each non-ASCII token then has
//! its diacritics folded (`é` → `e`, `ä` → `ae`, SPEC.md §1): a second,
//! named normalisation, never the default, so that every value made
//! without it is unchanged.
//!
//! With [`Normalization::unmask`], the tricks that hide a copy are undone
//! first (SPEC.md §1, step 0; `super::unmask`): invisible characters
//! removed, look-alike letters of another script mapped to the letters of
//! the text's main script they imitate; token ranges still point into the
//! original text, and [`Normalized::obfuscation`] says what was undone. A
//! text with none of these characters normalises exactly as without it.

use super::segment::{Sink, Written};
pub use super::token::Token;
use super::{Obfuscation, TextRange};
use alloc::string::String;
use alloc::vec::Vec;
use unicode_normalization::UnicodeNormalization;

/// A text after normalisation: its word tokens, each mapped back to the
/// original, and the normalised text (tokens joined by single spaces).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Normalized {
    text: String,
    tokens: Vec<Token>,
    obfuscation: Obfuscation,
}

impl Normalized {
    /// The normalised text: the normalised tokens joined by `' '` (U+0020).
    /// Empty when the input has no word tokens.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The word tokens, in order of appearance.
    pub fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// The normalised form of token `i`, or `None` when `i >= len()`.
    pub fn token_str(&self, i: usize) -> Option<&str> {
        let t = self.tokens.get(i)?;
        self.text.get(t.norm.start..t.norm.end)
    }

    /// Iterator over the normalised tokens.
    pub fn token_strs(&self) -> impl Iterator<Item = &str> + '_ {
        self.tokens
            .iter()
            .map(move |t| &self.text[t.norm.start..t.norm.end])
    }

    /// Number of word tokens.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// `true` when the text has no word tokens.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// What the unmasked normalisation undid ([`Normalization::unmask`]):
    /// look-alike letters mapped, invisible characters removed, with their
    /// byte ranges in the original text. Empty for any other normalisation
    /// and for a text with nothing to undo.
    pub fn obfuscation(&self) -> &Obfuscation {
        &self.obfuscation
    }
}

/// Characters removed from inside a word token after NFKC and case folding:
/// the UAX #29 `MidLetter`, `MidNum`, `MidNumLet`, `Single_Quote` and
/// `ExtendNumLet` characters that survive NFKC, plus ASCII punctuation.
fn is_folded_punctuation(c: char) -> bool {
    c.is_ascii_punctuation()
        || matches!(
            c,
            '\u{00B7}' // MIDDLE DOT
                | '\u{0387}' // GREEK ANO TELEIA
                | '\u{055F}' // ARMENIAN ABBREVIATION MARK
                | '\u{05F3}' // HEBREW PUNCTUATION GERESH
                | '\u{05F4}' // HEBREW PUNCTUATION GERSHAYIM
                | '\u{060C}' // ARABIC COMMA
                | '\u{060D}' // ARABIC DATE SEPARATOR
                | '\u{066B}' // ARABIC DECIMAL SEPARATOR
                | '\u{066C}' // ARABIC THOUSANDS SEPARATOR
                | '\u{07F8}' // NKO COMMA
                | '\u{2018}' // LEFT SINGLE QUOTATION MARK
                | '\u{2019}' // RIGHT SINGLE QUOTATION MARK
                | '\u{201B}' // SINGLE HIGH-REVERSED-9 QUOTATION MARK
                | '\u{2027}' // HYPHENATION POINT
                | '\u{203F}' // UNDERTIE
                | '\u{2040}' // CHARACTER TIE
                | '\u{2044}' // FRACTION SLASH
                | '\u{2054}' // INVERTED UNDERTIE
                | '\u{FE10}' // PRESENTATION FORM FOR VERTICAL COMMA
                | '\u{FE14}' // PRESENTATION FORM FOR VERTICAL SEMICOLON
        )
}

/// How a text is normalised: the options of SPEC.md §1. The default is
/// the spec's normalisation; every value (shingle, signature, fingerprint,
/// snapshot) records the normalisation it was made under, and values of two
/// normalisations are not comparable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Normalization {
    /// Fold diacritics after case folding (SPEC.md §1, "diacritics folded"):
    /// `é` → `e`, `ñ` → `n`, `ä`/`ö`/`ü` → `ae`/`oe`/`ue`. Default `false`.
    pub fold_diacritics: bool,
    /// Undo the tricks that hide a copy before anything else (SPEC.md §1,
    /// step 0, "unmasked"): invisible characters (`Default_Ignorable_Code_Point`)
    /// removed, letters of another script that imitate the main script's
    /// (UTS #39 confusables: Cyrillic `а` for Latin `a`) mapped to them.
    /// `false` in this type's default, the plain spec normalisation that
    /// sketches made without options follow; `true` by default in
    /// comparisons, class sets, libraries and new dedup configurations.
    pub unmask: bool,
}

impl Normalization {
    /// The spec's normalisation with diacritics folded or not (not unmasked).
    pub const fn folding(fold_diacritics: bool) -> Self {
        Normalization {
            fold_diacritics,
            unmask: false,
        }
    }

    /// The same normalisation, unmasked or not.
    pub const fn unmasking(self, unmask: bool) -> Self {
        Normalization { unmask, ..self }
    }

    /// The normalisation's name in SPEC.md and in reports:
    /// `"nfkc-casefold"`, `"nfkc-casefold-fold-diacritics"`, each followed by
    /// `"-unmasked"` when unmasked.
    pub const fn name(self) -> &'static str {
        match (self.fold_diacritics, self.unmask) {
            (false, false) => "nfkc-casefold",
            (true, false) => "nfkc-casefold-fold-diacritics",
            (false, true) => "nfkc-casefold-unmasked",
            (true, true) => "nfkc-casefold-fold-diacritics-unmasked",
        }
    }

    /// Normalises `input` this way: [`normalize`] when the default.
    pub fn normalize(self, input: &str) -> Normalized {
        normalize_with(input, self)
    }
}

/// Appends the normalised form of one word segment to `out`, its diacritics
/// folded when `fold`.
fn normalize_segment(seg: &str, out: &mut String, fold: bool) {
    if seg.is_ascii() {
        // Fast path: NFKC is the identity on ASCII.
        if seg
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        {
            out.push_str(seg);
            return;
        }
        for b in seg.bytes() {
            if b.is_ascii_alphanumeric() {
                out.push(b.to_ascii_lowercase() as char);
            } else if !b.is_ascii_punctuation() && !b.is_ascii_control() {
                out.push(b as char);
            }
        }
        return;
    }
    let mut lowered = String::with_capacity(seg.len());
    for c in seg.nfkc() {
        match c {
            'ß' | 'ẞ' => lowered.push_str("ss"),
            'ς' => lowered.push('σ'),
            _ => lowered.extend(c.to_lowercase()),
        }
    }
    let folded = lowered
        .nfkc()
        .filter(|&c| !is_folded_punctuation(c) && !c.is_control() && !c.is_whitespace());
    match fold {
        false => out.extend(folded),
        true => super::fold::fold_diacritics(&folded.collect::<String>(), out),
    }
}

/// Normalises `input` and splits it into word tokens (see the module docs).
///
/// Never fails: an input with no word tokens gives an empty [`Normalized`].
/// Runs in time linear in `input.len()`; the result takes about
/// `input.len()` bytes of text plus 32 bytes per token (on 64-bit targets).
///
/// ```
/// let n = neardup::normalize("Don’t PANIC — it's ﬁne.");
/// assert_eq!(n.text(), "dont panic its fine");
/// assert_eq!(n.tokens()[1].orig, neardup::TextRange { start: 8, end: 13 });
/// ```
pub fn normalize(input: &str) -> Normalized {
    normalize_with(input, Normalization::default())
}

/// [`normalize`] with the options of `how` (diacritics folded or not).
/// Same costs; ASCII text takes the same fast path either way.
///
/// ```
/// use neardup::text::{normalize_with, Normalization};
/// let n = normalize_with("Mädchen, canción", Normalization::folding(true));
/// assert_eq!(n.text(), "maedchen cancion");
/// ```
pub fn normalize_with(input: &str, how: Normalization) -> Normalized {
    if how.unmask {
        if let Some(u) = super::unmask::unmask(input) {
            let mut n = normalize_plain(&u.text, how.fold_diacritics);
            for t in &mut n.tokens {
                t.orig = TextRange {
                    start: u.start_of(t.orig.start),
                    end: u.end_of(t.orig.end),
                };
            }
            n.obfuscation = u.obfuscation;
            return n;
        }
    }
    normalize_plain(input, how.fold_diacritics)
}

/// The normalisation after step 0: segmentation, NFKC, case folding and
/// punctuation folding, diacritics folded when `fold`.
fn normalize_plain(input: &str, fold: bool) -> Normalized {
    // Bytes, so that the fast path can write eight at a time; every byte
    // written is ASCII or a whole character's UTF-8.
    let mut written = Written::with_capacity(input.len() + 8, input.len() / 6 + 1);
    normalize_plain_into(input, fold, &mut written);
    finish(written.text, written.tokens)
}

/// The normalisation after step 0 (see [`normalize_plain`]), its tokens
/// given to `sink`.
pub(super) fn normalize_plain_into<S: Sink>(input: &str, fold: bool, sink: &mut S) {
    let mut scratch = String::new();
    super::segment::normalize_into(input, sink, |sink, start, end| {
        push_token(input, start, end, sink, fold, &mut scratch)
    });
}

/// The [`Normalized`] of the bytes written (UTF-8 by construction: an
/// invalid sequence, which cannot occur, would be replaced rather than
/// panic).
fn finish(text: Vec<u8>, tokens: Vec<Token>) -> Normalized {
    let text = String::from_utf8(text)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Normalized {
        text,
        tokens,
        obfuscation: Obfuscation::default(),
    }
}

/// [`normalize`] on `unicode-segmentation` alone, without the ASCII fast
/// path: the reference the fast path is tested against. Same result, slower.
#[doc(hidden)]
#[cfg(feature = "std")]
pub fn normalize_reference(input: &str) -> Normalized {
    // (Segments one at a time: `Sink::ascii_block` is not called.)
    let mut written = Written::with_capacity(input.len(), 0);
    let mut scratch = String::new();
    super::segment::word_segments_reference(input, |start, end| {
        push_token(input, start, end, &mut written, false, &mut scratch)
    });
    finish(written.text, written.tokens)
}

/// Normalises segment `input[start..end]` and gives it to `sink` as a
/// token when it is a word (`scratch`: a buffer for the segment's normal
/// form).
fn push_token<S: Sink>(
    input: &str,
    start: usize,
    end: usize,
    sink: &mut S,
    fold: bool,
    scratch: &mut String,
) {
    let seg = &input[start..end];
    let is_word = if seg.is_ascii() {
        seg.bytes().any(|b| b.is_ascii_alphanumeric())
    } else {
        // Judged after NFKC, so that e.g. `㎏` (a symbol) counts as `kg`.
        seg.nfkc().any(char::is_alphanumeric)
    };
    if is_word {
        scratch.clear();
        normalize_segment(seg, scratch, fold);
        sink.word(start, end, scratch.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn toks(s: &str) -> Vec<String> {
        normalize(s).token_strs().map(String::from).collect()
    }

    #[test]
    fn folds_case_width_ligatures_and_apostrophes() {
        assert_eq!(toks("The CAT’s ﬁsh"), ["the", "cats", "fish"]);
        assert_eq!(toks("ＦＵＬＬ width"), ["full", "width"]);
        assert_eq!(toks("Straße STRASSE"), ["strasse", "strasse"]);
        assert_eq!(toks("ΟΔΟΣ οδος"), ["οδοσ", "οδοσ"]);
    }

    #[test]
    fn ranges_point_into_original() {
        let s = "  Héllo,\t\r\nwörld!  ";
        let n = normalize(s);
        let words: Vec<&str> = n
            .tokens()
            .iter()
            .map(|t| &s[t.orig.start..t.orig.end])
            .collect();
        assert_eq!(words, ["Héllo", "wörld"]);
        assert_eq!(n.text(), "héllo wörld");
    }

    #[test]
    fn cjk_is_one_token_per_ideograph() {
        assert_eq!(toks("日本語の文章"), ["日", "本", "語", "の", "文", "章"]);
    }

    #[test]
    fn no_words_is_empty() {
        assert!(normalize("").is_empty());
        assert!(normalize(" \t\n ... !!! 🙂🙂").is_empty());
        assert_eq!(normalize("").text(), "");
    }

    #[test]
    fn rtl_and_combining_marks_survive() {
        assert_eq!(toks("שָׁלוֹם עולם"), ["שָׁלוֹם", "עולם"]);
        assert_eq!(toks("नमस्ते दुनिया"), ["नमस्ते", "दुनिया"]);
    }

    /// The ASCII reading of UAX #29: `:` `.` `'` join letters, `,` `;` `.`
    /// `'` join digits, `_` joins and is dropped, all else breaks.
    #[test]
    fn ascii_rules() {
        assert_eq!(
            toks("can't stop e.g. 3.14 1,000;5 a:b x_y __ a.1 1.a Up:Down"),
            ["cant", "stop", "eg", "314", "10005", "ab", "xy", "a", "1", "1", "a", "updown"]
        );
        assert_eq!(
            toks("a''b a..b 1,,2 'quoted' end. ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"),
            [
                "a",
                "b",
                "a",
                "b",
                "1",
                "2",
                "quoted",
                "end",
                "abcdefghijklmnopqrstuvwxyz0123456789"
            ]
        );
    }

    /// The fast path equals the general one on random strings of the
    /// characters that decide UAX #29 boundaries around ASCII: `Extend`,
    /// `ZWJ`, `Format`, non-ASCII spaces, emoji sequences, regional
    /// indicators, other scripts' letters and punctuation.
    #[test]
    #[cfg(feature = "std")]
    fn fast_path_equals_the_library_around_ascii() {
        const ALPHABET: &[&str] = &[
            "a",
            "Z",
            "q",
            "7",
            "0",
            "_",
            ":",
            ".",
            "'",
            ",",
            ";",
            "\"",
            "-",
            "!",
            " ",
            " ",
            "\t",
            "\n",
            "\r",
            "\r\n",
            "\u{0}",
            "\u{b}",
            "\u{c}",
            "é",
            "\u{301}",
            "\u{93e}",
            "\u{200d}",
            "\u{200b}",
            "\u{ad}",
            "😀",
            "👩\u{200d}👩",
            "🇫",
            "🇷",
            "日",
            "本",
            "カ",
            "ー",
            "א",
            "ב",
            "\u{5f3}",
            "\u{a0}",
            "\u{2019}",
            "\u{3000}",
            "ก",
            "١",
            "٫",
            "ß",
            "Å",
            "\u{2028}",
            "ﬁ",
            "\u{2000}",
            "\u{1680}",
            "\u{feff}",
            "\u{85}",
            "word",
            "Words",
            "abcdefgh",
            "ABCDEFGHIJ",
            "x_1",
        ];
        same_on_random_strings(ALPHABET, 24, 0x2545_f491_4f6c_dd1d);
    }

    /// The fast path (ASCII segments normalised in one pass) equals the
    /// general one on random strings weighted towards what the fast path
    /// sees: ASCII words, the `Mid*` punctuation, `_`, digits and spaces,
    /// with a few characters that send a piece to the slow path.
    #[test]
    #[cfg(feature = "std")]
    fn fast_path_equals_the_general_path() {
        const ALPHABET: &[&str] = &[
            "a", "b", "Z", "Q", "x", "7", "0", "_", ":", ".", "'", ",", ";", "-", "\"", "!", "(",
            " ", " ", " ", "\t", "\n", "\r\n", "\u{0}", "\u{b}", "é", "\u{301}", "\u{2019}", "ß",
            "ﬁ", "日", "\u{a0}", "😀", "Ａ", "\u{2018}", "\u{201c}", "\u{201d}", "\u{2013}",
            "\u{2014}", "\u{2019}", "\u{2026}", "\u{2024}",
        ];
        same_on_random_strings(ALPHABET, 40, 0x9e37_79b9_7f4a_7c15);
    }

    /// The block path (64 bytes classified at once, from a piece start)
    /// equals the general one on long random strings, mostly ASCII words,
    /// punctuation and spaces, so that most pieces start with 64 bytes
    /// ahead: joins at every offset of a block, pieces that hold a byte
    /// ≥ 0x80 after ASCII pieces of the same block, whitespace runs across
    /// blocks.
    #[test]
    #[cfg(feature = "std")]
    fn block_path_equals_the_general_path() {
        const ALPHABET: &[&str] = &[
            "a",
            "b",
            "Z",
            "Q",
            "x",
            "7",
            "0",
            "_",
            ":",
            ".",
            "'",
            ",",
            ";",
            "-",
            "\"",
            "(",
            " ",
            " ",
            " ",
            " ",
            "\t",
            "\n",
            "\r\n",
            "\u{b}",
            "\u{c}",
            "word",
            "Words",
            "abcdefgh",
            "ABCDEFGHIJKLMNOP",
            "can't",
            "3.14",
            "1,000",
            "e.g.",
            "x_1",
            " ",
            " ",
            " ",
            "é",
            "\u{301}",
            "\u{a0}",
            "\u{200d}",
            "don\u{2019}t",
            "\u{2018}",
            "\u{201c}",
            "\u{201d}",
            "\u{2014}",
        ];
        same_on_random_strings(ALPHABET, 400, 0x3c6e_f372_fe94_f82b);
    }

    /// [`normalize`] equals [`normalize_reference`] on 30,000 random
    /// strings of fewer than `max_len` pieces of `alphabet`.
    #[cfg(feature = "std")]
    fn same_on_random_strings(alphabet: &[&str], max_len: u64, seed: u64) {
        let mut rng = crate::testing::XorShift(seed);
        for _ in 0..30_000 {
            let len = (rng.next_u64() % max_len) as usize;
            let s: String = (0..len)
                .map(|_| alphabet[(rng.next_u64() % alphabet.len() as u64) as usize])
                .collect();
            assert_eq!(normalize(&s), normalize_reference(&s), "input {s:?}");
        }
    }
}
