//! `MinHash`: a MinHash signature being built (Broder 1997); see the Rust
//! `neardup::minhash`.

use super::{js_error, read_options};
use crate::minhash::{MinHashConfig, MinHasher, Signature};
use crate::Document;
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

/// A MinHash signature being built: estimates the Jaccard resemblance of
/// shingle sets.
#[wasm_bindgen(js_name = MinHash)]
pub struct JsMinHash {
    hasher: MinHasher,
    pub(crate) sig: Signature,
}

#[wasm_bindgen(js_class = MinHash)]
impl JsMinHash {
    /// An empty signature. Throws for out-of-range options.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Partial<MinHashConfig>")] options: Option<
            JsValue,
        >,
    ) -> Result<JsMinHash, JsValue> {
        let config: MinHashConfig = read_options(
            options.unwrap_or(JsValue::UNDEFINED),
            |c: &MinHashConfig| c.seed,
        )?;
        let hasher = MinHasher::new(&config).map_err(js_error)?;
        let sig = hasher.empty();
        Ok(JsMinHash { hasher, sig })
    }

    /// Adds the shingles of `text` (normalised as in SPEC.md).
    pub fn update(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<(), JsValue> {
        let text = &super::str_arg(text, "text")?;
        let doc = Document::for_shingling(
            text,
            self.hasher.seed(),
            Default::default(),
            self.hasher.spec(),
            self.hasher.shingling(),
        );
        self.hasher
            .update_document(&mut self.sig, &doc)
            .map_err(js_error)
    }

    /// Empties the signature, keeping its options (datasketch's
    /// `MinHash.clear`): one object then sketches text after text —
    /// `m.clear(); m.update(text); m.toBytes()` — without the cost of
    /// reading the options and freeing an object per text. The values are
    /// those of a new `MinHash` with the same options.
    pub fn clear(&mut self) {
        self.sig = self.hasher.empty();
    }

    /// Adds shingle hashes computed elsewhere (e.g. `wordShingles`).
    #[wasm_bindgen(js_name = updateShingles)]
    pub fn update_shingles(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "BigUint64Array | bigint[]")] hashes: JsValue,
    ) -> Result<(), JsValue> {
        let hashes = super::u64s_arg(&hashes, "hashes")?;
        self.hasher.update(&mut self.sig, &hashes).map_err(js_error)
    }

    /// Estimated Jaccard resemblance with `other`, in [0, 1]. Throws when the
    /// two differ in numPerm, seed or shingle.
    pub fn jaccard(&self, other: &JsMinHash) -> Result<f64, JsValue> {
        self.sig.jaccard(&other.sig).map_err(js_error)
    }

    /// Merges `other` in: this becomes the signature of the union.
    pub fn merge(&mut self, other: &JsMinHash) -> Result<(), JsValue> {
        self.sig.merge(&other.sig).map_err(js_error)
    }

    /// Values per signature.
    #[wasm_bindgen(getter, js_name = numPerm)]
    pub fn num_perm(&self) -> u32 {
        self.sig.num_perm() as u32
    }

    /// How the values are made: `"oph"` (one hash per shingle, optimal
    /// densification) or `"classic"` (numPerm hashes per shingle).
    #[wasm_bindgen(getter)]
    pub fn scheme(&self) -> alloc::string::String {
        self.sig.scheme().name().into()
    }

    /// The version of the shingle hash specification (SPEC.md §3) it was
    /// made under: 1 or 2.
    #[wasm_bindgen(getter)]
    pub fn spec(&self) -> u32 {
        u32::from(self.sig.spec().number())
    }

    /// `true` when nothing has been added.
    #[wasm_bindgen(js_name = isEmpty)]
    pub fn is_empty(&self) -> bool {
        self.sig.is_empty()
    }

    /// The signature's values (a copy).
    pub fn values(&self) -> Vec<u32> {
        self.sig.values().to_vec()
    }

    /// The signature as versioned, checksummed bytes (same as native).
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.sig.to_bytes()
    }

    /// Reads `toBytes()` output; throws for corrupt or other-version bytes.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
    ) -> Result<JsMinHash, JsValue> {
        let sig = Signature::from_bytes(&super::bytes_arg(&bytes, "bytes")?).map_err(js_error)?;
        let config = MinHashConfig {
            num_perm: sig.num_perm() as u32,
            seed: sig.seed(),
            shingle: sig.shingling(),
            scheme: sig.scheme(),
            spec: sig.spec(),
        };
        let hasher = MinHasher::new(&config).map_err(js_error)?;
        Ok(JsMinHash { hasher, sig })
    }
}
