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
  /** A learned verdict model: the report then has a `verdict`. */
  model?: SvmModel;
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
    let o: CompareOptions = read_options(options, OPTION_KEYS)?;
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
#[wasm_bindgen(unchecked_return_type = "Report & { verdict?: Verdict }")]
pub fn compare(a: &str, b: &str, options: Option<JsCompareOptions>) -> Result<JsValue, JsError> {
    let (options, model) = take_model(options.map(JsValue::from))?;
    let o = options_from_js(options)?;
    let report = crate::compare(a, b, &o).map_err(js_error)?.into_utf16(a, b);
    match model {
        None => to_js(&report),
        Some(m) => report_with_verdict(&report, &m.judge(a, b).map_err(js_error)?),
    }
}

/// Splits `{model, ...rest}`: the registered model, and the other options.
#[allow(clippy::type_complexity)]
fn take_model(
    options: Option<JsValue>,
) -> Result<(Option<JsValue>, Option<Rc<CoreSvmModel>>), JsError> {
    let options = match options {
        Some(o) if o.is_object() => o,
        other => return Ok((other, None)),
    };
    let key = JsValue::from_str("model");
    let model = js_sys::Reflect::get(&options, &key).unwrap_or(JsValue::UNDEFINED);
    if model.is_undefined() || model.is_null() {
        return Ok((Some(options), None));
    }
    let id = js_sys::Reflect::get(&model, &JsValue::from_str("modelId"))
        .ok()
        .and_then(|v| v.as_f64())
        .ok_or_else(|| {
            js_error("invalid options: model must be an SvmModel (from SvmModel.fromJson)")
        })?;
    let found = MODELS.with(|m| m.borrow().get(&(id as u32)).cloned());
    let found = found.ok_or_else(|| js_error("invalid options: the model has been freed"))?;
    let rest = js_sys::Object::assign(&js_sys::Object::new(), options.unchecked_ref());
    let _ = js_sys::Reflect::delete_property(&rest, &key);
    Ok((Some(rest.into()), Some(found)))
}

fn report_with_verdict(
    report: &crate::Report,
    verdict: &crate::verdict::Verdict,
) -> Result<JsValue, JsError> {
    #[derive(Serialize)]
    struct Out<'a> {
        #[serde(flatten)]
        report: &'a crate::Report,
        verdict: &'a crate::verdict::Verdict,
    }
    to_js(&Out { report, verdict })
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

// ---------------------------------------------------------------------------
// MinHash and LSH

use crate::lsh::{LshParams, MinHashLsh as CoreLsh};
use crate::minhash::{MinHasher, Signature};
use crate::shingle::Shingling;

#[wasm_bindgen(typescript_custom_section)]
const TS_MINHASH: &'static str = r#"
/** Options of `new MinHash(options)`; every field is optional. */
export interface MinHashOptions {
  /** Values per signature, 1..=4096 (default 128). */
  numPerm?: number;
  /** Seed of the shingle hashes and the permutations, a safe integer (default 0). */
  seed?: number;
  /** Shingles of texts given to `update`: "word:K", "char:Q" or "custom" (default "word:5"). */
  shingle?: string;
}
/** Options of `new MinHashLsh(threshold, numPerm, options)`. */
export interface LshOptions {
  /** Weight of false positives for the band advisor (default 0.5). */
  fpWeight?: number;
  /** Weight of false negatives for the band advisor (default 0.5). */
  fnWeight?: number;
  /** Explicit bands (with `rows`) instead of the advisor. */
  bands?: number;
  /** Explicit rows per band (with `bands`). */
  rows?: number;
}
/** A candidate pair of an LSH index with its estimated Jaccard resemblance. */
export interface LshPair { a: string; b: string; jaccard: number; }
"#;

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
struct MinHashOptionsJs {
    num_perm: Option<u32>,
    seed: Option<u64>,
    shingle: Option<String>,
}

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
struct LshOptionsJs {
    fp_weight: Option<f64>,
    fn_weight: Option<f64>,
    bands: Option<u32>,
    rows: Option<u32>,
}

