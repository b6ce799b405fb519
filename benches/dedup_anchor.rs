//! The whole near-duplicate job, neardup against the anchor gaoya 0.2.2, in
//! one process on one core: read docs-bench, shingle, sketch (MinHash-128),
//! index (LSH at threshold 0.5), find the pairs whose estimate reaches 0.5,
//! and write them (to memory). CPU time of this thread (nanoseconds, from
//! `/proc/thread-self/schedstat`), jobs interleaved five times, the median
//! reported.
//! Run: `cargo bench --features serde --bench dedup_anchor`; `-- gaoya`
//! or `-- neardup` runs only the jobs whose names contain the word, so
//! that each side can be timed in a process of its own.
//!
//! Besides the sketch and index jobs, the pipeline every surface runs
//! (`Deduplicator` at its defaults, sized for the collection, one document
//! at a time): the tricks
//! undone, identical texts joined, MinHash LSH at its defaults.
//!
//! neardup normalises (NFKC, case folding, UAX #29 words); gaoya hashes the
//! raw text (its 5-grams of the text as is, its words split at ASCII
//! whitespace and punctuation). gaoya's index finds candidates by its own
//! banding (`calculate_minhash_params(0.5, 128)`: bands × rows = 126
//! values, which its index requires) and keeps those whose estimate reaches
//! 0.5, as neardup's does.

#[path = "anchor_jobs.rs"]
mod anchor_jobs;
use anchor_jobs::{cpu_seconds, gaoya_job};
#[path = "docs_bench.rs"]
mod docs_bench;
use docs_bench::load_docs_in_order;
use neardup::hash::Spec::{self, V1, V2};
use neardup::minhash::{LshConfig, MinHashConfig, MinHashLsh, MinHashScheme, MinHasher};
use neardup::{Document, NearDupIndex, Shingling};
use std::io::Write;

fn neardup_job(
    docs: &[(String, String)],
    shingle: Shingling,
    scheme: MinHashScheme,
    spec: Spec,
) -> usize {
    let config = MinHashConfig::default()
        .shingle(shingle)
        .scheme(scheme)
        .spec(spec);
    let hasher = MinHasher::new(&config).expect("hasher");
    let mut lsh = MinHashLsh::new(&LshConfig::default().threshold(0.5)).expect("lsh");
    for (id, text) in docs {
        let doc = Document::for_shingling(text, 0, Default::default(), spec, shingle);
        let sig = hasher.signature_of(&doc).expect("signature");
        lsh.insert(id, sig).expect("insert");
    }
    let mut out = Vec::new();
    let pairs = lsh.all_pairs();
    for p in &pairs {
        writeln!(out, "{}\t{}\t{:.4}", p.a, p.b, p.score.similarity()).expect("write");
    }
    pairs.len()
}

/// The pipeline every surface runs (CLI, npm, Python, the Worker), at its
/// defaults but the shingling, one document at a time on this thread: the
/// tricks undone (look-alike letters, invisible characters), identical texts
/// joined by their digest, MinHash LSH, the pairs.
fn pipeline_job(docs: &[(String, String)], shingle: Shingling) -> usize {
    let config = neardup::dedup::DedupConfig {
        shingle: Some(neardup::shingle::ShingleSpec::plain(shingle)),
        ..Default::default()
    };
    let mut dedup = neardup::dedup::Deduplicator::new(&config).expect("deduplicator");
    // Sized for the collection, as the surfaces that know its size do
    // (`neardup dedup` from the file, Python's `dedup()`, the npm `dedup()`
    // of an array; BENCHMARKS.md, "Tables sized before a collection is
    // read").
    dedup.reserve(docs.len());
    for (id, text) in docs {
        dedup.add(id, text).expect("add");
    }
    let mut out = Vec::new();
    let pairs = dedup.pairs().expect("pairs");
    for p in &pairs {
        writeln!(out, "{}\t{}", p.a, p.b).expect("write");
    }
    pairs.len()
}

fn main() {
    let docs = load_docs_in_order();
    let mb = docs.iter().map(|d| d.1.len()).sum::<usize>() as f64 / 1e6;
    type Job<'a> = (&'a str, Box<dyn Fn() -> usize + 'a>);
    let (chars, words) = (Shingling::Chars(5), Shingling::Words(5));
    let (oph, classic) = (MinHashScheme::OnePermutation, MinHashScheme::Classic);
    let jobs: Vec<Job> = vec![
        (
            "neardup char:5 oph",
            Box::new(|| neardup_job(&docs, chars, oph, V1)),
        ),
        (
            "neardup char:5 oph, spec 2",
            Box::new(|| neardup_job(&docs, chars, oph, V2)),
        ),
        (
            "neardup char:5 classic",
            Box::new(|| neardup_job(&docs, chars, classic, V1)),
        ),
        (
            "neardup's pipeline, the defaults (char:5)",
            Box::new(|| pipeline_job(&docs, chars)),
        ),
        ("gaoya 5-grams", Box::new(|| gaoya_job(&docs, false))),
        (
            "neardup word:5 oph",
            Box::new(|| neardup_job(&docs, words, oph, V1)),
        ),
        (
            "neardup word:5 oph, spec 2",
            Box::new(|| neardup_job(&docs, words, oph, V2)),
        ),
        (
            "neardup word:5 classic",
            Box::new(|| neardup_job(&docs, words, classic, V1)),
        ),
        (
            "neardup's pipeline, the defaults but word:5",
            Box::new(|| pipeline_job(&docs, words)),
        ),
        ("gaoya word 5-shingles", Box::new(|| gaoya_job(&docs, true))),
    ];
    // Words given after `--` keep only the jobs whose names contain one of
    // them (`-- gaoya`, `-- neardup`): each side in a process of its own,
    // run in turn by the shell, with no heap used by the other.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let chosen = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
    let mut cpu = vec![Vec::new(); jobs.len()];
    let mut pairs = vec![0; jobs.len()];
    for _ in 0..5 {
        for (i, (name, job)) in jobs.iter().enumerate() {
            if !chosen(name) {
                continue;
            }
            let t = cpu_seconds();
            pairs[i] = job();
            cpu[i].push(cpu_seconds() - t);
        }
    }
    println!("{} documents, {mb:.1} MB", docs.len());
    println!(
        "| job | CPU s (median of 5) | MB/s | pairs | of gaoya's CPU (median of the rounds) |"
    );
    println!("|---|---|---|---|---|");
    // Each job against the gaoya job of its shingling (the last of its
    // half of the list), round by round: the two ran seconds apart.
    let half = jobs.len() / 2;
    for (i, (name, _)) in jobs.iter().enumerate() {
        if !chosen(name) {
            continue;
        }
        let anchor = if i < half { half - 1 } else { jobs.len() - 1 };
        let mut ratios: Vec<f64> = cpu[i]
            .iter()
            .zip(&cpu[anchor])
            .map(|(a, g)| a / g)
            .collect();
        ratios.sort_by(f64::total_cmp);
        let mut c = cpu[i].clone();
        c.sort_by(f64::total_cmp);
        // Without its anchor in this process, no ratio.
        let ratio = if cpu[anchor].is_empty() {
            "–".to_string()
        } else {
            format!("{:.3}", ratios[2])
        };
        println!(
            "| {name} | {:.3} | {:.1} | {} | {ratio} |",
            c[2],
            mb / c[2],
            pairs[i],
        );
    }
}
