//! Similarity functions over weighted feature vectors, the building blocks of
//! the similarity vector `S_v(d1, d2) = <x_1 … x_r>` of a learned plagiarism
//! verdict (Hajishirzi, Yih, Kolcz 2010; Raveena & Nandini 2014).
//!
//! A vector is a list of `(feature hash, weight)` pairs sorted by hash, each
//! hash once, weights finite and non-negative (e.g. the top-k tf-idf keywords
//! of [`crate::tfidf::DocumentFrequencies::top_keywords`]). With `A`, `B` the
//! sets of features and `u`, `v` the weight vectors (the set measures are
//! those of [`super::SetCounts`], on the features):
//!
//! | function | formula | range |
//! |---|---|---|
//! | [`jaccard`] (sets) | `|A∩B| / |A∪B|` | [0, 1] |
//! | [`dice`] (sets) | `2|A∩B| / (|A| + |B|)` | [0, 1] |
//! | [`cosine`] | `u·v / (‖u‖ ‖v‖)` | [0, 1] |
//! | [`euclidean`] (distance) | `‖u − v‖` | [0, ∞) |
//! | [`extended_jaccard`] (Tanimoto 1958) | `u·v / (‖u‖² + ‖v‖² − u·v)` | [0, 1] |
//!
//! Empty inputs give 0 similarity (and distance `‖u‖` or `‖v‖`), never NaN.

use super::SetCounts;

/// A sparse vector: `(feature hash, weight)` sorted by hash, hashes unique.
pub type Sparse = [(u64, f64)];

/// Walks two sparse vectors in hash order: `f(weight in a, weight in b)` for
/// every feature of either (0 where absent).
fn merge(a: &Sparse, b: &Sparse, mut f: impl FnMut(f64, f64)) {
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if j == b.len() || (i < a.len() && a[i].0 < b[j].0) {
            f(a[i].1, 0.0);
            i += 1;
        } else if i == a.len() || b[j].0 < a[i].0 {
            f(0.0, b[j].1);
            j += 1;
        } else {
            f(a[i].1, b[j].1);
            i += 1;
            j += 1;
        }
    }
}

/// The set counts of the features of two vectors.
pub fn counts(a: &Sparse, b: &Sparse) -> SetCounts {
    let mut intersection = 0;
    merge(a, b, |x, y| {
        if x != 0.0 && y != 0.0 {
            intersection += 1;
        }
    });
    SetCounts {
        intersection,
        a: a.len(),
        b: b.len(),
    }
}

/// Jaccard coefficient of the feature sets, `|A∩B| / |A∪B|`.
pub fn jaccard(a: &Sparse, b: &Sparse) -> f64 {
    counts(a, b).resemblance()
}

/// Dice coefficient of the feature sets, `2|A∩B| / (|A| + |B|)`.
pub fn dice(a: &Sparse, b: &Sparse) -> f64 {
    counts(a, b).dice()
}

fn products(a: &Sparse, b: &Sparse) -> (f64, f64, f64) {
    let (mut dot, mut aa, mut bb) = (0.0, 0.0, 0.0);
    merge(a, b, |x, y| {
        dot += x * y;
        aa += x * x;
        bb += y * y;
    });
    (dot, aa, bb)
}

/// Cosine of the weight vectors, `u·v / (‖u‖ ‖v‖)`; 0 when either is zero.
pub fn cosine(a: &Sparse, b: &Sparse) -> f64 {
    let (dot, aa, bb) = products(a, b);
    let den = libm::sqrt(aa) * libm::sqrt(bb);
    if den == 0.0 {
        0.0
    } else {
        (dot / den).clamp(0.0, 1.0)
    }
}

/// Euclidean distance of the weight vectors, `‖u − v‖`.
pub fn euclidean(a: &Sparse, b: &Sparse) -> f64 {
    let mut s = 0.0;
    merge(a, b, |x, y| s += (x - y) * (x - y));
    libm::sqrt(s)
}

/// Extended Jaccard (Tanimoto) coefficient, `u·v / (‖u‖² + ‖v‖² − u·v)`; 0
/// when both are zero.
pub fn extended_jaccard(a: &Sparse, b: &Sparse) -> f64 {
    let (dot, aa, bb) = products(a, b);
    let den = aa + bb - dot;
    if den <= 0.0 {
        0.0
    } else {
        (dot / den).clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_hand() {
        // u = {1: 1, 2: 2}, v = {2: 2, 3: 1}
        let u = [(1, 1.0), (2, 2.0)];
        let v = [(2, 2.0), (3, 1.0)];
        assert_eq!(jaccard(&u, &v), 1.0 / 3.0);
        assert_eq!(dice(&u, &v), 0.5);
        assert!((cosine(&u, &v) - 4.0 / 5.0).abs() < 1e-15);
        assert!((euclidean(&u, &v) - libm::sqrt(2.0)).abs() < 1e-15);
        assert!((extended_jaccard(&u, &v) - 4.0 / (5.0 + 5.0 - 4.0)).abs() < 1e-15);
        assert!((cosine(&u, &u) - 1.0).abs() < 1e-15);
        assert_eq!(extended_jaccard(&u, &u), 1.0);
        let e: [(u64, f64); 0] = [];
        assert_eq!(
            (
                jaccard(&e, &e),
                dice(&e, &e),
                cosine(&e, &u),
                extended_jaccard(&e, &e)
            ),
            (0.0, 0.0, 0.0, 0.0)
        );
        assert!((euclidean(&e, &u) - libm::sqrt(5.0)).abs() < 1e-15);
    }
}
