//! The dedup pipeline of the core: the stage functions run in pieces give
//! exactly one `Deduplicator`'s pairs and clusters; removal, snapshots, bad
//! sketches; and the planted pairs of docs-bench with no options.

use neardup::dedup::{clusters_of_edges, DedupConfig, DedupMethod, Deduplicator, Stages};
use neardup::hash::SplitMix64;
use neardup::{ErrorKind, Shingling};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Random prose-like texts over a small vocabulary, with planted copies:
/// exact ones, lightly and heavily edited ones, and texts without words.
fn collection(seed: u64, n: usize) -> Vec<String> {
    let mut rng = SplitMix64::new(seed);
    let words: Vec<String> = (0..400).map(|i| format!("w{i}x")).collect();
    let mut docs: Vec<String> = Vec::new();
    for _ in 0..n {
        let r = rng.next() % 10;
        if r < 3 && !docs.is_empty() {
            // A copy of an earlier document with a share of its words replaced.
            let src = docs[(rng.next() % docs.len() as u64) as usize].clone();
            let rate = [0, 2, 5, 10, 30][(rng.next() % 5) as usize];
            let edited: Vec<String> = src
                .split(' ')
                .map(|w| {
                    if rng.next() % 100 < rate {
                        words[(rng.next() % 400) as usize].clone()
                    } else {
                        w.to_string()
                    }
                })
                .collect();
            docs.push(edited.join(" "));
        } else if r == 3 {
            docs.push(if rng.next().is_multiple_of(2) {
                String::new()
            } else {
                "... !".into()
            });
        } else {
            let len = 5 + (rng.next() % 80) as usize;
            let text: Vec<&str> = (0..len)
                .map(|_| words[(rng.next() % 400) as usize].as_str())
                .collect();
            docs.push(text.join(" "));
        }
    }
    docs
}

fn configs() -> Vec<DedupConfig> {
    let d = DedupConfig::default();
    vec![
        d,
        d.verify(Some(true)),
        d.candidates(Some(true)),
        d.shingle(Shingling::Words(2)).threshold(0.3),
        d.scheme(Some(neardup::minhash::MinHashScheme::Classic))
            .num_perm(Some(64)),
        d.method(DedupMethod::SimHash),
        d.method(DedupMethod::SimHash)
            .verify(Some(false))
            .k(Some(6))
            .weights(neardup::dedup::Weights::Binary),
        d.method(DedupMethod::Exact),
        d.method(DedupMethod::Exact)
            .shingle(Shingling::Words(1))
            .threshold(0.7),
    ]
}

type Edges = BTreeMap<(u64, u64), f64>;

/// The pipeline in pieces, as an engine runs it: sketches made in shuffled
/// chunks by separate stage objects and passed as bytes, grouped by key,
/// each candidate pair verified once, edges clustered.
fn in_pieces(config: &DedupConfig, docs: &[String], seed: u64) -> (Edges, Vec<Vec<u64>>) {
    let mut order: Vec<usize> = (0..docs.len()).collect();
    let mut rng = SplitMix64::new(seed);
    for i in (1..order.len()).rev() {
        order.swap(i, (rng.next() % (i as u64 + 1)) as usize);
    }
    let mut bytes: Vec<Vec<u8>> = vec![Vec::new(); docs.len()];
    for chunk in order.chunks(7) {
        let stages = Stages::new(config).unwrap();
        for &i in chunk {
            bytes[i] = stages.sketch(&docs[i]).unwrap().to_bytes();
        }
    }
    let stages = Stages::new(config).unwrap();
    let sketches: Vec<_> = bytes
        .iter()
        .map(|b| stages.read_sketch(b).unwrap())
        .collect();
    let mut buckets: HashMap<u64, Vec<u64>> = HashMap::new();
    for (i, s) in sketches.iter().enumerate() {
        for k in stages.keys(s).unwrap() {
            buckets.entry(k).or_default().push(i as u64);
        }
    }
    let mut candidates: BTreeSet<(u64, u64)> = BTreeSet::new();
    for ids in buckets.values_mut() {
        // A document can meet itself in a bucket: SimHash's table keys are
        // `combine(t, key)`, and two tables' keys may collide (SPEC.md §10).
        ids.sort_unstable();
        ids.dedup();
        for (x, &a) in ids.iter().enumerate() {
            for &b in &ids[x + 1..] {
                candidates.insert((a.min(b), a.max(b)));
            }
        }
    }
    let mut edges = Edges::new();
    for (a, b) in candidates {
        let v = stages
            .verify(&sketches[a as usize], &sketches[b as usize])
            .unwrap();
        // Verification is symmetric.
        let w = stages
            .verify(&sketches[b as usize], &sketches[a as usize])
            .unwrap();
        assert_eq!(v, w, "verify({a}, {b}) is not symmetric");
        if let Some(v) = v {
            edges.insert((a, b), v.similarity);
        }
    }
    let list: Vec<(u64, u64)> = edges.keys().copied().collect();
    (edges, clusters_of_edges(&list))
}

