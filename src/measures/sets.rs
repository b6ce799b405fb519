//! Set measures of shingle sets (Broder 1997) and the cosine of term
//! frequencies, each with its formula and source.
//!
//! For shingle sets `A = S(a)`, `B = S(b)` (Broder, "On the resemblance and
//! containment of documents", SEQUENCES 1997):
//!
//! | measure | formula | range |
//! |---|---|---|
//! | resemblance (Jaccard) | `|A ∩ B| / |A ∪ B|` | [0, 1] |
//! | containment of a in b | `|A ∩ B| / |A|` | [0, 1] |
//! | Dice (Dice 1945; Sørensen 1948) | `2 |A ∩ B| / (|A| + |B|)` | [0, 1] |
//! | cosine of term frequencies (Salton) | `Σ f_a(t) f_b(t) / (‖f_a‖ ‖f_b‖)` | [0, 1] |
//!
//! By convention every measure of two empty inputs is 0 (there is no
//! evidence of copying), and never NaN.

use crate::shingle::ShingleSet;
use alloc::vec::Vec;

/// The counts behind every set measure: `|A ∩ B|`, `|A|`, `|B|`.
///
/// Every set measure of the crate (of shingle sets, of keyword sets) is one
/// of these methods, so each formula is written once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SetCounts {
    /// `|A ∩ B|`.
    pub intersection: usize,
    /// `|A|`.
    pub a: usize,
    /// `|B|`.
    pub b: usize,
}

impl SetCounts {
    /// Jaccard resemblance `|A ∩ B| / |A ∪ B|` in [0, 1]; 0 when both are empty.
    pub fn resemblance(&self) -> f64 {
        ratio(self.intersection, self.a + self.b - self.intersection)
    }

    /// Containment of A in B, `|A ∩ B| / |A|` in [0, 1]; 0 when A is empty.
    pub fn containment(&self) -> f64 {
        ratio(self.intersection, self.a)
    }

    /// Containment of B in A, `|A ∩ B| / |B|` in [0, 1]; 0 when B is empty.
    pub fn containment_b_in_a(&self) -> f64 {
        ratio(self.intersection, self.b)
    }

    /// Dice coefficient `2 |A ∩ B| / (|A| + |B|)` in [0, 1]; 0 when both are empty.
    pub fn dice(&self) -> f64 {
        ratio(2 * self.intersection, self.a + self.b)
    }
}

/// Jaccard resemblance of two shingle sets (see [`SetCounts::resemblance`]).
pub fn resemblance(a: &ShingleSet, b: &ShingleSet) -> f64 {
    a.counts(b).resemblance()
}

/// The resemblance of `a` and `b` when it reaches `t`, else `None`: the
/// test of a candidate pair, exact, that stops as soon as the pair cannot
/// reach `t`.
///
/// `|A ∩ B| / |A ∪ B| ≥ t` needs `|A ∩ B| ≥ t (|A| + |B|) / (1 + t)`; the
/// merge of the two sorted sets stops once the overlap found plus the
/// shorter remainder falls below that (with one element to spare, so that
/// no rounding decides), the size and positional filters of similarity
/// joins (Bayardo, Ma & Srikant 2007; Xiao et al. 2008). A pair that
/// passes gets [`SetCounts::resemblance`] itself, so the answer is the
/// same as `resemblance(a, b) >= t` for every pair. Two empty sets give
/// `None` (their resemblance is 0). `t` in [0, 1]; time: the merged prefix.
pub fn resemblance_at_least(a: &ShingleSet, b: &ShingleSet, t: f64) -> Option<f64> {
    let (na, nb) = (a.len(), b.len());
    // Overlap below `need` means resemblance below t (one to spare).
    let need = libm::floor(t * (na + nb) as f64 / (1.0 + t)) as usize;
    let n = a.intersection_at_least(b, need.saturating_sub(1))?;
    let e = SetCounts {
        intersection: n,
        a: na,
        b: nb,
    }
    .resemblance();
    (e >= t && (na > 0 || nb > 0)).then_some(e)
}

/// Containment of `a` in `b` (see [`SetCounts::containment`]): the share of
/// `a`'s shingles that also occur in `b`.
pub fn containment(a: &ShingleSet, b: &ShingleSet) -> f64 {
    a.counts(b).containment()
}

/// Dice coefficient of two shingle sets (see [`SetCounts::dice`]).
pub fn dice(a: &ShingleSet, b: &ShingleSet) -> f64 {
    a.counts(b).dice()
}

fn ratio(num: usize, den: usize) -> f64 {
    if den == 0 {
        0.0
    } else {
        num as f64 / den as f64
    }
}

/// A term-frequency vector: `(term hash, count)` sorted by hash, each hash once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TermFrequencies {
    terms: Vec<(u64, u32)>,
}

