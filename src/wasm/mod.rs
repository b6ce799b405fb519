//! The WebAssembly binding: the only `#[wasm_bindgen]` code in the crate, one
//! file per JavaScript class, over the core API (the core knows nothing of
//! JavaScript).
//!
//! TypeScript types of options and results are generated from the core's
//! serde types by `tsify`; option keys are read from the same types, so an
//! unknown key is refused by name. Every failure becomes a JavaScript `Error`
//! whose message is the core error's sentence with option names in
//! camelCase. A panic hook is installed once, when the module starts.
//!
//! Offsets in reports returned here are **UTF-16 code units** (JavaScript
//! string indices).

// The reader's module (feature `wasm-read` alone) uses a few of the
// helpers below.
#![cfg_attr(not(feature = "wasm"), allow(dead_code, unused_imports))]

#[cfg(feature = "wasm")]
mod classset;
#[cfg(feature = "wasm")]
mod dedup;
#[cfg(feature = "wasm")]
mod dedup_stages;
#[cfg(any(feature = "wasm", feature = "wasm-compare"))]
mod functions;
#[cfg(feature = "wasm")]
mod library;
#[cfg(feature = "wasm")]
mod minhash;
#[cfg(feature = "wasm")]
mod minhash_lsh;
#[cfg(feature = "wasm")]
mod multiref;
#[cfg(feature = "read")]
mod read;
#[cfg(feature = "wasm")]
mod simhash;
#[cfg(feature = "wasm")]
mod simhash_index;
#[cfg(feature = "wasm")]
mod speller;
// The class's students from file names: the reader's module and the
// whole package's, not the comparison's.
#[cfg(any(feature = "wasm", feature = "read"))]
mod students;
#[cfg(any(feature = "wasm", feature = "wasm-compare"))]
mod svm_model;

#[cfg(feature = "wasm")]
pub use dedup::{dedup_defaults, dedup_documents, dedup_needs, JsDeduplicator};
#[cfg(feature = "wasm")]
pub use dedup_stages::JsDedupStages;
#[cfg(any(feature = "wasm", feature = "wasm-compare"))]
pub use functions::*;
#[cfg(feature = "wasm")]
pub use minhash::JsMinHash;
#[cfg(feature = "wasm")]
pub use minhash_lsh::JsMinHashLsh;
#[cfg(feature = "wasm")]
pub use multiref::JsMultiRef;
#[cfg(feature = "read")]
pub use read::{read_file, read_files, reading_limits};
#[cfg(feature = "wasm")]
pub use simhash::{JsFingerprint, JsSimHash};
#[cfg(feature = "wasm")]
pub use simhash_index::JsSimHashIndex;
#[cfg(feature = "wasm")]
pub use speller::JsSpeller;
#[cfg(any(feature = "wasm", feature = "read"))]
pub use students::{class_students_js, grouping_note_js};
#[cfg(any(feature = "wasm", feature = "wasm-compare"))]
pub use svm_model::JsSvmModel;

use crate::config::camel_case as camel;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Largest integer a JavaScript number holds exactly (2^53 - 1).
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Installs the panic hook once, when the module is instantiated: a panic
/// (there is no known panicking path) is printed to `console.error`.
#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// A core error as a JavaScript `Error`, option names in camelCase.
pub(crate) fn js_error(e: crate::Error) -> JsValue {
    JsError::new(&e.message_with(camel)).into()
}

/// The largest text (UTF-8 bytes) any function of the module accepts: 16 MiB.
/// A 32-bit module has at most 4 GiB of memory, and the worst case measured
/// (two texts of one-letter words compared with the verdict model, about 70
/// bytes of working memory per input byte) must fit in it with room to
/// spare; `compare`'s `maxBytes` may only lower it. Larger texts are refused
/// before they are copied into the module (RELIABILITY.md).
pub const MAX_TEXT_BYTES: u64 = 16 << 20;

/// The string in `value`, else a `TypeError` naming the parameter (a
/// number, object, `undefined`, `null` or `bigint` where a string is
/// expected never reaches the core, and never traps the module), or an
/// `Error` when it is over [`MAX_TEXT_BYTES`] (checked on its length in
/// UTF-16 units, a lower bound of its UTF-8 length, before it is copied).
pub(crate) fn str_arg(value: JsValue, name: &str) -> Result<String, JsValue> {
    let too_large = |len: u64| {
        error_msg(format_args!(
            "{name} is {len} bytes long or more, more than the limit of {MAX_TEXT_BYTES} bytes \
             of the WebAssembly module"
        ))
    };
    if let Some(s) = value.dyn_ref::<js_sys::JsString>() {
        if u64::from(s.length()) > MAX_TEXT_BYTES {
            return Err(too_large(u64::from(s.length())));
        }
        if s.length() >= ENCODE_INTO_FROM {
            let s = encode_utf8(s);
            if s.len() as u64 > MAX_TEXT_BYTES {
                return Err(too_large(s.len() as u64));
            }
            return Ok(s);
        }
    }
    let s = value
        .as_string()
        .ok_or_else(|| type_error(name, "a string", &value))?;
    if s.len() as u64 > MAX_TEXT_BYTES {
        return Err(too_large(s.len() as u64));
    }
    Ok(s)
}

