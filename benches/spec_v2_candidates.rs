//! Candidates for spec version 2's text → shingle hashes (issue 37, item
//! 1), measured beside version 1 on 1 MiB of docs-bench prose, so that the
//! choice is made by measurement. Nothing here is in the core: these are
//! the candidates, written out plainly.
//!
//! Run: `cargo bench --features serde --bench spec_v2_candidates`
//! (`-- --warm-up-time 1 --measurement-time 3` for a quick run). Before the
//! timings it prints, for each candidate, how many distinct shingle values
//! the 1 MiB gives: a collision would show as fewer than version 1's.
//!
//! * **Token hash** (SPEC.md §3's `t_i`): version 1 is
//!   `fmix64(fnv1a64(seed, bytes))`, one multiply per byte in sequence.
//!   Candidates: XXH3-64 with a seed (Collet, xxHash specification v0.8,
//!   `xxhash-rust`) and rapidhash v3 (Nicolas De Carli, after wyhash;
//!   `rapidhash`), both reading up to 16 bytes with two loads.
//! * **Word k-shingle** from token hashes: version 1 is
//!   `combine(seed, [t_i … t_i+k-1])`, k `fmix64` in sequence. Candidates:
//!   `poly`, the Rabin–Karp polynomial `H_i = Σ_m t_(i+m) · P^(k-1-m)`
//!   (mod 2^64, `P` odd) rolled in two multiplies per position, then one
//!   `fmix64(H_i ^ seed)`; `sum`, `fmix64(seed ^ Σ_m t_(i+m) · K_m)` with k
//!   odd constants `K_m` (k independent multiplies, no rolling state).
//! * **Character q-gram**: version 1 is `bytes_hash` of each q-gram's
//!   bytes. Candidates: `poly` over the characters' scalar values, rolled
//!   as above; `pack`, for a q-gram of q ≤ 8 ASCII bytes the bytes
//!   themselves as one little-endian `u64` (rolled by a shift), then
//!   `fmix64(packed ^ seed)` — a bijection, so no two such q-grams collide.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use neardup::hash::Spec::V1;
use neardup::hash::{fmix64, SplitMix64};
use neardup::shingle::{char_shingles, token_hashes, word_shingles};
use neardup::{normalize, Normalized};
use std::collections::HashSet;
use std::hint::black_box;

/// The rolling polynomial's base: odd, with its bits spread (the golden
/// ratio's, as in SplitMix64).
const P: u64 = 0x9e37_79b9_7f4a_7c15;

#[path = "docs_bench.rs"]
mod docs_bench;

fn tokens_xxh3(n: &Normalized, seed: u64) -> Vec<u64> {
    n.token_strs()
        .map(|t| xxhash_rust::xxh3::xxh3_64_with_seed(t.as_bytes(), seed))
        .collect()
}

fn tokens_rapid(n: &Normalized, secrets: &rapidhash::v3::RapidSecrets) -> Vec<u64> {
    n.token_strs()
        .map(|t| rapidhash::v3::rapidhash_v3_seeded(t.as_bytes(), secrets))
        .collect()
}

/// `P^e` mod 2^64.
fn pow(e: usize) -> u64 {
    (0..e).fold(1u64, |x, _| x.wrapping_mul(P))
}

/// Rolling polynomial over `values`, `k` at a time, each window finalised
/// by `fmix64(H ^ seed)`; a shorter input gives one value for all of it.
fn poly_windows(values: impl Iterator<Item = u64> + Clone, k: usize, seed: u64) -> Vec<u64> {
    let all: Vec<u64> = values.collect();
    if all.is_empty() {
        return Vec::new();
    }
    let k = k.min(all.len());
    let top = pow(k - 1);
    let mut h = all[..k]
        .iter()
        .fold(0u64, |h, &v| h.wrapping_mul(P).wrapping_add(v));
    let mut out = Vec::with_capacity(all.len() - k + 1);
    out.push(fmix64(h ^ seed));
    for i in k..all.len() {
        h = h
            .wrapping_sub(all[i - k].wrapping_mul(top))
            .wrapping_mul(P)
            .wrapping_add(all[i]);
        out.push(fmix64(h ^ seed));
    }
    out
}

