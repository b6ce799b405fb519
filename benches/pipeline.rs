//! Criterion benchmarks of the text pipeline on real prose
//! (`docs-bench/docs.jsonl` of the shared data; `NEARDUP_DATA` overrides the
//! folder). Run: `cargo bench --bench pipeline`.
//!
//! * `pipeline/*`: throughput of normalise (+ shingle) over 1 MiB of text;
//! * `hash/*`: the chosen word-shingle hash (token hashes combined) against
//!   the alternative of hashing each shingle's bytes again;
//! * `compare/10k`: latency of `compare` for a 10 KB edited copy against its
//!   10 KB source (planted pairs of docs-bench);
//! * `docs/*`: text → MinHash-128 signature and text → SimHash-64
//!   fingerprint, one document at a time over the documents of the 1 MiB
//!   sample, for both MinHash schemes and for the anchor gaoya 0.2.2 in the
//!   same run (`cargo bench --bench pipeline -- docs/`). gaoya hashes the raw
//!   text (no Unicode normalisation, case folding or word segmentation: its
//!   words are split at ASCII whitespace and punctuation, its 5-grams are of
//!   the text as is), so it does less work per byte.
//! * `short/*`: text → MinHash-128 (one-permutation, the default) for short
//!   texts of 6, 20 and 70 words cut from the same sample, 2,000 of each
//!   length, where most of the 128 bins are empty and densification
//!   dominates, gaoya in the same run (`cargo bench --bench pipeline --
//!   short/`).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use neardup::hash::Spec::{self, V1};
use neardup::minhash::{MinHashConfig, MinHashScheme, MinHasher};
use neardup::shingle::Shingling;
use neardup::shingle::{char_shingles, token_hashes, word_shingles};
use neardup::simhash::{self, SimHashConfig, Weighting};
use neardup::verdict::SvmModel;
use neardup::{compare, compare_documents, hash, normalize, CompareConfig, Document};
use std::collections::HashMap;
use std::hint::black_box;

#[path = "docs_bench.rs"]
mod docs_bench;
use docs_bench::{corpus_chunk, data_dir, load_docs, sample_docs};

/// A 10 KB edited copy and its 10 KB source, from the planted pairs.
fn ten_kb_pair(docs: &HashMap<String, String>) -> (String, String) {
    let pairs =
        std::fs::read_to_string(data_dir().join("docs-bench/pairs.tsv")).expect("pairs.tsv");
    let (mut a, mut b) = (String::new(), String::new());
    for line in pairs.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if f[2] != "0.05" {
            continue;
        }
        b.push_str(&docs[f[0]]);
        b.push_str("\n\n");
        a.push_str(&docs[f[1]]);
        a.push_str("\n\n");
        if a.len() >= 10_000 && b.len() >= 10_000 {
            break;
        }
    }
    let cut = |s: &mut String| {
        let mut end = 10_000.min(s.len());
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
    };
    cut(&mut a);
    cut(&mut b);
    (a, b)
}

/// Text → sketch one document at a time, neardup's schemes and gaoya's.
fn bench_docs(c: &mut Criterion, docs: &[String]) {
    use gaoya::minhash::{MinHasher as _, MinHasher32};
    use gaoya::simhash::{SimHash, SimSipHasher64};
    use gaoya::text::{shingle_text, whitespace_split};

    let bytes: usize = docs.iter().map(|d| d.len()).sum();
    let mut g = c.benchmark_group("docs");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(10);
    for sh in [Shingling::Words(5), Shingling::Chars(5)] {
        for scheme in [MinHashScheme::OnePermutation, MinHashScheme::Classic] {
            let h = MinHasher::new(&MinHashConfig::default().shingle(sh).scheme(scheme))
                .expect("hasher");
            g.bench_function(format!("minhash/{sh}/{scheme}"), |b| {
                b.iter(|| {
                    for d in docs {
                        black_box(h.signature_of_text(black_box(d)));
                    }
                })
            });
        }
        // Spec version 2, the dedup pipeline's default.
        let h = MinHasher::new(
            &MinHashConfig::default()
                .shingle(sh)
                .scheme(MinHashScheme::OnePermutation)
                .spec(Spec::V2),
        )
        .expect("hasher");
        g.bench_function(format!("minhash/{sh}/oph-spec2"), |b| {
            b.iter(|| {
                for d in docs {
                    black_box(h.signature_of_text(black_box(d)));
                }
            })
        });
        let config = SimHashConfig {
            shingle: sh,
            weights: Weighting::Tf,
            seed: 0,
            spec: V1,
        };
        g.bench_function(format!("simhash/{sh}/neardup"), |b| {
            b.iter(|| {
                for d in docs {
                    black_box(config.fingerprint(black_box(d)).expect("fingerprint"));
                }
            })
        });
    }
    let gm = MinHasher32::new(128);
    g.bench_function("minhash/word:5/gaoya", |b| {
        b.iter(|| {
            for d in docs {
                let words: Vec<&str> = whitespace_split(black_box(d)).collect();
                black_box(gm.create_signature(words.windows(5)));
            }
        })
    });
    g.bench_function("minhash/char:5/gaoya", |b| {
        b.iter(|| {
            for d in docs {
                black_box(gm.create_signature(shingle_text(black_box(d), 5)));
            }
        })
    });
    let gs = SimHash::<SimSipHasher64, u64, 64>::new(SimSipHasher64::new(1, 2));
    g.bench_function("simhash/word:5/gaoya", |b| {
        b.iter(|| {
            for d in docs {
                let words: Vec<&str> = whitespace_split(black_box(d)).collect();
                black_box(gs.create_signature(words.windows(5)));
            }
        })
    });
    g.bench_function("simhash/char:5/gaoya", |b| {
        b.iter(|| {
            for d in docs {
                black_box(gs.create_signature(shingle_text(black_box(d), 5)));
            }
        })
    });
    g.finish();
}

