//! Text: Unicode normalisation and word tokens (SPEC.md §1–2), the UAX #29
//! word segmentation behind them, and offsets back into the original text.
//!
//! * [`normalize`](normalize()): NFKC, case folding, punctuation and
//!   whitespace folding; word tokens with byte ranges in the original;
//!   [`normalize_with`] and [`Normalization`]: the same with diacritics
//!   folded (`fold`, private: `é` → `e`, `ä` → `ae`), or unmasked
//!   (`unmask`: invisible characters removed, look-alike letters of
//!   another script mapped to the main script's, [`Obfuscation`] saying
//!   what was undone).
//! * `segment` (private): UAX #29 word boundaries with an exact ASCII fast
//!   path over `unicode-segmentation`.
//! * [`TextRange`], [`utf16_offsets`], [`utf8_offsets`]: ranges, and
//!   offsets between UTF-8 and UTF-16.
//! * [`decode_text`]: a text file's bytes to text (byte-order mark, UTF-8,
//!   else Windows-1252), the one rule of every surface.

#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod avx512;
mod decode;
mod fold;
mod normalize;
mod offsets;
mod script;
mod segment;
mod token;
mod unmask;
mod word_hashes;

pub use decode::{decode_text, Decoded, TextEncoding};
#[cfg(feature = "std")]
pub use normalize::normalize_reference;
pub use normalize::{normalize, normalize_with, Normalization, Normalized, Token};
pub(crate) use offsets::{ranges_to_utf16, sort_ranges};
pub use offsets::{utf16_offsets, utf8_offsets, TextRange};
pub use unmask::{Obfuscation, MAX_OBFUSCATION_RANGES};
pub(crate) use word_hashes::word_hashes;
