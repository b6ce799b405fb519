//! Phonetic codes: a word → a key that sounds-alike spellings share, so that
//! a misspelt copy still shares shingles with its original (Varol & Hari
//! 2015, seed 003). One file per encoder, each citing its source; SPEC.md §13
//! defines them with examples.
//!
//! * [`soundex`]: American Soundex (Knuth, TAOCP vol. 3; the H/W rule).
//! * [`phonex`]: Phonex (Lait & Randell 1996).
//! * [`phonix`]: Phonix (Gadd 1990), the WAIS rule list.
//! * [`double_metaphone`]: Double Metaphone (Philips 2000, `dmetaph.cpp`),
//!   primary and alternate codes.
//! * [`dsound`]: DSound as seed 003 writes it, and its SoundD variant
//!   (zeros removed, four characters).
//!
//! Every encoder reads the word through [`fold`]: ASCII letters lowercased,
//! diacritics removed (`é` → `e`), `ß` → `ss`, `æ` → `ae`, `œ` → `oe`,
//! `ø` → `o`, `ł` → `l`, `đ`/`ð` → `d`, `þ` → `th`, `ı` → `i`; anything else
//! (digits, apostrophes, other scripts) dropped. A word with no Latin letter
//! is its own code ([`encode`] returns it unchanged), so CJK or Greek text
//! keeps its words as they are.

pub mod double_metaphone;
pub mod dsound;
pub mod phonex;
pub mod phonix;
pub mod soundex;

use crate::error::Error;
use alloc::string::String;
use alloc::vec::Vec;

/// The encoder of `phonetic:K` shingles when none is named: SoundD, the
/// best of the six at keeping shingles on real misspellings (EVALUATION.md, "Typo-robust
/// matching").
pub const DEFAULT_ALGORITHM: Algorithm = Algorithm::SoundD;

/// A phonetic encoder; in JSON and JavaScript its name (`"soundd"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub enum Algorithm {
    /// American Soundex: a letter and three digits ([`soundex`]).
    Soundex,
    /// Phonex: a letter and digits, no padding ([`phonex`]).
    Phonex,
    /// DSound: digits, zeros kept, no length cap ([`dsound`]).
    DSound,
    /// SoundD: DSound without zeros, padded or cut to 4 digits ([`dsound`]).
    SoundD,
    /// Phonix: a letter (or `v`) and seven digits ([`phonix`]).
    Phonix,
    /// Double Metaphone's primary code, full length ([`double_metaphone`]).
    Metaphone,
}

impl Algorithm {
    /// Every algorithm, in the order of their persisted codes.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Soundex,
        Algorithm::Phonex,
        Algorithm::DSound,
        Algorithm::SoundD,
        Algorithm::Phonix,
        Algorithm::Metaphone,
    ];

    /// The name used in shingle specs, the CLI and JavaScript.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Soundex => "soundex",
            Algorithm::Phonex => "phonex",
            Algorithm::DSound => "dsound",
            Algorithm::SoundD => "soundd",
            Algorithm::Phonix => "phonix",
            Algorithm::Metaphone => "metaphone",
        }
    }

    /// The algorithm named `name` (as [`Algorithm::name`]).
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for option `algorithm` when the
    /// name is unknown.
    pub fn from_name(name: &str) -> Result<Algorithm, Error> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| {
                Error::option(
                    "algorithm",
                    alloc::format!(
                        "must be one of {}, got {name:?}",
                        Algorithm::ALL.map(|a| a.name()).join(", ")
                    ),
                )
            })
    }

    /// The persisted number of the algorithm (0..=5); stable across versions.
    pub(crate) fn code(self) -> u8 {
        match self {
            Algorithm::Soundex => 0,
            Algorithm::Phonex => 1,
            Algorithm::DSound => 2,
            Algorithm::SoundD => 3,
            Algorithm::Phonix => 4,
            Algorithm::Metaphone => 5,
        }
    }

    pub(crate) fn from_code(code: u8) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.code() == code)
    }

    /// Appends the code of the folded letters `w` (lowercase ASCII `a..=z`
    /// only, non-empty) to `out`.
    fn encode_letters(self, w: &[u8], out: &mut String) {
        match self {
            Algorithm::Soundex => soundex::encode(w, out),
            Algorithm::Phonex => phonex::encode(w, out),
            Algorithm::DSound => dsound::encode(w, true, out),
            Algorithm::SoundD => dsound::encode(w, false, out),
            Algorithm::Phonix => phonix::encode(w, out),
            Algorithm::Metaphone => double_metaphone::encode(w, out),
        }
    }
}

impl core::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// Appends the Latin letters of `word`, folded to lowercase ASCII `a..=z`
/// (see the module docs), to `out`.
pub fn fold(word: &str, out: &mut Vec<u8>) {
    for c in word.chars() {
        match c {
            'a'..='z' => out.push(c as u8),
            'A'..='Z' => out.push(c.to_ascii_lowercase() as u8),
            c if c.is_ascii() => {}
            'ß' | 'ẞ' => out.extend_from_slice(b"ss"),
            'æ' | 'Æ' => out.extend_from_slice(b"ae"),
            'œ' | 'Œ' => out.extend_from_slice(b"oe"),
            'ø' | 'Ø' => out.push(b'o'),
            'ł' | 'Ł' => out.push(b'l'),
            'đ' | 'Đ' | 'ð' | 'Ð' => out.push(b'd'),
            'þ' | 'Þ' => out.extend_from_slice(b"th"),
            'ı' => out.push(b'i'),
            c => unicode_normalization::char::decompose_compatible(c, |d| {
                if d.is_ascii_alphabetic() {
                    out.push(d.to_ascii_lowercase() as u8);
                }
            }),
        }
    }
}

