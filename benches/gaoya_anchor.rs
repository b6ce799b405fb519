//! The anchor alone: gaoya 0.2.2's whole near-duplicate job on docs-bench
//! (`benches/anchor_jobs.rs`), in a binary that holds no neardup code, so
//! that its CPU does not move with where neardup's commits place code in a
//! shared binary (25–40 % on the Xeon, BENCHMARKS.md "The Xeon again").
//! CPU time of this thread, five rounds, the median reported, in the table
//! form of `dedup_anchor`.
//! Run: `cargo bench --features serde --bench gaoya_anchor`; `-- word`
//! or `-- 5-grams` runs one job. `scripts/bench-anchor.sh` runs it in turn
//! with neardup's jobs and CLI and prints the ratios.

#[path = "anchor_jobs.rs"]
mod anchor_jobs;
use anchor_jobs::{cpu_seconds, gaoya_job};
#[path = "docs_bench.rs"]
mod docs_bench;
use docs_bench::load_docs_in_order;

fn main() {
    let docs = load_docs_in_order();
    let mb = docs.iter().map(|d| d.1.len()).sum::<usize>() as f64 / 1e6;
    let jobs = [("gaoya 5-grams", false), ("gaoya word 5-shingles", true)];
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let chosen = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
    println!("{} documents, {mb:.1} MB", docs.len());
    println!("| job | CPU s (median of 5) | MB/s | pairs |");
    println!("|---|---|---|---|");
    for (name, words) in jobs {
        if !chosen(name) {
            continue;
        }
        let mut cpu = Vec::new();
        let mut pairs = 0;
        for _ in 0..5 {
            let t = cpu_seconds();
            pairs = gaoya_job(&docs, words);
            cpu.push(cpu_seconds() - t);
        }
        cpu.sort_by(f64::total_cmp);
        println!("| {name} | {:.3} | {:.1} | {pairs} |", cpu[2], mb / cpu[2]);
    }
}