/// The engines' way, by the core's kernels: copies paired with their
/// holders ([`Stages::copies`] per digest group), the holders' keys grouped
/// by key ([`Stages::bucket_pairs`] per piece of keys), every candidate
/// verified, edges clustered.
fn by_kernels(config: &DedupConfig, docs: &[String]) -> Vec<Vec<u64>> {
    let stages = Stages::new(config).unwrap();
    let sketches: Vec<_> = docs.iter().map(|t| stages.sketch(t).unwrap()).collect();
    let mut groups: HashMap<u64, Vec<(u64, &neardup::dedup::Sketch)>> = HashMap::new();
    for (i, s) in sketches.iter().enumerate() {
        if let Some(d) = stages.digest(s) {
            groups.entry(d).or_default().push((i as u64, s));
        }
    }
    let mut candidates: Vec<(u64, u64)> = Vec::new();
    let mut copies = BTreeSet::new();
    for rows in groups.values() {
        for (pos, holder) in stages.copies(rows).unwrap() {
            copies.insert(pos);
            candidates.push((holder, pos));
        }
    }
    let mut by_key: BTreeMap<u64, Vec<(u64, u64)>> = BTreeMap::new();
    for (i, s) in sketches.iter().enumerate() {
        if !copies.contains(&(i as u64)) {
            for k in stages.keys(s).unwrap() {
                by_key.entry(k % 5).or_default().push((k, i as u64));
            }
        }
    }
    for rows in by_key.values() {
        candidates.extend(stages.bucket_pairs(rows));
    }
    let edges: Vec<(u64, u64)> = candidates
        .into_iter()
        .filter(|&(a, b)| {
            stages
                .verify(&sketches[a as usize], &sketches[b as usize])
                .unwrap()
                .is_some()
        })
        .collect();
    clusters_of_edges(&edges)
}

#[derive(Debug, PartialEq)]
struct Whole {
    pairs: Edges,
    clusters: Vec<Vec<u64>>,
    streamed: Edges,
    all: Edges,
}

fn whole(config: &DedupConfig, docs: &[String]) -> Whole {
    whole_with_room(config, docs, &[])
}

/// [`whole`], with `Deduplicator::reserve(n)` called before document `at`
/// for each `(at, n)` of `room`.
fn whole_with_room(config: &DedupConfig, docs: &[String], room: &[(usize, usize)]) -> Whole {
    let mut d = Deduplicator::new(config).unwrap();
    let mut streamed = Edges::new();
    for (i, t) in docs.iter().enumerate() {
        for &(_, n) in room.iter().filter(|r| r.0 == i) {
            d.reserve(n);
        }
        for m in d.add(&format!("d{i}"), t).unwrap() {
            streamed.insert((m.position as u64, i as u64), m.verified.similarity);
        }
    }
    let edges = |p: Vec<neardup::dedup::DedupPair<'_>>| -> Edges {
        p.iter()
            .map(|p| {
                (
                    (p.a_position as u64, p.b_position as u64),
                    p.verified.similarity,
                )
            })
            .collect()
    };
    let pairs = edges(d.pairs().unwrap());
    let all = edges(d.all_pairs(u64::MAX).unwrap());
    let clusters = d
        .cluster_positions()
        .into_iter()
        .map(|c| c.into_iter().map(u64::from).collect())
        .collect();
    Whole {
        pairs,
        clusters,
        streamed,
        all,
    }
}

/// The deduplicator's pairs are a spanning tree of each cluster, drawn from
/// the verified candidate pairs an engine finds; its clusters are those
/// pairs' components, whether found by this test's own bucket join, in
/// pieces, or by the core's engine kernels.
#[test]
fn stage_functions_in_pieces_give_the_deduplicators_pairs_and_clusters() {
    for seed in 1..=4u64 {
        let docs = collection(seed, 160);
        for config in configs() {
            let w = whole(&config, &docs);
            let (edges, piece_clusters) = in_pieces(&config, &docs, seed * 31);
            assert_eq!(w.pairs, w.streamed, "pairs() ≠ add() answers, {config:?}");
            for (pair, sim) in &w.pairs {
                assert_eq!(
                    edges.get(pair),
                    Some(sim),
                    "{pair:?} not an edge, {config:?}"
                );
            }
            assert_eq!(w.clusters, piece_clusters, "clusters differ, {config:?}");
            assert_eq!(
                w.clusters,
                by_kernels(&config, &docs),
                "kernels' clusters, {config:?}"
            );
            let spanning: usize = w.clusters.iter().map(|c| c.len() - 1).sum();
            assert_eq!(w.pairs.len(), spanning, "{config:?}");
            // Every verified candidate pair is among all pairs within clusters.
            for (pair, sim) in &edges {
                assert_eq!(
                    w.all.get(pair),
                    Some(sim),
                    "{pair:?} not in all_pairs, {config:?}"
                );
            }
            // The planted copies make pairs: the test compares something.
            assert!(
                w.pairs.len() >= 5,
                "only {} pairs, {config:?}",
                w.pairs.len()
            );
            assert!(edges.len() > w.pairs.len(), "{config:?}: no group of three");
        }
    }
}

