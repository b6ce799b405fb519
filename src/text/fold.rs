//! Diacritics folded: the optional last step of normalisation (SPEC.md
//! §1, step 2, "diacritics folded"), so that a text typed without accents,
//! or German typed with `ae`/`oe`/`ue` for `ä`/`ö`/`ü`, gives the tokens of
//! the accented original.
//!
//! The rule, applied to a word token already normalised (NFKC, case
//! folded, punctuation removed), character by character:
//!
//! 1. `ä`, `ö`, `ü` → `ae`, `oe`, `ue` (the German transliteration, DIN 5007
//!    variant 2; `ß` is `ss` already by case folding);
//! 2. the letters that carry a diacritic without decomposing into one:
//!    `æ` → `ae`, `œ` → `oe`, `ø` → `o`, `đ` → `d`, `ð` → `d`, `ħ` → `h`,
//!    `ı` → `i`, `ł` → `l`, `ŧ` → `t`, `þ` → `th`;
//! 3. any other character: its canonical decomposition (NFD, UAX #15) with
//!    the characters of the *Combining Diacritical Marks* block
//!    (U+0300–U+036F) removed — the accents, cedillas, tildes, rings,
//!    carons, hooks and horns of the Latin, Greek and Cyrillic scripts (`é`
//!    → `e`, `ñ` → `n`, `ç` → `c`, `ά` → `α`, `й` → `и`). The marks of other
//!    scripts (Hebrew points, Devanagari signs, Arabic harakat) have blocks
//!    of their own and are kept: they are letters' parts, not accents.
//!
//! then NFKC again (recomposing what the removal left). The token's range
//! in the original text does not change. Text in ASCII is untouched, so
//! the fast path of [`super::normalize`] is the same with or without it.
//!
//! Trade-off, by design of the German rule: `ü` in Spanish, French or
//! Turkish (`pingüino`) folds to `ue` too, so `pinguino` typed without its
//! diaeresis does not match that one word.

use alloc::string::String;
use unicode_normalization::UnicodeNormalization;

/// Whether `c` is in the Combining Diacritical Marks block, U+0300–U+036F.
fn is_diacritic(c: char) -> bool {
    ('\u{0300}'..='\u{036F}').contains(&c)
}

/// What a character folds to when it is not the decomposition with its
/// marks removed (rules 1 and 2 of the module docs).
fn special(c: char) -> Option<&'static str> {
    Some(match c {
        'ä' => "ae",
        'ö' => "oe",
        'ü' => "ue",
        'æ' => "ae",
        'œ' => "oe",
        'ø' => "o",
        'đ' | 'ð' => "d",
        'ħ' => "h",
        'ı' => "i",
        'ł' => "l",
        'ŧ' => "t",
        'þ' => "th",
        _ => return None,
    })
}

/// Folds the diacritics of `token` (a normalised word token, module docs)
/// and appends the result to `out`. ASCII is appended unchanged.
pub(crate) fn fold_diacritics(token: &str, out: &mut String) {
    if token.is_ascii() {
        out.push_str(token);
        return;
    }
    let mut stripped = String::with_capacity(token.len());
    for c in token.chars() {
        match special(c) {
            Some(s) => stripped.push_str(s),
            None if c.is_ascii() => stripped.push(c),
            None => unicode_normalization::char::decompose_canonical(c, |d| {
                if !is_diacritic(d) {
                    stripped.push(d)
                }
            }),
        }
    }
    out.extend(stripped.nfkc());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fold(s: &str) -> String {
        let mut out = String::new();
        fold_diacritics(s, &mut out);
        out
    }

    #[test]
    fn folds_accents_and_german_umlauts() {
        assert_eq!(fold("mädchen"), "maedchen");
        assert_eq!(fold("grösse"), "groesse");
        assert_eq!(fold("über"), "ueber");
        assert_eq!(fold("canción"), "cancion");
        assert_eq!(fold("niño"), "nino");
        assert_eq!(fold("garçon"), "garcon");
        assert_eq!(fold("ελληνικά"), "ελληνικα");
        assert_eq!(fold("йод"), "иод");
        assert_eq!(fold("łódź"), "lodz");
        assert_eq!(fold("øre"), "ore");
        assert_eq!(fold("þing"), "thing");
        assert_eq!(fold("plain"), "plain");
    }

    #[test]
    fn other_scripts_keep_their_marks() {
        assert_eq!(fold("שָׁלוֹם"), "שָׁלוֹם");
        assert_eq!(fold("नमस्ते"), "नमस्ते");
        assert_eq!(fold("日本"), "日本");
    }
}
