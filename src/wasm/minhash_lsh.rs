//! `MinHashLsh`: the MinHash LSH index; see the Rust
//! `neardup::minhash::MinHashLsh`.

use super::minhash::JsMinHash;
use super::{js_error, read_options, to_js};
use crate::minhash::{LshConfig, MinHashLsh};
use crate::NearDupIndex;
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

/// A MinHash LSH index (banding) over string ids.
#[wasm_bindgen(js_name = MinHashLsh)]
pub struct JsMinHashLsh {
    inner: MinHashLsh,
}

#[wasm_bindgen(js_class = MinHashLsh)]
impl JsMinHashLsh {
    /// An empty index for resemblance `threshold` in (0, 1) and signatures
    /// of `numPerm` values (default 128). Bands and rows come from the
    /// advisor unless `options` gives both.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "number")] threshold: JsValue,
        #[wasm_bindgen(js_name = numPerm, unchecked_optional_param_type = "number")]
        num_perm: Option<JsValue>,
        #[wasm_bindgen(
            unchecked_optional_param_type = "Partial<Omit<LshConfig, 'threshold' | 'numPerm'>>"
        )]
        options: Option<JsValue>,
    ) -> Result<JsMinHashLsh, JsValue> {
        let mut config: LshConfig = read_options(options.unwrap_or(JsValue::UNDEFINED), |_| 0)?;
        config.threshold = super::num_arg(&threshold, "threshold")?;
        config.num_perm = super::opt_int_arg(num_perm, "numPerm", 0, u32::MAX)?
            .unwrap_or(LshConfig::default().num_perm);
        Ok(JsMinHashLsh {
            inner: MinHashLsh::new(&config).map_err(js_error)?,
        })
    }

    /// Adds `id` with the signature of `minhash` (copied). Throws for a
    /// duplicate id or an incompatible signature.
    pub fn insert(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        minhash: &JsMinHash,
    ) -> Result<(), JsValue> {
        let id = &super::id_arg(id, "id")?;
        self.inner.insert(id, minhash.sig.clone()).map_err(js_error)
    }

    /// The bucket keys of `minhash`, one per band (`bands` values, none for
    /// an empty signature): two signatures are candidates exactly when they
    /// share a key. For stores outside this index (the edge Worker keeps
    /// `key → ids` in SQLite); stable across versions and platforms. Throws
    /// for an incompatible signature.
    #[wasm_bindgen(js_name = bandKeys)]
    pub fn band_keys(&self, minhash: &JsMinHash) -> Result<Vec<u64>, JsValue> {
        self.inner.band_keys(&minhash.sig).map_err(js_error)
    }

    /// Removes `id`; `false` when absent.
    pub fn remove(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> Result<bool, JsValue> {
        let id = &super::id_arg(id, "id")?;
        Ok(self.inner.remove(id))
    }

    /// `true` when `id` is present.
    pub fn has(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> Result<bool, JsValue> {
        let id = &super::id_arg(id, "id")?;
        Ok(self.inner.contains(id))
    }

    /// The documents sharing a band with `minhash` whose estimated
    /// resemblance reaches `minJaccard` (default: the index's threshold; 0
    /// keeps every candidate), best first: `[{id, jaccard}]`.
    #[wasm_bindgen(unchecked_return_type = "Hit[]")]
    pub fn query(
        &self,
        minhash: &JsMinHash,
        #[wasm_bindgen(js_name = minJaccard, unchecked_optional_param_type = "number")]
        min_jaccard: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let t = super::opt_unit_arg(min_jaccard, "minJaccard")?
            .unwrap_or(self.inner.params().threshold());
        to_js(
            &self
                .inner
                .query_with(&minhash.sig, Some(t))
                .map_err(js_error)?,
        )
    }

    /// Every candidate pair once whose estimated resemblance reaches
    /// `minJaccard` (default: the index's threshold), `{a, b, jaccard}`,
    /// sorted.
    #[wasm_bindgen(js_name = allPairs, unchecked_return_type = "Pair[]")]
    pub fn all_pairs(
        &self,
        #[wasm_bindgen(js_name = minJaccard, unchecked_optional_param_type = "number")]
        min_jaccard: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let t = super::opt_unit_arg(min_jaccard, "minJaccard")?
            .unwrap_or(self.inner.params().threshold());
        to_js(&self.inner.all_pairs_with(Some(t)))
    }

    /// Clusters (connected components of `allPairs(minJaccard)`), each sorted.
    #[wasm_bindgen(unchecked_return_type = "string[][]")]
    pub fn clusters(
        &self,
        #[wasm_bindgen(js_name = minJaccard, unchecked_optional_param_type = "number")]
        min_jaccard: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let t = super::opt_unit_arg(min_jaccard, "minJaccard")?
            .unwrap_or(self.inner.params().threshold());
        to_js(&crate::index::clusters::cluster_pairs(
            &self.inner.all_pairs_with(Some(t)),
        ))
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
    pub fn probability(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] s: JsValue,
    ) -> Result<f64, JsValue> {
        Ok(self.inner.params().probability(super::unit_arg(&s, "s")?))
    }

    /// Expected recall for resemblance uniform on [s, 1].
    #[wasm_bindgen(js_name = expectedRecall)]
    pub fn expected_recall(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] s: JsValue,
    ) -> Result<f64, JsValue> {
        Ok(self
            .inner
            .params()
            .expected_recall(super::unit_arg(&s, "s")?))
    }

    /// The index as versioned, checksummed bytes (same as native).
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.inner.to_bytes()
    }

    /// Reads `toBytes()` output; throws for corrupt or other-version bytes.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
    ) -> Result<JsMinHashLsh, JsValue> {
        Ok(JsMinHashLsh {
            inner: MinHashLsh::from_bytes(&super::bytes_arg(&bytes, "bytes")?).map_err(js_error)?,
        })
    }
}
