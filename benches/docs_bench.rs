//! docs-bench for the benchmarks that read it (`benches/pipeline.rs`,
//! `benches/spec_v2_candidates.rs`): its path, its documents, and the
//! "1 MiB of text" of BENCHMARKS.md. Included by `#[path]` (also by
//! `benches/sketch_wasm_native.rs`, which needs only the documents).

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

/// `NEARDUP_DATA`, else `../shared/data` beside the crate.
pub fn data_dir() -> PathBuf {
    std::env::var_os("NEARDUP_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}

/// Every document of `docs-bench/docs.jsonl`, id → text.
pub fn load_docs() -> HashMap<String, String> {
    let path = data_dir().join("docs-bench/docs.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON line");
            (
                v["id"].as_str().expect("id").to_string(),
                v["text"].as_str().expect("text").to_string(),
            )
        })
        .collect()
}

/// About `n` bytes of text: whole documents in id order, each followed by a
/// blank line, then cut at a char boundary.
pub fn corpus_chunk(docs: &HashMap<String, String>, n: usize) -> String {
    let mut ids: Vec<&String> = docs.keys().collect();
    ids.sort();
    let mut s = String::with_capacity(n + 10_000);
    for id in ids {
        if s.len() >= n {
            break;
        }
        s.push_str(&docs[id]);
        s.push_str("\n\n");
    }
    let mut end = n.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.truncate(end);
    s
}