/// Reads an options object: `undefined`/`null` gives the defaults; unknown
/// keys are refused by name (serde-wasm-bindgen reads only the known keys of
/// an object, so a misspelt option would otherwise pass silently).
fn read_options<T: serde::de::DeserializeOwned + Default>(
    value: Option<JsValue>,
    keys: &[&str],
) -> Result<T, JsError> {
    panic_hook();
    let Some(value) = value.filter(|v| !v.is_undefined() && !v.is_null()) else {
        return Ok(T::default());
    };
    if !value.is_object() {
        return Err(js_error("invalid options: expected an object"));
    }
    let object: &js_sys::Object = value.unchecked_ref();
    for key in js_sys::Object::keys(object).iter() {
        let key = key.as_string().unwrap_or_default();
        if !keys.contains(&key.as_str()) {
            return Err(js_error(format_args!(
                "invalid options: unknown field `{key}`, expected one of {}",
                keys.join(", ")
            )));
        }
    }
    serde_wasm_bindgen::from_value(value).map_err(|e| {
        let msg = format!("{e}");
        js_error(format_args!(
            "invalid options: {}",
            msg.strip_prefix("Error: ").unwrap_or(&msg)
        ))
    })
}

#[wasm_bindgen]
extern "C" {
    /// A JavaScript `MinHashOptions` object.
    #[wasm_bindgen(typescript_type = "MinHashOptions")]
    pub type JsMinHashOptions;
    /// A JavaScript `LshOptions` object.
    #[wasm_bindgen(typescript_type = "LshOptions")]
    pub type JsLshOptions;
}

/// A MinHash signature being built (Broder 1997): see the Rust
/// `neardup::minhash`. Estimates Jaccard resemblance of shingle sets.
#[wasm_bindgen(js_name = MinHash)]
pub struct JsMinHash {
    hasher: MinHasher,
    sig: Signature,
}

#[wasm_bindgen(js_class = MinHash)]
impl JsMinHash {
    /// An empty signature. Throws for out-of-range options.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<JsMinHashOptions>) -> Result<JsMinHash, JsError> {
        let o: MinHashOptionsJs =
            read_options(options.map(JsValue::from), &["numPerm", "seed", "shingle"])?;
        let seed = o.seed.unwrap_or(0);
        if seed > MAX_SAFE_INTEGER {
            return Err(js_error("invalid option: seed must be at most 2^53 - 1"));
        }
        let shingling: Shingling = o
            .shingle
            .as_deref()
            .unwrap_or("word:5")
            .parse()
            .map_err(js_error)?;
        let hasher = MinHasher::new(o.num_perm.unwrap_or(128) as usize, seed, shingling)
            .map_err(js_error)?;
        let sig = hasher.empty();
        Ok(JsMinHash { hasher, sig })
    }

    /// Adds the shingles of `text` (normalised as in SPEC.md).
    pub fn update(&mut self, text: &str) -> Result<(), JsError> {
        let hashes = self.hasher.shingling().hashes(text, self.hasher.seed());
        self.hasher.update(&mut self.sig, &hashes).map_err(js_error)
    }

    /// Adds shingle hashes computed elsewhere (e.g. `wordShingles`).
    #[wasm_bindgen(js_name = updateShingles)]
    pub fn update_shingles(&mut self, hashes: &[u64]) -> Result<(), JsError> {
        self.hasher.update(&mut self.sig, hashes).map_err(js_error)
    }

    /// Estimated Jaccard resemblance with `other`, in [0, 1]. Throws when the
    /// two differ in numPerm, seed or shingle.
    pub fn jaccard(&self, other: &JsMinHash) -> Result<f64, JsError> {
        self.sig.jaccard(&other.sig).map_err(js_error)
    }

    /// Merges `other` in: this becomes the signature of the union.
    pub fn merge(&mut self, other: &JsMinHash) -> Result<(), JsError> {
        self.sig.merge(&other.sig).map_err(js_error)
    }

    /// Values per signature.
    #[wasm_bindgen(getter, js_name = numPerm)]
    pub fn num_perm(&self) -> u32 {
        self.sig.num_perm() as u32
    }

    /// `true` when nothing has been added.
    #[wasm_bindgen(js_name = isEmpty)]
    pub fn is_empty(&self) -> bool {
        self.sig.is_empty()
    }

    /// The signature's values (a copy).
    pub fn values(&self) -> Vec<u32> {
        self.sig.values().to_vec()
    }

    /// The signature as versioned, checksummed bytes (same as native).
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.sig.to_bytes()
    }

    /// Reads `toBytes()` output; throws for corrupt or other-version bytes.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<JsMinHash, JsError> {
        panic_hook();
        let sig = Signature::from_bytes(bytes).map_err(js_error)?;
        let hasher =
            MinHasher::new(sig.num_perm(), sig.seed(), sig.shingling()).map_err(js_error)?;
        Ok(JsMinHash { hasher, sig })
    }
}

