//! `Deduplicator`, `dedupDocuments()` (the package's `dedup()`),
//! `dedupNeeds()` and `dedupDefaults()`: the core's dedup pipeline
//! (`neardup::dedup`) for JavaScript. Documents are checked here (an array
//! or iterable of `{id, text}` or of strings, each id a string and unique)
//! and handed to the core; every option, default and rule is the core's
//! (`DedupConfig`), read from the options object by name. A reference
//! (`MultiRef`) and a dictionary (`Speller`) are taken by value: the
//! package's entry passes `share()`d handles, so the caller's stay usable.

use super::multiref::JsMultiRef;
use super::speller::JsSpeller;
use super::{error_msg, id_arg, js_error, read_options, str_arg, to_js};
use crate::dedup::{DedupConfig, DedupSummary, Deduplicator, Match, Stages};
use crate::tfidf::DocumentFrequencies;
use crate::Error;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const TS: &str = r#"
/** What a configuration needs besides its options: a reference text (`method: "multiref"`), a dictionary (`shingle: "word:K+correct"`), the collection's document frequencies (`weights: "tfidf"`: a first pass). */
export type DedupNeeds = { reference: boolean; dictionary: boolean; frequencies: boolean };
/** Options of `dedupDocuments()`: the configuration (defaults of `neardup dedup`), a progress callback and an `AbortSignal`. */
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
    let config: DedupConfig = read_options(rest.into(), |c: &DedupConfig| c.hash_seed())?;
    config.check().map_err(js_error)?;
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

/// The core's stages of `config`, with the reference and dictionary given
/// (each refused by the core where it does not apply), checked ready to
/// sketch unless tf-idf frequencies are still to be counted.
pub(crate) fn stages_of(
    config: &DedupConfig,
    reference: Option<JsMultiRef>,
    dictionary: Option<JsSpeller>,
    counting: bool,
) -> Result<Stages, JsValue> {
    let stages = match reference {
        Some(r) => Stages::with_reference(config, r.model()?),
        None => Stages::new(config),
    }
    .map_err(js_error)?;
    let stages = match dictionary {
        Some(d) => stages.with_dictionary(d.dictionary()).map_err(js_error)?,
        None => stages,
    };
    match stages.ready() {
        Err(_) if counting && config.needs().frequencies && !config.needs().dictionary => {}
        Err(e) if config.needs().frequencies && !counting => {
            return Err(error_msg(format_args!(
                "{} (dedup() counts them itself; with DedupStages, count() then withFrequencies())",
                e.message_with(super::camel)
            )))
        }
        r => r.map_err(js_error)?,
    }
    Ok(stages)
}

/// Reads the documents of `dedup()`: an array or an iterable.
fn iterate(documents: &JsValue) -> Result<js_sys::IntoIter, JsValue> {
    // A string is iterable too, by characters: refused with the rest.
    if !documents.is_object() {
        return Err(super::type_error(
            "documents",
            "an array or an iterable",
            documents,
        ));
    }
    js_sys::try_iter(documents)?
        .ok_or_else(|| super::type_error("documents", "an array or an iterable", documents))
}

fn deduplicate(
    stages: Stages,
    documents: JsValue,
    progress: Option<js_sys::Function>,
    signal: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let total = documents
        .dyn_ref::<js_sys::Array>()
        .map_or(JsValue::UNDEFINED, |a| JsValue::from(a.length()));
    let report = |done: u32| -> Result<(), JsValue> {
        if let Some(f) = &progress {
            f.call2(&JsValue::NULL, &JsValue::from(done), &total)?;
        }
        Ok(())
    };
    check_signal(&signal)?;
    let add_error = |i: u32, e: crate::Error| {
        error_msg(format_args!(
            "documents[{i}]: {}",
            e.message_with(super::camel)
        ))
    };
    let mut d = if stages.config().needs().frequencies {
        // Two passes: the documents are read once, their document
        // frequencies counted, then they are added.
        let mut docs: Vec<(String, String)> = Vec::new();
        let mut df = DocumentFrequencies::new();
        for (i, item) in iterate(&documents)?.enumerate() {
            let (id, text) = document(item?, i as u32)?;
            stages
                .count(&mut df, &text)
                .map_err(|e| add_error(i as u32, e))?;
            docs.push((id, text));
        }
        let stages = stages
            .with_frequencies(alloc::sync::Arc::new(df))
            .map_err(js_error)?;
        let mut d = Deduplicator::from_stages(stages).map_err(js_error)?;
        d.reserve(docs.len());
        let mut pairs: Vec<DedupPair> = Vec::new();
        for (i, (id, text)) in docs.iter().enumerate() {
            add(&mut d, &mut pairs, id, text).map_err(|e| add_error(i as u32, e))?;
            if (i + 1).is_multiple_of(256) {
                report(i as u32 + 1)?;
                check_signal(&signal)?;
            }
        }
        report(docs.len() as u32)?;
        return result(d, pairs);
    } else {
        let mut d = Deduplicator::from_stages(stages).map_err(js_error)?;
        // An array's length is known: the index sized once for it.
        if let Some(a) = documents.dyn_ref::<js_sys::Array>() {
            d.reserve(a.length() as usize);
        }
        d
    };
    let mut pairs: Vec<DedupPair> = Vec::new();
    let mut i = 0u32;
    for item in iterate(&documents)? {
        let (id, text) = document(item?, i)?;
        add(&mut d, &mut pairs, &id, &text).map_err(|e| add_error(i, e))?;
        i += 1;
        if i.is_multiple_of(256) {
            report(i)?;
            check_signal(&signal)?;
        }
    }
    report(i)?;
    result(d, pairs)
}

