//! Text: Unicode normalisation and word tokens (SPEC.md §1–2), the UAX #29
//! word segmentation behind them, and offsets back into the original text.
//!
//! * [`normalize`](normalize()): NFKC, case folding, punctuation and
//!   whitespace folding; word tokens with byte ranges in the original.
//! * `segment` (private): UAX #29 word boundaries with an exact ASCII fast
//!   path over `unicode-segmentation`.
//! * [`TextRange`], [`utf16_offsets`]: ranges, and UTF-8 → UTF-16 offsets.

mod normalize;
mod offsets;
mod segment;

#[cfg(feature = "std")]
pub use normalize::normalize_reference;
pub use normalize::{normalize, Normalized, Token};
pub use offsets::{utf16_offsets, TextRange};