/// Strings of at least this many UTF-16 units are copied into the module
/// by [`encode_utf8`]; shorter ones (ids, option values) by wasm-bindgen's
/// own copy, which costs less than a `TextEncoder` call on a few characters.
const ENCODE_INTO_FROM: u32 = 256;

#[wasm_bindgen]
extern "C" {
    /// The platform's `TextEncoder` (WHATWG Encoding Standard): browsers,
    /// Node and workerd all have it.
    #[wasm_bindgen(js_name = TextEncoder)]
    type Utf8Encoder;
    #[wasm_bindgen(constructor, js_class = "TextEncoder")]
    fn new() -> Utf8Encoder;
    /// `encodeInto(source, destination)`: the UTF-8 of `source` (lone
    /// surrogates as U+FFFD) written into `destination` (a view of the
    /// module's memory) while it fits.
    #[wasm_bindgen(method, js_class = "TextEncoder", js_name = encodeInto)]
    fn encode_into(
        this: &Utf8Encoder,
        source: &js_sys::JsString,
        destination: &mut [u8],
    ) -> EncodeIntoResult;
    /// `{ read, written }`: UTF-16 units read, bytes written.
    type EncodeIntoResult;
    #[wasm_bindgen(method, getter)]
    fn read(this: &EncodeIntoResult) -> u32;
    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeIntoResult) -> u32;
}

std::thread_local! {
    static ENCODER: Utf8Encoder = Utf8Encoder::new();
}