fn word_poly(t: &[u64], k: usize, seed: u64) -> Vec<u64> {
    poly_windows(t.iter().copied(), k, seed)
}

fn word_sum(t: &[u64], k: usize, seed: u64, weights: &[u64]) -> Vec<u64> {
    if t.is_empty() {
        return Vec::new();
    }
    let k = k.min(t.len());
    t.windows(k)
        .map(|w| {
            let s = w
                .iter()
                .zip(weights)
                .fold(0u64, |s, (&x, &c)| s.wrapping_add(x.wrapping_mul(c)));
            fmix64(seed ^ s)
        })
        .collect()
}

fn char_poly(n: &Normalized, q: usize, seed: u64) -> Vec<u64> {
    let text = n.text();
    if text.is_ascii() {
        poly_windows(text.bytes().map(u64::from), q, seed)
    } else {
        poly_windows(text.chars().map(|c| u64::from(c as u32)), q, seed)
    }
}

/// `pack` for an ASCII text and q ≤ 8 (the case measured; a q-gram with a
/// non-ASCII character would take `poly`).
fn char_pack(n: &Normalized, q: usize, seed: u64) -> Vec<u64> {
    let b = n.text().as_bytes();
    assert!(q <= 8 && n.text().is_ascii());
    if b.is_empty() {
        return Vec::new();
    }
    let q = q.min(b.len());
    let mask = if q == 8 {
        u64::MAX
    } else {
        (1u64 << (8 * q)) - 1
    };
    let mut w = 0u64;
    let mut out = Vec::with_capacity(b.len() - q + 1);
    for (i, &x) in b.iter().enumerate() {
        w = ((w >> 8) | (u64::from(x) << (8 * (q - 1)))) & mask;
        if i + 1 >= q {
            out.push(fmix64(w ^ seed));
        }
    }
    out
}

fn distinct(v: &[u64]) -> usize {
    v.iter().collect::<HashSet<_>>().len()
}

