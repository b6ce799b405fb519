//! What the whole-job benchmarks share (`benches/dedup_anchor.rs`,
//! `benches/gaoya_anchor.rs`; included by `#[path]`, docs-bench read by
//! `docs_bench.rs`): the CPU time of this thread, and the anchor's job — gaoya 0.2.2's
//! MinHash-128 LSH at threshold 0.5 over the raw texts. `gaoya_anchor` runs
//! that job alone, in a binary that holds no neardup code, so that its CPU
//! does not move with neardup's commits (BENCHMARKS.md, "The Xeon again").

use gaoya::minhash::{calculate_minhash_params, MinHashIndex, MinHasher as _, MinHasher32};
use gaoya::text::{shingle_text, whitespace_split};
use std::io::Write;

/// CPU seconds of this thread: the time it ran on a CPU, in nanoseconds
/// (`/proc/thread-self/schedstat`, first field), where the kernel gives it;
/// else user + system time of the process in ticks of 10 ms
/// (`/proc/self/stat`), too coarse for a job of 0.15 s.
pub fn cpu_seconds() -> f64 {
    let ns = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok());
    if let Some(ns) = ns {
        return ns as f64 / 1e9;
    }
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which ends with ')'): utime is the
    // 12th, stime the 13th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// gaoya's whole job: sketch every text (5-grams of the raw text, or word
/// 5-shingles split at ASCII whitespace and punctuation when `words`),
/// index, query every signature, write the pairs whose estimate reaches
/// 0.5 (to memory). Returns the number of pairs.
pub fn gaoya_job(docs: &[(String, String)], words: bool) -> usize {
    // gaoya's index needs bands × rows values: 126 of the 128 here.
    let (b, r) = calculate_minhash_params(0.5, 128);
    let hasher = MinHasher32::new(b * r);
    let mut index = MinHashIndex::<u32, u32>::new(b, r, 0.5);
    let mut sigs = Vec::with_capacity(docs.len());
    for (i, (_, text)) in docs.iter().enumerate() {
        let sig = if words {
            let w: Vec<&str> = whitespace_split(text).collect();
            hasher.create_signature(w.windows(5))
        } else {
            hasher.create_signature(shingle_text(text, 5))
        };
        index.insert(i as u32, sig.clone());
        sigs.push(sig);
    }
    let mut out = Vec::new();
    let mut n = 0;
    for (i, sig) in sigs.iter().enumerate() {
        for (j, sim) in index.query_owned_return_similarity(sig) {
            if j as usize > i {
                writeln!(out, "{}\t{}\t{sim:.4}", docs[i].0, docs[j as usize].0).expect("write");
                n += 1;
            }
        }
    }
    n
}
