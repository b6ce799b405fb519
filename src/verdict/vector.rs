//! The similarity vector `S_v(a, b) = <x_1 … x_r>` of two documents
//! (Hajishirzi, Yih, Kolcz 2010; Raveena & Nandini 2014): which function on
//! which features is part of the model ([`Feature`], [`VectorSpec`]), so
//! training and inference cannot disagree about the layout.
//!
//! Keywords are the top-k tf-idf word tokens of each text, stop words
//! removed, with the model's document frequencies ([`crate::tfidf`]); word
//! n-gram features are containment of a in b or resemblance by word
//! n-shingles; character features by q-grams. Every feature reads the
//! [`Document`]s' memoised shingle sets, so a comparison and a verdict on the
//! same documents shingle each text once per kind.

use super::lcs::lcs_len;
use super::tiling::{tiled_tokens, MAX_TILING_TOKENS};
use crate::compare::passages::shared_runs;
use crate::document::Document;
use crate::error::{check_range, Error};
use crate::measures::vectors;
use crate::phonetic::Algorithm;
use crate::shingle::Shingling;
use crate::tfidf::DocumentFrequencies;
use alloc::vec::Vec;

/// One component of the similarity vector.
///
/// Written as an object with its function's name under `fn` (snake case)
/// and its parameters beside it: `{"fn": "word_containment", "n": 3}`.
/// Read from a plain object, which refuses an unknown function, a missing
/// parameter and one the function does not take, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "fn", rename_all = "snake_case")]
#[serde(try_from = "RawFeature")]
pub enum Feature {
    /// Jaccard of the top-k keyword sets.
    KeywordJaccard,
    /// Dice of the top-k keyword sets.
    KeywordDice,
    /// Cosine of the top-k keyword tf-idf vectors.
    KeywordCosine,
    /// Euclidean distance of the top-k keyword tf-idf vectors, each first
    /// normalised to unit length (so the value is in [0, 2]).
    KeywordEuclidean,
    /// Extended Jaccard (Tanimoto) of the top-k keyword tf-idf vectors.
    KeywordExtendedJaccard,
    /// Containment of a in b by word n-shingles.
    WordContainment {
        /// n, 1..=32.
        n: u32,
    },
    /// Jaccard resemblance of word n-shingle sets.
    WordResemblance {
        /// n, 1..=32.
        n: u32,
    },
    /// Containment of a in b by character q-grams.
    CharContainment {
        /// q, 1..=32.
        q: u32,
    },
    /// Jaccard resemblance of character q-gram sets.
    CharResemblance {
        /// q, 1..=32.
        q: u32,
    },
    /// Containment of b in a by word n-shingles: the share of the source's
    /// shingles found in the suspicious text (Clough & Stevenson 2011 read
    /// containment both ways).
    WordContainmentOfB {
        /// n, 1..=32.
        n: u32,
    },
    /// Containment of a in b by word n-shingles of the words' phonetic codes
    /// (SoundD, SPEC.md §13): copying that survives respelling (Varol &
    /// Hari 2015).
    PhoneticContainment {
        /// n, 1..=32.
        n: u32,
    },
    /// The longest shared passage (a maximal run of a's word k-shingles
    /// found in b at consecutive positions, `crate::compare::passages`), in
    /// words, as a share of a's words; in [0, 1].
    LongestPassage {
        /// k, 1..=32.
        k: u32,
    },
    /// The number of shared passages of word k-shingles (a count, ≥ 0).
    PassageCount {
        /// k, 1..=32.
        k: u32,
    },
    /// The mean length of the shared passages of word k-shingles, in words
    /// (0 when there is none).
    MeanPassage {
        /// k, 1..=32.
        k: u32,
    },
    /// The share of a's words inside shared passages of word k-shingles
    /// that are at least `min` words long; in [0, 1].
    LongPassageCoverage {
        /// k, 1..=32.
        k: u32,
        /// Shortest passage counted, in words, 1..=1000.
        min: u32,
    },
    /// The longest common subsequence of the two texts' word tokens divided
    /// by a's number of words (Clough & Stevenson 2011): how much of the
    /// source's order a keeps; in [0, 1]. Bit-parallel, over the first
    /// [`super::lcs::MAX_LCS_TOKENS`] words of each.
    Lcs,
    /// Greedy String Tiling (Wise 1993) of the word tokens with minimum
    /// match length `min`, as JPlag scores it: `2 · tiled / (|a| + |b|)`;
    /// in [0, 1]. Over the first [`super::tiling::MAX_TILING_TOKENS`] words
    /// of each.
    Tiling {
        /// Minimum match length in words, 1..=1000.
        min: u32,
    },
}

