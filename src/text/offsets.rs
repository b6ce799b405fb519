//! Ranges of offsets into a text, and their conversion from UTF-8 bytes
//! (Rust) to UTF-16 code units (JavaScript, Java, .NET string indices).

use alloc::vec::Vec;

/// A half-open range `[start, end)` of offsets into a text.
///
/// In the core the unit is bytes of UTF-8 and the range always falls on
/// `char` boundaries; [`crate::compare::Report::into_utf16`] converts a report's ranges
/// to UTF-16 code units for JavaScript.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct TextRange {
    /// First offset inside the range.
    pub start: usize,
    /// First offset after the range (`end >= start`).
    pub end: usize,
}

impl TextRange {
    /// Length of the range in its unit.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// `true` when `start == end`.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// `true` when `x` fits in 32 bits: always on 32-bit targets, where the
/// check (and the loop that makes it) compiles to nothing.
fn narrow(x: usize) -> bool {
    u32::try_from(x).is_ok()
}

/// `hi` above `lo` in one `u64`; both [`narrow`].
fn packed(hi: usize, lo: usize) -> u64 {
    (hi as u64) << 32 | lo as u64
}

/// The indices of `offsets` in ascending order of their offsets: one sort
/// for both conversions. Sorted as `u64` keys (offset above index), so that
/// the WebAssembly module's `u64` sort serves and carries no copy of its own
/// (the sorts are a sixth of the comparison's module; issue 49).
fn ascending(offsets: &[usize]) -> Vec<usize> {
    if narrow(offsets.len()) && offsets.iter().all(|&o| narrow(o)) {
        let mut keys: Vec<u64> = offsets
            .iter()
            .enumerate()
            .map(|(i, &o)| packed(o, i))
            .collect();
        keys.sort_unstable();
        return keys
            .into_iter()
            .map(|k| (k & 0xFFFF_FFFF) as usize)
            .collect();
    }
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_unstable_by_key(|&i| offsets[i]);
    order
}

/// Sorts `ranges` by start, then end (the order of `sort_unstable`): as
/// `u64` keys (start above end) when every offset fits in 32 bits, always on
/// 32-bit targets, so that the WebAssembly module's `u64` sort serves.
pub(crate) fn sort_ranges(ranges: &mut [TextRange]) {
    if !ranges.iter().all(|r| narrow(r.start) && narrow(r.end)) {
        ranges.sort_unstable();
        return;
    }
    let mut keys: Vec<u64> = ranges.iter().map(|r| packed(r.start, r.end)).collect();
    keys.sort_unstable();
    for (r, k) in ranges.iter_mut().zip(keys) {
        *r = TextRange {
            start: (k >> 32) as usize,
            end: (k & 0xFFFF_FFFF) as usize,
        };
    }
}

/// Converts UTF-8 byte offsets into `text` to UTF-16 code-unit offsets
/// (the indices of JavaScript, Java and .NET strings), in one pass.
///
/// `byte_offsets` may come in any order and repeat; the result has the same
/// shape. An offset inside a UTF-8 sequence maps to the next character's
/// start; one past the end maps to the text's UTF-16 length.
pub fn utf16_offsets(text: &str, byte_offsets: &[usize]) -> Vec<usize> {
    let order = ascending(byte_offsets);
    let mut out = alloc::vec![0; byte_offsets.len()];
    let mut chars = text.char_indices().peekable();
    let mut units = 0usize;
    for i in order {
        while let Some(&(at, c)) = chars.peek() {
            if at >= byte_offsets[i] {
                break;
            }
            units += c.len_utf16();
            chars.next();
        }
        out[i] = units;
    }
    out
}

/// Rewrites byte ranges into `text` as UTF-16 code-unit ranges, in place
/// ([`utf16_offsets`] of their ends): what every report given to
/// JavaScript does with its ranges.
pub(crate) fn ranges_to_utf16<'r>(text: &str, ranges: impl IntoIterator<Item = &'r mut TextRange>) {
    let ranges: Vec<&mut TextRange> = ranges.into_iter().collect();
    let bytes: Vec<usize> = ranges.iter().flat_map(|r| [r.start, r.end]).collect();
    let units = utf16_offsets(text, &bytes);
    for (r, u) in ranges.into_iter().zip(units.chunks_exact(2)) {
        r.start = u[0];
        r.end = u[1];
    }
}

/// Converts UTF-16 code-unit offsets into `text` (JavaScript string
/// indices) to UTF-8 byte offsets, in one pass: the inverse of
/// [`utf16_offsets`]. Any order and repeats; an offset inside a surrogate
/// pair maps to the next character's start; one at or past the end maps to
/// the text's byte length.
pub fn utf8_offsets(text: &str, unit_offsets: &[usize]) -> Vec<usize> {
    let order = ascending(unit_offsets);
    let mut out = alloc::vec![0; unit_offsets.len()];
    let mut chars = text.char_indices().peekable();
    let mut units = 0usize;
    for i in order {
        while let Some(&(_, c)) = chars.peek() {
            if units >= unit_offsets[i] {
                break;
            }
            units += c.len_utf16();
            chars.next();
        }
        out[i] = chars.peek().map_or(text.len(), |&(at, _)| at);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn utf8_offsets_invert_utf16_offsets() {
        let t = "a😀é z";
        let bytes = [0, 1, 5, 7, 8, 9];
        assert_eq!(utf8_offsets(t, &utf16_offsets(t, &bytes)), bytes);
        // Inside the surrogate pair: the next character; past the end: the end.
        assert_eq!(utf8_offsets(t, &[2, 99]), [5, 9]);
    }

    #[test]
    fn utf16_offsets_any_order() {
        // "a😀é": a at 0, 😀 at 1..5 (2 units), é at 5..7 (1 unit).
        assert_eq!(utf16_offsets("a😀é", &[7, 0, 5, 1, 5]), [4, 0, 3, 1, 3]);
    }

    /// The packed `u64` keys order as the offsets and ranges themselves:
    /// held to the standard library's sort, ties, zero and the 32-bit
    /// limit included; past the limit (64-bit targets) the plain sort.
    #[test]
    fn packed_sorts_order_as_the_values() {
        let top = u32::MAX as usize;
        let mut offsets = vec![7, 0, top, 5, 0, 1, 5, top - 1, 3];
        let by_std = |o: &[usize]| {
            let mut order: Vec<usize> = (0..o.len()).collect();
            order.sort_by_key(|&i| (o[i], i));
            order
        };
        let values =
            |o: &[usize], order: Vec<usize>| order.iter().map(|&i| o[i]).collect::<Vec<_>>();
        assert_eq!(
            values(&offsets, ascending(&offsets)),
            values(&offsets, by_std(&offsets))
        );
        let r = |start, end| TextRange { start, end };
        let mut ranges = vec![
            r(5, 9),
            r(0, 3),
            r(5, 6),
            r(top, top),
            r(0, 0),
            r(2, top),
            r(5, 6),
        ];
        let mut want = ranges.clone();
        want.sort();
        sort_ranges(&mut ranges);
        assert_eq!(ranges, want);
        #[cfg(target_pointer_width = "64")]
        {
            offsets.push(top + 2);
            offsets.push(top + 1);
            assert_eq!(
                values(&offsets, ascending(&offsets)),
                values(&offsets, by_std(&offsets))
            );
            ranges.push(r(top + 1, top + 3));
            ranges.push(r(1, 2));
            let mut want = ranges.clone();
            want.sort();
            sort_ranges(&mut ranges);
            assert_eq!(ranges, want);
        }
    }
}