/// Room made beforehand (`Deduplicator::reserve`) changes nothing found,
/// for every configuration: room for every document, for fewer (the index
/// grows past it), for a hundred times more, none, and again halfway
/// through (the index rebuilt holding documents).
#[test]
fn room_made_beforehand_changes_nothing_found() {
    let docs = collection(5, 400);
    for config in configs() {
        let want = whole(&config, &docs);
        assert!(
            want.pairs.len() >= 10,
            "{config:?}: too few pairs to compare"
        );
        for room in [
            &[(0, 400)][..],
            &[(0, 90)],
            &[(0, 40_000)],
            &[(0, 0)],
            &[(0, 10), (200, 200), (300, 1), (399, 5)],
        ] {
            assert_eq!(
                whole_with_room(&config, &docs, room),
                want,
                "{config:?}, room {room:?}"
            );
        }
    }
}

/// Brute force over all pairs agrees with the exact method (prefix
/// filtering loses nothing).
#[test]
fn the_exact_method_finds_every_pair_brute_force_finds() {
    let docs = collection(9, 150);
    let config = DedupConfig::default().method(DedupMethod::Exact);
    let w = whole(&config, &docs);
    let sets: Vec<_> = docs
        .iter()
        .map(|t| neardup::Document::new(t, 0).shingle_set(Shingling::Chars(5)))
        .collect();
    let mut brute = Edges::new();
    for i in 0..docs.len() {
        for j in i + 1..docs.len() {
            let c = sets[i].counts(&sets[j]);
            if c.a > 0 && c.b > 0 && c.resemblance() >= 0.5 {
                brute.insert((i as u64, j as u64), c.resemblance());
            }
        }
    }
    assert!(brute.len() >= 10);
    assert_eq!(w.all, brute);
    let list: Vec<(u64, u64)> = brute.keys().copied().collect();
    assert_eq!(w.clusters, clusters_of_edges(&list));
}

#[test]
fn removal_leaves_what_a_fresh_run_without_the_documents_finds() {
    // MinHash's chains and SimHash's runs of words (the bucket store's two
    // layouts of fixed key counts).
    for config in [
        DedupConfig::default(),
        DedupConfig::default().method(DedupMethod::SimHash),
    ] {
        removal_matches_a_fresh_run(&config);
    }
}

fn removal_matches_a_fresh_run(config: &DedupConfig) {
    let docs = collection(5, 200);
    let mut d = Deduplicator::new(config).unwrap();
    for (i, t) in docs.iter().enumerate() {
        d.add(&format!("d{i}"), t).unwrap();
    }
    let before = d.summary();
    // Remove every member of the first cluster but its last, and a few more.
    let first = d.clusters()[0]
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>();
    let mut gone: BTreeSet<String> = first[..first.len() - 1].iter().cloned().collect();
    gone.extend(["d3", "d50", "d51"].map(String::from));
    for id in &gone {
        assert!(d.remove(id), "{id} was held");
    }
    assert!(!d.remove("d3"), "removed twice");
    let mut fresh = Deduplicator::new(config).unwrap();
    for (i, t) in docs.iter().enumerate() {
        let id = format!("d{i}");
        if !gone.contains(&id) {
            fresh.add(&id, t).unwrap();
        }
    }
    assert_eq!(d.clusters(), fresh.clusters());
    assert_eq!(d.keep(), fresh.keep());
    assert_eq!(d.duplicates(), fresh.duplicates());
    assert_eq!(d.summary(), fresh.summary());
    assert_ne!(d.summary(), before);
    let ids = |p: Vec<neardup::dedup::DedupPair<'_>>| -> Vec<(String, String)> {
        p.iter()
            .map(|p| (p.a.to_string(), p.b.to_string()))
            .collect()
    };
    assert_eq!(ids(d.pairs().unwrap()), ids(fresh.pairs().unwrap()));
    // A removed id can be added again; it joins as the last added.
    assert!(d.add("d3", &docs[3]).is_ok());
}

#[test]
fn snapshots_round_trip_and_refuse_damage() {
    let docs = collection(6, 120);
    for config in configs() {
        let mut d = Deduplicator::new(&config).unwrap();
        for (i, t) in docs.iter().enumerate() {
            d.add(&format!("d{i}"), t).unwrap();
        }
        d.remove("d7");
        let bytes = d.to_bytes();
        let mut back = Deduplicator::from_bytes(&bytes, None, None).unwrap();
        assert_eq!(back.to_bytes(), bytes, "{config:?}");
        assert_eq!(back.clusters(), d.clusters());
        assert_eq!(back.keep(), d.keep());
        assert_eq!(back.summary(), d.summary());
        // A damaged byte anywhere is refused as corrupt, never a panic.
        for at in [0, 5, 9, bytes.len() / 2, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x40;
            let e = Deduplicator::from_bytes(&bad, None, None).unwrap_err();
            assert!(
                matches!(
                    e.kind(),
                    ErrorKind::Corrupt { .. } | ErrorKind::Version { .. }
                ),
                "{e}"
            );
        }
        let e = Deduplicator::from_bytes(&bytes[..bytes.len() - 9], None, None).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Corrupt { .. }), "{e}");
    }
}

