//! Keyword options → the core's `DedupConfig`: the CLI's options in
//! snake_case (`method`, `shingle`, `threshold`, `seed`, `verify`,
//! `num_perm`, `scheme`, `bands`, `rows`, `fp_weight`, `fn_weight`,
//! `candidates`, `k`, `blocks`, `weights`); the core checks every value.

use neardup::dedup::{DedupConfig, DedupMethod};
use neardup::simhash::Weighting;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The option names, for messages.
pub const NAMES: &str = "method, shingle, threshold, seed, verify, num_perm, scheme, bands, rows, \
                         fp_weight, fn_weight, candidates, k, blocks, weights";

fn get<'py, T: FromPyObjectOwned<'py>>(v: &Bound<'py, PyAny>, name: &str) -> PyResult<T> {
    v.extract::<T>().map_err(|_| {
        let got = v
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        PyTypeError::new_err(format!("option {name} has the wrong type: got {got}"))
    })
}

/// The configuration of `options` (None: the defaults), checked.
pub fn config(options: Option<&Bound<'_, PyDict>>) -> PyResult<DedupConfig> {
    let mut c = DedupConfig::default();
    let Some(options) = options else {
        return Ok(c);
    };
    for (key, v) in options.iter() {
        let key: String = key.extract()?;
        if v.is_none() {
            continue;
        }
        match key.as_str() {
            "method" => {
                c.method = get::<String>(&v, "method")?
                    .parse::<DedupMethod>()
                    .map_err(crate::value_error)?
            }
            "shingle" => {
                let s: String = get(&v, "shingle")?;
                let (spec, correct) = match s.strip_suffix("+correct") {
                    Some(spec) => (spec, true),
                    None => (s.as_str(), false),
                };
                c.shingle = spec.parse().map_err(crate::value_error)?;
                c.correct = correct;
            }
            "threshold" => c.threshold = get(&v, "threshold")?,
            "seed" => c.seed = get(&v, "seed")?,
            "verify" => c.verify = Some(get(&v, "verify")?),
            "num_perm" => c.num_perm = Some(get(&v, "num_perm")?),
            "scheme" => {
                c.scheme = Some(
                    get::<String>(&v, "scheme")?
                        .parse()
                        .map_err(crate::value_error)?,
                )
            }
            "bands" => c.bands = Some(get(&v, "bands")?),
            "rows" => c.rows = Some(get(&v, "rows")?),
            "fp_weight" => c.fp_weight = Some(get(&v, "fp_weight")?),
            "fn_weight" => c.fn_weight = Some(get(&v, "fn_weight")?),
            "candidates" => c.candidates = Some(get(&v, "candidates")?),
            "k" => c.k = Some(get(&v, "k")?),
            "blocks" => c.blocks = Some(get(&v, "blocks")?),
            "weights" => {
                c.weights = Some(match get::<String>(&v, "weights")?.as_str() {
                    "tf" => Weighting::Tf,
                    "binary" => Weighting::Binary,
                    w => {
                        return Err(PyValueError::new_err(format!(
                            "invalid option weights: must be tf or binary, got {w:?}"
                        )))
                    }
                })
            }
            other => {
                return Err(PyTypeError::new_err(format!(
                    "unexpected option {other:?} (options: {NAMES})"
                )))
            }
        }
    }
    c.check().map_err(crate::value_error)?;
    Ok(c)
}

/// Keyword options → a core configuration that reads itself from JSON
/// (`CompareConfig`, `SimHashConfig`): keys in snake_case, turned into the
/// core's camelCase; an unknown key or a bad value is a `ValueError` that
/// names it in snake_case. None gives the defaults.
pub fn serde_config<T>(py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<T>
where
    T: serde::de::DeserializeOwned + Default,
{
    let Some(options) = options.filter(|o| !o.is_empty()) else {
        return Ok(T::default());
    };
    let text: String = py
        .import("json")?
        .call_method1("dumps", (options,))
        .map_err(|_| PyTypeError::new_err("options must be str, int, float or bool values"))?
        .extract()?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| PyValueError::new_err(format!("invalid options: {e}")))?;
    let value = match value {
        serde_json::Value::Object(map) => serde_json::Value::Object(
            map.into_iter()
                .map(|(k, v)| (neardup::config::camel_case(&k), v))
                .collect(),
        ),
        v => v,
    };
    serde_json::from_value(value).map_err(|e| {
        PyValueError::new_err(format!("invalid options: {}", snake_words(&e.to_string())))
    })
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
