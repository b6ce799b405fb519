//! `ClassLibrary`: a reference library for class sets (the core's
//! `neardup::classset::library::Library`): sources, model answers and past
//! classes as phrase postings, saved as bytes, a class checked one way.

use super::{bytes_arg, js_error, read_options, strs_arg, to_js, unit_arg};
use crate::classset::library::Library;
use crate::classset::ClassSetConfig;
use alloc::string::String;
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

/// A reference library; see the Rust `neardup::classset::library`.
#[wasm_bindgen(js_name = ClassLibrary)]
pub struct JsClassLibrary {
    inner: Library,
}

#[wasm_bindgen(js_class = ClassLibrary)]
impl JsClassLibrary {
    /// An empty library fingerprinting texts as `classPairs` does with
    /// these options (`charQ`, `window`, `wordK`, `seed`, `ignoreQuotes`,
    /// `ignoreReferences`, `maxBytes`; the others are not used). Throws for
    /// a bad option. Texts added are not kept unless `keepTexts(true)`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Partial<ClassSetConfig>")] options: Option<
            JsValue,
        >,
    ) -> Result<JsClassLibrary, JsValue> {
        let config: ClassSetConfig = read_options(
            options.unwrap_or(JsValue::UNDEFINED),
            |o: &ClassSetConfig| o.seed,
        )?;
        Ok(JsClassLibrary {
            inner: Library::new(&config).map_err(js_error)?,
        })
    }

    /// Whether the texts added from now on are kept (default `false`; a
    /// library read from bytes keeps texts when it holds one): a kept text
    /// lets a class's match with it be compared in full (verdict,
    /// passages), at the cost of its UTF-8 bytes in the file (format 2,
    /// SPEC.md §15). Throws a `TypeError` for a non-boolean.
    #[wasm_bindgen(js_name = keepTexts)]
    pub fn keep_texts(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean")] keep: JsValue,
    ) -> Result<(), JsValue> {
        let Some(keep) = keep.as_bool() else {
            return Err(super::type_error("keep", "a boolean", &keep));
        };
        self.inner.keep_texts(keep);
        Ok(())
    }

    /// Library text `i`'s kept text (`i` an index of `names`), or
    /// `undefined` when it was not kept or `i` is out of range.
    pub fn text(&self, i: u32) -> Option<String> {
        self.inner.text(i as usize).map(String::from)
    }

    /// Reads a library's bytes (`toBytes`, or `neardup library build`).
    /// Throws naming what is wrong for damaged, truncated or other-version
    /// bytes.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
    ) -> Result<JsClassLibrary, JsValue> {
        Ok(JsClassLibrary {
            inner: Library::from_bytes(&bytes_arg(&bytes, "bytes")?).map_err(js_error)?,
        })
    }

    /// Adds texts under names (two arrays of one length). Throws a
    /// `TypeError` for a non-array or non-string, an `Error` for arrays of
    /// different lengths or a text over `maxBytes` (nothing is added then).
    pub fn add(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] names: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string[]")] texts: JsValue,
    ) -> Result<(), JsValue> {
        let names = strs_arg(&names, "names")?;
        let texts = strs_arg(&texts, "texts")?;
        if names.len() != texts.len() {
            return Err(super::error_msg(alloc::format!(
                "invalid option texts: {} names for {} texts",
                names.len(),
                texts.len()
            )));
        }
        let pairs: Vec<(&str, &str)> = names
            .iter()
            .map(String::as_str)
            .zip(texts.iter().map(String::as_str))
            .collect();
        self.inner.add(&pairs).map_err(js_error)
    }

    /// Checks `students` (an array of texts) one way against every library
    /// text: `[{student, text, shared, containment, containmentLibrary}]`
    /// for pairs whose containment (the share of the student's
    /// fingerprints in the library text, in [0, 1]) reaches
    /// `minContainment` (in [0, 1]) and that share at least `minShared`
    /// fingerprints (an integer ≥ 1; default 3, the core's `MIN_SHARED`,
    /// chosen on data: EVALUATION.md "Library matches"), highest first.
    /// `text` indexes `names`.
    #[wasm_bindgen(unchecked_return_type = "LibraryMatch[]")]
    pub fn check(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] students: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] min_containment: JsValue,
        #[wasm_bindgen(js_name = minShared, unchecked_optional_param_type = "number")]
        min_shared: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let students = strs_arg(&students, "students")?;
        let cut = unit_arg(&min_containment, "minContainment")?;
        let shared = super::opt_int_arg(min_shared, "minShared", 1, u32::MAX)?
            .unwrap_or(crate::classset::library::MIN_SHARED);
        let s: Vec<&str> = students.iter().map(String::as_str).collect();
        to_js(
            &self
                .inner
                .check_sharing(&s, cut, shared)
                .map_err(js_error)?,
        )
    }

    /// Library text `i`'s kept text and the ranges a class with `options`
    /// (`Partial<ClassSetConfig>`: `ignoreQuotes`, `ignoreReferences`)
    /// leaves out of it, in UTF-16 units (`compare`'s `excludeB`): `{text,
    /// excluded: [{start, end}]}`, or `undefined` when the text was not
    /// kept or `i` is out of range. What a library match is compared in
    /// full with, as `neardup class` compares it. Throws for a bad option.
    #[wasm_bindgen(unchecked_return_type = "{ text: string, excluded: TextRange[] } | undefined")]
    pub fn kept(
        &self,
        i: u32,
        #[wasm_bindgen(unchecked_optional_param_type = "Partial<ClassSetConfig>")] options: Option<
            JsValue,
        >,
    ) -> Result<JsValue, JsValue> {
        let config: ClassSetConfig = read_options(
            options.unwrap_or(JsValue::UNDEFINED),
            |o: &ClassSetConfig| o.seed,
        )?;
        let Some((text, mut excluded)) = self.inner.kept(i as usize, &config) else {
            return Ok(JsValue::UNDEFINED);
        };
        crate::text::ranges_to_utf16(text, &mut excluded);
        #[derive(serde::Serialize)]
        struct Kept<'a> {
            text: &'a str,
            excluded: Vec<crate::text::TextRange>,
        }
        to_js(&Kept { text, excluded })
    }

    /// The library as bytes (SPEC.md §15), to save as a file.
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.inner.to_bytes()
    }

    /// The texts' names, in the order added.
    #[wasm_bindgen(getter)]
    pub fn names(&self) -> Vec<String> {
        self.inner.names().to_vec()
    }

    /// Number of texts.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        self.inner.len() as u32
    }
}
