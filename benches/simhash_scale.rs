//! Scale benchmark of the permuted-block SimHash index against brute force:
//! build time, memory per fingerprint, query latency at k = 3 and k = 6 (and
//! k = 10 up to 1 M: the pipeline's distance, where the index searches by
//! multi-index hashing), and all-pairs time, at 1 M and 10 M fingerprints. One-shot timings (not
//! criterion). Run: `cargo bench --bench simhash_scale` (or `-- 1000000`).
//!
//! Fingerprints are random 64-bit values, with every 100th a near copy (1–6
//! bits flipped) of the one before, so queries and all-pairs have answers.
//! Brute force: a linear scan per query; its all-pairs time is extrapolated
//! from the measured cost of one distance (n²/2 of them).
//!
//! The anchor, gaoya 0.2.2's `SimHashIndex` with the same design (`k + 2`
//! blocks, `C(k + 2, 2)` tables), is built on the same fingerprints and
//! queried with the same queries, alternating with neardup's query by query;
//! its recall is the share of the exact matches it returns (its filter keeps
//! distances `< k`, so it misses those at exactly `k`).

use neardup::hash::SplitMix64;
use neardup::simhash::{hamming_distance, Fingerprint, SimHashIndex, SimHashIndexConfig};
use neardup::NearDupIndex;
use std::time::Instant;

#[path = "common.rs"]
mod common;
use common::rss_bytes;

fn main() {
    let sizes = common::sizes(&[1_000_000, 10_000_000]);
    println!("| fingerprints | k | tables | build (inserts / bulk) | bytes/fp (RSS) | query p50 | query p99 | gaoya query p50 / p99 | gaoya recall | brute-force query p50 | all-pairs | pairs | brute-force all-pairs (extrapolated) |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for n in sizes {
        let mut rng = SplitMix64::new(7);
        let mut fps: Vec<u64> = Vec::with_capacity(n);
        for i in 0..n {
            if i % 100 == 1 {
                let mut f = fps[i - 1];
                for _ in 0..1 + rng.next() % 6 {
                    f ^= 1 << (rng.next() % 64);
                }
                fps.push(f);
            } else {
                fps.push(rng.next());
            }
        }
        let ids: Vec<String> = (0..n).map(|i| format!("{i:08}")).collect();
        // Cost of one distance, for the brute-force extrapolation.
        let t = Instant::now();
        let mut acc = 0u64;
        for w in fps.windows(2).take(10_000_000) {
            acc += hamming_distance(w[0], w[1]) as u64;
        }
        let per_distance = t.elapsed().as_secs_f64() / (n.min(10_000_001) - 1) as f64;
        std::hint::black_box(acc);
        // k = 10 (the pipeline's distance: multi-index hashing, the bucket
        // store's parts layout) up to 1 M only: its all-pairs is a query
        // per fingerprint.
        let ks: &[u32] = if n <= 1_000_000 { &[3, 6, 10] } else { &[3, 6] };
        for &k in ks {
            let before = rss_bytes();
            let t = Instant::now();
            let config = SimHashIndexConfig::default().max_k(k);
            let mut index = SimHashIndex::new(&config).expect("index");
            for (id, &fp) in ids.iter().zip(&fps) {
                index
                    .insert(id, Fingerprint::from_value(fp))
                    .expect("insert");
            }
            let build = t.elapsed().as_secs_f64();
            let per_fp = rss_bytes().saturating_sub(before) as f64 / n as f64;
            let t = Instant::now();
            let mut bulk = SimHashIndex::new(&config).expect("index");
            bulk.insert_many(
                ids.iter()
                    .map(|s| s.as_str())
                    .zip(fps.iter().map(|&f| Fingerprint::from_value(f))),
            )
            .expect("bulk");
            let bulk_build = t.elapsed().as_secs_f64();
            drop(bulk);

            let mut gaoya_index =
                gaoya::simhash::SimHashIndex::<u64, u32>::new(k as usize + 2, k as usize);
            for (i, &fp) in fps.iter().enumerate() {
                gaoya_index.insert(i as u32, fp);
            }

            let mut lat = Vec::new();
            let mut gaoya_lat = Vec::new();
            let (mut exact_found, mut gaoya_found) = (0usize, 0usize);
            let mut brute = Vec::new();
            for (qi, q) in (0..n).step_by(n / 1000).enumerate() {
                let mut fp = fps[q];
                fp ^= 1 << (q % 64);
                let t = Instant::now();
                let got = index
                    .query_within(&Fingerprint::from_value(fp), k)
                    .expect("query")
                    .len();
                lat.push(t.elapsed().as_secs_f64() * 1e6);
                let t = Instant::now();
                let g = gaoya_index.query(&fp).len();
                gaoya_lat.push(t.elapsed().as_secs_f64() * 1e6);
                exact_found += got;
                gaoya_found += g;
                if qi < 50 {
                    let t = Instant::now();
                    let want = fps
                        .iter()
                        .filter(|&&f| hamming_distance(f, fp) <= k)
                        .count();
                    brute.push(t.elapsed().as_secs_f64() * 1e6);
                    assert_eq!(got, want, "index and brute force disagree");
                }
            }
            drop(gaoya_index);
            lat.sort_by(f64::total_cmp);
            gaoya_lat.sort_by(f64::total_cmp);
            brute.sort_by(f64::total_cmp);
            let p = |v: &[f64], q: f64| v[((v.len() - 1) as f64 * q) as usize];
            let t = Instant::now();
            let pairs = index.all_pairs_within(k).expect("pairs").len();
            let all = t.elapsed().as_secs_f64();
            let brute_all = per_distance * n as f64 * (n as f64 - 1.0) / 2.0;
            println!(
                "| {n} | {k} | {} | {build:.1} s / {bulk_build:.1} s | {per_fp:.0} | {:.1} µs | {:.1} µs | {:.1} / {:.1} µs | {:.3} | {:.0} µs | {all:.1} s | {pairs} | {:.0} s |",
                index.tables(),
                p(&lat, 0.5),
                p(&lat, 0.99),
                p(&gaoya_lat, 0.5),
                p(&gaoya_lat, 0.99),
                gaoya_found as f64 / exact_found.max(1) as f64,
                p(&brute, 0.5),
                brute_all
            );
            drop(index);
        }
    }
}