/// The code of `word` by `algorithm`, appended to `out`; a word with no
/// Latin letter is appended unchanged. `letters` is scratch space (cleared
/// here) so that a caller coding many words allocates once.
pub fn encode_into(algorithm: Algorithm, word: &str, letters: &mut Vec<u8>, out: &mut String) {
    letters.clear();
    fold(word, letters);
    if letters.is_empty() {
        out.push_str(word);
    } else {
        algorithm.encode_letters(letters, out);
    }
}

/// The code of `word` by `algorithm` (see [`encode_into`]).
///
/// ```
/// use neardup::phonetic::{encode, Algorithm};
/// assert_eq!(encode(Algorithm::Soundex, "Tymczak"), "T522");
/// assert_eq!(encode(Algorithm::DSound, "Rodgers"), encode(Algorithm::DSound, "Rogers"));
/// assert_eq!(encode(Algorithm::Soundex, "東京"), "東京");
/// ```
pub fn encode(algorithm: Algorithm, word: &str) -> String {
    let mut out = String::new();
    encode_into(algorithm, word, &mut Vec::new(), &mut out);
    out
}

/// The primary and alternate Double Metaphone codes of `word`, each cut to
/// `max_len` characters when given; a word with no Latin letter is both its
/// codes (as in [`encode`]). See [`double_metaphone::double_metaphone`].
///
/// ```
/// use neardup::phonetic::double_metaphone_of;
/// assert_eq!(double_metaphone_of("Schmidt", None), ("XMT".into(), "SMT".into()));
/// ```
pub fn double_metaphone_of(word: &str, max_len: Option<usize>) -> (String, String) {
    let mut letters = Vec::new();
    fold(word, &mut letters);
    if letters.is_empty() {
        return (word.into(), word.into());
    }
    double_metaphone::double_metaphone(&letters, max_len)
}

/// The hash of each word token's phonetic code, in order:
/// `spec.bytes_hash(seed, code)` — the token hashes of phonetic shingles
/// (SPEC.md §12), combined into k-shingles like word tokens.
pub fn code_hashes(
    n: &crate::text::Normalized,
    algorithm: Algorithm,
    seed: u64,
    spec: crate::hash::Spec,
) -> Vec<u64> {
    let (mut letters, mut code) = (Vec::new(), String::new());
    n.token_strs()
        .map(|t| {
            code.clear();
            encode_into(algorithm, t, &mut letters, &mut code);
            spec.bytes_hash(seed, code.as_bytes())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding() {
        let f = |w: &str| {
            let mut v = Vec::new();
            fold(w, &mut v);
            String::from_utf8(v).unwrap()
        };
        assert_eq!(f("Barthélémy"), "barthelemy");
        assert_eq!(f("Straße"), "strasse");
        assert_eq!(f("Łódź"), "lodz");
        assert_eq!(f("Ærøskøbing"), "aeroskobing");
        assert_eq!(f("o'neil-3"), "oneil");
        assert_eq!(f("ﬁsh"), "fish");
        assert_eq!(f("東京"), "");
    }

    #[test]
    fn words_without_latin_letters_pass_through() {
        for a in Algorithm::ALL {
            assert_eq!(encode(a, "東京"), "東京");
            assert_eq!(encode(a, "λόγος"), "λόγος");
            assert_eq!(encode(a, "1984"), "1984");
        }
    }

    /// Every encoder codes any string of letters (random, with the letter
    /// groups the rules look for over-represented) without panicking, to a
    /// code of ASCII letters and digits, non-empty but for Phonex (whose
    /// code of "s" or "hs" is empty, SPEC.md §13).
    #[test]
    fn any_letters_get_a_code() {
        let mut rng = crate::testing::XorShift(0x2545_f491_4f6c_dd1d);
        let mut next = |n: u64| rng.below(n);
        let pieces = [
            "gh", "ch", "sch", "tion", "dg", "ough", "cz", "wr", "kn", "x", "j", "y", "w", "h", "e",
        ];
        for _ in 0..20_000 {
            let mut w = String::new();
            for _ in 0..next(12) {
                if next(3) == 0 {
                    w.push_str(pieces[next(pieces.len() as u64) as usize]);
                } else {
                    w.push((b'a' + next(26) as u8) as char);
                }
            }
            if w.is_empty() {
                continue;
            }
            for a in Algorithm::ALL {
                let c = encode(a, &w);
                let empty_ok = a == Algorithm::Phonex;
                assert!(
                    (empty_ok || !c.is_empty()) && c.bytes().all(|b| b.is_ascii_alphanumeric()),
                    "{a} {w:?} {c:?}"
                );
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for a in Algorithm::ALL {
            assert_eq!(Algorithm::from_name(a.name()).unwrap(), a);
            assert_eq!(Algorithm::from_code(a.code()), Some(a));
        }
        let e = Algorithm::from_name("nysiis").unwrap_err();
        assert!(
            alloc::format!("{e}").contains("soundex, phonex, dsound, soundd, phonix, metaphone"),
            "{e}"
        );
    }
}
