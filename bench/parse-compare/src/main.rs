//! Times three ways to parse docs-bench's JSON lines (the CLI's record
//! parse, and simd-json tried in its place), five rounds, each the wall
//! time of one pass over the 5,074 lines on this thread. The data folder is
//! `NEARDUP_DATA` (default `../shared/data`). BENCHMARKS.md, "The CLI's
//! record parse".

use simd_json::prelude::*;
use std::time::Instant;

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
        assert!(a == b && b == c, "the parsers disagree on the texts' bytes");
        println!(
            "round {round}: sonic-rs → serde_json::Value {sonic:.1?}, simd-json → serde_json::Value {simd_serde:.1?}, simd-json borrowed with buffers {simd_borrowed:.1?}"
        );
    }
}