#[test]
fn sketches_of_another_configuration_and_bad_options_are_refused() {
    let a = Stages::new(&DedupConfig::default()).unwrap();
    let b = Stages::new(&DedupConfig::default().threshold(0.8)).unwrap();
    let s = a.sketch("one two three four five six").unwrap();
    let e = b.read_sketch(&s.to_bytes()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Incompatible { .. }), "{e}");
    let e = b.verify(&s, &s).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Incompatible { .. }), "{e}");
    let mut d = Deduplicator::new(&DedupConfig::default().threshold(0.8)).unwrap();
    let e = d.add_sketch("x", s).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Incompatible { .. }), "{e}");
    d.add("x", "one two").unwrap();
    let e = d.add("x", "three four").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::DuplicateId { .. }), "{e}");
    for (config, option) in [
        (DedupConfig::default().threshold(1.0), "threshold"),
        (DedupConfig::default().threshold(f64::NAN), "threshold"),
        (DedupConfig::default().k(Some(3)), "k"),
        (DedupConfig::default().num_perm(Some(0)), "num_perm"),
        (
            DedupConfig::default()
                .method(DedupMethod::SimHash)
                .num_perm(Some(64)),
            "num_perm",
        ),
        (
            DedupConfig::default()
                .method(DedupMethod::Exact)
                .verify(Some(true)),
            "verify",
        ),
        (
            DedupConfig::default().shingle(neardup::shingle::ShingleSpec {
                shingling: Shingling::Chars(5),
                correct: true,
            }),
            "shingle",
        ),
        (
            DedupConfig::default().method(DedupMethod::MultiRef),
            "reference",
        ),
        (DedupConfig::default().shingle(Shingling::Custom), "shingle"),
    ] {
        let e = Deduplicator::new(&config).unwrap_err();
        match e.kind() {
            ErrorKind::InvalidOption { option: o, .. } => assert_eq!(*o, option, "{e}"),
            _ => panic!("{config:?}: {e}"),
        }
    }
}

/// With no options, the planted pairs of docs-bench (real prose, copies
/// edited at 1–15 %) are found with F1 ≥ 0.95.
#[test]
fn docs_bench_planted_pairs_are_found_with_no_options() {
    let dir = crate::util::data_dir().join("docs-bench");
    let text = std::fs::read_to_string(dir.join("docs.jsonl")).unwrap();
    let mut d = Deduplicator::new(&DedupConfig::default()).unwrap();
    let mut found: BTreeSet<(String, String)> = BTreeSet::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let id = v["id"].as_str().unwrap();
        for m in d.add(id, v["text"].as_str().unwrap()).unwrap() {
            let (a, b) = (m.id.min(id), m.id.max(id));
            found.insert((a.to_string(), b.to_string()));
        }
    }
    let truth: BTreeSet<(String, String)> = std::fs::read_to_string(dir.join("pairs.tsv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].min(f[1]).to_string(), f[0].max(f[1]).to_string())
        })
        .collect();
    let tp = found.intersection(&truth).count() as f64;
    let (p, r) = (tp / found.len() as f64, tp / truth.len() as f64);
    let f1 = 2.0 * p * r / (p + r);
    assert!(f1 >= 0.95, "precision {p:.3}, recall {r:.3}, F1 {f1:.3}");
    assert_eq!(d.summary().documents, 5075);
}

/// Stores written before the dedup sketch existed (the edge Worker's
/// collections) hold a MinHash signature's own bytes, or a SimHash
/// fingerprint as 16 hex digits: the stages read both, with the same keys
/// and verdicts as the dedup sketch.
#[test]
fn bare_signatures_and_fingerprints_are_read_as_sketches() {
    let (a, b) = (
        "Near-duplicate detection finds documents that are almost the same, copies with small edits.",
        "Near duplicate detection finds documents which are almost the same: copies with tiny edits.",
    );
    // The signatures below are of spec version 1 (a new configuration's
    // default is 2: issue 50), so the configuration says 1.
    let config = DedupConfig::default()
        .scheme(Some(neardup::minhash::MinHashScheme::Classic))
        .spec(neardup::hash::Spec::V1);
    let stages = Stages::new(&config).unwrap();
    let hasher = neardup::minhash::MinHasher::new(&neardup::minhash::MinHashConfig {
        num_perm: 128,
        seed: 0,
        shingle: Shingling::Chars(5),
        scheme: neardup::minhash::MinHashScheme::Classic,
        spec: neardup::hash::Spec::V1,
    })
    .unwrap();
    let (sa, sb) = (stages.sketch(a).unwrap(), stages.sketch(b).unwrap());
    let bare = hasher.signature_of_text(a).to_bytes();
    let read = stages.read_sketch(&bare).unwrap();
    assert_eq!(stages.keys(&read).unwrap(), stages.keys(&sa).unwrap());
    assert_eq!(
        stages.verify(&read, &sb).unwrap(),
        stages.verify(&sa, &sb).unwrap()
    );
    assert!(stages.verify(&read, &sb).unwrap().is_some());
    // A signature of another kind is refused, not compared: another scheme,
    // or another spec version (the default's 2).
    let other = Stages::new(&DedupConfig::default().spec(neardup::hash::Spec::V1)).unwrap();
    let e = other.read_sketch(&bare).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Incompatible { .. }), "{e}");
    let v2 = Stages::new(&config.spec(neardup::hash::Spec::V2)).unwrap();
    let e = v2.read_sketch(&bare).unwrap_err();
    assert!(e.to_string().contains("spec 2"), "{e}");

    let config = DedupConfig::default()
        .method(DedupMethod::SimHash)
        .k(Some(16))
        .verify(Some(false))
        .spec(neardup::hash::Spec::V1);
    let stages = Stages::new(&config).unwrap();
    let fp = neardup::simhash::SimHashConfig::default()
        .shingle(Shingling::Chars(5))
        .fingerprint(a)
        .unwrap();
    let read = stages.read_sketch(&fp.value().to_be_bytes()).unwrap();
    let sa = stages.sketch(a).unwrap();
    assert_eq!(stages.keys(&read).unwrap(), stages.keys(&sa).unwrap());
    let sb = stages.sketch(b).unwrap();
    assert_eq!(
        stages.verify(&read, &sb).unwrap(),
        stages.verify(&sa, &sb).unwrap()
    );
    let e = stages.read_sketch(&[1, 2, 3]).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Corrupt { .. }), "{e}");
}

