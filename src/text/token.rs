//! A word token of a normalised text, and how one is appended: shared by
//! the normaliser (`normalize.rs`) and the segmenter's fast path
//! (`segment.rs`), which both write tokens.

use super::TextRange;
use alloc::vec::Vec;

/// One word token: where it is in the original text and in the normalised text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// Byte range of the token in the original text.
    pub orig: TextRange,
    /// Byte range of the token's normalised form in [`crate::text::Normalized::text`].
    pub norm: TextRange,
}

/// Appends a token: a separating space when the text is not empty, then
/// what `fill` writes; nothing at all (not even the space) when `fill`
/// writes nothing (everything folded away).
#[inline(always)]
pub(crate) fn append_token(
    text: &mut Vec<u8>,
    tokens: &mut Vec<Token>,
    start: usize,
    end: usize,
    fill: impl FnOnce(&mut Vec<u8>),
) {
    let sep = !text.is_empty();
    if sep {
        text.push(b' ');
    }
    let norm_start = text.len();
    fill(text);
    if text.len() == norm_start {
        if sep {
            text.pop();
        }
        return;
    }
    tokens.push(Token {
        orig: TextRange { start, end },
        norm: TextRange {
            start: norm_start,
            end: text.len(),
        },
    });
}
