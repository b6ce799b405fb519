//! `MultiRef`: multireference cosine signatures over a trained reference
//! (Mohammadi & Khasteh 2020); see the Rust `neardup::multiref`.

use super::js_error;
use crate::multiref::{similarity, MultiRefSignature, Reference, ReferenceFile, Thresholds};
use alloc::string::String;
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

/// A reference text: signatures of texts, their similarity, the decision.
#[wasm_bindgen(js_name = MultiRef)]
pub struct JsMultiRef {
    reference: Reference,
    thresholds: Thresholds,
}

#[wasm_bindgen(js_class = MultiRef)]
impl JsMultiRef {
    /// Parses and checks a reference JSON (from `neardup multiref train`;
    /// the package ships one as `multiref.json`). Throws for another format
    /// version or sizes out of range.
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<JsMultiRef, JsValue> {
        let text = &super::str_arg(text, "text")?;
        let (file, reference) = ReferenceFile::from_json(text).map_err(js_error)?;
        Ok(JsMultiRef {
            reference,
            thresholds: file.thresholds,
        })
    }

    /// Another handle to the same reference: what a function that takes a
    /// `MultiRef` by value is given, so that this one stays usable.
    #[wasm_bindgen(js_name = share)]
    pub fn share(&self) -> JsMultiRef {
        JsMultiRef {
            reference: self.reference.clone(),
            thresholds: self.thresholds,
        }
    }

    /// Number of partitions: the length of a signature.
    #[wasm_bindgen(getter)]
    pub fn partitions(&self) -> u32 {
        self.reference.partitions() as u32
    }

    /// The signature of `text`: `partitions` cosines in [0, 1].
    pub fn signature(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<Vec<f32>, JsValue> {
        let text = &super::str_arg(text, "text")?;
        Ok(self.reference.signature(text).values().to_vec())
    }

    /// The signature as versioned, checksummed bytes (same as native).
    #[wasm_bindgen(js_name = signatureBytes)]
    pub fn signature_bytes(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<Vec<u8>, JsValue> {
        let text = &super::str_arg(text, "text")?;
        Ok(self.reference.signature(text).to_bytes())
    }

    /// The cosine of two signatures of this reference, in [0, 1]. Throws for
    /// arrays of the wrong length or values outside [0, 1].
    pub fn similarity(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Float32Array | number[]")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Float32Array | number[]")] b: JsValue,
    ) -> Result<f64, JsValue> {
        let sig = |v: &JsValue, name: &str| {
            let values = super::f64s_arg(v, name)?
                .into_iter()
                .map(|x| x as f32)
                .collect();
            MultiRefSignature::from_values(&self.reference, values).map_err(js_error)
        };
        similarity(&sig(&a, "a")?, &sig(&b, "b")?).map_err(js_error)
    }

    /// The estimate for two texts: the cosine of their signatures.
    #[wasm_bindgen(js_name = compareTexts)]
    pub fn compare_texts(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] b: JsValue,
    ) -> Result<f64, JsValue> {
        let a = &super::str_arg(a, "a")?;
        let b = &super::str_arg(b, "b")?;
        similarity(&self.reference.signature(a), &self.reference.signature(b)).map_err(js_error)
    }

    /// "duplicate" (≥ t1), "near-duplicate" (≥ t2) or "different".
    pub fn decide(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] similarity: JsValue,
    ) -> Result<String, JsValue> {
        Ok(
            match self
                .thresholds
                .decide(super::unit_arg(&similarity, "similarity")?)
            {
                crate::multiref::Decision::Duplicate => "duplicate".into(),
                crate::multiref::Decision::NearDuplicate => "near-duplicate".into(),
                crate::multiref::Decision::Different => "different".into(),
            },
        )
    }
}

impl JsMultiRef {
    /// The core's model of this reference (for the multiref dedup method).
    pub(crate) fn model(&self) -> Result<crate::dedup::MultiRefModel, JsValue> {
        crate::dedup::MultiRefModel::new(self.reference.clone(), self.thresholds).map_err(js_error)
    }
}
