//! Scale benchmark of the MinHash LSH index: build time, memory per
//! document, query latency and all-pairs time at 100 k and 1 M documents.
//! One-shot timings (not criterion: a 1 M-document build is too long to
//! repeat). Run: `cargo bench --bench lsh_scale` (add `-- 100000` for one size).
//!
//! Signatures are synthetic (128 values of SplitMix64) so that the index,
//! not the hashing of text, is measured; every 100th document is a near copy
//! of the one before it (90 % of its values kept), so that all-pairs has real
//! pairs to find. Memory is the growth of the process's resident set: run one
//! size and scheme per process for it (`-- 1000000 oph`, `-- 1000000
//! classic`).

use neardup::hash::{Spec, SplitMix64};
use neardup::minhash::{LshConfig, MinHashLsh, MinHashScheme, Signature, SignatureKind};
use neardup::shingle::Shingling;
use neardup::NearDupIndex;
use std::time::Instant;

#[path = "common.rs"]
mod common;
use common::rss_bytes;

fn main() {
    let sizes = common::sizes(&[100_000, 1_000_000]);
    println!("| documents | scheme | build | bytes/doc (RSS) | query p50 | query p99 | all-pairs (estimate ≥ 0.5) | pairs | snapshot | snapshot write / read |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    // Schemes named on the command line (`classic`, `oph`), else both. For
    // a clean memory figure run one size and scheme per process: memory
    // freed by a run is reused by the next, which then grows the RSS less.
    let named: Vec<MinHashScheme> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let schemes = if named.is_empty() {
        vec![MinHashScheme::Classic, MinHashScheme::OnePermutation]
    } else {
        named
    };
    for (n, scheme) in sizes
        .iter()
        .flat_map(|&n| schemes.iter().map(move |&s| (n, s)))
    {
        let mut rng = SplitMix64::new(n as u64);
        let mut sigs: Vec<Signature> = Vec::with_capacity(n);
        for i in 0..n {
            let values: Vec<u32> = if i % 100 == 1 {
                sigs[i - 1]
                    .values()
                    .iter()
                    .map(|&v| {
                        if rng.next().is_multiple_of(10) {
                            rng.next() as u32
                        } else {
                            v
                        }
                    })
                    .collect()
            } else {
                (0..128).map(|_| rng.next() as u32).collect()
            };
            sigs.push(
                Signature::from_parts(
                    SignatureKind {
                        spec: Spec::V1,
                        seed: 0,
                        shingling: Shingling::Words(5),
                        scheme,
                    },
                    values,
                )
                .expect("signature"),
            );
        }
        let ids: Vec<String> = (0..n).map(|i| format!("doc{i:08}")).collect();
        let params = LshConfig::default().params().expect("params");
        let before = rss_bytes();
        let t = Instant::now();
        let mut lsh = MinHashLsh::with_params(params, 0);
        for (id, sig) in ids.iter().zip(&sigs) {
            lsh.insert(id, sig.clone()).expect("insert");
        }
        let build = t.elapsed().as_secs_f64();
        let per_doc = (rss_bytes().saturating_sub(before)) as f64 / n as f64;

        let mut lat: Vec<f64> = Vec::new();
        for q in (0..n).step_by((n / 2000).max(1)) {
            let t = Instant::now();
            let r = lsh.query(&sigs[q]).expect("query");
            lat.push(t.elapsed().as_secs_f64() * 1e6);
            assert!(r.iter().any(|h| h.id == ids[q]));
        }
        lat.sort_by(f64::total_cmp);
        let p = |q: f64| lat[((lat.len() - 1) as f64 * q) as usize];

        let t = Instant::now();
        let pairs = lsh.all_pairs().len();
        let all = t.elapsed().as_secs_f64();

        let t = Instant::now();
        let bytes = lsh.to_bytes();
        let write = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let back = MinHashLsh::from_bytes(&bytes).expect("snapshot");
        let read = t.elapsed().as_secs_f64();
        assert_eq!(back.len(), n);
        println!(
            "| {n} | {scheme} | {build:.2} s | {per_doc:.0} | {:.1} µs | {:.1} µs | {all:.2} s | {pairs} | {:.0} MB | {write:.2} s / {read:.2} s |",
            p(0.5),
            p(0.99),
            bytes.len() as f64 / 1e6
        );
    }
}
