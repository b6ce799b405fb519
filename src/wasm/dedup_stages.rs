//! `DedupStages`: the stage functions of the core's dedup pipeline
//! (`neardup::dedup::Stages`) for engines and stores that process a
//! collection in pieces — the edge Worker keeps `key → ids` in SQLite and
//! calls these for sketches, keys and verification.

use super::multiref::JsMultiRef;
use super::{js_error, read_options, str_arg, to_js};
use crate::dedup::{DedupConfig, Stages};
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

/// The pure, byte-stable stages of one dedup configuration: text → sketch
/// bytes, sketch → bucket keys (two documents are candidates exactly when
/// they share one), and (sketch, sketch) → the pair's similarity when it is
/// a near-duplicate pair. The same bytes natively, in wasm and in Python
/// (SPEC.md §14).
#[wasm_bindgen(js_name = DedupStages)]
pub struct JsDedupStages {
    inner: Stages,
}

#[wasm_bindgen(js_class = DedupStages)]
impl JsDedupStages {
    /// The stages of `options` (the configuration of `dedup()`). Throws for
    /// bad options; `method: "multiref"` needs `DedupStages.withReference`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Partial<DedupConfig>")] options: Option<
            JsValue,
        >,
    ) -> Result<JsDedupStages, JsValue> {
        let config: DedupConfig =
            read_options(options.unwrap_or(JsValue::UNDEFINED), |c: &DedupConfig| {
                c.seed
            })?;
        Ok(JsDedupStages {
            inner: Stages::new(&config).map_err(js_error)?,
        })
    }

    /// The stages of the multiref method with this reference.
    #[wasm_bindgen(js_name = withReference)]
    pub fn with_reference(
        reference: &JsMultiRef,
        #[wasm_bindgen(unchecked_optional_param_type = "Partial<DedupConfig>")] options: Option<
            JsValue,
        >,
    ) -> Result<JsDedupStages, JsValue> {
        let config: DedupConfig =
            read_options(options.unwrap_or(JsValue::UNDEFINED), |c: &DedupConfig| {
                c.seed
            })?;
        Ok(JsDedupStages {
            inner: Stages::with_reference(&config, reference.model()?).map_err(js_error)?,
        })
    }

    /// The sketch of `text` as versioned bytes.
    pub fn sketch(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<Vec<u8>, JsValue> {
        let text = &str_arg(text, "text")?;
        Ok(self.inner.sketch(text).map_err(js_error)?.to_bytes())
    }

    /// The bucket keys of a sketch (none for a text without shingles).
    /// Throws for bytes that are not a sketch of this configuration.
    pub fn keys(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] sketch: JsValue,
    ) -> Result<Vec<u64>, JsValue> {
        let sketch = super::bytes_arg(&sketch, "sketch")?;
        let s = self.inner.read_sketch(&sketch).map_err(js_error)?;
        self.inner.keys(&s).map_err(js_error)
    }

    /// `{similarity, jaccard?, exact?, distance?, estimate?, decision?}` when
    /// the two sketches (sharing a key) are a near-duplicate pair, else
    /// `undefined`. Throws for bytes that are not a sketch of this
    /// configuration.
    #[wasm_bindgen(unchecked_return_type = "Verified | undefined")]
    pub fn verify(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] b: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (a, b) = (super::bytes_arg(&a, "a")?, super::bytes_arg(&b, "b")?);
        let a = self.inner.read_sketch(&a).map_err(js_error)?;
        let b = self.inner.read_sketch(&b).map_err(js_error)?;
        match self.inner.verify(&a, &b).map_err(js_error)? {
            Some(v) => to_js(&v),
            None => Ok(JsValue::UNDEFINED),
        }
    }
}
