//! [`Document`]: a text normalised once, that every method reads.
//!
//! The data path of the crate is a straight line: text → [`Document`]
//! (normalised tokens, token hashes) → features (shingle sequences and sets,
//! memoised here by kind and size) → sketch (MinHash signature, SimHash
//! fingerprint) → index, or → score ([`crate::compare()`], the learned
//! verdict). A comparison with a verdict normalises each text once and
//! shingles it once per shingle kind, however many measures read it.

use crate::hash::Spec;
use crate::shingle::{ShingleSet, Shingling};
use crate::text::{normalize_with, Normalization, Normalized};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::cell::{OnceCell, RefCell};

/// A normalised text with its token hashes and memoised shingles.
///
/// Built by [`Document::new`] in time linear in the text; takes about the
/// text's length plus 40 bytes per token, plus 8 bytes per shingle for each
/// shingle kind asked for (sequence) and again for each set. The memo is
/// filled on first use (`&self` methods, interior mutability), so a
/// `Document` is `Send` but not `Sync`: share it within one thread.
#[derive(Debug)]
pub struct Document {
    normalized: Normalized,
    seed: u64,
    spec: Spec,
    how: Normalization,
    /// Computed on first use: character q-grams never need them.
    token_hashes: OnceCell<Vec<u64>>,
    memo: RefCell<Vec<(Shingling, Memo)>>,
}

#[derive(Debug, Default, Clone)]
struct Memo {
    sequence: Option<Arc<[u64]>>,
    set: Option<Arc<ShingleSet>>,
}

impl Document {
    /// Normalises `text` (SPEC.md §1–2) and hashes its tokens with `seed`
    /// (SPEC.md §3). Never fails: a text without words gives an empty
    /// document (see [`Document::is_empty`]); callers that need words check.
    /// Time linear in `text.len()`; memory about `text.len()` bytes plus 40
    /// bytes per token, and 16 bytes per shingle for each shingling asked of
    /// it later (sequence and set, memoised).
    pub fn new(text: &str, seed: u64) -> Self {
        Self::with_normalization(text, seed, Normalization::default())
    }

    /// [`Document::new`] normalised as `how` says (diacritics folded or
    /// not, SPEC.md §1). Same costs.
    pub fn with_normalization(text: &str, seed: u64, how: Normalization) -> Self {
        let mut d = Self::from_normalized(normalize_with(text, how), seed);
        d.how = how;
        d
    }

    /// [`Document::with_normalization`] whose token and shingle hashes
    /// follow version `spec` of the specification (SPEC.md §3). Same costs.
    pub fn with_spec(text: &str, seed: u64, how: Normalization, spec: Spec) -> Self {
        let mut d = Self::with_normalization(text, seed, how);
        d.spec = spec;
        d
    }

    /// A document from a text normalised by [`crate::normalize`] (the
    /// default [`Normalization`]).
    pub fn from_normalized(normalized: Normalized, seed: u64) -> Self {
        Document {
            normalized,
            seed,
            spec: Spec::default(),
            how: Normalization::default(),
            token_hashes: OnceCell::new(),
            memo: RefCell::new(Vec::new()),
        }
    }

    /// The normalised text and its tokens.
    pub fn normalized(&self) -> &Normalized {
        &self.normalized
    }

    /// How the text was normalised (diacritics folded or not).
    pub fn normalization(&self) -> Normalization {
        self.how
    }

    /// The version of the specification its hashes follow.
    pub fn spec(&self) -> Spec {
        self.spec
    }

    /// The hash seed of every value derived from this document.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The hash of each word token, in order (`bytes_hash(seed, token)`),
    /// computed on first use.
    pub fn token_hashes(&self) -> &[u64] {
        self.token_hashes
            .get_or_init(|| crate::shingle::token_hashes(&self.normalized, self.seed, self.spec))
    }

    /// Number of word tokens.
    pub fn len(&self) -> usize {
        self.normalized.tokens().len()
    }

    /// `true` when the text has no word tokens.
    pub fn is_empty(&self) -> bool {
        self.normalized.tokens().is_empty()
    }

    fn memo<T>(&self, shingling: Shingling, get: impl FnOnce(&mut Memo) -> T) -> T {
        let mut memo = self.memo.borrow_mut();
        let i = match memo.iter().position(|(s, _)| *s == shingling) {
            Some(i) => i,
            None => {
                memo.push((shingling, Memo::default()));
                memo.len() - 1
            }
        };
        get(&mut memo[i].1)
    }

    /// The shingle hashes by position (SPEC.md §3), computed once per
    /// shingling: `max(n − k + 1, 1)` word k-shingles of `n ≥ 1` tokens, or
    /// `max(c − q + 1, 1)` character q-grams of `c ≥ 1` normalised
    /// characters; empty for an empty document and for
    /// [`Shingling::Custom`].
    pub fn shingles(&self, shingling: Shingling) -> Arc<[u64]> {
        if let Some(s) = self.memo(shingling, |m| m.sequence.clone()) {
            return s;
        }
        // Only word shingles read the token hashes.
        let tokens: &[u64] = match shingling {
            Shingling::Words(_) => self.token_hashes(),
            _ => &[],
        };
        let s: Arc<[u64]> = shingling
            .compute(&self.normalized, tokens, self.seed, self.spec)
            .into();
        self.memo(shingling, |m| m.sequence = Some(s.clone()));
        s
    }

    /// The distinct shingle hashes as a sorted set, computed once per
    /// shingling.
    pub fn shingle_set(&self, shingling: Shingling) -> Arc<ShingleSet> {
        if let Some(s) = self.memo(shingling, |m| m.set.clone()) {
            return s;
        }
        let s = Arc::new(ShingleSet::from_slice(&self.shingles(shingling)));
        self.memo(shingling, |m| m.set = Some(s.clone()));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memoised_shingles_equal_fresh_ones() {
        let d = Document::new("The quick brown fox jumps over the lazy dog", 7);
        let w3 = Shingling::Words(3);
        let first = d.shingles(w3);
        assert_eq!(first.len(), 7);
        assert!(Arc::ptr_eq(&first, &d.shingles(w3)), "computed once");
        let set = d.shingle_set(w3);
        assert!(Arc::ptr_eq(&set, &d.shingle_set(w3)));
        assert_eq!(*set, ShingleSet::from_hashes(first.to_vec()));
        let c5 = d.shingles(Shingling::Chars(5));
        assert_eq!(
            &c5[..],
            &crate::shingle::char_shingles(d.normalized(), 5, 7, Spec::V1)[..]
        );
        assert!(Document::new("  ", 0).shingles(w3).is_empty());
    }
}
