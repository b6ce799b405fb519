//! Text hidden from the eye: what counts as hidden, the same for every
//! format, and the count of what was left out.
//!
//! Hidden is: marked hidden (WordprocessingML `w:vanish`, OpenDocument
//! `text:display="none"` and hidden paragraphs, HTML `hidden` and
//! `display:none`); a font of at most [`TINY_POINTS`] points; or a colour
//! whose WCAG 2.2 contrast ratio against its background (the run's shading
//! or highlight, else the page's colour, else white) is under
//! [`INVISIBLE_CONTRAST`] — WCAG asks 4.5:1 of body text; under 1.2:1 text
//! cannot be told from the page (white on white is 1:1, `#EEEEEE` on white
//! 1.16:1, light grey `#D3D3D3` 1.5:1 and still read).

/// Text left out of a document as hidden from the eye.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct Hidden {
    /// Runs of hidden text left out (a run: hidden text between two
    /// pieces of visible text or paragraph ends), 0 or more.
    pub runs: u64,
    /// Bytes of UTF-8 left out, 0 or more.
    pub bytes: u64,
}

impl Hidden {
    /// Counts `text` as hidden; `new_run` when it does not continue the
    /// hidden run before it.
    pub(crate) fn add(&mut self, text: &str, new_run: bool) {
        if text.is_empty() {
            return;
        }
        self.bytes += text.len() as u64;
        if new_run {
            self.runs += 1;
        }
    }
}

/// Fonts of at most this size, in points, are hidden (2 pt).
pub const TINY_POINTS: f64 = 2.0;

/// Contrast ratios under this (WCAG 2.2, "contrast ratio") are hidden.
pub const INVISIBLE_CONTRAST: f64 = 1.2;

/// An sRGB colour, `0xRRGGBB`.
pub(crate) type Rgb = u32;

/// White, the page's colour when nothing says otherwise.
pub(crate) const WHITE: Rgb = 0xFF_FF_FF;

/// WCAG 2.2 relative luminance of an sRGB colour, 0.0 (black) to 1.0
/// (white).
fn luminance(c: Rgb) -> f64 {
    let channel = |shift: u32| {
        let v = f64::from((c >> shift) & 0xFF) / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            libm::pow((v + 0.055) / 1.055, 2.4)
        }
    };
    0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
}

/// WCAG 2.2 contrast ratio of two colours, 1.0 to 21.0.
pub(crate) fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    let (hi, lo) = if la > lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

/// Whether text of colour `fg` on `bg` cannot be seen.
pub(crate) fn invisible(fg: Rgb, bg: Rgb) -> bool {
    contrast(fg, bg) < INVISIBLE_CONTRAST
}

/// A colour written `RRGGBB` or `#RRGGBB` (or `#RGB`), case ignored;
/// `None` for anything else (`auto`, names).
pub(crate) fn hex_colour(s: &str) -> Option<Rgb> {
    let s = s.trim();
    let s = s.strip_prefix('#').unwrap_or(s);
    if !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    match s.len() {
        6 => u32::from_str_radix(s, 16).ok(),
        3 => {
            let v = u32::from_str_radix(s, 16).ok()?;
            let (r, g, b) = ((v >> 8) & 0xF, (v >> 4) & 0xF, v & 0xF);
            Some((r * 17) << 16 | (g * 17) << 8 | (b * 17))
        }
        _ => None,
    }
}

/// A length in points: `"2pt"`, `"0.5mm"`, `"0.1cm"`, `"0.02in"`,
/// `"2px"` (CSS: 0.75 pt), `"0"`; `None` for relative sizes (`%`, `em`).
pub(crate) fn points(s: &str) -> Option<f64> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .unwrap_or(s.len());
    let (number, unit) = s.split_at(split);
    let v: f64 = number.parse().ok()?;
    let per = match unit.trim().to_ascii_lowercase().as_str() {
        "pt" => 1.0,
        "px" => 0.75,
        "mm" => 72.0 / 25.4,
        "cm" => 72.0 / 2.54,
        "in" => 72.0,
        "pc" => 12.0,
        "" if v == 0.0 => 1.0,
        _ => return None,
    };
    Some(v * per)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contrast_matches_wcag_figures() {
        // WCAG's own end points and a grey of known ratio (#767676 on
        // white is 4.54:1, the lightest grey that passes AA).
        assert!((contrast(0, WHITE) - 21.0).abs() < 1e-9);
        assert!((contrast(WHITE, WHITE) - 1.0).abs() < 1e-12);
        assert!((contrast(0x767676, WHITE) - 4.54).abs() < 0.01);
        assert!(invisible(0xFEFEFE, WHITE) && invisible(0xEEEEEE, WHITE));
        assert!(!invisible(0xD3D3D3, WHITE) && !invisible(WHITE, 0));
    }

    #[test]
    fn colours_and_lengths_parse() {
        assert_eq!(hex_colour("FFFFFF"), Some(WHITE));
        assert_eq!(hex_colour("#fff"), Some(WHITE));
        assert_eq!(hex_colour("auto"), None);
        assert_eq!(points("2pt"), Some(2.0));
        assert_eq!(points("0"), Some(0.0));
        assert_eq!(points("2px"), Some(1.5));
        assert_eq!(points("80%"), None);
        assert!((points("0.5mm").unwrap() - 1.417).abs() < 0.01);
    }
}
