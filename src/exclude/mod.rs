//! What a grader leaves out of a comparison, found in a text as ranges
//! (UTF-8 bytes) and blanked with spaces of the same length, so that every
//! offset of a comparison still points into the text as it was read:
//!
//! * [`quotations`]: quoting with attribution is not copying — `"…"`,
//!   `“…”` and `«…»`, across a line break (hard-wrapped text) but not
//!   across a blank line (a new paragraph), at most [`MAX_QUOTATION`]
//!   characters inside;
//! * [`reference_list`]: students cite the same sources in the same style —
//!   from a "References" heading (or "Reference list", "Bibliography",
//!   "Works cited", "Sources", "Literature cited"; any case, an optional
//!   Markdown `#` and colon) on a line of its own, in the second half of the
//!   text, to the end;
//! * [`phrases`]: the ranges of the text covered by chosen word k-shingles —
//!   a template's phrases, a class's stock phrases (Broder 1997's shingles;
//!   the exclusions of MOSS, Schleimer, Wilkerson & Aiken 2003, and of
//!   WCopyfind).
//!
//! [`blank`] turns ranges into spaces (each byte but line breaks), so a
//! comparison of the blanked text reads its words at their own offsets. The
//! same rules for every surface: `compare` (`ignore_quotes`,
//! `ignore_references`, a template), class sets, the CLI, npm, Python and
//! the page.

use crate::text::TextRange;
use alloc::string::String;
use alloc::vec::Vec;

/// Most characters inside a quotation: a longer "quotation" is an unclosed
/// quote mark, not a quotation.
pub const MAX_QUOTATION: usize = 2000;

/// The quotation marks, opening and closing.
const MARKS: [(char, char); 3] = [('"', '"'), ('\u{201C}', '\u{201D}'), ('\u{AB}', '\u{BB}')];

/// The quotations of a text (module docs): in order, not overlapping, each
/// from its opening mark to its closing mark included. An opening mark with
/// no closing one within [`MAX_QUOTATION`] characters before a blank line is
/// not a quotation; the search goes on after it.
///
/// ```
/// use neardup::exclude::quotations;
/// let t = "He wrote \"a line\nrunning on\" and “another”.\n\n\"Never closed\n\nhere\".";
/// let q: Vec<&str> = quotations(t).iter().map(|r| &t[r.start..r.end]).collect();
/// assert_eq!(q, ["\"a line\nrunning on\"", "“another”"]);
/// ```
pub fn quotations(text: &str) -> Vec<TextRange> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        let Some(&(_, close)) = MARKS.iter().find(|(open, _)| *open == c) else {
            continue;
        };
        if let Some(end) = closing(text, start + c.len_utf8(), close) {
            out.push(TextRange { start, end });
            while chars.peek().is_some_and(|&(i, _)| i < end) {
                chars.next();
            }
        }
    }
    out
}

/// The end (after the closing mark) of a quotation whose inside starts at
/// `from`, if it closes within the limits.
fn closing(text: &str, from: usize, close: char) -> Option<usize> {
    let rest = &text[from..];
    for (n, (i, c)) in rest.char_indices().enumerate() {
        if c == close {
            // At least one character inside.
            return (n > 0).then_some(from + i + c.len_utf8());
        }
        if n >= MAX_QUOTATION {
            return None;
        }
        if c == '\n' && blank_line_follows(&rest[i + 1..]) {
            return None;
        }
    }
    None
}

/// `true` when `text` starts with a line holding only spaces and tabs (then
/// a line break): a blank line.
fn blank_line_follows(text: &str) -> bool {
    let line = text.trim_start_matches([' ', '\t']);
    line.starts_with('\n') || line.starts_with("\r\n")
}

/// The headings that open a reference list.
const HEADINGS: [&str; 6] = [
    "references",
    "reference list",
    "bibliography",
    "works cited",
    "sources",
    "literature cited",
];

/// A trailing reference list (module docs): from the start of the last
/// heading line to the end of the text, when that line starts in the second
/// half of the text (by bytes); `None` otherwise.
///
/// ```
/// use neardup::exclude::reference_list;
/// let t = "An essay about rivers and their floods, long enough to matter.\n\nReferences:\nSmith, J. (2001). Rivers.\n";
/// let r = reference_list(t).unwrap();
/// assert!(t[r.start..].starts_with("References:"));
/// assert_eq!(r.end, t.len());
/// ```
pub fn reference_list(text: &str) -> Option<TextRange> {
    let mut last = None;
    let mut at = 0usize;
    for line in text.split_inclusive('\n') {
        if is_heading(line.trim_end_matches(['\n', '\r'])) {
            last = Some(at);
        }
        at += line.len();
    }
    let start = last?;
    (start >= text.len() / 2).then_some(TextRange {
        start,
        end: text.len(),
    })
}