/// A MinHash LSH index (banding) over string ids; see the Rust
/// `neardup::lsh`.
#[wasm_bindgen(js_name = MinHashLsh)]
pub struct JsMinHashLsh {
    inner: CoreLsh,
}

#[wasm_bindgen(js_class = MinHashLsh)]
impl JsMinHashLsh {
    /// An empty index for resemblance `threshold` in (0, 1) and signatures
    /// of `numPerm` values (default 128). Bands and rows come from the
    /// advisor unless `options` gives both.
    #[wasm_bindgen(constructor)]
    pub fn new(
        threshold: f64,
        num_perm: Option<u32>,
        options: Option<JsLshOptions>,
    ) -> Result<JsMinHashLsh, JsError> {
        let o: LshOptionsJs = read_options(
            options.map(JsValue::from),
            &["fpWeight", "fnWeight", "bands", "rows"],
        )?;
        let k = num_perm.unwrap_or(128) as usize;
        let params = match (o.bands, o.rows) {
            (Some(b), Some(r)) => LshParams::explicit(threshold, k, b, r),
            (None, None) => LshParams::for_threshold(
                threshold,
                k,
                o.fp_weight.unwrap_or(0.5),
                o.fn_weight.unwrap_or(0.5),
            ),
            _ => {
                return Err(js_error(
                    "invalid options: give both bands and rows, or neither",
                ))
            }
        }
        .map_err(js_error)?;
        Ok(JsMinHashLsh {
            inner: CoreLsh::new(params),
        })
    }

    /// Adds `id` with the signature of `minhash` (copied). Throws for a
    /// duplicate id or an incompatible signature.
    pub fn insert(&mut self, id: &str, minhash: &JsMinHash) -> Result<(), JsError> {
        self.inner.insert(id, minhash.sig.clone()).map_err(js_error)
    }

    /// Removes `id`; `false` when absent.
    pub fn remove(&mut self, id: &str) -> bool {
        self.inner.remove(id)
    }

    /// `true` when `id` is present.
    pub fn has(&self, id: &str) -> bool {
        self.inner.contains(id)
    }

    /// Candidate ids for `minhash`, sorted; with `minJaccard`, only those
    /// whose estimated resemblance reaches it.
    pub fn query(
        &self,
        minhash: &JsMinHash,
        min_jaccard: Option<f64>,
    ) -> Result<Vec<String>, JsError> {
        let ids = self
            .inner
            .query(&minhash.sig, min_jaccard)
            .map_err(js_error)?;
        Ok(ids.into_iter().map(String::from).collect())
    }

    /// Every candidate pair once, `{a, b, jaccard}`, sorted.
    #[wasm_bindgen(js_name = allPairs, unchecked_return_type = "LshPair[]")]
    pub fn all_pairs(&self, min_jaccard: Option<f64>) -> Result<JsValue, JsError> {
        #[derive(Serialize)]
        struct P<'a> {
            a: &'a str,
            b: &'a str,
            jaccard: f64,
        }
        let pairs: Vec<P<'_>> = self
            .inner
            .all_pairs(min_jaccard)
            .into_iter()
            .map(|p| P {
                a: p.a,
                b: p.b,
                jaccard: p.jaccard,
            })
            .collect();
        to_js(&pairs)
    }

    /// Clusters (connected components of the candidate pairs), each sorted.
    #[wasm_bindgen(unchecked_return_type = "string[][]")]
    pub fn clusters(&self, min_jaccard: Option<f64>) -> Result<JsValue, JsError> {
        to_js(&self.inner.clusters(min_jaccard))
    }

    /// Number of documents.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        self.inner.len() as u32
    }

    /// Number of bands.
    #[wasm_bindgen(getter)]
    pub fn bands(&self) -> u32 {
        self.inner.params().bands() as u32
    }

    /// Rows of each band.
    #[wasm_bindgen(getter)]
    pub fn rows(&self) -> Vec<u32> {
        self.inner.params().rows().to_vec()
    }

    /// Probability that a pair of resemblance `s` becomes a candidate.
    pub fn probability(&self, s: f64) -> f64 {
        self.inner.params().probability(s)
    }

    /// Expected recall for resemblance uniform on [s, 1].
    #[wasm_bindgen(js_name = expectedRecall)]
    pub fn expected_recall(&self, s: f64) -> f64 {
        self.inner.params().expected_recall(s)
    }

    /// The index as versioned, checksummed bytes (same as native).
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.inner.to_bytes()
    }

    /// Reads `toBytes()` output; throws for corrupt or other-version bytes.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<JsMinHashLsh, JsError> {
        panic_hook();
        Ok(JsMinHashLsh {
            inner: CoreLsh::from_bytes(bytes).map_err(js_error)?,
        })
    }
}