/// Text → MinHash-128 for short texts (6, 20 and 70 words), neardup's
/// default scheme and gaoya's.
fn bench_short(c: &mut Criterion, docs: &[String]) {
    use gaoya::minhash::{MinHasher as _, MinHasher32};
    use gaoya::text::{shingle_text, whitespace_split};

    let words: Vec<&str> = docs.iter().flat_map(|d| d.split_whitespace()).collect();
    let mut g = c.benchmark_group("short");
    g.sample_size(10);
    let gm = MinHasher32::new(128);
    for n in [6usize, 20, 70] {
        let texts: Vec<String> = words
            .chunks_exact(n)
            .take(2_000)
            .map(|w| w.join(" "))
            .collect();
        g.throughput(Throughput::Elements(texts.len() as u64));
        for sh in [Shingling::Words(5), Shingling::Chars(5)] {
            let h = MinHasher::new(&MinHashConfig::default().shingle(sh)).expect("hasher");
            g.bench_function(format!("minhash/{sh}/{n}w"), |b| {
                b.iter(|| {
                    for t in &texts {
                        black_box(h.signature_of_text(black_box(t)));
                    }
                })
            });
        }
        g.bench_function(format!("minhash/word:5/{n}w/gaoya"), |b| {
            b.iter(|| {
                for t in &texts {
                    let w: Vec<&str> = whitespace_split(black_box(t)).collect();
                    black_box(gm.create_signature(w.windows(5)));
                }
            })
        });
        g.bench_function(format!("minhash/char:5/{n}w/gaoya"), |b| {
            b.iter(|| {
                for t in &texts {
                    black_box(gm.create_signature(shingle_text(black_box(t), 5)));
                }
            })
        });
    }
    g.finish();
}

/// The unmasked normalisation against the plain one on the docs-bench
/// documents that are not ASCII (where its first pass runs).
fn bench_non_ascii(c: &mut Criterion, docs: &HashMap<String, String>) {
    let unmasked = neardup::Normalization::default().unmasking(true);
    let mut non_ascii: Vec<&String> = docs.values().filter(|t| !t.is_ascii()).collect();
    non_ascii.sort();
    let bytes: usize = non_ascii.iter().map(|t| t.len()).sum();
    let mut h = c.benchmark_group("pipeline-non-ascii");
    h.throughput(Throughput::Bytes(bytes as u64));
    h.sample_size(10);
    for (name, how) in [
        ("plain", neardup::Normalization::default()),
        ("unmasked", unmasked),
    ] {
        h.bench_function(format!("normalize/{name}"), |b| {
            b.iter(|| {
                non_ascii
                    .iter()
                    .map(|t| how.normalize(t).len())
                    .sum::<usize>()
            })
        });
    }
    h.finish();
}

