//! The module's functions: `compare`, `normalize`, shingles, defaults.
//! The comparison's module (feature `wasm-compare`) has `compare`,
//! `defaultOptions`, `specVersion`, `textOfBytes` and `withHiddenText`;
//! `normalize`, the shingles and the phonetic codes are the whole
//! package's (`#[cfg(feature = "wasm")]`), so that the two-text view's first
//! load stays under 250 KB gzipped (issue 49).

use super::{js_error, read_options, to_js};
use crate::{CompareConfig, Document, Shingling, TextRange};
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const TS: &str = r#"
/** Options of `compare`: the configuration, and what to leave out besides `ignoreQuotes` and `ignoreReferences`: a template's phrases (its text) and ranges of either text (UTF-16 offsets, e.g. a class set's `excluded` ranges of the two texts). */
export type CompareOptions = Partial<CompareConfig> & { template?: string; excludeA?: TextRange[]; excludeB?: TextRange[] };
"#;

/// `compare`'s options: the configuration, the template's text and the
/// ranges of a and b to leave out (UTF-16 offsets in, UTF-8 out).
pub(crate) struct CompareArgs {
    pub config: CompareConfig,
    pub template: String,
    pub a: Vec<TextRange>,
    pub b: Vec<TextRange>,
}

impl CompareArgs {
    pub(crate) fn exclusions(&self) -> crate::Exclusions<'_> {
        crate::Exclusions {
            template: &self.template,
            a: &self.a,
            b: &self.b,
        }
    }
}

/// Ranges given as `[{start, end}]` in UTF-16 units of `text`, as UTF-8
/// byte ranges; a TypeError or RangeError naming the option otherwise.
fn ranges_arg(value: &JsValue, name: &str, text: &str) -> Result<Vec<TextRange>, JsValue> {
    if !js_sys::Array::is_array(value) {
        return Err(super::type_error(name, "an array of {start, end}", value));
    }
    let array = js_sys::Array::from(value);
    let units = text.encode_utf16().count() as u32;
    let mut offsets = Vec::with_capacity(array.length() as usize * 2);
    for (i, r) in array.iter().enumerate() {
        for key in ["start", "end"] {
            let v = js_sys::Reflect::get(&r, &JsValue::from_str(key)).unwrap_or_default();
            offsets
                .push(super::int_arg(&v, &alloc::format!("{name}[{i}].{key}"), 0, units)? as usize);
        }
    }
    let bytes = crate::text::utf8_offsets(text, &offsets);
    Ok(bytes
        .chunks_exact(2)
        .map(|c| TextRange {
            start: c[0],
            end: c[1].max(c[0]),
        })
        .collect())
}

/// Reads `compare`'s options for texts `a` and `b`.
pub(crate) fn compare_args(options: JsValue, a: &str, b: &str) -> Result<CompareArgs, JsValue> {
    let mut template = String::new();
    let (mut ra, mut rb) = (Vec::new(), Vec::new());
    let rest = if options.is_object() && !js_sys::Array::is_array(&options) {
        let rest = js_sys::Object::new();
        for entry in js_sys::Object::entries(options.unchecked_ref()).iter() {
            let entry: js_sys::Array = entry.unchecked_into();
            let (key, v) = (entry.get(0).as_string().unwrap_or_default(), entry.get(1));
            if v.is_undefined() {
                continue;
            }
            match key.as_str() {
                "template" => template = super::str_arg(v, "template")?,
                "excludeA" => ra = ranges_arg(&v, "excludeA", a)?,
                "excludeB" => rb = ranges_arg(&v, "excludeB", b)?,
                _ => {
                    let _ = js_sys::Reflect::set(&rest, &entry.get(0), &v);
                }
            }
        }
        rest.into()
    } else {
        options
    };
    let config: CompareConfig = read_options(rest, |o: &CompareConfig| o.seed)?;
    config.check().map_err(js_error)?;
    Ok(CompareArgs {
        config,
        template,
        a: ra,
        b: rb,
    })
}

/// Compares suspicious text `a` with source text `b`; see the Rust
/// `neardup::compare`. Throws an `Error` for an empty text, a text over
/// `maxBytes`, or an invalid option. (The package's entry routes
/// `compare(a, b, { model })` to `model.compare(a, b, options)`.)
#[wasm_bindgen(unchecked_return_type = "Report")]
pub fn compare(
    #[wasm_bindgen(unchecked_param_type = "string")] a: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] b: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CompareOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let a = &super::str_arg(a, "a")?;
    let b = &super::str_arg(b, "b")?;
    let o = compare_args(options.unwrap_or(JsValue::UNDEFINED), a, b)?;
    let report = crate::compare_with(a, b, &o.config, &o.exclusions())
        .map_err(js_error)?
        .into_utf16(a, b);
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
#[cfg(feature = "wasm")]
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

fn shingles_of(
    text: &str,
    shingling: Shingling,
    seed: Option<u64>,
    spec: Option<JsValue>,
) -> Result<Vec<u64>, JsValue> {
    shingling.check().map_err(js_error)?;
    let spec = match spec {
        Some(v) => crate::hash::Spec::from_number(u64::from(super::int_arg(&v, "spec", 1, 2)?))
            .map_err(js_error)?,
        None => crate::hash::Spec::default(),
    };
    let seed = seed.unwrap_or(crate::hash::DEFAULT_SEED);
    let doc = Document::for_shingling(text, seed, Default::default(), spec, shingling);
    Ok(doc.shingles(shingling).to_vec())
}

/// Word k-shingle hashes of `text` by position (`BigUint64Array`), as
/// specified in SPEC.md §3. `k` in 1..=32; `seed` defaults to 0; `spec`,
/// the specification's version, 1 (default) or 2.
#[cfg(feature = "wasm")]
#[wasm_bindgen(js_name = wordShingles)]
pub fn word_shingles(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] k: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "bigint | number")] seed: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "1 | 2")] spec: Option<JsValue>,
) -> Result<Vec<u64>, JsValue> {
    let text = &super::str_arg(text, "text")?;
    let k = super::int_arg(&k, "k", 1, 32)?;
    let seed = super::opt_u64_arg(seed, "seed")?;
    shingles_of(text, Shingling::Words(k), seed, spec)
}

