//! `SimHash` (fingerprints of texts, Charikar 2002) and `Fingerprint` (one
//! fingerprint with its configuration); see the Rust `neardup::simhash`.

use super::{js_error, read_options};
use crate::simhash::{Fingerprint, SimHashConfig};
use alloc::format;
use alloc::string::String;
use wasm_bindgen::prelude::*;

/// A 64-bit SimHash fingerprint with the configuration that made it, so
/// fingerprints of different shinglings are never compared.
#[wasm_bindgen(js_name = Fingerprint)]
#[derive(Clone, Copy)]
pub struct JsFingerprint {
    pub(crate) inner: Fingerprint,
}

#[wasm_bindgen(js_class = Fingerprint)]
impl JsFingerprint {
    /// A fingerprint computed elsewhere, as a `bigint` of custom features
    /// (it is compared only with other custom fingerprints). Throws for a
    /// value outside 0..2^64.
    #[wasm_bindgen(js_name = fromValue)]
    pub fn from_value(
        #[wasm_bindgen(unchecked_param_type = "bigint")] value: JsValue,
    ) -> Result<JsFingerprint, JsValue> {
        Ok(JsFingerprint {
            inner: Fingerprint::from_value(super::u64_arg(&value, "value")?),
        })
    }

    /// The 64 bits as a `bigint`.
    #[wasm_bindgen(getter)]
    pub fn value(&self) -> u64 {
        self.inner.value()
    }

    /// The 64 bits as 16 lowercase hex digits.
    #[wasm_bindgen(getter)]
    pub fn hex(&self) -> String {
        format!("{:016x}", self.inner.value())
    }

    /// `true` for the fingerprint of a text without features (it matches
    /// nothing in an index).
    #[wasm_bindgen(getter, js_name = isEmpty)]
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// The configuration that made it.
    #[wasm_bindgen(getter, unchecked_return_type = "SimHashConfig")]
    pub fn config(&self) -> Result<JsValue, JsValue> {
        super::to_js(&self.inner.config())
    }

    /// Hamming distance to `other`, 0..=64. Throws when the configurations
    /// differ.
    pub fn distance(&self, other: &JsFingerprint) -> Result<u32, JsValue> {
        self.inner.distance(&other.inner).map_err(js_error)
    }
}

/// 64-bit SimHash fingerprints of texts.
#[wasm_bindgen(js_name = SimHash)]
pub struct JsSimHash {}

#[wasm_bindgen(js_class = SimHash)]
impl JsSimHash {
    /// The fingerprint of `text`. Throws for invalid options.
    pub fn fingerprint(
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Partial<SimHashConfig>")] options: Option<
            JsValue,
        >,
    ) -> Result<JsFingerprint, JsValue> {
        let text = &super::str_arg(text, "text")?;
        let config: SimHashConfig = read_options(
            options.unwrap_or(JsValue::UNDEFINED),
            |c: &SimHashConfig| c.seed,
        )?;
        Ok(JsFingerprint {
            inner: config.fingerprint(text).map_err(js_error)?,
        })
    }

    /// The fingerprint of `text` as 16 lowercase hex digits.
    #[wasm_bindgen(js_name = fingerprintHex)]
    pub fn fingerprint_hex(
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Partial<SimHashConfig>")] options: Option<
            JsValue,
        >,
    ) -> Result<String, JsValue> {
        Ok(Self::fingerprint(text, options)?.hex())
    }

    /// The fingerprint of shingle hashes, each occurrence weighing 1 (custom
    /// features).
    #[wasm_bindgen(js_name = fromShingles)]
    pub fn from_shingles(
        #[wasm_bindgen(unchecked_param_type = "BigUint64Array | bigint[]")] hashes: JsValue,
    ) -> Result<JsFingerprint, JsValue> {
        let hashes = super::u64s_arg(&hashes, "hashes")?;
        Ok(JsFingerprint {
            inner: Fingerprint::from_shingles(&hashes),
        })
    }

    /// Number of differing bits of two 64-bit values, 0..=64.
    #[wasm_bindgen(js_name = hammingDistance)]
    pub fn hamming_distance(
        #[wasm_bindgen(unchecked_param_type = "bigint")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "bigint")] b: JsValue,
    ) -> Result<u32, JsValue> {
        Ok(crate::simhash::hamming_distance(
            super::u64_arg(&a, "a")?,
            super::u64_arg(&b, "b")?,
        ))
    }

    /// Charikar's cosine estimate from a Hamming distance: cos(π d / 64).
    #[wasm_bindgen(js_name = cosineEstimate)]
    pub fn cosine_estimate(
        #[wasm_bindgen(unchecked_param_type = "number")] distance: JsValue,
    ) -> Result<f64, JsValue> {
        Ok(crate::simhash::cosine_estimate(super::int_arg(
            &distance, "distance", 0, 64,
        )?))
    }
}
