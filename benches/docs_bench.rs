//! docs-bench for the benchmarks that read it (`benches/pipeline.rs`,
//! `benches/spec_v2_candidates.rs`, `benches/sketch_wasm_native.rs`, and
//! `benches/dedup_anchor.rs` and `gaoya_anchor.rs`): its path, its
//! documents, the "1 MiB of text" of BENCHMARKS.md and the documents of the
//! 1 MiB sample. Included by `#[path]`; each bench uses some of it.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

/// `NEARDUP_DATA`, else `../shared/data` beside the crate.
pub fn data_dir() -> PathBuf {
    std::env::var_os("NEARDUP_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}

/// `(id, text)` of every line of `docs-bench/docs.jsonl`, in file order.
pub fn load_docs_in_order() -> Vec<(String, String)> {
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

/// Every document of `docs-bench/docs.jsonl`, id → text.
pub fn load_docs() -> HashMap<String, String> {
    load_docs_in_order().into_iter().collect()
}

/// The documents of the "1 MiB" sample: whole documents in id order until
/// they hold at least `n` bytes.
pub fn sample_docs(docs: &HashMap<String, String>, n: usize) -> Vec<String> {
    let mut ids: Vec<&String> = docs.keys().collect();
    ids.sort();
    let mut out = Vec::new();
    let mut total = 0;
    for id in ids {
        if total >= n {
            break;
        }
        total += docs[id].len();
        out.push(docs[id].clone());
    }
    out
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
