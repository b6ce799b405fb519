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

mod functions;
mod minhash;
mod minhash_lsh;
mod multiref;
mod simhash;
mod simhash_index;
mod svm_model;

pub use functions::*;
pub use minhash::JsMinHash;
pub use minhash_lsh::JsMinHashLsh;
pub use multiref::JsMultiRef;
pub use simhash::{JsFingerprint, JsSimHash};
pub use simhash_index::JsSimHashIndex;
pub use svm_model::JsSvmModel;

use alloc::format;
use alloc::string::String;
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

/// `word_k` → `wordK`.
fn camel(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut up = false;
    for c in snake.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// A core error as a JavaScript `Error`, option names in camelCase.
pub(crate) fn js_error(e: crate::Error) -> JsValue {
    JsError::new(&e.message_with(camel)).into()
}

/// The string in `value`, else a `TypeError` naming the parameter (a
/// number, object, `undefined`, `null` or `bigint` where a string is
/// expected never reaches the core, and never traps the module).
pub(crate) fn str_arg(value: JsValue, name: &str) -> Result<String, JsValue> {
    value.as_string().ok_or_else(|| {
        let got = if value.is_null() {
            String::from("null")
        } else {
            value.js_typeof().as_string().unwrap_or_default()
        };
        js_sys::TypeError::new(&format!("{name} must be a string, got {got}")).into()
    })
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
/// object, so a misspelt option would otherwise pass silently). A seed must
/// be a safe integer.
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
    // A key whose value is `undefined` is absent (`{ seed: undefined }`).
    let defined = js_sys::Object::new();
    for entry in js_sys::Object::entries(object).iter() {
        let entry: js_sys::Array = entry.unchecked_into();
        let (key, v) = (entry.get(0), entry.get(1));
        let name = key.as_string().unwrap_or_default();
        if !keys.contains(&name.as_str()) {
            return Err(error_msg(format_args!(
                "invalid options: unknown field `{name}`, expected one of {}",
                keys.join(", ")
            )));
        }
        if !v.is_undefined() {
            js_sys::Reflect::set(&defined, &key, &v)
                .map_err(|_| error_msg("invalid options: cannot read them"))?;
        }
    }
    let o: T = serde_wasm_bindgen::from_value(defined.into()).map_err(|e| {
        let msg = format!("{e}");
        error_msg(format_args!(
            "invalid options: {}",
            msg.strip_prefix("Error: ").unwrap_or(&msg)
        ))
    })?;
    if seed(&o) > MAX_SAFE_INTEGER {
        return Err(error_msg("invalid option seed: must be at most 2^53 - 1"));
    }
    Ok(o)
}
