//! The module's functions: `compare`, `normalize`, shingles, defaults.

use super::{js_error, read_options, to_js};
use crate::{CompareConfig, Document, Shingling, TextRange};
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Reads `compare`'s options.
pub(crate) fn compare_config(options: JsValue) -> Result<CompareConfig, JsValue> {
    let o: CompareConfig = read_options(options, |o: &CompareConfig| o.seed)?;
    o.check().map_err(js_error)?;
    Ok(o)
}

/// Compares suspicious text `a` with source text `b`; see the Rust
/// `neardup::compare`. Throws an `Error` for an empty text, a text over
/// `maxBytes`, or an invalid option. (The package's entry routes
/// `compare(a, b, { model })` to `model.compare(a, b, options)`.)
#[wasm_bindgen(unchecked_return_type = "Report")]
pub fn compare(
    #[wasm_bindgen(unchecked_param_type = "string")] a: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] b: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Partial<CompareConfig>")] options: Option<
        JsValue,
    >,
) -> Result<JsValue, JsValue> {
    let a = &super::str_arg(a, "a")?;
    let b = &super::str_arg(b, "b")?;
    let o = compare_config(options.unwrap_or(JsValue::UNDEFINED))?;
    let report = crate::compare(a, b, &o).map_err(js_error)?.into_utf16(a, b);
    to_js(&report)
}

/// The default options, as `compare` fills them in.
#[wasm_bindgen(js_name = defaultOptions, unchecked_return_type = "CompareConfig")]
pub fn default_options() -> Result<JsValue, JsValue> {
    to_js(&CompareConfig::default())
}

/// A normalised text: tokens joined by single spaces, and each token's range
/// in the original (UTF-16 units) and in `text`.
#[derive(Serialize, tsify::Tsify)]
pub struct NormalizedText {
    /// The normalised text.
    text: String,
    /// Per token, its range in the original and in `text`.
    tokens: Vec<TokenRanges>,
}

/// A token's ranges, in UTF-16 code units.
#[derive(Serialize, tsify::Tsify)]
pub struct TokenRanges {
    /// In the original text.
    orig: TextRange,
    /// In the normalised text.
    norm: TextRange,
}

/// Normalises `text` (NFKC, case folding, punctuation and whitespace
/// folding) and returns its tokens with their ranges in UTF-16 units.
#[wasm_bindgen(unchecked_return_type = "NormalizedText")]
pub fn normalize(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<JsValue, JsValue> {
    let text = &super::str_arg(text, "text")?;
    let n = crate::normalize(text);
    let orig = utf16_ranges(text, n.tokens().iter().map(|t| t.orig));
    let norm = utf16_ranges(n.text(), n.tokens().iter().map(|t| t.norm));
    let tokens = orig
        .into_iter()
        .zip(norm)
        .map(|(orig, norm)| TokenRanges { orig, norm })
        .collect();
    to_js(&NormalizedText {
        text: String::from(n.text()),
        tokens,
    })
}

/// Converts byte ranges into `text` to UTF-16 ranges.
fn utf16_ranges(text: &str, ranges: impl Iterator<Item = TextRange>) -> Vec<TextRange> {
    let bytes: Vec<usize> = ranges.flat_map(|r| [r.start, r.end]).collect();
    crate::text::utf16_offsets(text, &bytes)
        .chunks_exact(2)
        .map(|c| TextRange {
            start: c[0],
            end: c[1],
        })
        .collect()
}

fn shingles_of(text: &str, shingling: Shingling, seed: Option<u64>) -> Result<Vec<u64>, JsValue> {
    shingling.check().map_err(js_error)?;
    let doc = Document::new(text, seed.unwrap_or(crate::hash::DEFAULT_SEED));
    Ok(doc.shingles(shingling).to_vec())
}

/// Word k-shingle hashes of `text` by position (`BigUint64Array`), as
/// specified in SPEC.md §3. `k` in 1..=32; `seed` defaults to 0.
#[wasm_bindgen(js_name = wordShingles)]
pub fn word_shingles(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] k: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "bigint | number")] seed: Option<JsValue>,
) -> Result<Vec<u64>, JsValue> {
    let text = &super::str_arg(text, "text")?;
    let k = super::int_arg(&k, "k", 1, 32)?;
    let seed = super::opt_u64_arg(seed, "seed")?;
    shingles_of(text, Shingling::Words(k), seed)
}