fn bench(c: &mut Criterion) {
    let docs = load_docs();
    let text = corpus_chunk(&docs, 1 << 20);
    let sample = sample_docs(&docs, 1 << 20);
    bench_docs(c, &sample);
    bench_short(c, &sample);
    bench_non_ascii(c, &docs);

    let mut g = c.benchmark_group("pipeline");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.sample_size(20);
    g.bench_function("normalize", |b| b.iter(|| normalize(black_box(&text))));
    // The unmasked normalisation (SPEC.md §1 step 0), the default of
    // compare, class sets and dedup, on the same MiB.
    let unmasked = neardup::Normalization::default().unmasking(true);
    g.bench_function("normalize/unmasked", |b| {
        b.iter(|| unmasked.normalize(black_box(&text)))
    });
    g.bench_function("normalize+word3", |b| {
        b.iter(|| {
            let n = normalize(black_box(&text));
            word_shingles(&token_hashes(&n, 0, V1), 3, 0, V1)
        })
    });
    for spec in Spec::ALL {
        let v = spec.number();
        // Spec 1 keeps its old names, so that earlier runs compare.
        let name = |what: &str| match spec {
            Spec::V1 => what.to_string(),
            _ => format!("{what}/spec{v}"),
        };
        g.bench_function(name("normalize+word5"), |b| {
            b.iter(|| {
                let n = normalize(black_box(&text));
                word_shingles(&token_hashes(&n, 0, spec), 5, 0, spec)
            })
        });
        g.bench_function(name("normalize+char5"), |b| {
            b.iter(|| char_shingles(&normalize(black_box(&text)), 5, 0, spec))
        });
    }
    g.finish();

    // The hash choice: combine token hashes (chosen) vs re-hash shingle bytes.
    let n = normalize(&text);
    let toks: Vec<&str> = n.token_strs().collect();
    let mut g = c.benchmark_group("hash");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.sample_size(30);
    for k in [3usize, 5] {
        g.bench_with_input(BenchmarkId::new("combine-token-hashes", k), &k, |b, &k| {
            b.iter(|| word_shingles(&token_hashes(black_box(&n), 0, V1), k, 0, V1))
        });
        g.bench_with_input(BenchmarkId::new("rehash-shingle-bytes", k), &k, |b, &k| {
            b.iter(|| {
                let mut buf = Vec::with_capacity(64);
                toks.windows(k)
                    .map(|w| {
                        buf.clear();
                        for (i, t) in w.iter().enumerate() {
                            if i > 0 {
                                buf.push(b' ');
                            }
                            buf.extend_from_slice(t.as_bytes());
                        }
                        hash::bytes_hash(0, black_box(&buf))
                    })
                    .collect::<Vec<u64>>()
            })
        });
    }
    g.finish();

    // MinHash: text -> signature (word 5-shingles, 128 values), and the
    // signature alone from pre-computed shingle hashes (throughput still per
    // byte of the original text).
    let hasher = MinHasher::new(&MinHashConfig::default()).expect("hasher");
    let shingles = Document::new(&text, 0)
        .shingles(Shingling::Words(5))
        .to_vec();
    let mut g = c.benchmark_group("minhash");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.sample_size(10);
    g.bench_function("text-to-signature/word5/128", |b| {
        b.iter(|| hasher.signature_of_text(black_box(&text)))
    });
    g.bench_function("shingles-to-signature/word5/128", |b| {
        b.iter(|| hasher.signature(black_box(&shingles)))
    });
    g.finish();

    // SimHash: text -> fingerprint for the three feature kinds (tf weights),
    // and the fingerprint alone from pre-computed shingle hashes.
    let mut g = c.benchmark_group("simhash");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.sample_size(10);
    for sh in [
        Shingling::Words(1),
        Shingling::Words(5),
        Shingling::Chars(5),
    ] {
        let config = SimHashConfig {
            shingle: sh,
            weights: Weighting::Tf,
            seed: 0,
            spec: V1,
        };
        g.bench_function(format!("text-to-fingerprint/{sh}"), |b| {
            b.iter(|| config.fingerprint(black_box(&text)).expect("fingerprint"))
        });
    }
    g.bench_function("shingles-to-fingerprint/word:5", |b| {
        b.iter(|| simhash::fingerprint(black_box(&shingles)))
    });
    g.finish();

    let (a, b) = ten_kb_pair(&docs);
    let opts = CompareConfig::default();
    let mut g = c.benchmark_group("compare");
    g.bench_function("10k", |bch| {
        bch.iter(|| compare(black_box(&a), black_box(&b), &opts).expect("compare"))
    });
    g.finish();

    // Multireference signatures with the shipped reference (R 1000, P 150):
    // text -> signature, and the estimate of two signatures.
    let (_, reference) =
        neardup::multiref::ReferenceFile::from_json(include_str!("../assets/multiref.json"))
            .expect("reference");
    let mut g = c.benchmark_group("multiref");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.sample_size(10);
    g.bench_function("text-to-signature/R1000-P150", |b| {
        b.iter(|| reference.signature(black_box(&text)))
    });
    g.finish();
    let (sa, sb) = (reference.signature(&a), reference.signature(&b));
    let mut g = c.benchmark_group("multiref-estimate");
    g.bench_function("P150", |bch| {
        bch.iter(|| {
            neardup::multiref::similarity(black_box(&sa), black_box(&sb)).expect("same reference")
        })
    });
    g.finish();

    // compare + the learned verdict on a real Clough pair: each text is
    // normalised once and shingled once per kind for both.
    let model = SvmModel::from_json(include_str!("../assets/model.json")).expect("model");
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/clough-abc/texts");
    let read = |f: &str| {
        String::from_utf8_lossy(&std::fs::read(dir.join(f)).expect("clough text")).into_owned()
    };
    let (qa, qb) = (read("g0pA_taskb.txt"), read("orig_taskb.txt"));
    let mut g = c.benchmark_group("compare-verdict");
    g.bench_function("clough-g0pA-taskb", |bch| {
        bch.iter(|| {
            let (da, db) = (
                Document::new(black_box(&qa), 0),
                Document::new(black_box(&qb), 0),
            );
            let r = compare_documents(&da, &db, &opts).expect("compare");
            (r, model.judge(&da, &db).expect("verdict"))
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