// ---------------------------------------------------------------------------
// SimHash and the permuted-block index

use crate::simhash::{FingerprintConfig, SimHashIndex as CoreSimHashIndex, Weighting};

#[wasm_bindgen(typescript_custom_section)]
const TS_SIMHASH: &'static str = r#"
/** Options of `SimHash.fingerprint`; every field is optional. */
export interface SimHashOptions {
  /** Features: "word:1" (words), "word:K" or "char:Q" (default "word:3"). */
  shingle?: string;
  /** Feature weights: "tf" (default) or "binary". */
  weights?: "tf" | "binary";
  /** Hash seed, a safe integer (default 0). */
  seed?: number;
}
/** A match of `SimHashIndex.query`. */
export interface SimHashMatch { id: string; distance: number; }
/** A pair of `SimHashIndex.allPairs`. */
export interface SimHashPair { a: string; b: string; distance: number; }
"#;

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
struct SimHashOptionsJs {
    shingle: Option<String>,
    weights: Option<String>,
    seed: Option<u64>,
}

#[wasm_bindgen]
extern "C" {
    /// A JavaScript `SimHashOptions` object.
    #[wasm_bindgen(typescript_type = "SimHashOptions")]
    pub type JsSimHashOptions;
}

fn simhash_config(options: Option<JsSimHashOptions>) -> Result<FingerprintConfig, JsError> {
    let o: SimHashOptionsJs =
        read_options(options.map(JsValue::from), &["shingle", "weights", "seed"])?;
    let seed = o.seed.unwrap_or(0);
    if seed > MAX_SAFE_INTEGER {
        return Err(js_error("invalid option: seed must be at most 2^53 - 1"));
    }
    let weighting = match o.weights.as_deref().unwrap_or("tf") {
        "tf" => Weighting::Tf,
        "binary" => Weighting::Binary,
        other => {
            return Err(js_error(format_args!(
                "invalid option: weights must be \"tf\" or \"binary\", got {other:?}"
            )))
        }
    };
    Ok(FingerprintConfig {
        shingling: o
            .shingle
            .as_deref()
            .unwrap_or("word:3")
            .parse()
            .map_err(js_error)?,
        weighting,
        seed,
    })
}

/// 64-bit SimHash fingerprints (Charikar 2002); see the Rust
/// `neardup::simhash`.
#[wasm_bindgen(js_name = SimHash)]
pub struct JsSimHash {}

#[wasm_bindgen(js_class = SimHash)]
impl JsSimHash {
    /// The fingerprint of `text` as a `bigint`. Throws for invalid options.
    pub fn fingerprint(text: &str, options: Option<JsSimHashOptions>) -> Result<u64, JsError> {
        simhash_config(options)?.fingerprint(text).map_err(js_error)
    }

    /// The fingerprint of `text` as 16 lowercase hex digits.
    #[wasm_bindgen(js_name = fingerprintHex)]
    pub fn fingerprint_hex(
        text: &str,
        options: Option<JsSimHashOptions>,
    ) -> Result<String, JsError> {
        Ok(format!("{:016x}", Self::fingerprint(text, options)?))
    }

    /// The fingerprint of shingle hashes, each occurrence weighing 1.
    #[wasm_bindgen(js_name = fromShingles)]
    pub fn from_shingles(hashes: &[u64]) -> u64 {
        crate::simhash::fingerprint(hashes)
    }

    /// Number of differing bits of two fingerprints, 0..=64.
    #[wasm_bindgen(js_name = hammingDistance)]
    pub fn hamming_distance(a: u64, b: u64) -> u32 {
        crate::simhash::hamming_distance(a, b)
    }

    /// Charikar's cosine estimate from a Hamming distance: cos(π d / 64).
    #[wasm_bindgen(js_name = cosineEstimate)]
    pub fn cosine_estimate(distance: u32) -> f64 {
        crate::simhash::cosine_estimate(distance)
    }
}

/// The permuted-block Hamming index (Manku et al. 2007), exact for
/// distances up to `maxK`; see the Rust `neardup::simhash::SimHashIndex`.
#[wasm_bindgen(js_name = SimHashIndex)]
pub struct JsSimHashIndex {
    inner: CoreSimHashIndex,
}

