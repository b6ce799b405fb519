//! `Deduplicator` and `dedup()`: the core's dedup pipeline
//! (`neardup::dedup`) for JavaScript. Documents are checked here (an array
//! or iterable of `{id, text}` or of strings, each id a string and unique)
//! and handed to the core one at a time; nothing is found or measured here.

use super::multiref::JsMultiRef;
use super::{error_msg, id_arg, js_error, read_options, str_arg, to_js};
use crate::dedup::{DedupConfig, DedupSummary, Deduplicator};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const TS: &str = r#"
/** Options of `dedup()` and `new Deduplicator()`: the configuration (defaults of `neardup dedup`), and for `dedup()` a progress callback and an `AbortSignal`. */
export type DedupOptions = Partial<DedupConfig> & {
  /** Called every 256 documents and at the end: documents added, and their total when `documents` is an array. */
  onProgress?: (done: number, total: number | undefined) => void;
  /** Read between batches of 256 documents: once aborted, `dedup()` throws its reason. */
  signal?: AbortSignal;
};
/** A document of `dedup()`: `{id, text}`, or a string whose id is its index. */
export type DedupDocument = { id: string; text: string } | string;
"#;

/// A pair of near-duplicates: `a` was added before `b`.
#[derive(Serialize, tsify::Tsify)]
pub struct DedupPair {
    /// The id added first.
    pub a: String,
    /// The id added second.
    pub b: String,
    /// Similarity in [0, 1]: the exact Jaccard when verified, else the
    /// MinHash estimate, the multireference cosine, or `1 − d/64`.
    pub similarity: f64,
}

/// A near-duplicate already added.
#[derive(Serialize, tsify::Tsify)]
pub struct DedupMatch {
    /// Its id.
    pub id: String,
    /// Similarity in [0, 1] (as in a pair).
    pub similarity: f64,
}

/// What `dedup()` returns.
#[derive(Serialize, tsify::Tsify)]
pub struct DedupResult {
    /// Every near-duplicate pair once, `a` before `b` in input order.
    pub pairs: Vec<DedupPair>,
    /// Clusters with two members or more, each in input order (its first
    /// member is the one kept), ordered by first member.
    pub clusters: Vec<Vec<String>>,
    /// The ids to keep, in input order: all but the later members of each
    /// cluster.
    pub keep: Vec<String>,
    /// Documents, pairs, clusters and duplicates.
    pub summary: DedupSummary,
}

/// The dedup pipeline of the core over a stream of documents: each `add`
/// answers "have I seen this, or a near copy of it?" with the near-duplicates
/// already added, best first; pairs, clusters and what to keep at any time
/// (Broder 1997; Indyk & Motwani 1998; Charikar 2002; Manku et al. 2007).
#[wasm_bindgen(js_name = Deduplicator)]
pub struct JsDeduplicator {
    inner: Deduplicator,
}

/// Splits `dedup()`'s options into the configuration and the callbacks.
fn split_options(
    options: Option<JsValue>,
) -> Result<(DedupConfig, Option<js_sys::Function>, Option<JsValue>), JsValue> {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    if options.is_undefined() || options.is_null() {
        return Ok((DedupConfig::default(), None, None));
    }
    if !options.is_object() {
        return Err(error_msg("invalid options: expected an object"));
    }
    let get = |k: &str| js_sys::Reflect::get(&options, &JsValue::from_str(k)).unwrap_or_default();
    let progress = get("onProgress");
    let progress = match progress.is_undefined() || progress.is_null() {
        true => None,
        false => Some(
            progress
                .dyn_into::<js_sys::Function>()
                .map_err(|v| super::type_error("onProgress", "a function", &v))?,
        ),
    };
    let signal = get("signal");
    let signal = (!signal.is_undefined() && !signal.is_null()).then_some(signal);
    if let Some(s) = &signal {
        if js_sys::Reflect::get(s, &JsValue::from_str("aborted"))
            .ok()
            .and_then(|a| a.as_bool())
            .is_none()
        {
            return Err(super::type_error("signal", "an AbortSignal", s));
        }
    }
    let rest = js_sys::Object::new();
    for entry in js_sys::Object::entries(options.unchecked_ref()).iter() {
        let entry: js_sys::Array = entry.unchecked_into();
        let key = entry.get(0).as_string().unwrap_or_default();
        if key != "onProgress" && key != "signal" {
            let _ = js_sys::Reflect::set(&rest, &entry.get(0), &entry.get(1));
        }
    }
    let config: DedupConfig = read_options(rest.into(), |c: &DedupConfig| c.seed)?;
    Ok((config, progress, signal))
}

