//! Document frequencies and smoothed inverse document frequency (Spärck
//! Jones 1972; the smoothed form of scikit-learn's `TfidfTransformer`):
//!
//! ```text
//! idf(t) = ln((1 + N) / (1 + df(t))) + 1
//! ```
//!
//! with `N` documents of which `df(t)` contain term `t` (terms are shingle
//! hashes). `idf ≥ 1` for every term, and a term never seen gets the largest
//! value, `ln(1 + N) + 1`. Used to weight SimHash features by tf-idf.

use alloc::vec::Vec;
use hashbrown::HashMap;

type Map<K, V> = HashMap<K, V, fnv::FnvBuildHasher>;

/// Document frequencies of terms over a collection.
#[derive(Clone, Debug, Default)]
pub struct DocumentFrequencies {
    docs: u64,
    df: Map<u64, u32>,
}

impl DocumentFrequencies {
    /// An empty table (`N = 0`).
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts one document's terms (repeats within it count once).
    pub fn add_document(&mut self, terms: &[u64]) {
        self.docs += 1;
        let mut t = terms.to_vec();
        t.sort_unstable();
        t.dedup();
        for h in t {
            let e = self.df.entry(h).or_insert(0);
            *e = e.saturating_add(1);
        }
    }

    /// A table from stored counts: `N` documents and `(term, df)` pairs.
    pub fn from_counts(documents: u64, counts: impl IntoIterator<Item = (u64, u32)>) -> Self {
        DocumentFrequencies {
            docs: documents,
            df: counts.into_iter().collect(),
        }
    }

    /// The `(term, df)` pairs, sorted by term.
    pub fn counts(&self) -> Vec<(u64, u32)> {
        let mut v: Vec<(u64, u32)> = self.df.iter().map(|(&h, &n)| (h, n)).collect();
        v.sort_unstable();
        v
    }

    /// Number of documents `N`.
    pub fn documents(&self) -> u64 {
        self.docs
    }

    /// `df(t)`: documents containing `term`.
    pub fn df(&self, term: u64) -> u32 {
        self.df.get(&term).copied().unwrap_or(0)
    }

    /// Smoothed `idf(t) = ln((1 + N) / (1 + df(t))) + 1`, at least 1.
    pub fn idf(&self, term: u64) -> f64 {
        libm::log((1.0 + self.docs as f64) / (1.0 + self.df(term) as f64)) + 1.0
    }

    /// tf-idf weights of a document's terms: `(term, tf · idf)` per distinct
    /// term, in ascending term order.
    pub fn tfidf(&self, terms: &[u64]) -> Vec<(u64, f64)> {
        let mut t = terms.to_vec();
        t.sort_unstable();
        let mut out: Vec<(u64, f64)> = Vec::new();
        let mut i = 0;
        while i < t.len() {
            let mut j = i;
            while j < t.len() && t[j] == t[i] {
                j += 1;
            }
            out.push((t[i], (j - i) as f64 * self.idf(t[i])));
            i = j;
        }
        out
    }
}

impl DocumentFrequencies {
    /// The `k` terms of a document with the highest tf-idf weight, as a
    /// sparse vector sorted by term (ties broken by the smaller term), for
    /// [`crate::measures::vectors`]. Weights are `tf · idf`.
    pub fn top_keywords(&self, terms: &[u64], k: usize) -> Vec<(u64, f64)> {
        let mut w = self.tfidf(terms);
        w.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
        w.truncate(k);
        w.sort_unstable_by_key(|x| x.0);
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idf_by_hand() {
        let mut d = DocumentFrequencies::new();
        d.add_document(&[1, 2, 2]);
        d.add_document(&[1, 3]);
        assert_eq!(d.documents(), 2);
        assert_eq!(d.df(1), 2);
        assert_eq!(d.df(2), 1);
        // ln(3/3) + 1 = 1; ln(3/2) + 1; unseen ln(3) + 1
        assert!((d.idf(1) - 1.0).abs() < 1e-15);
        assert!((d.idf(2) - (libm::log(1.5) + 1.0)).abs() < 1e-15);
        assert!((d.idf(9) - (libm::log(3.0) + 1.0)).abs() < 1e-15);
        let w = d.tfidf(&[2, 1, 2]);
        assert_eq!(w.len(), 2);
        assert!((w[1].1 - 2.0 * d.idf(2)).abs() < 1e-15);
        // Top-1 keyword of [2, 1, 2, 9]: 2 has 2·idf(2) ≈ 2.81, 9 (unseen) has ≈ 2.10.
        assert_eq!(d.top_keywords(&[2, 1, 2, 9], 1), [(2, 2.0 * d.idf(2))]);
        assert_eq!(
            d.top_keywords(&[2, 1, 2, 9], 2)
                .iter()
                .map(|x| x.0)
                .collect::<Vec<_>>(),
            [2, 9]
        );
    }
}
