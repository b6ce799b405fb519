//! The MinHash schemes' Jaccard estimates on real pairs: the 543 planted
//! near-duplicates of docs-bench (real prose, real edits), whole and cut to
//! their first 30 words (short texts: fewer shingles than `num_perm`, where
//! one-permutation hashing fills most bins by densification).
//!
//! For each pair the exact resemblance of the word 5-shingle sets is
//! compared with each scheme's estimate under several seeds; the test
//! reports bias and root-mean-square error per scheme
//! (`cargo test --release --test main estimators -- --nocapture` prints the
//! table EVALUATION.md quotes) and asserts what EVALUATION.md claims.

use neardup::minhash::{MinHashConfig, MinHashScheme, MinHasher};
use neardup::{Document, Shingling};

const NUM_PERM: u32 = 128;
const SEEDS: u64 = 6;

struct Errors {
    n: usize,
    sum: f64,
    sum_sq: f64,
}

impl Errors {
    fn bias(&self) -> f64 {
        self.sum / self.n as f64
    }
    fn rmse(&self) -> f64 {
        (self.sum_sq / self.n as f64).sqrt()
    }
}

/// Texts of the planted pairs, optionally cut to their first `words` words.
fn pairs(words: Option<usize>) -> Vec<(String, String)> {
    let dir = crate::util::data_dir().join("docs-bench");
    let mut texts = std::collections::HashMap::new();
    for line in std::fs::read_to_string(dir.join("docs.jsonl"))
        .unwrap()
        .lines()
    {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        texts.insert(
            v["id"].as_str().unwrap().to_string(),
            v["text"].as_str().unwrap().to_string(),
        );
    }
    let cut = |t: &str| match words {
        Some(w) => t.split_whitespace().take(w).collect::<Vec<_>>().join(" "),
        None => t.to_string(),
    };
    std::fs::read_to_string(dir.join("pairs.tsv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let mut f = l.split('\t');
            let (a, b) = (f.next().unwrap(), f.next().unwrap());
            (cut(&texts[a]), cut(&texts[b]))
        })
        .collect()
}

/// Estimation errors of `scheme` over `pairs` and `SEEDS` seeds, and the
/// mean shingle count of the texts.
fn errors(pairs: &[(String, String)], scheme: MinHashScheme) -> (Errors, f64) {
    let shingle = Shingling::Words(5);
    let mut e = Errors {
        n: 0,
        sum: 0.0,
        sum_sq: 0.0,
    };
    let mut shingles = 0usize;
    for seed in 0..SEEDS {
        let h = MinHasher::new(
            &MinHashConfig::default()
                .num_perm(NUM_PERM)
                .seed(seed)
                .shingle(shingle)
                .scheme(scheme),
        )
        .unwrap();
        for (a, b) in pairs {
            let (da, db) = (Document::new(a, seed), Document::new(b, seed));
            let (sa, sb) = (da.shingle_set(shingle), db.shingle_set(shingle));
            if sa.is_empty() || sb.is_empty() {
                continue;
            }
            shingles += sa.len() + sb.len();
            let i = sa.intersection_len(&sb);
            let j = i as f64 / (sa.len() + sb.len() - i) as f64;
            let est = h
                .signature_of(&da)
                .unwrap()
                .jaccard(&h.signature_of(&db).unwrap())
                .unwrap();
            e.n += 1;
            e.sum += est - j;
            e.sum_sq += (est - j) * (est - j);
        }
    }
    let mean = shingles as f64 / (2 * e.n) as f64;
    (e, mean)
}

#[test]
fn one_permutation_estimates_real_pairs_as_well_as_the_classic_scheme() {
    for (label, words, max_ratio) in [("whole", None, 1.0), ("first 30 words", Some(30), 1.3)] {
        let pairs = pairs(words);
        assert_eq!(pairs.len(), 543);
        let (classic, shingles) = errors(&pairs, MinHashScheme::Classic);
        let (oph, _) = errors(&pairs, MinHashScheme::OnePermutation);
        println!(
            "{label}: {} estimates, {shingles:.0} shingles per text on average; \
             classic bias {:+.4} RMSE {:.4}; oph bias {:+.4} RMSE {:.4} (ratio {:.2})",
            classic.n,
            classic.bias(),
            classic.rmse(),
            oph.bias(),
            oph.rmse(),
            oph.rmse() / classic.rmse()
        );
        // Unbiased: the mean error is within 4 standard errors of zero.
        for (name, e) in [("classic", &classic), ("oph", &oph)] {
            let se = e.rmse() / (e.n as f64).sqrt();
            assert!(
                e.bias().abs() < 4.0 * se,
                "{label}: {name} bias {}",
                e.bias()
            );
        }
        assert!(
            oph.rmse() <= max_ratio * classic.rmse(),
            "{label}: oph RMSE {} vs classic {}",
            oph.rmse(),
            classic.rmse()
        );
    }
}