/// Throws the signal's reason once it is aborted.
fn check_signal(signal: &Option<JsValue>) -> Result<(), JsValue> {
    if let Some(s) = signal {
        let aborted = js_sys::Reflect::get(s, &JsValue::from_str("aborted"))
            .ok()
            .and_then(|a| a.as_bool())
            .unwrap_or(false);
        if aborted {
            let reason =
                js_sys::Reflect::get(s, &JsValue::from_str("reason")).unwrap_or(JsValue::UNDEFINED);
            return Err(if reason.is_undefined() {
                error_msg("dedup was aborted")
            } else {
                reason
            });
        }
    }
    Ok(())
}

/// The id and text of `documents[i]`: a TypeError naming the position for
/// anything but a string or an object with string `id` and `text`.
fn document(item: JsValue, i: u32) -> Result<(String, String), JsValue> {
    if item.is_string() {
        return Ok((i.to_string(), str_arg(item, &format!("documents[{i}]"))?));
    }
    if !item.is_object() {
        return Err(super::type_error(
            &format!("documents[{i}]"),
            "an {id, text} object or a string",
            &item,
        ));
    }
    let field = |k: &str| js_sys::Reflect::get(&item, &JsValue::from_str(k)).unwrap_or_default();
    let id = field("id");
    if !id.is_string() {
        return Err(super::type_error(
            &format!("documents[{i}].id"),
            "a string",
            &id,
        ));
    }
    let text = field("text");
    if !text.is_string() {
        return Err(super::type_error(
            &format!("documents[{i}].text"),
            "a string",
            &text,
        ));
    }
    Ok((
        id_arg(id, &format!("documents[{i}].id"))?,
        str_arg(text, &format!("documents[{i}].text"))?,
    ))
}

fn deduplicate(
    mut d: Deduplicator,
    documents: JsValue,
    progress: Option<js_sys::Function>,
    signal: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let total = documents
        .dyn_ref::<js_sys::Array>()
        .map_or(JsValue::UNDEFINED, |a| JsValue::from(a.length()));
    // A string is iterable too, by characters: refused with the rest.
    if !documents.is_object() {
        return Err(super::type_error(
            "documents",
            "an array or an iterable",
            &documents,
        ));
    }
    let iter = js_sys::try_iter(&documents)?
        .ok_or_else(|| super::type_error("documents", "an array or an iterable", &documents))?;
    let mut pairs: Vec<DedupPair> = Vec::new();
    let report = |done: u32| -> Result<(), JsValue> {
        if let Some(f) = &progress {
            f.call2(&JsValue::NULL, &JsValue::from(done), &total)?;
        }
        Ok(())
    };
    check_signal(&signal)?;
    let mut i = 0u32;
    for item in iter {
        let (id, text) = document(item?, i)?;
        let found = d.add(&id, &text).map_err(|e| {
            error_msg(format_args!(
                "documents[{i}]: {}",
                e.message_with(super::camel)
            ))
        })?;
        pairs.extend(found.into_iter().map(|m| DedupPair {
            a: m.id.to_string(),
            b: id.clone(),
            similarity: m.verified.similarity,
        }));
        i += 1;
        if i.is_multiple_of(256) {
            report(i)?;
            check_signal(&signal)?;
        }
    }
    report(i)?;
    to_js(&DedupResult {
        pairs,
        clusters: d
            .clusters()
            .into_iter()
            .map(|c| c.into_iter().map(String::from).collect())
            .collect(),
        keep: d.keep().into_iter().map(String::from).collect(),
        summary: d.summary(),
    })
}

/// Deduplicates a collection with the core's pipeline: `documents` is an
/// array or iterable of `{id, text}` (or of strings, ids then being their
/// indexes as strings); returns `{pairs: [{a, b, similarity}], clusters:
/// [[id, …]], keep: [id, …], summary}`. Options: those of `neardup dedup`
/// in camelCase (defaults: MinHash LSH, `char:5`, threshold 0.5), plus
/// `onProgress(done, total)` and `signal`. Throws a TypeError naming the
/// document's position for a missing id or a non-string text, an Error for
/// a duplicate id or bad options; `method: "multiref"` needs a reference
/// (`dedup(documents, { reference: MultiRef.fromJson(...) })`).
#[wasm_bindgen(js_name = dedupDocuments, unchecked_return_type = "DedupResult")]
pub fn dedup_documents(
    #[wasm_bindgen(unchecked_param_type = "Iterable<DedupDocument>")] documents: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DedupOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let (config, progress, signal) = split_options(options)?;
    let d = Deduplicator::new(&config).map_err(js_error)?;
    deduplicate(d, documents, progress, signal)
}