/// A [`Feature`] as written: its function's name and every parameter any
/// function takes. Read as a plain object, rather than by serde's
/// internally tagged enums, whose buffering made the feature's reader the
/// largest function of the comparison's WebAssembly module (37 KB; issue 49).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFeature {
    #[serde(rename = "fn")]
    function: alloc::string::String,
    n: Option<u32>,
    q: Option<u32>,
    k: Option<u32>,
    min: Option<u32>,
}

/// The names of [`Feature`]'s functions, as written.
const FEATURE_NAMES: &[&str] = &[
    "keyword_jaccard",
    "keyword_dice",
    "keyword_cosine",
    "keyword_euclidean",
    "keyword_extended_jaccard",
    "word_containment",
    "word_resemblance",
    "char_containment",
    "char_resemblance",
    "word_containment_of_b",
    "phonetic_containment",
    "longest_passage",
    "passage_count",
    "mean_passage",
    "long_passage_coverage",
    "lcs",
    "tiling",
];

impl TryFrom<RawFeature> for Feature {
    type Error = FeatureError;

    fn try_from(raw: RawFeature) -> Result<Feature, FeatureError> {
        use Feature::*;
        let RawFeature {
            function,
            n,
            q,
            k,
            min,
        } = raw;
        // Per function, the parameters it takes (in the order of
        // `RawFeature`) and the feature they make: one table.
        const NONE: [bool; 4] = [false; 4];
        const N: [bool; 4] = [true, false, false, false];
        const Q: [bool; 4] = [false, true, false, false];
        const K: [bool; 4] = [false, false, true, false];
        type Make = fn([u32; 4]) -> Feature;
        let (takes, make): ([bool; 4], Make) = match function.as_str() {
            "keyword_jaccard" => (NONE, |_| KeywordJaccard),
            "keyword_dice" => (NONE, |_| KeywordDice),
            "keyword_cosine" => (NONE, |_| KeywordCosine),
            "keyword_euclidean" => (NONE, |_| KeywordEuclidean),
            "keyword_extended_jaccard" => (NONE, |_| KeywordExtendedJaccard),
            "word_containment" => (N, |[n, ..]| WordContainment { n }),
            "word_resemblance" => (N, |[n, ..]| WordResemblance { n }),
            "char_containment" => (Q, |[_, q, ..]| CharContainment { q }),
            "char_resemblance" => (Q, |[_, q, ..]| CharResemblance { q }),
            "word_containment_of_b" => (N, |[n, ..]| WordContainmentOfB { n }),
            "phonetic_containment" => (N, |[n, ..]| PhoneticContainment { n }),
            "longest_passage" => (K, |[_, _, k, _]| LongestPassage { k }),
            "passage_count" => (K, |[_, _, k, _]| PassageCount { k }),
            "mean_passage" => (K, |[_, _, k, _]| MeanPassage { k }),
            "long_passage_coverage" => ([false, false, true, true], |[_, _, k, min]| {
                LongPassageCoverage { k, min }
            }),
            "lcs" => (NONE, |_| Lcs),
            "tiling" => ([false, false, false, true], |[.., min]| Tiling { min }),
            _ => return Err(FeatureError::Unknown(function)),
        };
        let given = [n, q, k, min];
        for ((name, takes), value) in ["n", "q", "k", "min"].into_iter().zip(takes).zip(given) {
            match (takes, value) {
                (true, None) => return Err(FeatureError::Missing(name)),
                (false, Some(_)) => return Err(FeatureError::NotTaken(name)),
                _ => {}
            }
        }
        Ok(make(given.map(|v| v.unwrap_or(0))))
    }
}