/// Issue 26: the largest document is the same for every method and binding
/// (64 MiB, as `compare` and the CLI's `--max-bytes`), checked before any
/// work; `with_max_bytes` moves it.
#[test]
fn documents_over_the_limit_are_refused_before_work_for_every_method() {
    assert_eq!(neardup::dedup::MAX_DOCUMENT_BYTES, 64 << 20);
    let big = "ab ".repeat((64 << 20) / 3 + 1);
    assert!(big.len() as u64 > neardup::dedup::MAX_DOCUMENT_BYTES);
    for method in [
        DedupMethod::MinHash,
        DedupMethod::SimHash,
        DedupMethod::Exact,
    ] {
        let stages = Stages::new(&DedupConfig {
            method,
            ..DedupConfig::default()
        })
        .unwrap();
        let e = stages.sketch(&big).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::TooLarge { len, max: 67108864, .. } if *len == big.len() as u64),
            "{method}: {e}"
        );
        let small = stages.with_max_bytes(11);
        assert!(small.sketch("hello world").is_ok(), "exactly at the limit");
        let e = small.sketch("hello world!").unwrap_err();
        assert!(
            e.to_string()
                .contains("12 bytes long, more than the limit of 11 bytes"),
            "{e}"
        );
    }
}

/// Issue 35: groups of 1, 2, 3, 50 and 1,000 copies of a text, added
/// interleaved, make one cluster each with `n − 1` pairs, every copy paired
/// with the group's first; a query names one document per cluster; the
/// full list of pairs within clusters is there up to a bound, refused past
/// it. For every method.
#[test]
fn copy_groups_of_1_2_3_50_and_1000_make_one_cluster_and_n_minus_1_pairs() {
    let sizes = [1usize, 2, 3, 50, 1000];
    // Five unrelated texts (collection's random prose, long enough).
    let texts: Vec<String> = collection(21, 200)
        .into_iter()
        .filter(|t| t.len() > 300)
        .take(sizes.len())
        .collect();
    let mut order: Vec<(usize, usize)> = Vec::new();
    for round in 0..1000 {
        for (g, &n) in sizes.iter().enumerate() {
            if round < n {
                order.push((g, round));
            }
        }
    }
    let d0 = DedupConfig::default();
    for config in [
        d0,
        d0.verify(Some(true)),
        d0.method(DedupMethod::SimHash),
        d0.method(DedupMethod::Exact),
    ] {
        let mut d = Deduplicator::new(&config).unwrap();
        for &(g, c) in &order {
            let found = d.add(&format!("g{g}c{c}"), &texts[g]).unwrap();
            let want: Vec<String> = if c == 0 {
                vec![]
            } else {
                vec![format!("g{g}c0")]
            };
            let got: Vec<String> = found.iter().map(|m| m.id.to_string()).collect();
            assert_eq!(got, want, "{config:?}");
        }
        let clusters = d.clusters();
        let want: Vec<Vec<String>> = sizes
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 1)
            .map(|(g, &n)| (0..n).map(|c| format!("g{g}c{c}")).collect())
            .collect();
        let mut got: Vec<Vec<String>> = clusters
            .iter()
            .map(|c| c.iter().map(|s| s.to_string()).collect())
            .collect();
        got.sort_by_key(|c| c[0].clone());
        assert_eq!(got, want, "{config:?}");
        let pairs = d.pairs().unwrap();
        assert_eq!(pairs.len(), 2 - 1 + 3 - 1 + 50 - 1 + 1000 - 1, "{config:?}");
        assert!(pairs
            .iter()
            .all(|p| p.a.ends_with("c0") && p.a[..2] == p.b[..2]));
        let s = d.summary();
        assert_eq!((s.pairs, s.duplicates, s.clusters), (1051, 1051, 4));
        let q = d.query(&texts[4]).unwrap();
        assert_eq!(q.iter().map(|m| m.id).collect::<Vec<_>>(), ["g4c0"]);
        assert_eq!(d.cluster_of("g4c7").unwrap().len(), 1000);
        assert_eq!(d.cluster_of("g0c0").unwrap(), ["g0c0"]);
        // 1 + 3 + 1225 + 499,500 pairs within clusters.
        let e = d.all_pairs(100_000).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::InvalidOption { option, .. } if *option == "max_pairs")
        );
        assert!(e.to_string().contains("500729 pairs"), "{e}");
        if config.method == DedupMethod::MinHash {
            assert_eq!(d.all_pairs(500_729).unwrap().len(), 500_729);
        }
    }
}