/// The UTF-8 of `s` (lone surrogates as U+FFFD, as `as_string` gives it),
/// written straight into the module's memory by the platform's
/// `TextEncoder.encodeInto`: on prose several times faster than
/// wasm-bindgen's own copy, a loop over `charCodeAt` in JavaScript
/// (BENCHMARKS.md, "Text into the module"). The buffer is first the
/// string's length in UTF-16 units and an eighth, which holds ASCII text and
/// prose with a few accents; what does not fit is encoded from a
/// `substring` into three bytes a unit more.
fn encode_utf8(s: &js_sys::JsString) -> String {
    let units = s.length();
    // Room for ASCII and some more: most prose needs one call.
    let mut buf = alloc::vec![0u8; units as usize + units as usize / 8 + 16];
    let (mut read, mut written) = (0u32, 0usize);
    ENCODER.with(|encoder| {
        // Twice at most: the second call has room for three bytes a unit.
        for _ in 0..2 {
            if read >= units {
                break;
            }
            if read > 0 {
                buf.resize(written + 3 * (units - read) as usize, 0);
            }
            let rest = if read == 0 {
                s.clone()
            } else {
                s.substring(read, units)
            };
            let done = encoder.encode_into(&rest, &mut buf[written..]);
            read += done.read();
            written = (written + done.written() as usize).min(buf.len());
        }
    });
    if read < units {
        // Not the platform's encoder: wasm-bindgen's copy.
        return s.as_string().unwrap_or_default();
    }
    buf.truncate(written);
    // `encodeInto` writes well-formed UTF-8; checked all the same.
    match String::from_utf8(buf) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// An id: a string ([`str_arg`]) that is well-formed UTF-16. A lone
/// surrogate would be replaced by U+FFFD when converted, so two different
/// ids (`"\ud800"`, `"\udbff"`) would become one: such an id is refused
/// with a `RangeError` naming the code unit.
pub(crate) fn id_arg(value: JsValue, name: &str) -> Result<String, JsValue> {
    if let Some(s) = value.dyn_ref::<js_sys::JsString>() {
        if u64::from(s.length()) <= MAX_TEXT_BYTES && !s.is_valid_utf16() {
            let units: alloc::vec::Vec<u16> = s.iter().collect();
            let mut i = 0;
            while i < units.len() {
                let u = units[i];
                let pair = (0xD800..0xDC00).contains(&u)
                    && units
                        .get(i + 1)
                        .is_some_and(|n| (0xDC00..0xE000).contains(n));
                if pair {
                    i += 2;
                } else if (0xD800..0xE000).contains(&u) {
                    return Err(js_sys::RangeError::new(&format!(
                        "{name} must be well-formed UTF-16, got a lone surrogate U+{u:04X} at {i}"
                    ))
                    .into());
                } else {
                    i += 1;
                }
            }
        }
    }
    str_arg(value, name)
}

/// `TypeError: {name} must be {what}, got {typeof value}`.
pub(crate) fn type_error(name: &str, what: &str, value: &JsValue) -> JsValue {
    let got = if value.is_null() {
        String::from("null")
    } else {
        value.js_typeof().as_string().unwrap_or_default()
    };
    js_sys::TypeError::new(&format!("{name} must be {what}, got {got}")).into()
}

/// `RangeError: {name} must be {what}, got {value}`.
fn range_error(name: &str, what: &str, value: f64) -> JsValue {
    js_sys::RangeError::new(&format!("{name} must be {what}, got {value}")).into()
}

/// `None` for `undefined` or `null` (an omitted optional parameter).
pub(crate) fn given(value: Option<JsValue>) -> Option<JsValue> {
    value.filter(|v| !v.is_undefined() && !v.is_null())
}

/// A JavaScript number that is an integer in `lo..=hi`: a `TypeError` for
/// any other type, a `RangeError` for NaN, a fraction or a value outside the
/// range (never coerced, as wasm-bindgen's `u32` parameters would be).
pub(crate) fn int_arg(value: &JsValue, name: &str, lo: u32, hi: u32) -> Result<u32, JsValue> {
    let n = value
        .as_f64()
        .ok_or_else(|| type_error(name, "a number", value))?;
    if n.fract() != 0.0 || !(f64::from(lo)..=f64::from(hi)).contains(&n) {
        return Err(range_error(name, &format!("an integer in {lo}..={hi}"), n));
    }
    Ok(n as u32)
}

/// [`int_arg`] for an optional parameter (`undefined`/`null` → `None`).
pub(crate) fn opt_int_arg(
    value: Option<JsValue>,
    name: &str,
    lo: u32,
    hi: u32,
) -> Result<Option<u32>, JsValue> {
    given(value).map(|v| int_arg(&v, name, lo, hi)).transpose()
}

/// A JavaScript number that is not NaN: a `TypeError` for any other type
/// (`undefined` included), a `RangeError` for NaN.
pub(crate) fn num_arg(value: &JsValue, name: &str) -> Result<f64, JsValue> {
    let n = value
        .as_f64()
        .ok_or_else(|| type_error(name, "a number", value))?;
    if n.is_nan() {
        return Err(range_error(name, "a number", n));
    }
    Ok(n)
}

/// A 64-bit unsigned value: a `bigint` in 0..2^64 or a safe non-negative
/// integer number; a `TypeError` for another type, a `RangeError` for a
/// value out of range or a fraction (a `bigint` beyond u64 is refused, never
/// wrapped).
pub(crate) fn u64_arg(value: &JsValue, name: &str) -> Result<u64, JsValue> {
    if let Some(n) = value.as_f64() {
        if n >= 0.0 && n.fract() == 0.0 && n <= MAX_SAFE_INTEGER as f64 {
            return Ok(n as u64);
        }
        return Err(range_error(
            name,
            "a bigint in 0..2^64 or a safe non-negative integer",
            n,
        ));
    }
    if value.is_bigint() {
        return u64::try_from(value.clone()).map_err(|_| {
            js_sys::RangeError::new(&format!("{name} must be a bigint in 0..2^64")).into()
        });
    }
    Err(type_error(name, "a bigint", value))
}

/// A JavaScript number in [0, 1] (a similarity, a probability): a
/// `TypeError` for any other type, a `RangeError` for NaN, ±Infinity or a
/// value outside [0, 1] — the same range as the CLI's.
pub(crate) fn unit_arg(value: &JsValue, name: &str) -> Result<f64, JsValue> {
    let n = value
        .as_f64()
        .ok_or_else(|| type_error(name, "a number in [0, 1]", value))?;
    if !(0.0..=1.0).contains(&n) {
        return Err(range_error(name, "a number in [0, 1]", n));
    }
    Ok(n)
}

/// [`unit_arg`] for an optional parameter (`undefined`/`null` → `None`).
pub(crate) fn opt_unit_arg(value: Option<JsValue>, name: &str) -> Result<Option<f64>, JsValue> {
    given(value).map(|v| unit_arg(&v, name)).transpose()
}

/// [`u64_arg`] for an optional parameter (`undefined`/`null` → `None`).
pub(crate) fn opt_u64_arg(value: Option<JsValue>, name: &str) -> Result<Option<u64>, JsValue> {
    given(value).map(|v| u64_arg(&v, name)).transpose()
}

/// Largest byte array a call takes (snapshots, sketches, dictionaries):
/// 1 GiB.
pub const MAX_BYTES_ARG: u32 = 1 << 30;

/// Largest array of numbers a call takes (shingle hashes, vectors): 2^24
/// values.
pub const MAX_ARRAY_ARG: u32 = 1 << 24;

/// A `RangeError` when an array argument's `len` is past `max` (`unit`:
/// "values" or "bytes"), checked before it is read or copied.
fn within(name: &str, len: u32, max: u32, unit: &str) -> Result<(), JsValue> {
    if len > max {
        return Err(js_sys::RangeError::new(&format!(
            "{name} has {len} {unit}, more than the limit of {max}"
        ))
        .into());
    }
    Ok(())
}

/// `value` as a plain `Array` of at most `max` elements, and its length: a
/// `TypeError` saying `what` is expected for anything else (an array-like
/// with a bogus `length` never reaches the module).
fn plain_array<'a>(
    value: &'a JsValue,
    name: &str,
    what: &str,
    max: u32,
) -> Result<(&'a js_sys::Array, u32), JsValue> {
    if !js_sys::Array::is_array(value) {
        return Err(type_error(name, what, value));
    }
    let array: &js_sys::Array = value.unchecked_ref();
    within(name, array.length(), max, "values")?;
    Ok((array, array.length()))
}