fn is_heading(line: &str) -> bool {
    let line = line.trim_matches([' ', '\t']);
    let line = line.trim_start_matches('#').trim_start_matches([' ', '\t']);
    let line = line
        .strip_suffix(':')
        .unwrap_or(line)
        .trim_end_matches([' ', '\t']);
    HEADINGS.iter().any(|h| line.eq_ignore_ascii_case(h))
}

/// The ranges of a text covered by the word k-shingles at `positions`
/// (shingle `p` covers tokens `p .. p + k`; a text shorter than `k` tokens
/// has one shingle, all of it), as text ranges through `tokens` (the
/// tokens' ranges in the text), merged, in order. `positions` ascending.
pub fn phrases(
    positions: impl IntoIterator<Item = usize>,
    k: usize,
    tokens: &[TextRange],
) -> Vec<TextRange> {
    let n = tokens.len();
    spans(
        positions
            .into_iter()
            .map(|p| (p, (p + k).min(n).max(p + 1))),
        tokens,
    )
}

/// The ranges of a text covered by token spans `(first, end)` (tokens
/// `first .. end`, spans in ascending order of `first`), as text ranges
/// through `tokens`, merged, in order; spans past the last token are left
/// out.
pub fn spans(
    spans: impl IntoIterator<Item = (usize, usize)>,
    tokens: &[TextRange],
) -> Vec<TextRange> {
    spans_by(spans, tokens.len(), |i| tokens[i])
}

