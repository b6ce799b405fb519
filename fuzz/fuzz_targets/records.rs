//! The CLI's JSONL record parse (`src/bin/neardup/record.rs`, compiled here
//! as it is: sonic-rs into serde_json's `Value`), against serde_json's own
//! parser as the reference. Whatever the line, there is no panic. The
//! parse gives a record exactly when serde_json reads the line as a JSON
//! value with a string at `text`. The record's text is serde_json's, its id
//! is serde_json's string (or its JSON text, or the line number). The
//! first input byte chooses the fields: top-level or nested at `meta.`.
#![no_main]

#[path = "../../src/bin/neardup/record.rs"]
mod record;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Some((&choice, line)) = data.split_first() else {
        return;
    };
    let fields = if choice & 1 == 0 {
        record::Fields::default()
    } else {
        record::Fields {
            text: "meta.text".into(),
            id: "meta.0".into(),
        }
    };
    let got = record::parse_line(line, 7, &fields);
    let reference: Option<Value> = serde_json::from_slice(line).ok();
    // The fields' paths as the CLI walks them; the value they walk is
    // serde_json's.
    let at = |v: &Value, path: &str| record::lookup(v, path).cloned();
    let want = reference.as_ref().and_then(|v| match at(v, &fields.text) {
        Some(Value::String(t)) => {
            let id = match at(v, &fields.id) {
                Some(Value::String(s)) => s,
                Some(other) => other.to_string(),
                None => "7".to_string(),
            };
            Some((id, t))
        }
        _ => None,
    });
    match (got, want) {
        (Ok(g), Some(w)) => assert_eq!(g, w, "{:?}", String::from_utf8_lossy(line)),
        (Err(_), None) => {}
        (Ok(g), None) => panic!(
            "a record {g:?} where serde_json reads none: {:?}",
            String::from_utf8_lossy(line)
        ),
        (Err(e), Some(w)) => panic!(
            "no record ({e:#}) where serde_json reads {w:?}: {:?}",
            String::from_utf8_lossy(line)
        ),
    }
});
