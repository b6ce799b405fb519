//! The WebAssembly binding: the only `#[wasm_bindgen]` code in the crate.
//!
//! Thin functions over the core with camelCase JavaScript names. Every
//! failure becomes a JavaScript `Error` whose message is the core error's
//! sentence; the core never panics on any input, and in debug builds a panic
//! hook prints any panic to the console.
//!
//! Offsets in the reports returned here are **UTF-16 code units** (JavaScript
//! string indices), converted by [`crate::Report::into_utf16`].

use crate::{shingle, CompareOptions};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Options of `compare`; every field is optional. */
export interface CompareOptions {
  /** Words per word shingle, 1..=32 (default 3). */
  wordK?: number;
  /** Characters per character q-gram, 1..=32 (default 5). */
  charQ?: number;
  /** Hash seed, a safe integer (default 0). */
  seed?: number;
  /** Merge shared runs at most this many words apart, 0..=64 (default 0). */
  spanGap?: number;
  /** Largest accepted text in bytes of UTF-8 (default 67108864). */
  maxBytes?: number;
}
/** A half-open range [start, end) of UTF-16 code units (string indices). */
export interface TextRange { start: number; end: number; }
/** A passage shared by the two texts. */
export interface Passage {
  /** Range in text a (the suspicious text). */
  a: TextRange;
  /** Range in text b (the source). */
  b: TextRange;
  /** Word-token indices of a covered. */
  aTokens: TextRange;
  /** Word-token indices of b covered. */
  bTokens: TextRange;
}
/** The result of `compare(a, b)`: a is the suspicious text, b the source. */
export interface Report {
  /** Plagiarism score in [0, 1]: containment of a in b by word k-shingles. */
  score: number;
  /** Jaccard resemblance of word k-shingle sets, [0, 1]. */
  resemblance: number;
  /** Containment of a in b by word k-shingles, [0, 1]. */
  containment: number;
  /** Containment of b in a by word k-shingles, [0, 1]. */
  containmentBInA: number;
  /** Dice coefficient of word k-shingle sets, [0, 1]. */
  dice: number;
  /** Jaccard resemblance of character q-gram sets, [0, 1]. */
  charResemblance: number;
  /** Containment of a in b by character q-grams, [0, 1]. */
  charContainment: number;
  /** Cosine of word term-frequency vectors, [0, 1]. */
  cosine: number;
  /** Distinct word k-shingles shared. */
  sharedShingles: number;
  /** Distinct word k-shingles of a. */
  shinglesA: number;
  /** Distinct word k-shingles of b. */
  shinglesB: number;
  /** Word tokens of a. */
  tokensA: number;
  /** Word tokens of b. */
  tokensB: number;
  /** Share of a's words inside shared passages, [0, 1]. */
  coverageA: number;
  /** Share of b's words inside shared passages, [0, 1]. */
  coverageB: number;
  /** Shared passages, in order of a. */
  passages: Passage[];
  /** Unit of the passage offsets: always "utf16-units" here. */
  offsets: "utf16-units";
  /** The options used, defaults filled in. */
  options: Required<CompareOptions>;
}
/** A normalised text: tokens joined by single spaces, and each token's range. */
export interface NormalizedText {
  text: string;
  /** Per token, its range in the original (UTF-16 units) and in `text`. */
  tokens: { orig: TextRange; norm: TextRange }[];
}
"#;

#[wasm_bindgen]
extern "C" {
    /// A JavaScript `CompareOptions` object (typed in TypeScript, checked here).
    #[wasm_bindgen(typescript_type = "CompareOptions")]
    pub type JsCompareOptions;
}

/// The keys of `CompareOptions` in JavaScript.
const OPTION_KEYS: &[&str] = &["wordK", "charQ", "seed", "spanGap", "maxBytes"];

/// Largest integer a JavaScript number holds exactly (2^53 - 1).
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// In debug builds, routes any panic to `console.error` with its message
/// (a release build has no hook, and the core has no panicking path).
fn panic_hook() {
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
}

fn js_error(msg: impl core::fmt::Display) -> JsError {
    JsError::new(&format!("{msg}"))
}

