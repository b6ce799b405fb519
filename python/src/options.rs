//! Keyword options → the core's configurations (`DedupConfig`,
//! `CompareConfig`, `SimHashConfig`), read by the core's own serde
//! definitions: keys in snake_case (the core's field names), values checked
//! by the core. Nothing is decided here: an unknown key, a value of the
//! wrong type (`TypeError`) or out of range (`ValueError`) is the core's
//! refusal, naming the option in snake_case.
//!
//! The dedup pipeline's stages also take a reference text (method
//! `multiref`) and a dictionary (`word:K+correct`): given, or the bundled
//! ones where the core says the configuration needs them.

use neardup::dedup::{DedupConfig, MultiRefModel, Stages};
use neardup::multiref::ReferenceFile;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

/// The multireference reference shipped with neardup (trained on
/// docs-bench; EVALUATION.md), the CLI's and the npm package's default.
static REFERENCE: &str = neardup::assets::REFERENCE_JSON;

/// Keyword options → a core configuration that reads itself from JSON:
/// keys in snake_case, turned into the core's camelCase. An unknown key or a
/// bad value is an error naming the key in snake_case: `TypeError` for a
/// value of the wrong type, `ValueError` otherwise. None gives the defaults.
pub fn serde_config<T>(py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<T>
where
    T: serde::de::DeserializeOwned + Default,
{
    let Some(options) = options.filter(|o| !o.is_empty()) else {
        return Ok(T::default());
    };
    let json = py.import("json")?;
    let mut map = serde_json::Map::new();
    for (key, value) in options.iter() {
        let key: String = key
            .extract()
            .map_err(|_| PyTypeError::new_err("option names must be str"))?;
        if value.is_none() {
            continue;
        }
        if let Ok(f) = value.cast::<pyo3::types::PyFloat>() {
            if !f.value().is_finite() {
                return Err(crate::errors::ConfigError::new_err(format!(
                    "invalid option {key}: must be a finite number, got {}",
                    f.value()
                )));
            }
        }
        let text: String = json
            .call_method1("dumps", (&value,))
            .and_then(|t| t.extract())
            .map_err(|_| {
                PyTypeError::new_err(format!(
                    "invalid option {key}: must be a str, int, float or bool, got {}",
                    type_name(&value)
                ))
            })?;
        let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            crate::errors::ConfigError::new_err(format!("invalid option {key}: {e}"))
        })?;
        map.insert(neardup::config::camel_case(&key), v);
    }
    let all = serde_json::Value::Object(map.clone());
    serde_json::from_value(all).map_err(|e| {
        // Name the option: the first key that fails on its own.
        let culprit = map.iter().find(|(k, v)| {
            let mut alone = serde_json::Map::new();
            alone.insert((*k).clone(), (*v).clone());
            serde_json::from_value::<T>(serde_json::Value::Object(alone)).is_err()
        });
        let msg = snake_words(&e.to_string());
        // A core parser's own error already names the option: its reason.
        let msg = match (culprit.is_some(), msg.strip_prefix("invalid option ")) {
            (true, Some(rest)) => rest
                .split_once(": ")
                .map_or(msg.clone(), |(_, r)| r.to_string()),
            _ => msg,
        };
        match culprit {
            Some((k, _)) => {
                let text = format!("invalid option {}: {msg}", snake_case(k));
                if msg.starts_with("invalid type") || msg.starts_with("unknown field") {
                    PyTypeError::new_err(text)
                } else {
                    crate::errors::ConfigError::new_err(text)
                }
            }
            None if msg.starts_with("unknown field") => {
                PyTypeError::new_err(format!("invalid options: {msg}"))
            }
            None => crate::errors::ConfigError::new_err(format!("invalid options: {msg}")),
        }
    })
}

/// The dedup configuration of keyword options (None: the defaults),
/// checked by the core.
pub fn config(py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<DedupConfig> {
    let c: DedupConfig = serde_config(py, options)?;
    c.check().map_err(crate::value_error)?;
    Ok(c)
}

/// The core's stages of `config` with the reference text and dictionary it
/// needs: given (`reference`: a reference JSON text; `dictionary`: a
/// `Speller`), each refused by the core where it does not apply, or the
/// bundled ones. With tf-idf weights the stages still need the collection's
/// document frequencies (`Stages::ready` says so).
pub fn stages(
    config: &DedupConfig,
    reference: Option<&str>,
    dictionary: Option<&crate::speller::Speller>,
) -> PyResult<Stages> {
    let err = crate::value_error;
    let stages = match (reference, config.needs().reference) {
        (Some(_), _) | (None, true) => {
            config.check_option("reference").map_err(err)?;
            let (file, r) =
                ReferenceFile::from_json(reference.unwrap_or(REFERENCE)).map_err(err)?;
            Stages::with_reference(config, MultiRefModel::new(r, file.thresholds).map_err(err)?)
        }
        _ => Stages::new(config),
    }
    .map_err(err)?;
    let dictionary = match dictionary {
        Some(d) => Some(d.dictionary()),
        None if config.needs().dictionary => Some(crate::speller::english()?),
        None => None,
    };
    match dictionary {
        Some(d) => stages.with_dictionary(d).map_err(err),
        None => Ok(stages),
    }
}

/// The reference's model for a deduplicator snapshot of the multiref method
/// (given, else the bundled one).
pub fn model(reference: Option<&str>) -> PyResult<MultiRefModel> {
    let (file, r) =
        ReferenceFile::from_json(reference.unwrap_or(REFERENCE)).map_err(crate::value_error)?;
    MultiRefModel::new(r, file.thresholds).map_err(crate::value_error)
}

/// A shared dictionary for `+correct` (given, else the bundled English one).
pub fn dictionary(
    dictionary: Option<&crate::speller::Speller>,
) -> PyResult<Arc<neardup::spell::Dictionary>> {
    match dictionary {
        Some(d) => Ok(d.dictionary()),
        None => crate::speller::english(),
    }
}

pub(crate) fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// `numPerm` → `num_perm`.
fn snake_case(camel: &str) -> String {
    let mut out = String::with_capacity(camel.len() + 4);
    for c in camel.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The camelCase names quoted in a serde message (`` `wordK` ``) in
/// snake_case (`` `word_k` ``); the rest of the message is kept.
fn snake_words(message: &str) -> String {
    let mut out = String::with_capacity(message.len() + 8);
    let (mut quoted, mut prev_lower) = (false, false);
    for c in message.chars() {
        if c == '`' {
            quoted = !quoted;
        }
        if quoted && c.is_ascii_uppercase() && prev_lower {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
    }
    out
}