impl TermFrequencies {
    /// Counts the terms (hashes, e.g. [`crate::Document::token_hashes`]).
    pub fn from_hashes(hashes: &[u64]) -> Self {
        let mut sorted = hashes.to_vec();
        sorted.sort_unstable();
        let mut terms: Vec<(u64, u32)> = Vec::new();
        for h in sorted {
            match terms.last_mut() {
                Some((last, n)) if *last == h => *n = n.saturating_add(1),
                _ => terms.push((h, 1)),
            }
        }
        TermFrequencies { terms }
    }

    /// The `(hash, count)` pairs, ascending by hash.
    pub fn as_slice(&self) -> &[(u64, u32)] {
        &self.terms
    }

    /// The counts as a sparse weight vector for [`crate::measures::vectors`].
    pub fn weights(&self) -> Vec<(u64, f64)> {
        self.terms.iter().map(|&(h, n)| (h, n as f64)).collect()
    }

    /// Euclidean norm `‖f‖ = sqrt(Σ f(t)²)`.
    pub fn norm(&self) -> f64 {
        libm::sqrt(
            self.terms
                .iter()
                .map(|&(_, n)| (n as f64) * (n as f64))
                .sum::<f64>(),
        )
    }
}

/// Cosine similarity of two term-frequency vectors,
/// `Σ_t f_a(t) f_b(t) / (‖f_a‖ ‖f_b‖)` in [0, 1] (counts are non-negative);
/// 0 when either is empty.
pub fn cosine(a: &TermFrequencies, b: &TermFrequencies) -> f64 {
    super::vectors::cosine(&a.weights(), &b.weights())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn set_measures_by_hand() {
        let a = ShingleSet::from_hashes(vec![1, 2, 3, 4]);
        let b = ShingleSet::from_hashes(vec![3, 4, 5]);
        assert_eq!(resemblance(&a, &b), 2.0 / 5.0);
        assert_eq!(containment(&a, &b), 2.0 / 4.0);
        assert_eq!(containment(&b, &a), 2.0 / 3.0);
        assert_eq!(dice(&a, &b), 4.0 / 7.0);
        let e = ShingleSet::default();
        assert_eq!(resemblance(&e, &e), 0.0);
        assert_eq!(containment(&e, &a), 0.0);
        assert_eq!(dice(&e, &e), 0.0);
    }

    /// The merge's overlap against a lookup of each hash, and the
    /// early-stopping test against the full resemblance: pairs of every
    /// overlap, sizes from 0 to hundreds, thresholds around the pair's own
    /// resemblance (the pairs exactly at `t` included).
    #[test]
    fn resemblance_at_least_agrees_with_the_full_merge() {
        let mut rng = crate::hash::SplitMix64::new(7);
        for round in 0..3000 {
            let (na, nb) = (rng.next() % 300, rng.next() % 300);
            let shared = rng.next() % (na.min(nb) + 1);
            let pool: Vec<u64> = (0..na + nb).map(|_| rng.next() % 100_000).collect();
            let a: Vec<u64> = pool[..na as usize].to_vec();
            let mut b: Vec<u64> = pool[na as usize..].to_vec();
            b[..shared as usize].copy_from_slice(&a[..shared as usize]);
            let (a, b) = (ShingleSet::from_hashes(a), ShingleSet::from_hashes(b));
            // The merge (eight by eight where the CPU has AVX-512) against
            // each hash looked up by binary search.
            let looked_up = a.as_slice().iter().filter(|&&h| b.contains(h)).count();
            assert_eq!(a.intersection_len(&b), looked_up, "round {round}");
            assert_eq!(b.intersection_len(&a), looked_up, "round {round}");
            let full = resemblance(&a, &b);
            let ts = [
                0.05,
                0.3,
                0.5,
                0.8,
                0.95,
                full,
                (full - 1e-12).max(0.0),
                full + 1e-12,
            ];
            for &t in &ts {
                if !(0.0..=1.0).contains(&t) {
                    continue;
                }
                let want = (full >= t && !(a.is_empty() && b.is_empty())).then_some(full);
                assert_eq!(
                    resemblance_at_least(&a, &b, t),
                    want,
                    "round {round}, t {t}"
                );
                assert_eq!(
                    resemblance_at_least(&b, &a, t),
                    want,
                    "round {round}, t {t}"
                );
            }
        }
        let e = ShingleSet::default();
        assert_eq!(resemblance_at_least(&e, &e, 0.5), None);
    }

    #[test]
    fn cosine_by_hand() {
        // a = {x:2, y:1}, b = {x:1, z:1}: 2 / (sqrt 5 * sqrt 2)
        let a = TermFrequencies::from_hashes(&[7, 7, 9]);
        let b = TermFrequencies::from_hashes(&[7, 11]);
        let want = 2.0 / (libm::sqrt(5.0) * libm::sqrt(2.0));
        assert!((cosine(&a, &b) - want).abs() < 1e-15);
        assert!((cosine(&a, &a) - 1.0).abs() < 1e-15);
        assert_eq!(cosine(&a, &TermFrequencies::default()), 0.0);
    }
}