/// Why a written feature was refused (its message is serde's wording).
#[derive(Debug)]
enum FeatureError {
    /// A function not in [`FEATURE_NAMES`].
    Unknown(alloc::string::String),
    /// A parameter the function needs is absent.
    Missing(&'static str),
    /// A parameter the function does not take is given.
    NotTaken(&'static str),
}

impl core::fmt::Display for FeatureError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            FeatureError::Unknown(name) => write!(
                f,
                "unknown variant `{name}`, expected one of `{}`",
                FEATURE_NAMES.join("`, `")
            ),
            FeatureError::Missing(param) => write!(f, "missing field `{param}`"),
            FeatureError::NotTaken(param) => write!(f, "unknown field `{param}`"),
        }
    }
}

/// The layout of the similarity vector, and the keyword parameters.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VectorSpec {
    /// Keywords per text (top-k by tf-idf), 1..=1000.
    pub keywords: u32,
    /// The components, in order.
    pub features: Vec<Feature>,
}

impl Default for VectorSpec {
    /// Top-20 keywords; the five keyword functions; containment of word
    /// 1- to 5-shingles; resemblance of word 3-shingles; resemblance and
    /// containment of character 5-grams (12 components).
    fn default() -> Self {
        use Feature::*;
        VectorSpec {
            keywords: 20,
            features: alloc::vec![
                KeywordJaccard,
                KeywordDice,
                KeywordCosine,
                KeywordEuclidean,
                KeywordExtendedJaccard,
                WordContainment { n: 1 },
                WordContainment { n: 2 },
                WordContainment { n: 3 },
                WordContainment { n: 4 },
                WordContainment { n: 5 },
                WordResemblance { n: 3 },
                CharResemblance { q: 5 },
                CharContainment { q: 5 },
            ],
        }
    }
}

/// English stop words removed before keywords are chosen (function words
/// that carry no topic).
pub const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "may",
    "me",
    "might",
    "more",
    "most",
    "must",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "same",
    "shall",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "upon",
    "us",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

/// The keyword terms of a document: hashes, with `seed` (the seed of the
/// model's document frequencies), of its normalised word tokens that are not
/// stop words and contain a letter.
pub fn keyword_terms(doc: &Document, seed: u64) -> Vec<u64> {
    doc.normalized()
        .token_strs()
        .zip(doc.token_hashes())
        .filter(|(t, _)| t.chars().any(char::is_alphabetic) && STOP_WORDS.binary_search(t).is_err())
        .map(|(t, &h)| {
            if doc.seed() == seed {
                h
            } else {
                crate::hash::bytes_hash(seed, t.as_bytes())
            }
        })
        .collect()
}

/// Largest number of components of a similarity vector.
pub const MAX_FEATURES: usize = 64;

impl VectorSpec {
    /// Checks sizes are in range and there are 1..=64 components.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] naming the problem.
    pub fn check(&self) -> Result<(), Error> {
        check_range("features", self.features.len(), 1..=MAX_FEATURES)?;
        check_range("keywords", self.keywords, 1..=1000)?;
        for f in &self.features {
            if let Some(s) = f.shingling() {
                s.check()?;
            }
            if let Feature::LongPassageCoverage { min, .. } | Feature::Tiling { min } = *f {
                check_range("min", min, 1..=1000)?;
            }
        }
        Ok(())
    }

