//! The normaliser's word path alone: each docs-bench text into its spec-2
//! word-token hashes (`Document::for_shingling` with word 5-shingles, the
//! tricks undone as at the defaults, then `token_hashes`), what word
//! shingles read of a text and the largest part of `neardup dedup
//! --shingle word:5`'s CPU. Five passes over docs-bench's texts a round,
//! seven rounds; prints the fastest round's time a pass (this thread's
//! CPU) and the tokens a pass. For comparing two builds of the tokeniser
//! in turn (BENCHMARKS.md, "Batches bounded by their bytes"):
//!   cargo bench --features serde --bench tokenize

#[path = "anchor_jobs.rs"]
#[allow(dead_code)]
mod anchor_jobs;
use anchor_jobs::cpu_seconds;
#[path = "docs_bench.rs"]
mod docs_bench;
use docs_bench::load_docs_in_order;
use neardup::hash::Spec;
use neardup::{Document, Normalization, Shingling};
use std::hint::black_box;

fn main() {
    let docs = load_docs_in_order();
    let mb = docs.iter().map(|d| d.1.len()).sum::<usize>() as f64 / 1e6;
    let mut best = f64::MAX;
    let mut tokens = 0;
    for _ in 0..7 {
        let t = cpu_seconds();
        for _ in 0..5 {
            tokens = 0;
            for (_, text) in &docs {
                let doc = Document::for_shingling(
                    black_box(text),
                    0,
                    Normalization::default(),
                    Spec::V2,
                    Shingling::Words(5),
                );
                tokens += black_box(doc.token_hashes()).len();
            }
        }
        best = best.min((cpu_seconds() - t) / 5.0);
    }
    println!(
        "{} texts, {mb:.1} MB, {tokens} tokens: {:.2} ms a pass (the fastest of 7 rounds of 5), {:.2} ns a token",
        docs.len(),
        best * 1e3,
        best * 1e9 / tokens as f64
    );
}
