//! One JSONL record of a collection into its id and text: the parse of
//! every command that reads collections (`input::for_each_record`).
//! Depends on `anyhow`, `serde_json` and `sonic-rs` only, so that `fuzz/`
//! runs it as it is (the `records` target, against serde_json's parser).

use anyhow::{bail, Result};

/// Which JSON fields hold a record's text and id: dotted paths such as
/// `meta.id` (an array index is a number, `items.0.text`).
#[derive(Clone, Debug)]
pub struct Fields {
    pub text: String,
    pub id: String,
}

impl Default for Fields {
    fn default() -> Self {
        Fields {
            text: "text".into(),
            id: "id".into(),
        }
    }
}

/// The value at dotted `path` of `v` (an object's key, or an array's index
/// as a number), `None` where the path leads nowhere.
pub fn lookup<'a>(v: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    path.split('.').try_fold(v, |v, key| match v {
        serde_json::Value::Object(m) => m.get(key),
        serde_json::Value::Array(a) => key.parse::<usize>().ok().and_then(|i| a.get(i)),
        _ => None,
    })
}

/// [`lookup`], for taking the value out.
fn lookup_mut<'a>(v: &'a mut serde_json::Value, path: &str) -> Option<&'a mut serde_json::Value> {
    path.split('.').try_fold(v, |v, key| match v {
        serde_json::Value::Object(m) => m.get_mut(key),
        serde_json::Value::Array(a) => key.parse::<usize>().ok().and_then(|i| a.get_mut(i)),
        _ => None,
    })
}

/// The id and text of JSONL line `n` (1-based) at `fields`: the id as
/// JSON gives it (a string as it is, any other value as its JSON text, the
/// line number when the field is missing), the text a string with its
/// escapes undone.
///
/// # Errors
/// "not valid UTF-8"; "not a JSON object" (any line that is not one JSON
/// value, sonic-rs's message as the cause); "no field …"; "field … is not
/// a string".
pub fn parse_line(line: &[u8], n: usize, fields: &Fields) -> Result<(String, String)> {
    // sonic-rs checks the UTF-8 of the whole line before it parses; the
    // record is built as serde_json's `Value`, so numbers, repeated fields
    // and ids are as serde_json gives them.
    let mut v: serde_json::Value = match sonic_rs::from_slice(line) {
        Ok(v) => v,
        Err(_) if std::str::from_utf8(line).is_err() => bail!("not valid UTF-8"),
        Err(e) => return Err(anyhow::Error::new(e).context("not a JSON object")),
    };
    // The id first: the text is then taken out of the record, not copied.
    let id = match lookup(&v, &fields.id) {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => n.to_string(),
    };
    let text = match lookup_mut(&mut v, &fields.text) {
        Some(serde_json::Value::String(t)) => std::mem::take(t),
        Some(_) => bail!("field {:?} is not a string", fields.text),
        None => bail!("no field {:?}", fields.text),
    };
    Ok((id, text))
}