    /// The similarity vector of suspicious document `a` and source `b`, with
    /// the document frequencies `df` (of terms hashed with `df_seed`) for
    /// keywords. Length `features.len()`; every value finite.
    pub fn vector(
        &self,
        a: &Document,
        b: &Document,
        df: &DocumentFrequencies,
        df_seed: u64,
    ) -> Vec<f64> {
        let k = self.keywords as usize;
        let (ka, kb) = (
            df.top_keywords(&keyword_terms(a, df_seed), k),
            df.top_keywords(&keyword_terms(b, df_seed), k),
        );
        let unit = |v: &[(u64, f64)]| {
            let norm = libm::sqrt(v.iter().map(|x| x.1 * x.1).sum::<f64>());
            v.iter()
                .map(|&(h, w)| (h, if norm > 0.0 { w / norm } else { 0.0 }))
                .collect::<Vec<_>>()
        };
        let counts = |s: Shingling| a.shingle_set(s).counts(&b.shingle_set(s));
        // Shared passages as token ranges of a, for each k read (once).
        let mut runs: Vec<(u32, Vec<usize>)> = Vec::new();
        let mut passages = |k: u32| -> Vec<usize> {
            if let Some((_, r)) = runs.iter().find(|(x, _)| *x == k) {
                return r.clone();
            }
            let w = Shingling::Words(k);
            let r: Vec<usize> = shared_runs(
                &a.shingles(w),
                &b.shingles(w),
                k as usize,
                a.len(),
                b.len(),
                0,
            )
            .iter()
            .map(|(ta, _)| ta.len())
            .collect();
            runs.push((k, r.clone()));
            r
        };
        let n_a = a.len().max(1) as f64;
        self.features
            .iter()
            .map(|f| match *f {
                Feature::WordContainmentOfB { n } => {
                    counts(Shingling::Words(n)).containment_b_in_a()
                }
                Feature::PhoneticContainment { n } => {
                    counts(Shingling::Phonetic(Algorithm::SoundD, n)).containment()
                }
                Feature::LongestPassage { k } => {
                    passages(k).into_iter().max().unwrap_or(0) as f64 / n_a
                }
                Feature::PassageCount { k } => passages(k).len() as f64,
                Feature::MeanPassage { k } => {
                    let r = passages(k);
                    if r.is_empty() {
                        0.0
                    } else {
                        r.iter().sum::<usize>() as f64 / r.len() as f64
                    }
                }
                Feature::LongPassageCoverage { k, min } => {
                    let long: usize = passages(k).into_iter().filter(|&n| n >= min as usize).sum();
                    long as f64 / n_a
                }
                Feature::Lcs => lcs_len(a.token_hashes(), b.token_hashes()) as f64 / n_a,
                Feature::Tiling { min } => {
                    let (ta, tb) = (a.token_hashes(), b.token_hashes());
                    let n = ta.len().min(MAX_TILING_TOKENS) + tb.len().min(MAX_TILING_TOKENS);
                    if n == 0 {
                        0.0
                    } else {
                        2.0 * tiled_tokens(ta, tb, min as usize) as f64 / n as f64
                    }
                }
                Feature::KeywordJaccard => vectors::jaccard(&ka, &kb),
                Feature::KeywordDice => vectors::dice(&ka, &kb),
                Feature::KeywordCosine => vectors::cosine(&ka, &kb),
                Feature::KeywordEuclidean => vectors::euclidean(&unit(&ka), &unit(&kb)),
                Feature::KeywordExtendedJaccard => vectors::extended_jaccard(&ka, &kb),
                Feature::WordContainment { n } => counts(Shingling::Words(n)).containment(),
                Feature::WordResemblance { n } => counts(Shingling::Words(n)).resemblance(),
                Feature::CharContainment { q } => counts(Shingling::Chars(q)).containment(),
                Feature::CharResemblance { q } => counts(Shingling::Chars(q)).resemblance(),
            })
            .collect()
    }
}

