//! `DedupStages`: the stage functions of the core's dedup pipeline
//! (`neardup::dedup::Stages`) for engines and stores that process a
//! collection in pieces — the edge Worker keeps `key → ids` in SQLite and
//! calls these for sketches, keys and verification.

use super::dedup::{config_of, stages_of};
use super::multiref::JsMultiRef;
use super::speller::JsSpeller;
use super::{js_error, str_arg, to_js};
use crate::dedup::Stages;
use crate::tfidf::DocumentFrequencies;
use alloc::format;
use alloc::sync::Arc;
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

/// The pure, byte-stable stages of one dedup configuration: text → sketch
/// bytes, sketch → bucket keys (two documents are candidates exactly when
/// they share one), and (sketch, sketch) → the pair's similarity when it is
/// a near-duplicate pair; with tf-idf weights, texts → document frequencies
/// first. The same bytes natively, in wasm and in Python (SPEC.md §14).
#[wasm_bindgen(js_name = DedupStages)]
pub struct JsDedupStages {
    inner: Stages,
}

#[wasm_bindgen(js_class = DedupStages)]
impl JsDedupStages {
    /// The stages of `options` (the configuration of `dedup()`), with the
    /// reference and dictionary it needs, taken by value. Throws for bad
    /// options or a missing reference or dictionary.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Partial<DedupConfig>")] options: Option<
            JsValue,
        >,
        #[wasm_bindgen(unchecked_optional_param_type = "MultiRef")] reference: Option<JsMultiRef>,
        #[wasm_bindgen(unchecked_optional_param_type = "Speller")] dictionary: Option<JsSpeller>,
    ) -> Result<JsDedupStages, JsValue> {
        let config = config_of(options)?;
        Ok(JsDedupStages {
            inner: stages_of(&config, reference, dictionary, true)?,
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
        JsDedupStages::new(options, Some(reference.share()), None)
    }

    /// With `weights: "tfidf"`: the document frequencies of `texts` as
    /// versioned bytes (merge the bytes of every piece of a collection with
    /// `mergeFrequencies`, then give them to `withFrequencies`).
    pub fn count(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] texts: JsValue,
    ) -> Result<Vec<u8>, JsValue> {
        let texts = super::strs_arg(&texts, "texts")?;
        let mut df = DocumentFrequencies::new();
        for (i, t) in texts.iter().enumerate() {
            self.inner.count(&mut df, t).map_err(|e| {
                super::error_msg(format!("texts[{i}]: {}", e.message_with(super::camel)))
            })?;
        }
        Ok(df.to_bytes())
    }

    /// These stages with the collection's document frequencies (the bytes
    /// of `count`, merged): the stages of tf-idf sketches.
    #[wasm_bindgen(js_name = withFrequencies)]
    pub fn with_frequencies(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] frequencies: JsValue,
    ) -> Result<JsDedupStages, JsValue> {
        let bytes = super::bytes_arg(&frequencies, "frequencies")?;
        let df = DocumentFrequencies::from_bytes(&bytes).map_err(js_error)?;
        Ok(JsDedupStages {
            inner: self
                .inner
                .clone()
                .with_frequencies(Arc::new(df))
                .map_err(js_error)?,
        })
    }

    /// How many bucket keys a document with shingles has (MinHash bands,
    /// SimHash tables), or `undefined` when it varies (the exact join).
    #[wasm_bindgen(getter, js_name = keyCount)]
    pub fn key_count(&self) -> Option<u32> {
        self.inner.key_count().map(|n| n as u32)
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

/// Merges document-frequency bytes (of `DedupStages.count` on pieces of a
/// collection) into the bytes of the whole. Throws for corrupt bytes.
#[wasm_bindgen(js_name = mergeFrequencies)]
pub fn merge_frequencies(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array[]")] pieces: JsValue,
) -> Result<Vec<u8>, JsValue> {
    if !js_sys::Array::is_array(&pieces) {
        return Err(super::error_msg("pieces must be an array of Uint8Array"));
    }
    let mut df = DocumentFrequencies::new();
    for (i, p) in js_sys::Array::from(&pieces).iter().enumerate() {
        let bytes = super::bytes_arg(&p, &format!("pieces[{i}]"))?;
        df.merge(&DocumentFrequencies::from_bytes(&bytes).map_err(js_error)?)
            .map_err(js_error)?;
    }
    Ok(df.to_bytes())
}