#[wasm_bindgen(js_class = SimHashIndex)]
impl JsSimHashIndex {
    /// An empty index exact for Hamming distance up to `maxK` (0..=16,
    /// default 3), with `blocks` blocks (default maxK + 2).
    #[wasm_bindgen(constructor)]
    pub fn new(max_k: Option<u32>, blocks: Option<u32>) -> Result<JsSimHashIndex, JsError> {
        panic_hook();
        Ok(JsSimHashIndex {
            inner: CoreSimHashIndex::new(max_k.unwrap_or(3), blocks).map_err(js_error)?,
        })
    }

    /// Adds fingerprint `fp` (a `bigint`) as `id`; throws for a duplicate id.
    pub fn insert(&mut self, id: &str, fp: u64) -> Result<(), JsError> {
        self.inner.insert(id, fp).map_err(js_error)
    }

    /// Removes `id`; `false` when absent.
    pub fn remove(&mut self, id: &str) -> bool {
        self.inner.remove(id)
    }

    /// `true` when `id` is present.
    pub fn has(&self, id: &str) -> bool {
        self.inner.get(id).is_some()
    }

    /// The fingerprint of `id`, or `undefined`.
    pub fn get(&self, id: &str) -> Option<u64> {
        self.inner.get(id)
    }

    /// Every fingerprint within distance `k` (default maxK) of `fp`,
    /// exactly, by distance then id.
    #[wasm_bindgen(unchecked_return_type = "SimHashMatch[]")]
    pub fn query(&self, fp: u64, k: Option<u32>) -> Result<JsValue, JsError> {
        #[derive(Serialize)]
        struct M<'a> {
            id: &'a str,
            distance: u32,
        }
        let k = k.unwrap_or(self.inner.max_k());
        let matches: Vec<M<'_>> = self
            .inner
            .query(fp, k)
            .map_err(js_error)?
            .into_iter()
            .map(|m| M {
                id: m.id,
                distance: m.distance,
            })
            .collect();
        to_js(&matches)
    }

    /// Every pair within distance `k` (default maxK), once, sorted.
    #[wasm_bindgen(js_name = allPairs, unchecked_return_type = "SimHashPair[]")]
    pub fn all_pairs(&self, k: Option<u32>) -> Result<JsValue, JsError> {
        #[derive(Serialize)]
        struct P<'a> {
            a: &'a str,
            b: &'a str,
            distance: u32,
        }
        let k = k.unwrap_or(self.inner.max_k());
        let pairs: Vec<P<'_>> = self
            .inner
            .all_pairs(k)
            .map_err(js_error)?
            .into_iter()
            .map(|p| P {
                a: p.a,
                b: p.b,
                distance: p.distance,
            })
            .collect();
        to_js(&pairs)
    }

    /// Clusters of ids within distance `k` (default maxK), each sorted.
    #[wasm_bindgen(unchecked_return_type = "string[][]")]
    pub fn clusters(&self, k: Option<u32>) -> Result<JsValue, JsError> {
        let k = k.unwrap_or(self.inner.max_k());
        to_js(&self.inner.clusters(k).map_err(js_error)?)
    }

    /// Number of fingerprints.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        self.inner.len() as u32
    }

    /// The largest exact distance.
    #[wasm_bindgen(getter, js_name = maxK)]
    pub fn max_k(&self) -> u32 {
        self.inner.max_k()
    }

    /// Number of tables.
    #[wasm_bindgen(getter)]
    pub fn tables(&self) -> u32 {
        self.inner.tables() as u32
    }

    /// The index as versioned, checksummed bytes (same as native).
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.inner.to_bytes()
    }

    /// Reads `toBytes()` output; throws for corrupt or other-version bytes.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<JsSimHashIndex, JsError> {
        panic_hook();
        Ok(JsSimHashIndex {
            inner: CoreSimHashIndex::from_bytes(bytes).map_err(js_error)?,
        })
    }
}

// ---------------------------------------------------------------------------
// The learned verdict

use crate::verdict::SvmModel as CoreSvmModel;
use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use core::cell::RefCell;