/// Adds one document, keeping the pairs it is in.
fn add(
    d: &mut Deduplicator,
    pairs: &mut Vec<DedupPair>,
    id: &str,
    text: &str,
) -> Result<(), crate::Error> {
    let found = d.add(id, text)?;
    pairs.extend(found.into_iter().map(|m| DedupPair {
        a: m.id.to_string(),
        b: id.to_string(),
        similarity: m.verified.similarity,
    }));
    Ok(())
}

fn result(mut d: Deduplicator, pairs: Vec<DedupPair>) -> Result<JsValue, JsValue> {
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
/// `onProgress(done, total)` and `signal`; `reference` (a `MultiRef`, for
/// `method: "multiref"`) and `dictionary` (a `Speller`, for
/// `"word:K+correct"`) are taken by value (pass `share()`d handles; the
/// package's `dedup()` does, and fills in its bundled ones). With
/// `weights: "tfidf"` the documents are read first and their document
/// frequencies counted (Spärck Jones 1972). Throws a TypeError naming the
/// document's position for a missing id or a non-string text, an Error for
/// a duplicate id or bad options (named as in camelCase).
#[wasm_bindgen(js_name = dedupDocuments, unchecked_return_type = "DedupResult")]
pub fn dedup_documents(
    #[wasm_bindgen(unchecked_param_type = "Iterable<DedupDocument>")] documents: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DedupOptions")] options: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "MultiRef")] reference: Option<JsMultiRef>,
    #[wasm_bindgen(unchecked_optional_param_type = "Speller")] dictionary: Option<JsSpeller>,
) -> Result<JsValue, JsValue> {
    let (config, progress, signal) = split_options(options)?;
    let stages = stages_of(&config, reference, dictionary, true)?;
    deduplicate(stages, documents, progress, signal)
}

/// What the configuration of `options` needs besides them, as the core
/// decides it: `{reference, dictionary, frequencies}` — a reference text
/// (`method: "multiref"`), a dictionary (`"word:K+correct"`), document
/// frequencies (`weights: "tfidf"`). Throws for bad options.
#[wasm_bindgen(js_name = dedupNeeds, unchecked_return_type = "DedupNeeds")]
pub fn dedup_needs(
    #[wasm_bindgen(unchecked_optional_param_type = "DedupOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let (config, ..) = split_options(options)?;
    to_js(&config.needs())
}

/// Every option the configuration of `options` uses, with the core's
/// defaults filled in (the band advisor's bands and rows and the index's
/// `k + 2` blocks stay unset): what a settings page or the edge Worker
/// shows. Throws for bad options, as the core checks them.
#[wasm_bindgen(js_name = dedupDefaults, unchecked_return_type = "DedupConfig")]
pub fn dedup_defaults(
    #[wasm_bindgen(unchecked_optional_param_type = "Partial<DedupConfig>")] options: Option<
        JsValue,
    >,
) -> Result<JsValue, JsValue> {
    to_js(&config_of(options)?.with_defaults())
}

/// A configuration read from an options object and checked by the core.
pub(crate) fn config_of(options: Option<JsValue>) -> Result<DedupConfig, JsValue> {
    let config: DedupConfig =
        read_options(options.unwrap_or(JsValue::UNDEFINED), |c: &DedupConfig| {
            c.hash_seed()
        })?;
    config.check().map_err(js_error)?;
    Ok(config)
}

#[wasm_bindgen(js_class = Deduplicator)]
impl JsDeduplicator {
    /// An empty deduplicator with `options` (the configuration of `dedup()`,
    /// without `onProgress` and `signal`), and the reference and dictionary
    /// it needs, taken by value. Throws for bad options, for a missing
    /// reference or dictionary, and for `weights: "tfidf"` (a stream has no
    /// collection to count: use `dedup()`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Partial<DedupConfig>")] options: Option<
            JsValue,
        >,
        #[wasm_bindgen(unchecked_optional_param_type = "MultiRef")] reference: Option<JsMultiRef>,
        #[wasm_bindgen(unchecked_optional_param_type = "Speller")] dictionary: Option<JsSpeller>,
    ) -> Result<JsDeduplicator, JsValue> {
        let config = config_of(options)?;
        Ok(JsDeduplicator {
            inner: Deduplicator::from_stages(stages_of(&config, reference, dictionary, false)?)
                .map_err(js_error)?,
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
        JsDeduplicator::new(options, Some(reference.share()), None)
    }

    /// The near-duplicates of `text` among the documents held, best first
    /// (`[{id, similarity}]`), without adding it.
    #[wasm_bindgen(unchecked_return_type = "DedupMatch[]")]
    pub fn query(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<JsValue, JsValue> {
        let text = &str_arg(text, "text")?;
        matches_js(self.inner.query(text))
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
        matches_js(self.inner.add(id, text))
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

    /// The pairs made, `{a, b, similarity}`, `a` added before `b`, in the
    /// order added: a document is paired with at most one document of each
    /// cluster (a copy with the first copy), so a cluster of `n` has `n − 1`
    /// pairs — what `add()` returned (recomputed from the index: a second
    /// pass).
    #[wasm_bindgen(unchecked_return_type = "DedupPair[]")]
    pub fn pairs(&mut self) -> Result<JsValue, JsValue> {
        pairs_js(self.inner.pairs())
    }

    /// Every near-duplicate pair within clusters (each two members whose
    /// verification passes), as `pairs()`. Time and memory grow as the
    /// square of a cluster's size: throws, before any work, when the
    /// clusters hold more than `maxPairs` pairs of members (default
    /// 10,000,000).
    #[wasm_bindgen(js_name = allPairs, unchecked_return_type = "DedupPair[]")]
    pub fn all_pairs(
        &mut self,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] max_pairs: JsValue,
    ) -> Result<JsValue, JsValue> {
        let max = match max_pairs.as_f64() {
            None if max_pairs.is_undefined() => 10_000_000,
            Some(m) if m >= 1.0 && m.fract() == 0.0 && m <= 9_007_199_254_740_991.0 => m as u64,
            _ => {
                return Err(js_sys::TypeError::new(
                    "maxPairs must be a whole number from 1 to 2^53 - 1",
                )
                .into())
            }
        };
        pairs_js(self.inner.all_pairs(max))
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

    /// Reads `toBytes()` output (a multiref one needs its reference, a
    /// `+correct` one a dictionary to add texts afterwards; both taken by
    /// value). Throws for corrupt or other-version bytes.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "MultiRef")] reference: Option<JsMultiRef>,
        #[wasm_bindgen(unchecked_optional_param_type = "Speller")] dictionary: Option<JsSpeller>,
    ) -> Result<JsDeduplicator, JsValue> {
        let bytes = super::bytes_arg(&bytes, "bytes")?;
        let model = reference.map(|r| r.model()).transpose()?;
        Ok(JsDeduplicator {
            inner: Deduplicator::from_bytes(&bytes, model, dictionary.map(|d| d.dictionary()))
                .map_err(js_error)?,
        })
    }
}

/// The matches of `add` or `query` as `[{id, similarity}]`.
fn matches_js(found: Result<Vec<Match<'_>>, Error>) -> Result<JsValue, JsValue> {
    let found: Vec<DedupMatch> = found
        .map_err(js_error)?
        .into_iter()
        .map(|m| DedupMatch {
            id: m.id.to_string(),
            similarity: m.verified.similarity,
        })
        .collect();
    to_js(&found)
}

/// Pairs as `[{a, b, similarity}]`.
fn pairs_js(pairs: Result<Vec<crate::dedup::DedupPair<'_>>, Error>) -> Result<JsValue, JsValue> {
    let pairs: Vec<DedupPair> = pairs
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