/// `dedupDocuments` with a multireference model (`method: "multiref"`).
#[wasm_bindgen(js_name = dedupWithReference, unchecked_return_type = "DedupResult")]
pub fn dedup_with_reference(
    #[wasm_bindgen(unchecked_param_type = "Iterable<DedupDocument>")] documents: JsValue,
    reference: &JsMultiRef,
    #[wasm_bindgen(unchecked_optional_param_type = "DedupOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let (config, progress, signal) = split_options(options)?;
    let d = Deduplicator::with_reference(&config, reference.model()?).map_err(js_error)?;
    deduplicate(d, documents, progress, signal)
}

#[wasm_bindgen(js_class = Deduplicator)]
impl JsDeduplicator {
    /// An empty deduplicator with `options` (the configuration of `dedup()`,
    /// without `onProgress` and `signal`). Throws for bad options.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Partial<DedupConfig>")] options: Option<
            JsValue,
        >,
    ) -> Result<JsDeduplicator, JsValue> {
        let config: DedupConfig =
            read_options(options.unwrap_or(JsValue::UNDEFINED), |c: &DedupConfig| {
                c.seed
            })?;
        Ok(JsDeduplicator {
            inner: Deduplicator::new(&config).map_err(js_error)?,
        })
    }

    /// An empty deduplicator of the multiref method with this reference.
    #[wasm_bindgen(js_name = withReference)]
    pub fn with_reference(
        reference: &JsMultiRef,
        #[wasm_bindgen(unchecked_optional_param_type = "Partial<DedupConfig>")] options: Option<
            JsValue,
        >,
    ) -> Result<JsDeduplicator, JsValue> {
        let config: DedupConfig =
            read_options(options.unwrap_or(JsValue::UNDEFINED), |c: &DedupConfig| {
                c.seed
            })?;
        Ok(JsDeduplicator {
            inner: Deduplicator::with_reference(&config, reference.model()?).map_err(js_error)?,
        })
    }

    /// Adds `id` with `text`; returns the near-duplicates already added,
    /// best first: `[{id, similarity}]`. Throws for a duplicate id.
    #[wasm_bindgen(unchecked_return_type = "DedupMatch[]")]
    pub fn add(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<JsValue, JsValue> {
        let id = &id_arg(id, "id")?;
        let text = &str_arg(text, "text")?;
        let found: Vec<DedupMatch> = self
            .inner
            .add(id, text)
            .map_err(js_error)?
            .into_iter()
            .map(|m| DedupMatch {
                id: m.id.to_string(),
                similarity: m.verified.similarity,
            })
            .collect();
        to_js(&found)
    }

    /// Removes `id`; `false` when it was not held. The pairs it was in go,
    /// and the clusters it held together split.
    pub fn remove(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> Result<bool, JsValue> {
        Ok(self.inner.remove(&id_arg(id, "id")?))
    }

    /// `true` when `id` is held.
    pub fn has(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> Result<bool, JsValue> {
        Ok(self.inner.contains(&id_arg(id, "id")?))
    }

    /// Every pair once, `{a, b, similarity}`, `a` added before `b`, in the
    /// order added (recomputed from the index: a second pass).
    #[wasm_bindgen(unchecked_return_type = "DedupPair[]")]
    pub fn pairs(&self) -> Result<JsValue, JsValue> {
        let pairs: Vec<DedupPair> = self
            .inner
            .pairs()
            .map_err(js_error)?
            .into_iter()
            .map(|p| DedupPair {
                a: p.a.to_string(),
                b: p.b.to_string(),
                similarity: p.verified.similarity,
            })
            .collect();
        to_js(&pairs)
    }

    /// Clusters with two members or more, each in the order added (the
    /// first is kept), ordered by first member.
    #[wasm_bindgen(unchecked_return_type = "string[][]")]
    pub fn clusters(&mut self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.clusters())
    }

    /// The ids to keep, in the order added.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn keep(&mut self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.keep())
    }

    /// The ids `keep()` drops, in the order added.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn duplicates(&mut self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.duplicates())
    }

    /// `{documents, pairs, clusters, duplicates}`.
    #[wasm_bindgen(unchecked_return_type = "DedupSummary")]
    pub fn summary(&mut self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.summary())
    }

    /// Number of documents held.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        self.inner.len() as u32
    }

    /// The deduplicator as versioned, checksummed bytes (the same as
    /// native: configuration and every sketch; clusters are rebuilt on load).
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.inner.to_bytes()
    }

    /// Reads `toBytes()` output (a multiref one needs its reference). Throws
    /// for corrupt or other-version bytes.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
        reference: Option<JsMultiRef>,
    ) -> Result<JsDeduplicator, JsValue> {
        let bytes = super::bytes_arg(&bytes, "bytes")?;
        let model = reference.map(|r| r.model()).transpose()?;
        Ok(JsDeduplicator {
            inner: Deduplicator::from_bytes(&bytes, model, None).map_err(js_error)?,
        })
    }
}
