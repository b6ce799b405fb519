//! Text → MinHash-128 at spec 2, one document at a time over the documents
//! of the 1 MiB sample (`benches/pipeline.rs`'s `docs/` rows), natively:
//! the native side of `bench/wasm-native.mjs`, which
//! times the same loop in the npm package; `scripts/bench-wasm.sh` runs
//! the two in turn and prints the ratios (issue 50 item 4).
//! Run: `cargo bench --features serde --bench sketch_wasm_native`. Prints, for word:5
//! and char:5, the fastest of 15 passes (after one to warm up), in
//! milliseconds: on a shared machine the least disturbed pass. Wall time, as the Node side's: the thread's CPU
//! clock here moves in scheduler ticks (4 ms), too coarse for a 5 ms pass,
//! and Node's process CPU time counts its compiler and collector threads.

#[path = "docs_bench.rs"]
mod docs_bench;
use neardup::hash::Spec;
use neardup::minhash::{MinHashConfig, MinHashScheme, MinHasher};
use neardup::Shingling;
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let sample = docs_bench::sample_docs(&docs_bench::load_docs(), 1 << 20);
    let total: usize = sample.iter().map(String::len).sum();
    println!("{} documents, {total} bytes", sample.len());
    for sh in [Shingling::Words(5), Shingling::Chars(5)] {
        let h = MinHasher::new(
            &MinHashConfig::default()
                .shingle(sh)
                .scheme(MinHashScheme::OnePermutation)
                .spec(Spec::V2),
        )
        .expect("hasher");
        let mut ms = Vec::new();
        for pass in 0..16 {
            let t = Instant::now();
            for d in &sample {
                black_box(h.signature_of_text(black_box(d)));
            }
            // The first pass warms up, as in the Node script.
            if pass > 0 {
                ms.push(t.elapsed().as_secs_f64() * 1e3);
            }
        }
        ms.sort_by(f64::total_cmp);
        println!("native {sh} {:.3} ms", ms[0]);
    }
}