/// Strings: a plain `Array` of strings (each checked, named by its index in
/// errors). At most [`MAX_ARRAY_ARG`].
pub(crate) fn strs_arg(value: &JsValue, name: &str) -> Result<alloc::vec::Vec<String>, JsValue> {
    let (array, len) = plain_array(value, name, "an array of strings", MAX_ARRAY_ARG)?;
    (0..len)
        .map(|i| str_arg(array.get(i), &format!("{name}[{i}]")))
        .collect()
}

/// Bytes: a `Uint8Array` (copied), or an `Array` of integers in 0..=255
/// (each checked: never wrapped or coerced). At most [`MAX_BYTES_ARG`].
pub(crate) fn bytes_arg(value: &JsValue, name: &str) -> Result<alloc::vec::Vec<u8>, JsValue> {
    const WHAT: &str = "a Uint8Array or an array of integers in 0..=255";
    if let Some(u8s) = value.dyn_ref::<js_sys::Uint8Array>() {
        within(name, u8s.length(), MAX_BYTES_ARG, "bytes")?;
        return Ok(u8s.to_vec());
    }
    let (array, len) = plain_array(value, name, WHAT, MAX_BYTES_ARG)?;
    (0..len)
        .map(|i| {
            let v = array.get(i);
            let n = v
                .as_f64()
                .ok_or_else(|| type_error(&format!("{name}[{i}]"), "a number", &v))?;
            if n.fract() != 0.0 || !(0.0..=255.0).contains(&n) {
                return Err(range_error(
                    &format!("{name}[{i}]"),
                    "an integer in 0..=255",
                    n,
                ));
            }
            Ok(n as u8)
        })
        .collect()
}

/// 64-bit unsigned integers: a `BigUint64Array`, or an `Array` of bigints
/// in 0..2^64 or safe non-negative integers (each checked). At most
/// [`MAX_ARRAY_ARG`].
pub(crate) fn u64s_arg(value: &JsValue, name: &str) -> Result<alloc::vec::Vec<u64>, JsValue> {
    const WHAT: &str = "a BigUint64Array or an array of bigints";
    if let Some(u64s) = value.dyn_ref::<js_sys::BigUint64Array>() {
        within(name, u64s.length(), MAX_ARRAY_ARG, "values")?;
        return Ok(u64s.to_vec());
    }
    let (array, len) = plain_array(value, name, WHAT, MAX_ARRAY_ARG)?;
    (0..len)
        .map(|i| u64_arg(&array.get(i), &format!("{name}[{i}]")))
        .collect()
}

