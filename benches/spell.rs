//! Dictionary correction on docs-bench, as `word:K+correct` does it: how
//! many word searches a text at a time and a run take (the memo of a
//! dictionary, `spell::memo`), and the time of `Dictionary::candidates`
//! for each of the run's distinct unknown words (the built-in English
//! dictionary; this thread's CPU, the fastest of three passes). For two
//! builds in turn (BENCHMARKS.md, "Dictionary correction: a bit-parallel
//! distance and a memo a dictionary"):
//!   cargo bench --features serde,assets --bench spell

#[path = "anchor_jobs.rs"]
#[allow(dead_code)]
mod anchor_jobs;
use anchor_jobs::cpu_seconds;
#[path = "docs_bench.rs"]
mod docs_bench;
use docs_bench::load_docs_in_order;
use neardup::spell::Dictionary;
use std::collections::BTreeSet;
use std::hint::black_box;

fn main() {
    let t = cpu_seconds();
    let dictionary = Dictionary::from_bytes(neardup::assets::DICTIONARY_EN).expect("built-in");
    println!(
        "dictionary loaded, indexes built: {:.3} s",
        cpu_seconds() - t
    );
    let docs = load_docs_in_order();
    let (mut tokens, mut per_text) = (0usize, 0usize);
    let mut run: BTreeSet<String> = BTreeSet::new();
    for (_, text) in &docs {
        let n = neardup::text::normalize(text);
        let mut seen = BTreeSet::new();
        for i in 0..n.tokens().len() {
            let word = n.token_str(i).unwrap_or_default();
            tokens += 1;
            if !dictionary.contains(word) && seen.insert(word) {
                per_text += 1;
                run.insert(word.to_string());
            }
        }
    }
    println!(
        "{} texts, {tokens} word tokens; unknown words searched a text at a time: {per_text}, \
         once a run: {}",
        docs.len(),
        run.len()
    );
    let mut best = f64::MAX;
    let mut corrected = 0;
    for _ in 0..3 {
        let t = cpu_seconds();
        corrected = run
            .iter()
            .filter(|w| !black_box(dictionary.candidates(w, 1)).is_empty())
            .count();
        best = best.min(cpu_seconds() - t);
    }
    println!(
        "candidates(word, 1) for the {} distinct unknown words: {:.3} s, {:.1} µs a word \
         ({corrected} with a correction)",
        run.len(),
        best,
        best / run.len() as f64 * 1e6
    );
}