fn bench(c: &mut Criterion) {
    let text = docs_bench::corpus_chunk(&docs_bench::load_docs(), 1 << 20);
    let n = normalize(&text);
    let seed = 0u64;
    let secrets = rapidhash::v3::RapidSecrets::seed(seed);
    let mut rng = SplitMix64::new(0x5eed);
    let weights: Vec<u64> = (0..5).map(|_| rng.next() | 1).collect();
    // XXH3-64 of the empty input, seed 0: the specification's test vector.
    assert_eq!(
        xxhash_rust::xxh3::xxh3_64_with_seed(b"", 0),
        0x2d06_8005_38d3_94c2
    );
    let t1 = token_hashes(&n, seed, V1);
    let tx = tokens_xxh3(&n, seed);
    let tr = tokens_rapid(&n, &secrets);

    // Collisions on this text: distinct values per candidate.
    let tokens: HashSet<&str> = n.token_strs().collect();
    eprintln!(
        "distinct tokens {}: v1 {}, xxh3 {}, rapidhash {}",
        tokens.len(),
        distinct(&t1),
        distinct(&tx),
        distinct(&tr)
    );
    let v1w = word_shingles(&t1, 5, seed, V1);
    let by_text: HashSet<Vec<&str>> = n
        .token_strs()
        .collect::<Vec<_>>()
        .windows(5)
        .map(|w| w.to_vec())
        .collect();
    eprintln!(
        "distinct word 5-shingles {}: v1 {}, xxh3+poly {}, xxh3+sum {}",
        by_text.len(),
        distinct(&v1w),
        distinct(&word_poly(&tx, 5, seed)),
        distinct(&word_sum(&tx, 5, seed, &weights))
    );
    let grams: HashSet<&[u8]> = n.text().as_bytes().windows(5).collect();
    eprintln!(
        "distinct char 5-grams {}: v1 {}, poly {}, pack {}",
        grams.len(),
        distinct(&char_shingles(&n, 5, seed, V1)),
        distinct(&char_poly(&n, 5, seed)),
        distinct(&char_pack(&n, 5, seed))
    );

    let bytes = text.len() as u64;
    let mut g = c.benchmark_group("token-hash");
    g.throughput(Throughput::Bytes(bytes));
    g.sample_size(20);
    g.bench_function("v1-fnv1a-fmix64", |b| {
        b.iter(|| token_hashes(black_box(&n), seed, V1))
    });
    g.bench_function("xxh3-64", |b| b.iter(|| tokens_xxh3(black_box(&n), seed)));
    g.bench_function("rapidhash-v3", |b| {
        b.iter(|| tokens_rapid(black_box(&n), &secrets))
    });
    g.finish();

    let mut g = c.benchmark_group("word5-from-token-hashes");
    g.throughput(Throughput::Bytes(bytes));
    g.sample_size(20);
    g.bench_function("v1-combine", |b| {
        b.iter(|| word_shingles(black_box(&t1), 5, seed, V1))
    });
    g.bench_function("poly", |b| b.iter(|| word_poly(black_box(&tx), 5, seed)));
    g.bench_function("sum", |b| {
        b.iter(|| word_sum(black_box(&tx), 5, seed, &weights))
    });
    g.finish();

    let mut g = c.benchmark_group("char5");
    g.throughput(Throughput::Bytes(bytes));
    g.sample_size(20);
    g.bench_function("v1-bytes-hash", |b| {
        b.iter(|| char_shingles(black_box(&n), 5, seed, V1))
    });
    g.bench_function("v2-xxh3", |b| {
        b.iter(|| char_shingles(black_box(&n), 5, seed, neardup::hash::Spec::V2))
    });
    g.bench_function("poly", |b| b.iter(|| char_poly(black_box(&n), 5, seed)));
    g.bench_function("pack", |b| b.iter(|| char_pack(black_box(&n), 5, seed)));
    // The same hashes folded into one value instead of written out: what
    // writing 8 bytes per q-gram costs.
    g.bench_function("v1-bytes-hash/no-vector", |b| {
        b.iter(|| {
            black_box(&n)
                .text()
                .as_bytes()
                .windows(5)
                .fold(0u64, |x, w| x ^ neardup::hash::bytes_hash(seed, w))
        })
    });
    g.bench_function("pack/no-vector", |b| {
        b.iter(|| {
            let mut w = 0u64;
            let mut x = 0u64;
            for (i, &c) in black_box(&n).text().as_bytes().iter().enumerate() {
                w = ((w >> 8) | (u64::from(c) << 32)) & 0xff_ffff_ffff;
                if i >= 4 {
                    x ^= fmix64(w ^ seed);
                }
            }
            x
        })
    });
    g.finish();

    // What a v2 would give end to end: normalise + token hashes + word
    // 5-shingles; normalise + character 5-grams.
    let mut g = c.benchmark_group("text-to-shingles");
    g.throughput(Throughput::Bytes(bytes));
    g.sample_size(20);
    g.bench_function("word5/v1", |b| {
        b.iter(|| {
            let n = normalize(black_box(&text));
            word_shingles(&token_hashes(&n, seed, V1), 5, seed, V1)
        })
    });
    g.bench_function("word5/rapidhash+poly", |b| {
        b.iter(|| {
            let n = normalize(black_box(&text));
            word_poly(&tokens_rapid(&n, &secrets), 5, seed)
        })
    });
    g.bench_function("word5/xxh3+poly", |b| {
        b.iter(|| {
            let n = normalize(black_box(&text));
            word_poly(&tokens_xxh3(&n, seed), 5, seed)
        })
    });
    g.bench_function("char5/v1", |b| {
        b.iter(|| char_shingles(&normalize(black_box(&text)), 5, seed, V1))
    });
    g.bench_function("char5/pack", |b| {
        b.iter(|| char_pack(&normalize(black_box(&text)), 5, seed))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