/// Character q-gram hashes of `text` by position (`BigUint64Array`), as
/// specified in SPEC.md §3. `q` in 1..=32; `seed` defaults to 0; `spec`,
/// the specification's version, 1 (default) or 2.
#[cfg(feature = "wasm")]
#[wasm_bindgen(js_name = charShingles)]
pub fn char_shingles(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] q: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "bigint | number")] seed: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "1 | 2")] spec: Option<JsValue>,
) -> Result<Vec<u64>, JsValue> {
    let text = &super::str_arg(text, "text")?;
    let q = super::int_arg(&q, "q", 1, 32)?;
    let seed = super::opt_u64_arg(seed, "seed")?;
    shingles_of(text, Shingling::Chars(q), seed, spec)
}

/// The base version of the shingling specification (SPEC.md): what
/// `compare`, class sets, libraries and sketches made on their own
/// (`MinHash`, `SimHash`) follow without a `spec` option. The dedup
/// pipeline's default is 2 (`dedupDefaults({}).spec`); every value records
/// its version.
#[wasm_bindgen(js_name = specVersion)]
pub fn spec_version() -> u32 {
    crate::SPEC_VERSION
}

/// The phonetic code of `word` by `algorithm` (`"soundex"`, `"phonex"`,
/// `"dsound"`, `"soundd"`, `"phonix"` or `"metaphone"` — Double
/// Metaphone's primary code; SPEC.md §13). A word with no Latin letter is
/// its own code. Throws for an unknown algorithm.
#[cfg(feature = "wasm")]
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
#[cfg(feature = "wasm")]
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
/// (SPEC.md §3, §13). `seed` defaults to 0; `spec`, the specification's
/// version, 1 (default) or 2. Throws for a bad shingle spec or version.
#[cfg(feature = "wasm")]
#[wasm_bindgen]
pub fn shingles(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] shingle: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "bigint | number")] seed: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "1 | 2")] spec: Option<JsValue>,
) -> Result<Vec<u64>, JsValue> {
    let text = &super::str_arg(text, "text")?;
    let shingling: Shingling = super::str_arg(shingle, "shingle")?
        .parse()
        .map_err(js_error)?;
    let seed = super::opt_u64_arg(seed, "seed")?;
    shingles_of(text, shingling, seed, spec)
}

/// Decodes a text file's bytes as every surface does (the core's
/// `decode_text`): by byte-order mark (UTF-8, UTF-16 LE/BE), else UTF-8
/// when valid, else Windows-1252 — `{text, encoding}` with `encoding` one of
/// `"UTF-8"`, `"UTF-16LE"`, `"UTF-16BE"`, `"windows-1252"`. Throws a
/// TypeError for anything but bytes. (The package's entry exports it as
/// `decodeText`, a name wasm-bindgen's own glue code takes.)
#[wasm_bindgen(js_name = textOfBytes, unchecked_return_type = "Decoded")]
pub fn decode_text(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
) -> Result<JsValue, JsValue> {
    let bytes = super::bytes_arg(&bytes, "bytes")?;
    to_js(&crate::text::decode_text(&bytes))
}

/// An obfuscation report (`obfuscationA`/`obfuscationB` of `compare`, a
/// text's `obfuscation` of `classPairs`) with `runs` runs of hidden text a
/// document reader left out added (`readFile`'s `hidden.runs`), its
/// `warning` said again by the core (`Obfuscation::add_hidden`). Throws a
/// `TypeError` for a report of the wrong shape or a `runs` that is not a
/// safe non-negative integer.
#[wasm_bindgen(js_name = withHiddenText, unchecked_return_type = "Obfuscation")]
pub fn with_hidden_text(
    #[wasm_bindgen(unchecked_param_type = "Obfuscation")] obfuscation: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] runs: JsValue,
) -> Result<JsValue, JsValue> {
    let runs = super::u64_arg(&runs, "runs")?;
    let mut o: crate::text::Obfuscation = serde_wasm_bindgen::from_value(obfuscation)
        .map_err(|e| js_sys::TypeError::new(&alloc::format!("obfuscation: {e}")))?;
    o.add_hidden(runs);
    to_js(&o)
}
