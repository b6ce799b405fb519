//! `SimHashIndex`: the permuted-block Hamming index (Manku et al. 2007); see
//! the Rust `neardup::simhash::SimHashIndex`.

use super::simhash::JsFingerprint;
use super::{js_error, to_js};
use crate::simhash::{SimHashIndex, SimHashIndexConfig};
use crate::NearDupIndex;
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

/// The permuted-block Hamming index, exact for distances up to `maxK`.
#[wasm_bindgen(js_name = SimHashIndex)]
pub struct JsSimHashIndex {
    inner: SimHashIndex,
}

#[wasm_bindgen(js_class = SimHashIndex)]
impl JsSimHashIndex {
    /// An empty index exact for Hamming distance up to `maxK` (0..=16,
    /// default 3), with `blocks` blocks (default maxK + 2).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(js_name = maxK, unchecked_optional_param_type = "number")] max_k: Option<
            JsValue,
        >,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] blocks: Option<JsValue>,
    ) -> Result<JsSimHashIndex, JsValue> {
        let config = SimHashIndexConfig {
            max_k: super::opt_int_arg(max_k, "maxK", 0, u32::MAX)?
                .unwrap_or(SimHashIndexConfig::default().max_k),
            blocks: super::opt_int_arg(blocks, "blocks", 0, u32::MAX)?,
        };
        Ok(JsSimHashIndex {
            inner: SimHashIndex::new(&config).map_err(js_error)?,
        })
    }

    /// Adds `fingerprint` as `id`; throws for a duplicate id or a fingerprint
    /// of another configuration.
    pub fn insert(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        fingerprint: &JsFingerprint,
    ) -> Result<(), JsValue> {
        let id = &super::id_arg(id, "id")?;
        self.inner.insert(id, fingerprint.inner).map_err(js_error)
    }

    /// The bucket keys of `fingerprint`, one per table (`tables` values,
    /// none for an empty fingerprint): two fingerprints within Hamming
    /// distance `maxK` share at least one key. For stores outside this index
    /// (the edge Worker keeps `key → ids` in SQLite and checks distances);
    /// stable across versions and platforms. Throws for a fingerprint of
    /// another configuration than the index holds.
    #[wasm_bindgen(js_name = tableKeys)]
    pub fn table_keys(&self, fingerprint: &JsFingerprint) -> Result<Vec<u64>, JsValue> {
        self.inner.table_keys(&fingerprint.inner).map_err(js_error)
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

    /// The fingerprint of `id`, or `undefined`.
    pub fn get(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> Result<Option<JsFingerprint>, JsValue> {
        let id = &super::id_arg(id, "id")?;
        Ok(self
            .inner
            .fingerprint(id)
            .map(|inner| JsFingerprint { inner }))
    }

    /// Every fingerprint within distance `k` (default maxK) of
    /// `fingerprint`, exactly, nearest first then by id: `[{id, distance}]`.
    #[wasm_bindgen(unchecked_return_type = "Hit[]")]
    pub fn query(
        &self,
        fingerprint: &JsFingerprint,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] k: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let k = super::opt_int_arg(k, "k", 0, 64)?.unwrap_or(self.inner.max_k());
        to_js(
            &self
                .inner
                .query_within(&fingerprint.inner, k)
                .map_err(js_error)?,
        )
    }

    /// Every pair within distance `k` (default maxK), once, sorted:
    /// `[{a, b, distance}]`.
    #[wasm_bindgen(js_name = allPairs, unchecked_return_type = "Pair[]")]
    pub fn all_pairs(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] k: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let k = super::opt_int_arg(k, "k", 0, 64)?.unwrap_or(self.inner.max_k());
        to_js(&self.inner.all_pairs_within(k).map_err(js_error)?)
    }

    /// Clusters of ids within distance `k` (default maxK), each sorted.
    #[wasm_bindgen(unchecked_return_type = "string[][]")]
    pub fn clusters(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] k: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let k = super::opt_int_arg(k, "k", 0, 64)?.unwrap_or(self.inner.max_k());
        to_js(&self.inner.clusters_within(k).map_err(js_error)?)
    }

    /// Number of fingerprints.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        self.inner.len() as u32
    }

    /// The largest exact distance.
    #[wasm_bindgen(getter, js_name = maxK)]
    pub fn max_k(&self) -> u32 {
        self.inner.max_k()
    }

    /// Number of tables.
    #[wasm_bindgen(getter)]
    pub fn tables(&self) -> u32 {
        self.inner.tables() as u32
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
    ) -> Result<JsSimHashIndex, JsValue> {
        Ok(JsSimHashIndex {
            inner: SimHashIndex::from_bytes(&super::bytes_arg(&bytes, "bytes")?)
                .map_err(js_error)?,
        })
    }
}