/// [`spans`] over `count` tokens whose ranges `range(i)` gives (tokens kept
/// in another form, e.g. 32-bit offsets).
pub fn spans_by(
    spans: impl IntoIterator<Item = (usize, usize)>,
    count: usize,
    range: impl Fn(usize) -> TextRange,
) -> Vec<TextRange> {
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (start, end) in spans {
        if end > count || start >= end {
            continue;
        }
        match merged.last_mut() {
            Some(s) if start <= s.1 => s.1 = s.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
        .into_iter()
        .map(|(s, e)| TextRange {
            start: range(s).start,
            end: range(e - 1).end,
        })
        .collect()
}

/// A text whose quotations hold more than this share of its letters and
/// digits says so when they are left out: wrapping a copy in quotation
/// marks would otherwise make it vanish from the comparison.
pub const QUOTED_SHARE_WARNING: f64 = 1.0 / 3.0;

/// The share of `text`'s letters and digits (`char::is_alphanumeric`) that
/// lie inside `ranges` (merged, in order, on `char` boundaries), in [0, 1];
/// 0 for a text without any.
///
/// ```
/// use neardup::exclude::{quotations, share};
/// let t = "ab \"cd\" ef";
/// assert_eq!(share(t, &quotations(t)), 2.0 / 6.0);
/// ```
pub fn share(text: &str, ranges: &[TextRange]) -> f64 {
    let count = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).count();
    let all = count(text);
    if all == 0 {
        return 0.0;
    }
    let inside: usize = ranges
        .iter()
        .filter_map(|r| text.get(r.start..r.end))
        .map(count)
        .sum();
    inside as f64 / all as f64
}

/// The warning of a text whose quotations, left out, hold `share` of it
/// ([`share`]): `None` up to [`QUOTED_SHARE_WARNING`].
pub fn quoted_warning(share: f64) -> Option<String> {
    (share > QUOTED_SHARE_WARNING).then(|| {
        alloc::format!(
            "{:.0} % of this text is inside quotation marks and was left out: \
             quoting a copy would otherwise make it vanish; compare with quotations \
             counted to see it.",
            share * 100.0
        )
    })
}

/// Ranges merged: sorted, overlapping or touching ones joined, empty ones
/// dropped.
pub fn merge(ranges: impl IntoIterator<Item = TextRange>) -> Vec<TextRange> {
    let mut v: Vec<TextRange> = ranges.into_iter().filter(|r| r.end > r.start).collect();
    crate::text::sort_ranges(&mut v);
    let mut out: Vec<TextRange> = Vec::with_capacity(v.len());
    for r in v {
        match out.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// `text` with `ranges` blanked: every byte in them but line breaks becomes
/// a space, so the length and every offset are kept (a multi-byte character
/// becomes as many spaces as it had bytes). Ranges past the end are cut; an
/// offset inside a character moves to the character's end.
///
/// ```
/// use neardup::exclude::blank;
/// use neardup::TextRange;
/// // “ and ” are three bytes each: the quotation becomes eight spaces.
/// assert_eq!(blank("ab “cd”\nef", &[TextRange { start: 3, end: 11 }]), "ab         \nef");
/// ```
pub fn blank(text: &str, ranges: &[TextRange]) -> String {
    if ranges.is_empty() {
        return text.into();
    }
    let boundary = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i += 1;
        }
        i
    };
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for r in merge(ranges.iter().copied()) {
        let (start, end) = (boundary(r.start).max(at), boundary(r.end));
        if start >= end {
            continue;
        }
        out.push_str(&text[at..start]);
        out.extend(
            text[start..end]
                .bytes()
                .map(|b| if b == b'\n' { '\n' } else { ' ' }),
        );
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(t: &str) -> Vec<&str> {
        quotations(t).iter().map(|r| &t[r.start..r.end]).collect()
    }

    #[test]
    fn quotations_by_hand() {
        assert_eq!(found("a \"b\" c “d e” «f»"), ["\"b\"", "“d e”", "«f»"]);
        // Across one line break, not across a blank line.
        assert_eq!(found("\"one\ntwo\""), ["\"one\ntwo\""]);
        assert_eq!(found("\"one\n\ntwo\""), Vec::<&str>::new());
        assert_eq!(found("\"one\n  \t\ntwo\""), Vec::<&str>::new());
        // Empty quotes are not quotations; an unclosed mark is skipped and
        // the search goes on.
        assert_eq!(found("\"\" x"), Vec::<&str>::new());
        assert_eq!(found("“open\n\n\"shut\""), ["\"shut\""]);
        // A curly quotation may hold straight marks, and the reverse.
        assert_eq!(found("“say \"hi\" now”"), ["“say \"hi\" now”"]);
        let long = alloc::format!("\"{}\"", "x".repeat(MAX_QUOTATION + 1));
        assert!(found(&long).is_empty());
        let ok = alloc::format!("\"{}\"", "x".repeat(MAX_QUOTATION));
        assert_eq!(found(&ok).len(), 1);
    }

    #[test]
    fn reference_lists_by_hand() {
        let body = "word ".repeat(40);
        for heading in [
            "References",
            "## Bibliography:",
            "WORKS CITED",
            "  sources  ",
            "Reference list",
        ] {
            let t = alloc::format!("{body}\n{heading}\nA. Author (2000).\n");
            let r = reference_list(&t).unwrap_or_else(|| panic!("{heading}"));
            assert_eq!(&t[r.start..r.start + heading.len()], heading);
        }
        // Early in the text, or not a line of its own, it is not a list.
        assert!(reference_list(&alloc::format!("References\n{body}")).is_none());
        assert!(reference_list(&alloc::format!("{body}\nSee the references below.\n")).is_none());
        // The last heading counts.
        let t = alloc::format!("{body}\nSources\nx\n{body}\nReferences\r\ny\n");
        assert!(t[reference_list(&t).unwrap().start..].starts_with("References"));
    }

    #[test]
    fn blanking_keeps_every_offset_and_merges() {
        let t = "é “q” x\ny";
        let q = quotations(t);
        let b = blank(t, &q);
        assert_eq!(b.len(), t.len());
        assert_eq!(&b[..3], "é ");
        assert!(b[3..q[0].end].bytes().all(|c| c == b' '));
        // An offset inside a character moves to its end: always UTF-8.
        assert_eq!(blank("aé b", &[TextRange { start: 1, end: 2 }]), "a   b");
        assert_eq!(
            merge([
                TextRange { start: 5, end: 9 },
                TextRange { start: 1, end: 3 },
                TextRange { start: 3, end: 4 },
                TextRange { start: 7, end: 7 }
            ]),
            [
                TextRange { start: 1, end: 4 },
                TextRange { start: 5, end: 9 }
            ]
        );
    }
}