/// Issue 35: 10,000 copies of one line, and 2,000 near copies (each with a
/// word of its own), are one cluster each with `n − 1` pairs — in linear
/// work (this test would take minutes otherwise).
#[test]
fn ten_thousand_copies_and_two_thousand_near_copies_are_linear() {
    let mut d = Deduplicator::new(&DedupConfig::default()).unwrap();
    let line = "Home | About us | Contact | Terms of service | Privacy policy | Careers | Press";
    for i in 0..10_000 {
        d.add(&format!("c{i}"), line).unwrap();
    }
    let base = "Boilerplate of a mirrored news page: all rights reserved, no part of this page may be copied without the written consent of the publisher, see our terms";
    for i in 0..2_000 {
        d.add(&format!("n{i}"), &format!("{base} (mirror {i})"))
            .unwrap();
    }
    let s = d.summary();
    assert_eq!(
        (s.clusters, s.duplicates, s.pairs),
        (2, 9_999 + 1_999, 11_998)
    );
    assert_eq!(d.keep(), ["c0", "n0"]);
}

/// Issue 51 item 4: the exact join's candidates are capped as MinHash's
/// are: 3,000 near copies (each with a word of its own, so no two sketches
/// are equal) share every prefix bucket, and each is a candidate of the
/// first 64 of them only — one cluster with `n − 1` pairs, where the
/// uncapped join verified 4.5 million pairs.
#[test]
fn the_exact_join_caps_its_buckets_as_minhash_does() {
    let config = DedupConfig::default().method(DedupMethod::Exact);
    assert_eq!(
        neardup::dedup::Stages::new(&config).unwrap().bucket_cap(),
        Some(neardup::dedup::BUCKET_CAP)
    );
    let mut d = Deduplicator::new(&config).unwrap();
    let base = "Boilerplate of a mirrored news page: all rights reserved, no part of this page may be copied without the written consent of the publisher, see our terms";
    for i in 0..3_000 {
        d.add(&format!("n{i}"), &format!("{base} (mirror {i})"))
            .unwrap();
    }
    let s = d.summary();
    assert_eq!((s.clusters, s.duplicates, s.pairs), (1, 2_999, 2_999));
    assert_eq!(d.keep(), ["n0"]);
    let simhash = DedupConfig::default().method(DedupMethod::SimHash);
    assert_eq!(
        neardup::dedup::Stages::new(&simhash).unwrap().bucket_cap(),
        None
    );
}

/// Issue 35: removing a group's first copy hands its place to the next; the
/// deduplicator then answers as a fresh one given the documents left.
#[test]
fn removing_copies_and_their_holder_answers_as_a_fresh_run() {
    let docs = collection(11, 150);
    for config in [
        DedupConfig::default(),
        DedupConfig::default().method(DedupMethod::SimHash),
    ] {
        let mut d = Deduplicator::new(&config).unwrap();
        let mut fresh = Deduplicator::new(&config).unwrap();
        let copy = "A text given five times, to be removed in part, then looked up again.";
        let mut ids: Vec<(String, String)> = Vec::new();
        for (i, t) in docs.iter().enumerate() {
            ids.push((format!("d{i}"), t.clone()));
            if i % 30 == 0 {
                ids.push((format!("copy{i}"), copy.to_string()));
            }
        }
        for (id, t) in &ids {
            d.add(id, t).unwrap();
        }
        let gone = ["copy0", "copy60", "d7", "d8"];
        for id in gone {
            assert!(d.remove(id));
        }
        for (id, t) in &ids {
            if !gone.contains(&id.as_str()) {
                fresh.add(id, t).unwrap();
            }
        }
        assert_eq!(d.clusters(), fresh.clusters(), "{config:?}");
        assert_eq!(d.keep(), fresh.keep());
        let q = d.query(copy).unwrap();
        assert_eq!(q.iter().map(|m| m.id).collect::<Vec<_>>(), ["copy30"]);
        let pairs = |d: &mut Deduplicator| -> Vec<(String, String)> {
            d.pairs()
                .unwrap()
                .iter()
                .map(|p| (p.a.to_string(), p.b.to_string()))
                .collect()
        };
        assert_eq!(pairs(&mut d), pairs(&mut fresh));
        // A snapshot of it loads as the same.
        let mut back = Deduplicator::from_bytes(&d.to_bytes(), None, None).unwrap();
        assert_eq!(pairs(&mut back), pairs(&mut fresh));
    }
}

/// Issue 48 item 6: what a configuration needs besides itself is the core's
/// one rule (`DedupConfig::needs`), which the CLI, npm (`dedupNeeds`) and
/// Python ask.
#[test]
fn a_configuration_says_what_it_needs() {
    use neardup::dedup::{DedupNeeds, Weights};
    let none = DedupNeeds::default();
    assert_eq!(DedupConfig::default().needs(), none);
    assert_eq!(
        DedupConfig::default().method(DedupMethod::MultiRef).needs(),
        DedupNeeds {
            reference: true,
            ..none
        }
    );
    let correct = DedupConfig::default().shingle(neardup::shingle::ShingleSpec {
        shingling: Shingling::Words(3),
        correct: true,
    });
    assert_eq!(
        correct.needs(),
        DedupNeeds {
            dictionary: true,
            ..none
        }
    );
    let tfidf = DedupConfig::default()
        .method(DedupMethod::SimHash)
        .weights(Weights::Tfidf);
    assert_eq!(
        tfidf.needs(),
        DedupNeeds {
            frequencies: true,
            ..none
        }
    );
}