/// Finite numbers: a `Float64Array`, a `Float32Array`, or an `Array` of
/// numbers (each checked: NaN and ±Infinity refused). At most
/// [`MAX_ARRAY_ARG`].
pub(crate) fn f64s_arg(value: &JsValue, name: &str) -> Result<alloc::vec::Vec<f64>, JsValue> {
    const WHAT: &str = "a Float64Array, a Float32Array or an array of numbers";
    let values: alloc::vec::Vec<f64> = if let Some(f) = value.dyn_ref::<js_sys::Float64Array>() {
        within(name, f.length(), MAX_ARRAY_ARG, "values")?;
        f.to_vec()
    } else if let Some(f) = value.dyn_ref::<js_sys::Float32Array>() {
        within(name, f.length(), MAX_ARRAY_ARG, "values")?;
        f.to_vec().into_iter().map(f64::from).collect()
    } else {
        let (array, len) = plain_array(value, name, WHAT, MAX_ARRAY_ARG)?;
        (0..len)
            .map(|i| {
                let v = array.get(i);
                v.as_f64()
                    .ok_or_else(|| type_error(&format!("{name}[{i}]"), "a number", &v))
            })
            .collect::<Result<_, _>>()?
    };
    if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        return Err(range_error(
            &format!("{name}[{i}]"),
            "a finite number",
            values[i],
        ));
    }
    Ok(values)
}

/// A JavaScript `Error` with `msg`.
pub(crate) fn error_msg(msg: impl core::fmt::Display) -> JsValue {
    JsError::new(&format!("{msg}")).into()
}

/// A value as a plain JavaScript object.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let ser = serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true);
    value
        .serialize(&ser)
        .map_err(|e| error_msg(format_args!("internal error: {e}")))
}

/// Reads an options object into a core configuration: `undefined`/`null`
/// gives the defaults; keys are those of `T`'s serde fields, and an unknown
/// one is refused by name (serde-wasm-bindgen reads only the known keys of an
/// object, so a misspelt option would otherwise pass silently); a key whose
/// value is `undefined` is absent (`{ seed: undefined }`). A seed must be a
/// safe integer.
///
/// The object's own entries are read once and each value is given to
/// serde-wasm-bindgen's deserializer as a map entry: `new MinHash` with
/// three options takes 2.3 µs, against 3.4 µs when the object was copied
/// and then looked up field by field (0.45 µs with none; BENCHMARKS.md,
/// "WebAssembly at the pipeline's spec").
pub(crate) fn read_options<T>(value: JsValue, seed: impl Fn(&T) -> u64) -> Result<T, JsValue>
where
    T: serde::de::DeserializeOwned + Default,
{
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    if !value.is_object() {
        return Err(error_msg("invalid options: expected an object"));
    }
    let keys = serde_aux::serde_introspection::serde_introspect::<T>();
    let object: &js_sys::Object = value.unchecked_ref();
    let mut defined: Vec<(String, JsValue)> = Vec::new();
    for entry in js_sys::Object::entries(object).iter() {
        let entry: js_sys::Array = entry.unchecked_into();
        let name = entry.get(0).as_string().unwrap_or_default();
        if !keys.contains(&name.as_str()) {
            return Err(error_msg(format_args!(
                "invalid options: unknown field `{name}`, expected one of {}",
                keys.join(", ")
            )));
        }
        let v = entry.get(1);
        if !v.is_undefined() {
            defined.push((name, v));
        }
    }
    let from = |entries: &[(String, JsValue)]| -> Result<T, serde_wasm_bindgen::Error> {
        T::deserialize(serde::de::value::MapDeserializer::new(entries.iter().map(
            |(k, v)| {
                (
                    k.as_str(),
                    serde_wasm_bindgen::Deserializer::from(v.clone()),
                )
            },
        )))
    };
    let o: T = from(&defined).map_err(|e| {
        // Name the option: the first key that fails on its own.
        let name = defined
            .iter()
            .find(|entry| from(core::slice::from_ref(*entry)).is_err())
            .map(|(name, _)| name.clone());
        let msg = format!("{e}");
        let msg = msg.strip_prefix("Error: ").unwrap_or(&msg);
        // A core parser's own error already names the option: its reason.
        let msg = match (&name, msg.strip_prefix("invalid option ")) {
            (Some(_), Some(rest)) => rest.split_once(": ").map_or(msg, |(_, r)| r),
            _ => msg,
        };
        let text = match name {
            Some(name) => format!("invalid option {name}: {msg}"),
            None => format!("invalid options: {msg}"),
        };
        // A value of the wrong type is a TypeError, as for every argument.
        if msg.starts_with("invalid type") {
            js_sys::TypeError::new(&text).into()
        } else {
            error_msg(text)
        }
    })?;
    if seed(&o) > MAX_SAFE_INTEGER {
        return Err(error_msg("invalid option seed: must be at most 2^53 - 1"));
    }
    Ok(o)
}
