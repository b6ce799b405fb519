//! Text files' bytes to text, the one rule of every surface (the CLI, the
//! page's file reader, npm's `decodeText`, Python's `decode_text`): by
//! byte-order mark when there is one (UTF-8, UTF-16 LE, UTF-16 BE: the
//! WHATWG Encoding Standard's BOM sniffing), else UTF-8 when the bytes are
//! valid UTF-8, else Windows-1252 (the WHATWG index, in which every byte
//! has a character: a file is never refused for its encoding, and never
//! decoded with replacement characters but for broken UTF-16).
//!
//! Written here rather than with `encoding_rs`: its decoders dispatch over
//! every encoding's tables, which the WebAssembly module would carry; the
//! tests hold this decoder to `encoding_rs` on every byte and on random
//! inputs (`tests/bad_input.rs`).

use alloc::string::String;

/// The encoding a text was decoded from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub enum TextEncoding {
    /// UTF-8, with or without a byte-order mark.
    #[cfg_attr(feature = "serde", serde(rename = "UTF-8"))]
    Utf8,
    /// UTF-16, little-endian (by its byte-order mark).
    #[cfg_attr(feature = "serde", serde(rename = "UTF-16LE"))]
    Utf16Le,
    /// UTF-16, big-endian (by its byte-order mark).
    #[cfg_attr(feature = "serde", serde(rename = "UTF-16BE"))]
    Utf16Be,
    /// Windows-1252: bytes that are not UTF-8 and have no byte-order mark.
    #[cfg_attr(feature = "serde", serde(rename = "windows-1252"))]
    Windows1252,
}

impl TextEncoding {
    /// The WHATWG name: `"UTF-8"`, `"UTF-16LE"`, `"UTF-16BE"` or
    /// `"windows-1252"`.
    pub fn name(self) -> &'static str {
        match self {
            TextEncoding::Utf8 => "UTF-8",
            TextEncoding::Utf16Le => "UTF-16LE",
            TextEncoding::Utf16Be => "UTF-16BE",
            TextEncoding::Windows1252 => "windows-1252",
        }
    }
}

/// A decoded text and the encoding it was read in.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct Decoded {
    /// The text, without a byte-order mark.
    pub text: String,
    /// The encoding it was decoded from.
    pub encoding: TextEncoding,
}

/// Windows-1252's characters for bytes 0x80–0x9F (the WHATWG index; the
/// five bytes it leaves unassigned map to the C1 controls of the same
/// number, as in the standard's decoder). Bytes 0xA0–0xFF are Latin-1's.
const W1252: [char; 32] = [
    '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}', '\u{8F}',
    '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}', '\u{178}',
];

/// Decodes a text file's bytes (module docs). Never fails: UTF-8 and
/// Windows-1252 decode every byte; unpaired UTF-16 surrogates (and an odd
/// last byte) become U+FFFD. Time and memory linear in the bytes.
///
/// ```
/// use neardup::text::{decode_text, TextEncoding};
/// assert_eq!(decode_text(b"caf\xc3\xa9").text, "café");
/// let w = decode_text(b"caf\xe9 \x93quoted\x94");
/// assert_eq!((w.text.as_str(), w.encoding), ("café “quoted”", TextEncoding::Windows1252));
/// assert_eq!(decode_text(b"\xff\xfeh\x00i\x00").text, "hi");
/// ```
pub fn decode_text(bytes: &[u8]) -> Decoded {
    let utf16 = |body: &[u8], le: bool| -> String {
        let mut units: alloc::vec::Vec<u16> = body
            .chunks_exact(2)
            .map(|c| match le {
                true => u16::from_le_bytes([c[0], c[1]]),
                false => u16::from_be_bytes([c[0], c[1]]),
            })
            .collect();
        if body.len() % 2 == 1 {
            // An odd last byte, with a lead surrogate before it if any,
            // is one error (the standard's end of input).
            if units.last().is_some_and(|u| (0xD800..0xDC00).contains(u)) {
                units.pop();
            }
            units.push(0xFFFD);
        }
        char::decode_utf16(units)
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect()
    };
    let (text, encoding) = match bytes {
        [0xEF, 0xBB, 0xBF, rest @ ..] => (
            String::from_utf8_lossy(rest).into_owned(),
            TextEncoding::Utf8,
        ),
        [0xFF, 0xFE, rest @ ..] => (utf16(rest, true), TextEncoding::Utf16Le),
        [0xFE, 0xFF, rest @ ..] => (utf16(rest, false), TextEncoding::Utf16Be),
        _ => match core::str::from_utf8(bytes) {
            Ok(s) => (s.into(), TextEncoding::Utf8),
            Err(_) => (windows_1252(bytes), TextEncoding::Windows1252),
        },
    };
    Decoded { text, encoding }
}

fn windows_1252(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| match b {
            0x80..=0x9F => W1252[(b - 0x80) as usize],
            _ => b as char,
        })
        .collect()
}