/// Issue 50: spec version 2 is the default of a new configuration; a
/// snapshot written at version 1 (the default before) reads back at 1 and
/// goes on at 1 — a text added after is sketched as before and finds its
/// copy — while a new deduplicator at the default is version 2, and the two
/// versions' sketches never meet.
#[test]
fn spec_2_is_the_default_and_a_version_1_snapshot_goes_on_at_1() {
    use neardup::hash::Spec;
    let text = "Near-duplicate detection finds documents that are almost the same, copies with small edits.";
    let copy = "Near duplicate detection finds documents which are almost the same: copies with small edits.";
    for method in [
        DedupMethod::MinHash,
        DedupMethod::SimHash,
        DedupMethod::Exact,
    ] {
        let old = DedupConfig::default().method(method).spec(Spec::V1);
        // SimHash's default distance was 12 then (10 since).
        let old = match method {
            DedupMethod::SimHash => old.k(neardup::dedup::LEGACY_SIMHASH_K),
            _ => old,
        };
        let mut d = Deduplicator::new(&old).unwrap();
        d.add("a", text).unwrap();
        let back = Deduplicator::from_bytes(&d.to_bytes(), None, None).unwrap();
        assert_eq!(back.config().hash_spec(), Spec::V1, "{method:?}");
        let new = Deduplicator::new(&DedupConfig::default().method(method)).unwrap();
        assert_eq!(new.config().hash_spec(), Spec::V2, "{method:?}");
        // The snapshot goes on at 1: a copy added is found with the original.
        let mut back = back;
        let found = back.add("b", copy).unwrap();
        assert!(
            !found.is_empty(),
            "{method:?}: the copy found after reading the snapshot"
        );
        // A version-1 sketch is refused at version 2.
        let sketch = Stages::new(&old).unwrap().sketch(text).unwrap().to_bytes();
        let e = new.stages().read_sketch(&sketch).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::Incompatible { .. }),
            "{method:?}: {e}"
        );
    }
}

/// Issue 50: SimHash's default distance is 10 for new work; a snapshot
/// written when it was 12 (by the CLI at commit c415e0e, which did not
/// record a default `k`: `tests/golden/simhash-k12/`) reads and goes on at
/// 12 — its edited copy at Hamming distance 11 is found — and keeps 12
/// when written again, while a new deduplicator at the default does not
/// pair the same texts.
#[test]
fn a_simhash_snapshot_of_the_old_default_goes_on_at_k_12() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/simhash-k12");
    let bytes = std::fs::read(dir.join("dedup.ndx")).unwrap();
    let copy = std::fs::read_to_string(dir.join("copy.txt")).unwrap();
    let corpus: Vec<(String, String)> = std::fs::read_to_string(dir.join("corpus.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["id"].as_str().unwrap().into(),
                v["text"].as_str().unwrap().into(),
            )
        })
        .collect();
    let mut old = Deduplicator::from_bytes(&bytes, None, None).unwrap();
    assert_eq!(old.config().method, DedupMethod::SimHash);
    assert_eq!(old.config().max_distance(), 12);
    let again = Deduplicator::from_bytes(&old.to_bytes(), None, None).unwrap();
    assert_eq!(again.config().max_distance(), 12, "written again, still 12");
    let found = old.add("copy", &copy).unwrap();
    assert_eq!(found.len(), 1, "the copy is found in the old snapshot");
    assert_eq!(found[0].id, "base");
    assert_eq!(found[0].verified.distance, Some(11));
    // A new deduplicator at the default distance (10) holds the same texts
    // and does not pair the copy: the snapshot kept its own distance.
    let config = DedupConfig::default().method(DedupMethod::SimHash);
    assert_eq!(config.max_distance(), neardup::dedup::DEFAULT_SIMHASH_K);
    let mut new = Deduplicator::new(&config).unwrap();
    for (id, text) in &corpus {
        new.add(id, text).unwrap();
    }
    assert!(new.add("copy", &copy).unwrap().is_empty());
}

