//! Times four ways to parse docs-bench's JSON lines (the CLI's record
//! parse, simd-json tried in its place, and sonic-rs into a record type of
//! its own that keeps `id` and `text` and skips any other field), five
//! rounds, each the wall
//! time of one pass over the 5,074 lines on this thread. The data folder is
//! `NEARDUP_DATA` (default `../shared/data`). BENCHMARKS.md, "The CLI's
//! record parse".

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use simd_json::prelude::*;
use std::time::Instant;

/// A record's field: the two kept, any other skipped.
enum Field {
    Id,
    Text,
    Other,
}

impl<'de> de::Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Field;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E>(self, s: &str) -> Result<Field, E> {
                Ok(match s {
                    "id" => Field::Id,
                    "text" => Field::Text,
                    _ => Field::Other,
                })
            }
        }
        d.deserialize_identifier(V)
    }
}

/// A record's id (as JSON gives it) and text, the last of each kept.
struct Record {
    id: Option<serde_json::Value>,
    text: Option<String>,
}

impl<'de> de::Deserialize<'de> for Record {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Record;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Record, A::Error> {
                let mut r = Record { id: None, text: None };
                while let Some(k) = m.next_key::<Field>()? {
                    match k {
                        Field::Id => r.id = Some(m.next_value()?),
                        Field::Text => r.text = Some(m.next_value()?),
                        Field::Other => {
                            m.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(r)
            }
        }
        d.deserialize_map(V)
    }
}

fn main() {
    let data = std::env::var("NEARDUP_DATA").unwrap_or_else(|_| "../shared/data".into());
    let path = format!("{data}/docs-bench/docs.jsonl");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let lines: Vec<&[u8]> = bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    let escapes = bytes.iter().filter(|&&b| b == b'\\').count();
    println!(
        "{} lines, {} bytes, {escapes} backslashes",
        lines.len(),
        bytes.len()
    );
    let mut buf: Vec<u8> = Vec::new();
    for round in 1..=5 {
        let t = Instant::now();
        let mut a = 0usize;
        for l in &lines {
            let v: serde_json::Value = sonic_rs::from_slice(l).expect("sonic-rs");
            a += v["text"].as_str().map_or(0, str::len);
        }
        let sonic = t.elapsed();
        let t = Instant::now();
        let mut b = 0usize;
        for l in &lines {
            buf.clear();
            buf.extend_from_slice(l);
            let v: serde_json::Value = simd_json::serde::from_slice(&mut buf).expect("simd-json");
            b += v["text"].as_str().map_or(0, str::len);
        }
        let simd_serde = t.elapsed();
        let t = Instant::now();
        let mut c = 0usize;
        let mut buffers = simd_json::Buffers::default();
        for l in &lines {
            buf.clear();
            buf.extend_from_slice(l);
            let v = simd_json::to_borrowed_value_with_buffers(&mut buf, &mut buffers)
                .expect("simd-json");
            c += v.get("text").and_then(|t| t.as_str()).map_or(0, str::len);
        }
        let simd_borrowed = t.elapsed();
        let t = Instant::now();
        let mut d = 0usize;
        for l in &lines {
            let r: Record = sonic_rs::from_slice(l).expect("sonic-rs, a record");
            assert!(r.id.is_some(), "a line without an id");
            d += r.text.map_or(0, |t| t.len());
        }
        let typed = t.elapsed();
        assert!(a == b && b == c && c == d, "the parsers disagree on the texts' bytes");
        println!(
            "round {round}: sonic-rs → serde_json::Value {sonic:.1?}, simd-json → serde_json::Value {simd_serde:.1?}, simd-json borrowed with buffers {simd_borrowed:.1?}, sonic-rs → a record type {typed:.1?}"
        );
    }
}
