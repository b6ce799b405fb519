//! DSound (C. Varol and S. Hari, "Detecting near-duplicate text documents
//! with a hybrid approach", Journal of Information Science 41(4), 2015 —
//! seed 003), and SoundD, the variant with Soundex's shape (C. Varol and
//! C. Bayrak, "Hybrid matching algorithm for personal names", ACM JDIQ 3(4),
//! 2012).
//!
//! Both read the word the same way:
//! 1. First letters: a leading kn, gn, pn, ac or wr loses its first letter;
//!    else a leading x becomes s; else a leading wh becomes w.
//! 2. Then, left to right: dge, dgi → je, ji (the d is silent); gh → one
//!    silent letter; tia, tio → sia, sio.
//! 3. Every letter becomes a digit, the first one included: a e i o u y h
//!    w → 0; b f p v → 1; c g j k q s x z → 2; d t → 3; l → 4; m n → 5;
//!    r → 6; runs of the same digit become one.
//!
//! **DSound** keeps the zeros and the whole length ("Rodgers" and "Rogers"
//! are both 602062, as in the seed). **SoundD** then removes the zeros and
//! pads with zeros or cuts to four digits ("Rogers" 6262, "Knight" 5300).
//!
//! Published SoundD examples that we do not follow: the Talisman library's
//! list gives "Ackroyd" 2600, coding no d outside dge/dgi; the papers' digit
//! table codes d as 3, so we give 2630.

use alloc::string::String;

fn digit(c: u8) -> u8 {
    match c {
        b'b' | b'f' | b'p' | b'v' => b'1',
        b'c' | b'g' | b'j' | b'k' | b'q' | b's' | b'x' | b'z' => b'2',
        b'd' | b't' => b'3',
        b'l' => b'4',
        b'm' | b'n' => b'5',
        b'r' => b'6',
        _ => b'0',
    }
}

/// Appends the DSound code of `w` (lowercase ASCII letters, non-empty) when
/// `dsound`, else its SoundD code.
pub(crate) fn encode(w: &[u8], dsound: bool, out: &mut String) {
    let mut start = 0;
    let mut first_as: Option<u8> = None;
    if [b"kn", b"gn", b"pn", b"ac", b"wr"]
        .iter()
        .any(|p| w.starts_with(*p))
    {
        start = 1;
    } else if w[0] == b'x' {
        first_as = Some(b's');
    } else if w.starts_with(b"wh") {
        first_as = Some(b'w');
        start = 1;
    }
    let mut digits = String::new();
    let mut push = |d: u8| {
        if digits.as_bytes().last() != Some(&d) {
            digits.push(d as char);
        }
    };
    let mut i = start;
    while i < w.len() {
        let c = if i == start {
            first_as.unwrap_or(w[i])
        } else {
            w[i]
        };
        let at = |j: usize| w.get(i + j).copied();
        match c {
            b'd' if at(1) == Some(b'g') && matches!(at(2), Some(b'e' | b'i')) => {
                push(digit(b'j'));
                i += 2;
                continue;
            }
            b'g' if at(1) == Some(b'h') => {
                push(b'0');
                i += 2;
                continue;
            }
            b't' if at(1) == Some(b'i') && matches!(at(2), Some(b'a' | b'o')) => push(digit(b's')),
            c => push(digit(c)),
        }
        i += 1;
    }
    if dsound {
        out.push_str(&digits);
    } else {
        let mut n = 0;
        for d in digits.chars().filter(|&d| d != '0').take(4) {
            out.push(d);
            n += 1;
        }
        for _ in n..4 {
            out.push('0');
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::phonetic::{encode, Algorithm};

    /// Seed 003's example, and pairs the first-letter rules make equal.
    #[test]
    fn dsound_vectors() {
        let d = |w| encode(Algorithm::DSound, w);
        assert_eq!(d("Rodgers"), "602062");
        assert_eq!(d("Rogers"), "602062");
        assert_eq!(d("nation"), "50205");
        assert_eq!(d("Knight"), d("Night"));
        assert_eq!(d("Xavier"), d("Savier"));
        assert_eq!(d("Whitney"), d("Witney"));
        assert_eq!(d("Houghton"), "0305");
    }

    /// The published SoundD examples (Varol & Bayrak 2012, as listed with
    /// the Talisman library's tests), all but Ackroyd/Ckroyd (module docs).
    #[test]
    fn soundd_published_vectors() {
        for (word, code) in [
            ("Martha", "5630"),
            ("Rogers", "6262"),
            ("Rodgers", "6262"),
            ("Hodgins", "2520"),
            ("Hojins", "2520"),
            ("Houghton", "3500"),
            ("Knight", "5300"),
            ("Night", "5300"),
            ("Gnomon", "5550"),
            ("Nomon", "5550"),
            ("Pnaf", "5100"),
            ("Naf", "5100"),
            ("Wright", "6300"),
            ("Right", "6300"),
            ("Xavier", "2160"),
            ("Savior", "2160"),
            ("Whitney", "3500"),
            ("Witney", "3500"),
        ] {
            assert_eq!(encode(Algorithm::SoundD, word), code, "{word}");
        }
        assert_eq!(encode(Algorithm::SoundD, "Ackroyd"), "2630");
        assert_eq!(encode(Algorithm::SoundD, "Ckroyd"), "2630");
    }
}
