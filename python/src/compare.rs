//! `compare(a, b, **options)`: every measure of two texts and their shared
//! passages (the core's `neardup::compare`, Broder 1997; Clough & Stevenson
//! 2011), as a dict — the report the CLI writes with `--json`.

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Compares suspicious text `a` with source `b`: `score` (containment of
/// `a`'s word 3-shingles in `b`'s, in [0, 1]), resemblance, containment both
/// ways, Dice, cosine, and the shared passages with byte ranges. Options:
/// the core's `CompareConfig` in snake_case (`word_k`, `char_q`, …).
/// `ValueError` for an empty text or a bad option.
#[pyfunction]
#[pyo3(signature = (a, b, **options))]
pub fn compare<'py>(
    py: Python<'py>,
    a: &str,
    b: &str,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let json = py.import("json")?;
    let config: neardup::CompareConfig = match options {
        Some(o) => {
            let text: String = json.call_method1("dumps", (o,))?.extract()?;
            let camel = camel_keys(&text);
            serde_json::from_str(&camel).map_err(|e| {
                pyo3::exceptions::PyValueError::new_err(format!("invalid options: {e}"))
            })?
        }
        None => neardup::CompareConfig::default(),
    };
    let (a, b) = (a.to_string(), b.to_string());
    let report = py
        .detach(|| neardup::compare(&a, &b, &config))
        .map_err(crate::value_error)?;
    let text = serde_json::to_string(&report)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    json.call_method1("loads", (text,))
}

/// `{"word_k": 3}` → `{"wordK": 3}`: the keys of a flat JSON object.
fn camel_keys(json: &str) -> String {
    let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(json) else {
        return json.to_string();
    };
    let map: serde_json::Map<String, serde_json::Value> = map
        .into_iter()
        .map(|(k, v)| {
            let mut out = String::new();
            let mut up = false;
            for c in k.chars() {
                if c == '_' {
                    up = true;
                } else if up {
                    out.extend(c.to_uppercase());
                    up = false;
                } else {
                    out.push(c);
                }
            }
            (out, v)
        })
        .collect();
    serde_json::Value::Object(map).to_string()
}
