//! Shingle sets alone: each docs-bench text's spec-2 character 5-grams (the
//! defaults' shingles, hashed once before the clock starts) made into a
//! `ShingleSet` (repeats dropped, sorted ascending) — what verification
//! (`--method simhash`, `--verify`), the exact join and every set measure
//! build for each document, and the largest part of `neardup dedup
//! --method simhash`'s CPU. Seven rounds of three passes; prints the
//! fastest round's time a pass (this thread's CPU), a q-gram and the share
//! of q-grams that are repeats. For comparing two builds in turn
//! (BENCHMARKS.md, "Repeats dropped before the sort"):
//!   cargo bench --features serde --bench shingle_sets

#[path = "anchor_jobs.rs"]
#[allow(dead_code)]
mod anchor_jobs;
use anchor_jobs::cpu_seconds;
#[path = "docs_bench.rs"]
mod docs_bench;
use docs_bench::load_docs_in_order;
use neardup::hash::Spec;
use neardup::{Document, Normalization, ShingleSet, Shingling};
use std::hint::black_box;

fn main() {
    let docs = load_docs_in_order();
    // The whole texts, then each text's first 70 words: the shape of
    // `scripts/make-million.mjs`'s synthetic documents (a few hundred
    // q-grams a set), on which the growth of `--method simhash` is measured.
    let short: Vec<String> = docs
        .iter()
        .map(|(_, text)| {
            text.split_whitespace()
                .take(70)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let whole: Vec<&str> = docs.iter().map(|(_, text)| text.as_str()).collect();
    let short: Vec<&str> = short.iter().map(String::as_str).collect();
    for (name, texts) in [("whole texts", &whole), ("first 70 words", &short)] {
        run(name, texts);
    }
}

fn run(name: &str, texts: &[&str]) {
    let grams: Vec<std::sync::Arc<[u64]>> = texts
        .iter()
        .map(|text| {
            let c5 = Shingling::Chars(5);
            Document::for_shingling(text, 0, Normalization::default(), Spec::V2, c5).shingles(c5)
        })
        .collect();
    let total: usize = grams.iter().map(|g| g.len()).sum();
    let mut best = f64::MAX;
    let mut distinct = 0;
    for _ in 0..7 {
        let t = cpu_seconds();
        for _ in 0..3 {
            distinct = 0;
            for g in &grams {
                distinct += black_box(ShingleSet::from_slice(black_box(g))).len();
            }
        }
        best = best.min((cpu_seconds() - t) / 3.0);
    }
    println!(
        "{name}: {} texts, {total} q-grams ({:.1} % repeats): {:.1} ms a pass (the fastest of 7 rounds of 3), {:.2} ns a q-gram",
        texts.len(),
        100.0 * (total - distinct) as f64 / total as f64,
        best * 1e3,
        best * 1e9 / total as f64
    );
}