fn options_from_js(options: Option<JsValue>) -> Result<CompareOptions, JsError> {
    panic_hook();
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let o: CompareOptions = if options.is_undefined() || options.is_null() {
        CompareOptions::default()
    } else {
        // serde-wasm-bindgen reads only the known keys of an object, so a
        // misspelt option would pass silently: check the keys first.
        if !options.is_object() {
            return Err(js_error("invalid options: expected an object"));
        }
        let object: &js_sys::Object = options.unchecked_ref();
        for key in js_sys::Object::keys(object).iter() {
            let key = key.as_string().unwrap_or_default();
            if !OPTION_KEYS.contains(&key.as_str()) {
                return Err(js_error(format_args!(
                    "invalid options: unknown field `{key}`, expected one of {}",
                    OPTION_KEYS.join(", ")
                )));
            }
        }
        serde_wasm_bindgen::from_value(options).map_err(|e| {
            let msg = format!("{e}");
            js_error(format_args!(
                "invalid options: {}",
                msg.strip_prefix("Error: ").unwrap_or(&msg)
            ))
        })?
    };
    if o.seed > MAX_SAFE_INTEGER {
        return Err(js_error("invalid option: seed must be at most 2^53 - 1"));
    }
    o.check().map_err(js_error)?;
    Ok(o)
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    let ser = serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true);
    value
        .serialize(&ser)
        .map_err(|e| js_error(format_args!("internal error: {e}")))
}

/// Compares suspicious text `a` with source text `b`; see the Rust
/// `neardup::compare`. Throws an `Error` for an empty text, a text over
/// `maxBytes`, or an invalid option.
#[wasm_bindgen(unchecked_return_type = "Report")]
pub fn compare(a: &str, b: &str, options: Option<JsCompareOptions>) -> Result<JsValue, JsError> {
    let o = options_from_js(options.map(JsValue::from))?;
    let report = crate::compare(a, b, &o).map_err(js_error)?;
    to_js(&report.into_utf16(a, b))
}

/// The default options, as `compare` fills them in.
#[wasm_bindgen(js_name = defaultOptions, unchecked_return_type = "Required<CompareOptions>")]
pub fn default_options() -> Result<JsValue, JsError> {
    to_js(&CompareOptions::default())
}

/// Normalises `text` (NFKC, case folding, punctuation and whitespace
/// folding) and returns its tokens with their ranges in UTF-16 units.
#[wasm_bindgen(unchecked_return_type = "NormalizedText")]
pub fn normalize(text: &str) -> Result<JsValue, JsError> {
    panic_hook();
    #[derive(Serialize)]
    struct Tok {
        orig: crate::TextRange,
        norm: crate::TextRange,
    }
    #[derive(Serialize)]
    struct Out {
        text: String,
        tokens: Vec<Tok>,
    }
    let n = crate::normalize(text);
    let orig = utf16_ranges(text, n.tokens().iter().map(|t| t.orig));
    let norm = utf16_ranges(n.text(), n.tokens().iter().map(|t| t.norm));
    let tokens = orig
        .into_iter()
        .zip(norm)
        .map(|(orig, norm)| Tok { orig, norm })
        .collect();
    to_js(&Out {
        text: String::from(n.text()),
        tokens,
    })
}

/// Converts byte ranges into `text` to UTF-16 ranges.
fn utf16_ranges(
    text: &str,
    ranges: impl Iterator<Item = crate::TextRange>,
) -> Vec<crate::TextRange> {
    let bytes: Vec<usize> = ranges.flat_map(|r| [r.start, r.end]).collect();
    crate::text::utf16_offsets(text, &bytes)
        .chunks_exact(2)
        .map(|c| crate::TextRange {
            start: c[0],
            end: c[1],
        })
        .collect()
}

/// Word k-shingle hashes of `text` by position (`BigUint64Array`), as
/// specified in SPEC.md §3. `k` in 1..=32; `seed` defaults to 0.
#[wasm_bindgen(js_name = wordShingles)]
pub fn word_shingles(text: &str, k: u32, seed: Option<u64>) -> Result<Vec<u64>, JsError> {
    panic_hook();
    if !(1..=32).contains(&k) {
        return Err(js_error(format_args!("k must be in 1..=32, got {k}")));
    }
    let seed = seed.unwrap_or(crate::hash::DEFAULT_SEED);
    let n = crate::normalize(text);
    Ok(shingle::word_shingles(
        &shingle::token_hashes(&n, seed),
        k as usize,
        seed,
    ))
}

/// Character q-gram hashes of `text` by position (`BigUint64Array`), as
/// specified in SPEC.md §3. `q` in 1..=32; `seed` defaults to 0.
#[wasm_bindgen(js_name = charShingles)]
pub fn char_shingles(text: &str, q: u32, seed: Option<u64>) -> Result<Vec<u64>, JsError> {
    panic_hook();
    if !(1..=32).contains(&q) {
        return Err(js_error(format_args!("q must be in 1..=32, got {q}")));
    }
    let seed = seed.unwrap_or(crate::hash::DEFAULT_SEED);
    Ok(shingle::char_shingles(
        &crate::normalize(text),
        q as usize,
        seed,
    ))
}

/// The version of the shingling specification (SPEC.md) this build follows.
#[wasm_bindgen(js_name = specVersion)]
pub fn spec_version() -> u32 {
    crate::SPEC_VERSION
}
