//! UAX #29 word segments, with an exact fast path for ASCII.
//!
//! `unicode-segmentation` implements the default word boundary rules of
//! UAX #29 for all of Unicode; on mostly-English prose it is the slowest step
//! of the pipeline (about 26 MB/s here). Most of such text is ASCII, where the
//! rules reduce to a few cases, so:
//!
//! 1. The text is cut at runs of ASCII whitespace. A boundary always falls
//!    before such a run (no rule joins a non-space to a following space) and
//!    after it unless the next character is `Extend`, `Format` or `ZWJ`
//!    (rule WB4), which are never ASCII.
//! 2. A piece that is all ASCII is segmented by the ASCII reading of the
//!    rules: letters, digits and `_` join (WB5, WB8–WB10, WB13a/b); `:` `.`
//!    `'` join two letters (WB6/7); `,` `;` `.` `'` join two digits
//!    (WB11/12); everything else breaks (WB999).
//! 3. Any other piece, together with the whitespace run before it and any
//!    non-ASCII pieces that follow it after whitespace, is handed to
//!    `unicode-segmentation` (a non-ASCII space joins the ASCII spaces after
//!    it by WB3d, and the joined run can then absorb an `Extend` by WB4, so
//!    consecutive non-ASCII pieces are segmented together). No rule looks
//!    across the remaining cuts, so the segments that hold words are the same.
//!
//! `tests::fast_path_equals_library` checks the equality on random strings of
//! troublesome characters, and the integration tests on the real corpora.

use unicode_segmentation::UnicodeSegmentation;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// ASCII letter: `ALetter`.
    Letter,
    /// ASCII digit: `Numeric`.
    Digit,
    /// `_`: `ExtendNumLet`.
    Under,
    /// `:`: `MidLetter`.
    MidLetter,
    /// `,` `;`: `MidNum`.
    MidNum,
    /// `.` `'`: `MidNumLet` and `Single_Quote` (both `MidNumLetQ`).
    MidNumLetQ,
    /// Anything else.
    Other,
}

/// The class of every byte, so that the inner loops index a table instead of
/// matching ranges.
const CLASSES: [Class; 256] = {
    let mut t = [Class::Other; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = match b as u8 {
            b'a'..=b'z' | b'A'..=b'Z' => Class::Letter,
            b'0'..=b'9' => Class::Digit,
            b'_' => Class::Under,
            b':' => Class::MidLetter,
            b',' | b';' => Class::MidNum,
            b'.' | b'\'' => Class::MidNumLetQ,
            _ => Class::Other,
        };
        b += 1;
    }
    t
};

/// `u8::is_ascii_whitespace` as a table (space, tab, LF, FF, CR).
const SPACE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).is_ascii_whitespace();
        b += 1;
    }
    t
};

#[inline]
fn class(b: u8) -> Class {
    CLASSES[b as usize]
}

#[inline]
fn is_wordish(c: Class) -> bool {
    matches!(c, Class::Letter | Class::Digit | Class::Under)
}

/// Segments an ASCII piece without whitespace; calls `f` for each segment
/// that starts with a letter, digit or `_` (the others hold no alphanumeric).
fn ascii_segments(piece: &[u8], offset: usize, f: &mut impl FnMut(usize, usize, bool)) {
    let n = piece.len();
    let mut i = 0;
    while i < n {
        if !is_wordish(class(piece[i])) {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        while i < n {
            let (prev, cur) = (class(piece[i - 1]), class(piece[i]));
            if is_wordish(cur) {
                i += 1;
                continue;
            }
            if i + 1 < n {
                let next = class(piece[i + 1]);
                let letters = prev == Class::Letter
                    && next == Class::Letter
                    && matches!(cur, Class::MidLetter | Class::MidNumLetQ);
                let digits = prev == Class::Digit
                    && next == Class::Digit
                    && matches!(cur, Class::MidNum | Class::MidNumLetQ);
                if letters || digits {
                    i += 2;
                    continue;
                }
            }
            break;
        }
        f(offset + start, offset + i, true);
    }
}

/// Calls `f(start, end, ascii)` with the byte range of every UAX #29
/// word-boundary segment of `input` that may hold a word, in order. Segments
/// it skips hold no alphanumeric character (whitespace, lone punctuation).
/// `ascii` is `true` for segments found by the ASCII reading of the rules:
/// they are ASCII and hold only letters, digits, `_` and the `Mid*`
/// punctuation `:` `.` `'` `,` `;`.
pub(crate) fn word_segments(input: &str, mut f: impl FnMut(usize, usize, bool)) {
    let bytes = input.as_bytes();
    let n = bytes.len();
    // Start of the pending run of non-ASCII pieces (with the whitespace
    // before the first), and the end of its last piece.
    let mut slow: Option<(usize, usize)> = None;
    let flush = |slow: &mut Option<(usize, usize)>, f: &mut dyn FnMut(usize, usize, bool)| {
        if let Some((s, e)) = slow.take() {
            // Piece boundaries are ASCII, so these are char boundaries.
            for (at, seg) in input[s..e].split_word_bound_indices() {
                f(s + at, s + at + seg.len(), false);
            }
        }
    };
    let mut i = 0;
    while i < n {
        let ws_start = i;
        while i < n && SPACE[bytes[i] as usize] {
            i += 1;
        }
        let piece_start = i;
        // One pass finds the piece's end and whether it is all ASCII.
        let mut high = 0u8;
        while i < n && !SPACE[bytes[i] as usize] {
            high |= bytes[i];
            i += 1;
        }
        if piece_start == i {
            continue;
        }
        let piece = &bytes[piece_start..i];
        if high < 0x80 {
            flush(&mut slow, &mut f);
            ascii_segments(piece, piece_start, &mut f);
        } else {
            // Consecutive non-ASCII pieces go to the library together: a
            // non-ASCII space (WSegSpace) joins the ASCII spaces after it
            // (WB3d), and the run may then absorb an Extend (WB4).
            slow = Some((slow.map_or(ws_start, |(s, _)| s), i));
        }
    }
    flush(&mut slow, &mut f);
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
    use alloc::string::String;
    use alloc::vec::Vec;

    /// The segments holding an alphanumeric character, as strings.
    fn words(input: &str, fast: bool) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        let mut push = |s: usize, e: usize, _ascii: bool| {
            let seg = &input[s..e];
            if seg.chars().any(char::is_alphanumeric) {
                out.push((s, String::from(seg)));
            }
        };
        if fast {
            word_segments(input, &mut push);
        } else {
            word_segments_reference(input, |s, e| push(s, e, false));
        }
        out
    }

    #[test]
    fn ascii_rules() {
        let w = |s: &str| words(s, true).into_iter().map(|x| x.1).collect::<Vec<_>>();
        assert_eq!(
            w("can't stop e.g. 3.14 1,000;5 a:b x_y __ a.1 1.a"),
            ["can't", "stop", "e.g", "3.14", "1,000;5", "a:b", "x_y", "a", "1", "1", "a"]
        );
        assert_eq!(
            w("a''b a..b 1,,2 'quoted' end."),
            ["a", "b", "a", "b", "1", "2", "quoted", "end"]
        );
    }

    #[test]
    fn fast_path_equals_library() {
        const ITER: usize = 20_000;
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
        ];
        let mut rng = crate::testing::XorShift(0x2545_f491_4f6c_dd1d);
        let mut next = || rng.next_u64();
        for _ in 0..ITER {
            let len = (next() % 24) as usize;
            let s: String = (0..len)
                .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
                .collect();
            assert_eq!(words(&s, true), words(&s, false), "input {s:?}");
        }
    }
}
