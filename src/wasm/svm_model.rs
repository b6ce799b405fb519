//! `SvmModel`: a trained verdict model; see the Rust `neardup::verdict`.

use super::{js_error, to_js};
use crate::verdict::SvmModel;
use crate::Document;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// A trained verdict model (from `neardup train`).
#[wasm_bindgen(js_name = SvmModel)]
pub struct JsSvmModel {
    inner: SvmModel,
}

#[wasm_bindgen(js_class = SvmModel)]
impl JsSvmModel {
    /// Parses and checks a model JSON; throws for another format version,
    /// shapes that do not agree, NaN or infinite numbers, or an unknown
    /// kernel.
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<JsSvmModel, JsValue> {
        let text = &super::str_arg(text, "text")?;
        Ok(JsSvmModel {
            inner: SvmModel::from_json(text).map_err(js_error)?,
        })
    }

    /// Length of the similarity vector.
    #[wasm_bindgen(getter)]
    pub fn dimension(&self) -> u32 {
        self.inner.dimension() as u32
    }

    /// The graded classes, in the order of `classDecisions` (an ordinal
    /// model: the grades above the lowest, one "at least" machine each).
    #[wasm_bindgen(getter)]
    pub fn classes(&self) -> Vec<String> {
        self.inner.classes().map(String::from).collect()
    }

    /// Every class a verdict can give, in the order of its `probabilities`:
    /// an ordinal model's grades from the lowest (e.g. non, heavy, light,
    /// cut), else `classes`.
    #[wasm_bindgen(getter)]
    pub fn grades(&self) -> Vec<String> {
        self.inner.grades().map(String::from).collect()
    }

    /// The similarity vector of suspicious text `a` and source `b`.
    #[wasm_bindgen(js_name = similarityVector)]
    pub fn similarity_vector(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] b: JsValue,
    ) -> Result<Vec<f64>, JsValue> {
        let a = &super::str_arg(a, "a")?;
        let b = &super::str_arg(b, "b")?;
        let seed = self.inner.file().df.seed;
        Ok(self
            .inner
            .similarity_vector(&Document::new(a, seed), &Document::new(b, seed)))
    }

    /// Decision values of an (unscaled) similarity vector: the binary
    /// machine, then each class. Throws for a vector of the wrong length or
    /// with a non-finite value.
    #[wasm_bindgen(js_name = decisionFunction)]
    pub fn decision_function(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] vector: JsValue,
    ) -> Result<Vec<f64>, JsValue> {
        let vector = super::f64s_arg(&vector, "vector")?;
        self.inner.decision_function(&vector).map_err(js_error)
    }

    /// The verdict for a similarity vector.
    #[wasm_bindgen(unchecked_return_type = "Verdict")]
    pub fn predict(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Float64Array | number[]")] vector: JsValue,
    ) -> Result<JsValue, JsValue> {
        let vector = super::f64s_arg(&vector, "vector")?;
        to_js(&self.inner.predict(&vector).map_err(js_error)?)
    }

    /// The verdict for suspicious text `a` against source `b`; throws for an
    /// empty text.
    #[wasm_bindgen(unchecked_return_type = "Verdict")]
    pub fn judge(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] b: JsValue,
    ) -> Result<JsValue, JsValue> {
        let a = &super::str_arg(a, "a")?;
        let b = &super::str_arg(b, "b")?;
        to_js(&self.inner.judge_texts(a, b).map_err(js_error)?)
    }

    /// `compare(a, b, options)` with the verdict added as `verdict`: each
    /// text is normalised and shingled once for both.
    #[wasm_bindgen(unchecked_return_type = "Report & { verdict: Verdict }")]
    pub fn compare(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] b: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CompareOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let a = &super::str_arg(a, "a")?;
        let b = &super::str_arg(b, "b")?;
        #[derive(Serialize)]
        struct Out<'a> {
            #[serde(flatten)]
            report: &'a crate::Report,
            verdict: &'a crate::verdict::Verdict,
        }
        let o = super::functions::compare_args(options.unwrap_or(JsValue::UNDEFINED), a, b)?;
        let (report, verdict) = self
            .inner
            .compare(a, b, &o.config, &o.exclusions())
            .map_err(js_error)?;
        let report = report.into_utf16(a, b);
        to_js(&Out {
            report: &report,
            verdict: &verdict,
        })
    }
}