impl Feature {
    /// The shingling a shingle feature reads; `None` for keyword features.
    pub fn shingling(&self) -> Option<Shingling> {
        match *self {
            Feature::WordContainment { n }
            | Feature::WordResemblance { n }
            | Feature::WordContainmentOfB { n }
            | Feature::LongestPassage { k: n }
            | Feature::PassageCount { k: n }
            | Feature::MeanPassage { k: n }
            | Feature::LongPassageCoverage { k: n, .. } => Some(Shingling::Words(n)),
            Feature::PhoneticContainment { n } => Some(Shingling::Phonetic(Algorithm::SoundD, n)),
            Feature::CharContainment { q } | Feature::CharResemblance { q } => {
                Some(Shingling::Chars(q))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every feature, written as the model files write it (by hand here,
    /// not by the serialiser under test), read back; and what is refused.
    #[cfg(feature = "serde")]
    #[test]
    fn features_read_as_written_and_bad_ones_are_named() {
        use Feature::*;
        let written = r#"[{"fn":"keyword_jaccard"},{"fn":"keyword_dice"},{"fn":"keyword_cosine"},
            {"fn":"keyword_euclidean"},{"fn":"keyword_extended_jaccard"},
            {"fn":"word_containment","n":1},{"fn":"word_resemblance","n":3},
            {"fn":"char_containment","q":5},{"fn":"char_resemblance","q":4},
            {"fn":"word_containment_of_b","n":2},{"fn":"phonetic_containment","n":3},
            {"fn":"longest_passage","k":5},{"fn":"passage_count","k":6},{"fn":"mean_passage","k":7},
            {"k":8,"fn":"long_passage_coverage","min":12},{"fn":"lcs"},{"fn":"tiling","min":9}]"#;
        let want = [
            KeywordJaccard,
            KeywordDice,
            KeywordCosine,
            KeywordEuclidean,
            KeywordExtendedJaccard,
            WordContainment { n: 1 },
            WordResemblance { n: 3 },
            CharContainment { q: 5 },
            CharResemblance { q: 4 },
            WordContainmentOfB { n: 2 },
            PhoneticContainment { n: 3 },
            LongestPassage { k: 5 },
            PassageCount { k: 6 },
            MeanPassage { k: 7 },
            LongPassageCoverage { k: 8, min: 12 },
            Lcs,
            Tiling { min: 9 },
        ];
        let got: Vec<Feature> = serde_json::from_str(written).expect("features");
        assert_eq!(got, want);
        assert_eq!(want.len(), FEATURE_NAMES.len());
        // What is written is read back the same.
        let again: Vec<Feature> =
            serde_json::from_str(&serde_json::to_string(&want).expect("json")).expect("read");
        assert_eq!(again, want);
        let error =
            |json: &str| alloc::format!("{}", serde_json::from_str::<Feature>(json).unwrap_err());
        assert!(error(r#"{"fn":"word_jaccard","n":3}"#)
            .starts_with("unknown variant `word_jaccard`, expected one of `keyword_jaccard`"));
        assert!(error(r#"{"fn":"word_containment"}"#).starts_with("missing field `n`"));
        assert!(error(r#"{"fn":"long_passage_coverage","k":5}"#).starts_with("missing field `min`"));
        assert!(error(r#"{"fn":"lcs","n":3}"#).starts_with("unknown field `n`"));
        assert!(error(r#"{"fn":"char_resemblance","n":3,"q":5}"#).starts_with("unknown field `n`"));
        assert!(error(r#"{"fn":"tiling","min":3,"max":4}"#).starts_with("unknown field `max`"));
        assert!(error(r#"{"n":3}"#).starts_with("missing field `fn`"));
        assert!(error(r#"{"fn":"word_containment","n":"3"}"#).starts_with("invalid type: string"));
    }

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(keyword_terms(&Document::new("The THE the", 0), 0).is_empty());
        assert_eq!(keyword_terms(&Document::new("The cats", 0), 0).len(), 1);
        // Keyword hashes are the model's, whatever the document's seed.
        assert_eq!(
            keyword_terms(&Document::new("The cats", 9), 0),
            keyword_terms(&Document::new("The cats", 0), 0)
        );
    }

    #[test]
    fn default_vector_is_finite_and_in_range() {
        let mut df = DocumentFrequencies::new();
        df.add_document(&keyword_terms(
            &Document::new("inheritance in object oriented programming", 0),
            0,
        ));
        let spec = VectorSpec::default();
        let x = spec.vector(
            &Document::new("Inheritance lets a class reuse another class's fields.", 0),
            &Document::new(
                "In object oriented programming, inheritance lets a class reuse code.",
                0,
            ),
            &df,
            0,
        );
        assert_eq!(x.len(), 13);
        assert!(
            x.iter().all(|v| v.is_finite() && *v >= 0.0 && *v <= 2.0),
            "{x:?}"
        );
        assert!(x[7] > 0.0, "some word 3-shingles are shared");
        // The same vector with another document seed (up to hash collisions).
        let y = spec.vector(
            &Document::new("Inheritance lets a class reuse another class's fields.", 5),
            &Document::new(
                "In object oriented programming, inheritance lets a class reuse code.",
                5,
            ),
            &df,
            0,
        );
        assert_eq!(x, y);
    }
}
