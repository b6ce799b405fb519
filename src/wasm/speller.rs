//! `Speller`: dictionary correction of misspelt words; see the Rust
//! `neardup::spell`. The dictionary is a separate asset of the package
//! (`neardup/dictionary-en.bin`, 0.9 MB), loaded only by those who correct.

use super::{js_error, to_js};
use crate::spell::Dictionary;
use alloc::string::String;
use alloc::sync::Arc;
use wasm_bindgen::prelude::*;

/// A dictionary with word frequencies and its correction indexes.
#[wasm_bindgen(js_name = Speller)]
pub struct JsSpeller {
    dict: Arc<Dictionary>,
}

#[wasm_bindgen(js_class = Speller)]
impl JsSpeller {
    /// Reads a dictionary (`dictionary-en.bin`, or one written by `neardup
    /// spell --from-counts`) and builds its indexes (about 0.3 s and 40 MB
    /// for the English one; the corrections it finds are remembered, up to
    /// 2^17 words, at most about 26 MB more). Throws for corrupt or
    /// other-version bytes.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
    ) -> Result<JsSpeller, JsValue> {
        Ok(JsSpeller {
            dict: Arc::new(
                Dictionary::from_bytes(&super::bytes_arg(&bytes, "bytes")?).map_err(js_error)?,
            ),
        })
    }

    /// Another handle to the same dictionary (no copy): what a function
    /// that takes a `Speller` by value is given, so that this one stays
    /// usable.
    #[wasm_bindgen(js_name = share)]
    pub fn share(&self) -> JsSpeller {
        JsSpeller {
            dict: self.dict.clone(),
        }
    }

    /// Number of words.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        self.dict.len() as u32
    }

    /// `true` when `word` is a dictionary word.
    pub fn has(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] word: JsValue,
    ) -> Result<bool, JsValue> {
        Ok(self.dict.contains(&super::str_arg(word, "word")?))
    }

    /// The correction of `word`, or `word` itself when it is known, has no
    /// Latin letter, or nothing is close.
    pub fn correct(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] word: JsValue,
    ) -> Result<String, JsValue> {
        let word = super::str_arg(word, "word")?;
        Ok(self.dict.correct(&word).unwrap_or(word))
    }

    /// `text` with every misspelt word replaced by its correction and
    /// everything else kept (seed 003's correction before shingling: pass
    /// the result to `compare`, `MinHash` or `SimHash` for the
    /// `word:K+correct` shingles of the CLI). Time: one correction per
    /// distinct unknown word.
    #[wasm_bindgen(js_name = correctText)]
    pub fn correct_text(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<String, JsValue> {
        Ok(self.dict.correct_text(&super::str_arg(text, "text")?))
    }

    /// Up to `max` (default 10, at most 100) candidate corrections, best
    /// first: `[{word, distance, cost}]`; empty for a known word.
    #[wasm_bindgen(unchecked_return_type = "{ word: string; distance: number; cost: number }[]")]
    pub fn candidates(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] word: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] max: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let word = super::str_arg(word, "word")?;
        let max = super::opt_int_arg(max, "max", 1, 100)?.unwrap_or(10);
        to_js(&self.dict.candidates(&word, max as usize))
    }
}

impl JsSpeller {
    /// The dictionary, shared.
    pub(crate) fn dictionary(&self) -> Arc<Dictionary> {
        self.dict.clone()
    }
}