/// Where sets only verify candidate pairs (SimHash at its defaults,
/// MinHash with `verify`, `+correct`), a deduplicator fed texts makes a
/// document's shingle set only when first needed, from the text it keeps.
/// Everything it answers is what one fed sketches whose sets were made at
/// once answers: the pairs found as documents come, the pairs, all pairs
/// and clusters, queries, each sketch, the snapshot bytes; before and after
/// removals (of a cluster's first member, whose set was made late, and of
/// lone documents), and through documents that differ only in what the
/// normalisation drops (the same body and set: copies).
#[test]
fn sets_made_when_first_needed_answer_as_sets_made_at_once() {
    let words: Vec<(String, u64)> = (0..400).map(|i| (format!("w{i}x"), 10 + i)).collect();
    let dictionary = std::sync::Arc::new(
        neardup::spell::Dictionary::from_counts(words.iter().map(|(w, c)| (w.as_str(), *c)))
            .unwrap(),
    );
    let simhash = DedupConfig::default().method(DedupMethod::SimHash);
    let configs = [
        simhash,
        simhash.k(Some(16)).threshold(0.3),
        simhash.shingle(Shingling::Words(2)),
        DedupConfig::default().verify(Some(true)),
        DedupConfig::default()
            .verify(Some(true))
            .shingle(neardup::shingle::ShingleSpec {
                shingling: Shingling::Words(2),
                correct: true,
            }),
    ];
    let mut docs = collection(11, 300);
    // Copies that differ in case and spacing only; a misspelt copy.
    for i in [4usize, 9, 9, 40] {
        let loud = docs[i].to_uppercase().replace(' ', "  ");
        docs.push(loud);
    }
    docs.push(docs[12].replace("w1", "w1q"));
    for config in configs {
        let stages = || {
            let s = Stages::new(&config).unwrap();
            match config.corrects() {
                true => s.with_dictionary(dictionary.clone()).unwrap(),
                false => s,
            }
        };
        let mut late = Deduplicator::from_stages(stages()).unwrap();
        let mut once = Deduplicator::from_stages(stages()).unwrap();
        let sketcher = stages();
        let what = format!("{config:?}");
        let ids: Vec<String> = (0..docs.len()).map(|i| format!("d{i}")).collect();
        // Half one by one, half as a batch (the CLI's and Python's path).
        let half = docs.len() / 2;
        for (id, t) in ids.iter().zip(&docs).take(half) {
            let a: Vec<(u32, f64)> = late
                .add(id, t)
                .unwrap()
                .iter()
                .map(|m| (m.position, m.verified.similarity))
                .collect();
            let b: Vec<(u32, f64)> = once
                .add_sketch(id, sketcher.sketch(t).unwrap())
                .unwrap()
                .iter()
                .map(|m| (m.position, m.verified.similarity))
                .collect();
            assert_eq!(a, b, "{what}: {id}");
        }
        let mut streamed = Vec::new();
        late.add_batch(&ids[half..], &docs[half..], |i, m| {
            streamed.extend(m.iter().map(|m| (i, m.position, m.verified.similarity)));
        })
        .unwrap();
        let mut expected = Vec::new();
        for (i, (id, t)) in ids[half..].iter().zip(&docs[half..]).enumerate() {
            let m = once.add_sketch(id, sketcher.sketch(t).unwrap()).unwrap();
            expected.extend(m.iter().map(|m| (i, m.position, m.verified.similarity)));
        }
        assert_eq!(streamed, expected, "{what}: the batch");
        assert!(!expected.is_empty(), "{what}: pairs found");
        let agree = |late: &mut Deduplicator, once: &mut Deduplicator, when: &str| {
            let pairs = |d: &mut Deduplicator| -> Vec<(u32, u32, f64)> {
                d.pairs()
                    .unwrap()
                    .iter()
                    .map(|p| (p.a_position, p.b_position, p.verified.similarity))
                    .collect()
            };
            assert_eq!(pairs(late), pairs(once), "{what}, {when}: pairs");
            let all = |d: &mut Deduplicator| d.all_pairs(u64::MAX).unwrap().len();
            assert_eq!(all(late), all(once), "{what}, {when}: all pairs");
            assert_eq!(late.clusters(), once.clusters(), "{what}, {when}");
            assert_eq!(late.summary(), once.summary(), "{what}, {when}");
            for i in [0usize, 7, 12, 299, 301] {
                let q = |d: &mut Deduplicator| -> Vec<u32> {
                    d.query(&docs[i])
                        .unwrap()
                        .iter()
                        .map(|m| m.position)
                        .collect()
                };
                assert_eq!(q(late), q(once), "{what}, {when}: query {i}");
                assert_eq!(
                    late.sketch(&ids[i]),
                    once.sketch(&ids[i]),
                    "{what}, {when}: sketch {i}"
                );
            }
            assert!(
                late.to_bytes() == once.to_bytes(),
                "{what}, {when}: the snapshots"
            );
        };
        agree(&mut late, &mut once, "all added");
        let first = late.clusters()[0][0].to_string();
        for id in [first.as_str(), "d3", "d250"] {
            assert_eq!(late.remove(id), once.remove(id));
        }
        agree(&mut late, &mut once, "after removals");
        // Read back (sets from the snapshot), then more texts: the same.
        let given = || config.corrects().then(|| dictionary.clone());
        let mut late = Deduplicator::from_bytes(&late.to_bytes(), None, given()).unwrap();
        let mut once = Deduplicator::from_bytes(&once.to_bytes(), None, given()).unwrap();
        for (i, t) in docs.iter().enumerate().step_by(3) {
            let id = format!("again{i}");
            let a = late.add(&id, t).unwrap().len();
            let b = once
                .add_sketch(&id, sketcher.sketch(t).unwrap())
                .unwrap()
                .len();
            assert_eq!(a, b, "{what}: {id} after reading back");
        }
        agree(&mut late, &mut once, "read back, more added");
    }
}