/// Character q-gram hashes of `text` by position (`BigUint64Array`), as
/// specified in SPEC.md §3. `q` in 1..=32; `seed` defaults to 0.
#[wasm_bindgen(js_name = charShingles)]
pub fn char_shingles(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] q: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "bigint | number")] seed: Option<JsValue>,
) -> Result<Vec<u64>, JsValue> {
    let text = &super::str_arg(text, "text")?;
    let q = super::int_arg(&q, "q", 1, 32)?;
    let seed = super::opt_u64_arg(seed, "seed")?;
    shingles_of(text, Shingling::Chars(q), seed)
}

/// The version of the shingling specification (SPEC.md) this build follows.
#[wasm_bindgen(js_name = specVersion)]
pub fn spec_version() -> u32 {
    crate::SPEC_VERSION
}

/// The phonetic code of `word` by `algorithm` (`"soundex"`, `"phonex"`,
/// `"dsound"`, `"soundd"`, `"phonix"` or `"metaphone"` — Double
/// Metaphone's primary code; SPEC.md §13). A word with no Latin letter is
/// its own code. Throws for an unknown algorithm.
#[wasm_bindgen]
pub fn phonetic(
    #[wasm_bindgen(unchecked_param_type = "string")] word: JsValue,
    #[wasm_bindgen(
        unchecked_param_type = "'soundex' | 'phonex' | 'dsound' | 'soundd' | 'phonix' | 'metaphone'"
    )]
    algorithm: JsValue,
) -> Result<String, JsValue> {
    let word = &super::str_arg(word, "word")?;
    let algorithm = crate::phonetic::Algorithm::from_name(&super::str_arg(algorithm, "algorithm")?)
        .map_err(js_error)?;
    Ok(crate::phonetic::encode(algorithm, word))
}

/// The Double Metaphone codes of `word` (Philips 2000; SPEC.md §13) as
/// `[primary, alternate]`, full length, or each cut to `maxLength`
/// characters (1..=64; 4 gives the codes of commons-codec). A word with no
/// Latin letter is both its codes. Throws a `TypeError` for a non-string
/// word, a `RangeError` for a bad `maxLength`.
#[wasm_bindgen(js_name = doubleMetaphone, unchecked_return_type = "[string, string]")]
pub fn double_metaphone(
    #[wasm_bindgen(unchecked_param_type = "string")] word: JsValue,
    #[wasm_bindgen(js_name = maxLength, unchecked_optional_param_type = "number")]
    max_length: Option<JsValue>,
) -> Result<js_sys::Array, JsValue> {
    let word = &super::str_arg(word, "word")?;
    let max = super::opt_int_arg(max_length, "maxLength", 1, 64)?;
    let (p, a) = crate::phonetic::double_metaphone_of(word, max.map(|m| m as usize));
    Ok(js_sys::Array::of2(&p.into(), &a.into()))
}

/// Shingle hashes of `text` by position (`BigUint64Array`) for any shingle
/// spec: `"word:K"`, `"char:Q"`, `"phonetic:K"`, `"phonetic:ALGO:K"`
/// (SPEC.md §3, §13). `seed` defaults to 0. Throws for a bad spec.
#[wasm_bindgen]
pub fn shingles(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] shingle: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "bigint | number")] seed: Option<JsValue>,
) -> Result<Vec<u64>, JsValue> {
    let text = &super::str_arg(text, "text")?;
    let spec: Shingling = super::str_arg(shingle, "shingle")?
        .parse()
        .map_err(js_error)?;
    let seed = super::opt_u64_arg(seed, "seed")?;
    shingles_of(text, spec, seed)
}
