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
use alloc::boxed::Box;
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
    /// Normalised on first use when made by [`Document::for_shingling`]
    /// for word shingles; at once otherwise.
    normalized: OnceCell<Normalized>,
    /// The text, kept by [`Document::for_shingling`] for word shingles
    /// until something asks for its normal form.
    source: Option<Box<str>>,
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

    /// [`Document::with_spec`] for reading `shingling`'s shingles, the
    /// same document in every value it gives. For word shingles at spec
    /// version 2, the tokens are hashed straight from the normaliser,
    /// without writing the normalised text and its token records (the
    /// dedup pipeline's word:5 job in 85 % of the CPU, BENCHMARKS.md); the
    /// text is kept (`text.len()` bytes) and normalised only if something
    /// else is asked of the document. Otherwise exactly
    /// [`Document::with_spec`].
    pub fn for_shingling(
        text: &str,
        seed: u64,
        how: Normalization,
        spec: Spec,
        shingling: Shingling,
    ) -> Self {
        if !matches!(shingling, Shingling::Words(_)) || spec != Spec::V2 {
            return Self::with_spec(text, seed, how, spec);
        }
        let hashes = crate::text::word_hashes(text, how, seed);
        Document {
            normalized: OnceCell::new(),
            source: Some(text.into()),
            seed,
            spec,
            how,
            token_hashes: OnceCell::from(hashes),
            memo: RefCell::new(Vec::new()),
        }
    }

    /// A document from a text normalised by [`crate::normalize`] (the
    /// default [`Normalization`]).
    pub fn from_normalized(normalized: Normalized, seed: u64) -> Self {
        Document {
            normalized: OnceCell::from(normalized),
            source: None,
            seed,
            spec: Spec::default(),
            how: Normalization::default(),
            token_hashes: OnceCell::new(),
            memo: RefCell::new(Vec::new()),
        }
    }

    /// The normalised text and its tokens (for a document made by
    /// [`Document::for_shingling`] for word shingles, normalised on this
    /// first call).
    pub fn normalized(&self) -> &Normalized {
        self.normalized.get_or_init(|| {
            crate::text::normalize_with(self.source.as_deref().unwrap_or_default(), self.how)
        })
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
            .get_or_init(|| crate::shingle::token_hashes(self.normalized(), self.seed, self.spec))
    }

    /// Number of word tokens.
    pub fn len(&self) -> usize {
        match self.token_hashes.get() {
            Some(hashes) => hashes.len(),
            None => self.normalized().tokens().len(),
        }
    }

    /// `true` when the text has no word tokens.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
        // Word shingles read the token hashes alone; the others the
        // normalised text.
        let s: Arc<[u64]> = match shingling {
            Shingling::Words(k) => {
                self.spec
                    .collect_word_shingles(self.token_hashes(), k as usize, self.seed)
            }
            Shingling::Chars(q) => crate::shingle::char_shingles_shared(
                self.normalized(),
                q as usize,
                self.seed,
                self.spec,
            ),
            _ => shingling
                .compute(self.normalized(), &[], self.seed, self.spec)
                .into(),
        };
        self.memo(shingling, |m| m.sequence = Some(s.clone()));
        s
    }

    /// Calls `f` with each of [`Document::shingles`]' values, in order: from
    /// the memo when they were computed, else, for character q-grams,
    /// straight from the normalised text, and for word shingles, straight
    /// from the token hashes, without keeping them (what a one-permutation
    /// signature reads: one pass, no `8` bytes a shingle written and read
    /// back). Phonetic shingles are computed and memoised.
    pub fn for_each_shingle(&self, shingling: Shingling, mut f: impl FnMut(u64)) {
        let memoised = self.memo(shingling, |m| m.sequence.clone());
        match (memoised, shingling) {
            (None, Shingling::Chars(q)) => crate::shingle::for_each_char_shingle(
                self.normalized(),
                q as usize,
                self.seed,
                self.spec,
                f,
            ),
            (None, Shingling::Words(k)) => {
                self.spec
                    .for_each_word_shingle(self.token_hashes(), k as usize, self.seed, f)
            }
            (Some(s), _) => s.iter().for_each(|&h| f(h)),
            (None, _) => self.shingles(shingling).iter().for_each(|&h| f(h)),
        }
    }

    /// [`Document::for_each_shingle`]'s hashes in parts and in no set order
    /// (the same multiset), for a fold that does not depend on the order:
    /// a shingling not yet memoised gives a character q-gram's ASCII runs
    /// whole, and at spec 2 its word tokens' hashes whole when there are at
    /// least `k` ([`crate::shingle::ShinglePiece`]); any other, every hash.
    pub(crate) fn for_each_shingle_piece(
        &self,
        shingling: Shingling,
        mut f: impl FnMut(crate::shingle::ShinglePiece<'_>),
    ) {
        let memoised = self.memo(shingling, |m| m.sequence.is_some());
        match (memoised, shingling) {
            (false, Shingling::Chars(q)) => crate::shingle::for_each_char_shingle_piece(
                self.normalized(),
                q as usize,
                self.seed,
                self.spec,
                f,
            ),
            (false, Shingling::Words(k))
                if self.spec == Spec::V2 && self.token_hashes().len() >= k.max(1) as usize =>
            {
                f(crate::shingle::ShinglePiece::Tokens(self.token_hashes()))
            }
            _ => self.for_each_shingle(shingling, |h| f(crate::shingle::ShinglePiece::Hash(h))),
        }
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
    use alloc::format;

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

    /// Word shingles streamed from a fresh document (what a one-permutation
    /// signature reads) are, at either spec, each window's hash computed
    /// on its own (SPEC.md §3: version 1 `combine`, version 2 `window`, one
    /// value for all the tokens when there are fewer than k), for 0 to 9
    /// tokens, around every k.
    #[test]
    fn streamed_word_shingles_are_each_windows_hash() {
        let words = [
            "alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota",
        ];
        for n in 0..=words.len() {
            let text = words[..n].join(" ");
            for spec in [Spec::V1, Spec::V2] {
                for k in [1usize, 2, 3, 5, 8, 9, 10] {
                    let shingling = Shingling::Words(k as u32);
                    let doc = Document::with_spec(&text, 11, Normalization::default(), spec);
                    let mut streamed = Vec::new();
                    doc.for_each_shingle(shingling, |h| streamed.push(h));
                    let tokens = doc.token_hashes();
                    let hash = |w: &[u64]| match spec {
                        Spec::V1 => crate::hash::combine(11, w),
                        Spec::V2 => crate::hash::v2::window(11, w),
                    };
                    let want: Vec<u64> = match n {
                        0 => Vec::new(),
                        n if n < k => alloc::vec![hash(tokens)],
                        _ => tokens.windows(k).map(hash).collect(),
                    };
                    assert_eq!(streamed, want, "{n} tokens, {spec}, k {k}");
                    assert_eq!(&doc.shingles(shingling)[..], &want[..], "memoised");
                }
            }
        }
    }

    /// A document made for word shingles gives what one normalised at once
    /// gives: its token hashes, shingles of every kind, length, emptiness
    /// and (normalised on demand) normal form, at either spec; on texts of
    /// no word, one word, a few, and a trick (a zero-width space inside a
    /// word, undone by unmasking).
    #[test]
    fn a_document_for_word_shingles_is_the_same_document() {
        let texts = [
            "",
            "  ... !!! ",
            "Word",
            "The CAT’s ﬁsh, and a dog's bone: 3.14 naïve",
            "The quick brown fox jumps over the lazy dog, again and again",
            "co\u{200b}py of a text with a hidden space",
        ];
        for text in texts {
            for spec in [Spec::V1, Spec::V2] {
                for how in [
                    Normalization::default(),
                    Normalization::folding(true).unmasking(true),
                ] {
                    for k in [1, 3, 5] {
                        let words = Shingling::Words(k);
                        let lazy = Document::for_shingling(text, 7, how, spec, words);
                        let eager = Document::with_spec(text, 7, how, spec);
                        let at = format!("{text:?}, {spec}, {}, k {k}", how.name());
                        assert_eq!(lazy.len(), eager.len(), "{at}");
                        assert_eq!(lazy.is_empty(), eager.is_empty(), "{at}");
                        assert_eq!(lazy.token_hashes(), eager.token_hashes(), "{at}");
                        assert_eq!(lazy.shingles(words), eager.shingles(words), "{at}");
                        assert_eq!(lazy.shingle_set(words), eager.shingle_set(words), "{at}");
                        let c4 = Shingling::Chars(4);
                        assert_eq!(lazy.shingles(c4), eager.shingles(c4), "{at}");
                        assert_eq!(lazy.normalized(), eager.normalized(), "{at}");
                        assert_eq!(lazy.spec(), spec);
                        assert_eq!(lazy.normalization(), how);
                    }
                }
            }
        }
        let hidden = |unmask| {
            let how = Normalization::default().unmasking(unmask);
            Document::for_shingling(texts[5], 0, how, Spec::V2, Shingling::Words(5)).len()
        };
        assert_eq!(
            hidden(true),
            8,
            "the hidden space undone: \"copy\" is one word"
        );
        assert_eq!(hidden(false), 9, "the hidden space kept: \"co\" and \"py\"");
    }
}