#[wasm_bindgen(typescript_custom_section)]
const TS_VERDICT: &'static str = r#"
/** The learned verdict for a pair of texts. */
export interface Verdict {
  /** The binary machine says the suspicious text reuses the source (g >= 0). */
  copied: boolean;
  /** Decision value g(x) of the binary machine. */
  binaryDecision: number;
  /** The graded class ("cut", "light", "heavy", "non") with the largest decision value. */
  class: string | null;
  /** Decision values of the one-vs-rest machines, in the order of `classes`. */
  classDecisions: number[];
  /** The similarity vector that produced them. */
  vector: number[];
}
/** `compare`'s report with the learned verdict. */
export interface ReportWithVerdict extends Report { verdict: Verdict; }
"#;

/// A trained verdict model (from `neardup train`); see the Rust
/// `neardup::verdict`.
#[wasm_bindgen(js_name = SvmModel)]
pub struct JsSvmModel {
    inner: Rc<CoreSvmModel>,
    id: u32,
}

std::thread_local! {
    /// Live models by id, so that `compare(a, b, { model })` can find the
    /// Rust model behind a JavaScript `SvmModel` without unsafe code.
    static MODELS: RefCell<BTreeMap<u32, Rc<CoreSvmModel>>> = const { RefCell::new(BTreeMap::new()) };
    static NEXT_MODEL: core::cell::Cell<u32> = const { core::cell::Cell::new(1) };
}

impl Drop for JsSvmModel {
    fn drop(&mut self) {
        MODELS.with(|m| m.borrow_mut().remove(&self.id));
    }
}

#[wasm_bindgen(js_class = SvmModel)]
impl JsSvmModel {
    /// Parses and checks a model JSON; throws for another format version,
    /// shapes that do not agree, NaN or infinite numbers, or an unknown
    /// kernel.
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(text: &str) -> Result<JsSvmModel, JsError> {
        panic_hook();
        let inner = Rc::new(CoreSvmModel::from_json(text).map_err(js_error)?);
        let id = NEXT_MODEL.with(|n| {
            let id = n.get();
            n.set(id.wrapping_add(1).max(1));
            id
        });
        MODELS.with(|m| m.borrow_mut().insert(id, inner.clone()));
        Ok(JsSvmModel { inner, id })
    }

    /// The model's registration number (used by `compare(a, b, { model })`).
    #[wasm_bindgen(getter, js_name = modelId)]
    pub fn model_id(&self) -> u32 {
        self.id
    }

    /// Length of the similarity vector.
    #[wasm_bindgen(getter)]
    pub fn dimension(&self) -> u32 {
        self.inner.dimension() as u32
    }

    /// The graded classes, in the order of `classDecisions`.
    #[wasm_bindgen(getter)]
    pub fn classes(&self) -> Vec<String> {
        self.inner
            .classes
            .iter()
            .map(|m| m.positive.clone())
            .collect()
    }

    /// The similarity vector of suspicious text `a` and source `b`.
    #[wasm_bindgen(js_name = similarityVector)]
    pub fn similarity_vector(&self, a: &str, b: &str) -> Vec<f64> {
        self.inner
            .vector
            .vector(a, b, &self.inner.document_frequencies())
    }

    /// Decision values of an (unscaled) similarity vector: the binary
    /// machine, then each class. Throws for a vector of the wrong length or
    /// with a non-finite value.
    #[wasm_bindgen(js_name = decisionFunction)]
    pub fn decision_function(&self, vector: &[f64]) -> Result<Vec<f64>, JsError> {
        self.inner.decision_function(vector).map_err(js_error)
    }

    /// The verdict for a similarity vector.
    #[wasm_bindgen(unchecked_return_type = "Verdict")]
    pub fn predict(&self, vector: &[f64]) -> Result<JsValue, JsError> {
        to_js(&self.inner.predict(vector).map_err(js_error)?)
    }

    /// The verdict for suspicious text `a` against source `b`.
    #[wasm_bindgen(unchecked_return_type = "Verdict")]
    pub fn judge(&self, a: &str, b: &str) -> Result<JsValue, JsError> {
        to_js(&self.inner.judge(a, b).map_err(js_error)?)
    }

    /// `compare(a, b, options)` with the verdict added as `verdict`.
    #[wasm_bindgen(unchecked_return_type = "ReportWithVerdict")]
    pub fn compare(
        &self,
        a: &str,
        b: &str,
        options: Option<JsCompareOptions>,
    ) -> Result<JsValue, JsError> {
        let (options, _) = take_model(options.map(JsValue::from))?;
        let o = options_from_js(options)?;
        let report = crate::compare(a, b, &o).map_err(js_error)?.into_utf16(a, b);
        report_with_verdict(&report, &self.inner.judge(a, b).map_err(js_error)?)
    }
}
