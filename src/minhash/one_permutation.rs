//! One-permutation MinHash with optimal densification (Li, Owen, Zhang,
//! "One Permutation Hashing", NIPS 2012; Shrivastava, "Optimal Densification
//! for Fast and Accurate Minwise Hashing", ICML 2017): one hash per shingle
//! instead of `num_perm`.
//!
//! **Bins.** Each shingle hash `x` is hashed once, `h = fmix64(x ^ key)`
//! ([`crate::hash::fmix64`]). Its high 32 bits choose one of the `k =
//! num_perm` bins, `bin = (hi32(h) · k) >> 32` (an unbiased map onto `0..k`
//! for any `k`); its low 32 bits, capped at `2^32 − 2`, are its value there.
//! Bin `i` keeps the smallest value that fell into it, or is empty
//! ([`EMPTY_VALUE`]). Each bin is the minimum of one random permutation over
//! the shingles that fall into it, so two sets agree on a non-empty bin with
//! probability close to their Jaccard resemblance.
//!
//! **Optimal densification.** When the set has fewer shingles than bins,
//! some bins are empty. Empty bin `i` borrows the value of the first
//! non-empty bin in the sequence `j_t = (hi32(fmix64(dkey ^ (i · 2^32 + t)))
//! · k) >> 32`, `t = 1, 2, …`. The sequence depends only on `i`, `t` and the
//! seed, never on the set, so two sets borrow from the same bins whenever
//! they are non-empty in both. Shrivastava (2017) proves the estimator
//! unbiased and shows its variance is the smallest of the densification
//! schemes. After `64 · k` unsuccessful tries (probability below `e^-64`
//! even with one non-empty bin) the bin borrows from the next non-empty
//! bin after `i` in circular order, so the loop always ends.
//!
//! **Keys.** `key` and `dkey` are the first two outputs of SplitMix64
//! seeded with `seed ^ 0x6f6e655f7065726d` ("one_perm").
//!
//! **Cost.** One `fmix64` and one compare per shingle, plus the
//! densification: nothing for a set with a shingle in every bin, about `k ·
//! (k / m)` tries for `m < k` non-empty bins. The empty bins make their
//! tries in rounds (try `t` of every open bin, then `t + 1`), so that no
//! branch depends on where a search ends; the default hasher (128 bins,
//! seed 0) reads its first 16 tries of every bin from a table compiled in
//! (2 KiB) instead of hashing them. A text of 20 words hashed into word
//! 5-shingles (16 shingles, about 113 empty bins) is signed in 3 µs instead
//! of 5 (BENCHMARKS.md, "Short texts").

/// The value of every slot of the signature of an empty set, and of an
/// empty bin here before densification.
pub const EMPTY_VALUE: u32 = u32::MAX;
use crate::hash::{fmix64, SplitMix64};
use alloc::vec::Vec;

/// The two keys of the scheme for a seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Keys {
    key: u64,
    dkey: u64,
}

/// What the default hasher (128 bins, [`crate::hash::DEFAULT_SEED`])
/// tries first for each empty bin: the first [`TRIES`] bins `j_1 … j_16`
/// of every bin's sequence, computed when the crate is compiled. Densifying
/// reads them instead of hashing (a hash a try was most of the time of a
/// short text's signature); the values are the same.
const DEFAULT_BINS: usize = 128;
const TRIES: usize = 16;
/// The default seed's keys.
const DEFAULT_KEYS: Keys = Keys::new(crate::hash::DEFAULT_SEED);
static DEFAULT_TRIES: [[u8; TRIES]; DEFAULT_BINS] = {
    let dkey = DEFAULT_KEYS.dkey;
    let mut table = [[0u8; TRIES]; DEFAULT_BINS];
    let mut i = 0;
    while i < DEFAULT_BINS {
        let mut t = 0;
        while t < TRIES {
            let j = bin_of(dkey, i as u32, t as u64 + 1, DEFAULT_BINS as u64);
            table[i][t] = j as u8;
            t += 1;
        }
        i += 1;
    }
    table
};

/// `j_t` of empty bin `i` among `k`: `(hi32(fmix64(dkey ^ (i · 2^32 + t)))
/// · k) >> 32`.
#[inline(always)]
const fn bin_of(dkey: u64, i: u32, t: u64, k: u64) -> usize {
    let h = fmix64(dkey ^ (((i as u64) << 32) | t));
    (((h >> 32) * k) >> 32) as usize
}

impl Keys {
    pub(crate) const fn new(seed: u64) -> Keys {
        let mut rng = SplitMix64::new(seed ^ 0x6f6e_655f_7065_726d);
        let key = rng.next();
        let dkey = rng.next();
        Keys { key, dkey }
    }

    /// The key of the bins' hash, `fmix64(x ^ key)`.
    #[cfg(all(test, feature = "std", target_arch = "x86_64"))]
    pub(crate) fn key(&self) -> u64 {
        self.key
    }

    /// Folds shingle hashes into raw bins (`bins.len() = k`, ≤ 2^32).
    #[inline]
    pub(crate) fn add(&self, bins: &mut [u32], shingles: &[u64]) {
        for &x in shingles {
            self.fold(bins, x);
        }
    }

    /// Folds one scheme hash (`fmix64(x ^ key)`) whose low half is already
    /// capped at `EMPTY_VALUE − 1` into the default 128 raw bins: bin its
    /// top 7 bits (`(hi32(h) · 128) >> 32`), value its low 32 — what
    /// [`Keys::fold`] does after its hash and cap, for the kernels
    /// (`super::avx512`, `super::avx2`, `super::simd128`), which hash and
    /// cap many lanes at a time.
    #[cfg(any(
        all(feature = "std", target_arch = "x86_64"),
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    #[inline(always)]
    pub(crate) fn fold_capped(bins: &mut [u32; DEFAULT_BINS], h: u64) {
        let b = &mut bins[(h >> 57) as usize];
        *b = (*b).min(h as u32);
    }

    /// Folds one shingle hash into raw bins (`bins.len() = k`, ≤ 2^32).
    #[inline(always)]
    pub(crate) fn fold(&self, bins: &mut [u32], x: u64) {
        let h = fmix64(x ^ self.key);
        let bin = (((h >> 32) * bins.len() as u64) >> 32) as usize;
        let v = (h as u32).min(EMPTY_VALUE - 1);
        if let Some(b) = bins.get_mut(bin) {
            // A store every time rather than a branch taken at random.
            *b = (*b).min(v);
        }
    }

    /// Folds every window of `q` bytes of ASCII `bytes` (its character
    /// q-grams, `q` in 4..=8, at spec 2 with `seed`: XXH3-64 of each window,
    /// [`crate::hash::v2::xxh3`]) into the default 128 raw bins: what
    /// [`Keys::fold`] of each window's hash gives, in fewer steps. With
    /// AVX-512 (x86-64, `std`), eight windows at a time (`super::avx512`);
    /// with AVX2 alone, four (`super::avx2`); in WebAssembly with SIMD,
    /// two a vector (`super::simd128`); else, and for the last windows, one
    /// at a time. `bytes` shorter than `q` folds nothing.
    #[inline]
    pub(crate) fn fold_windows(
        &self,
        bins: &mut [u32; DEFAULT_BINS],
        seed: u64,
        bytes: &[u8],
        q: usize,
    ) {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        let done = {
            let flip8 = crate::hash::v2::flip8(seed);
            super::avx512::fold_windows(bins, bytes, q, flip8, self.key)
                .or_else(|| super::avx2::fold_windows(bins, bytes, q, flip8, self.key))
                .unwrap_or(0)
        };
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        let done =
            super::simd128::fold_windows(bins, bytes, q, crate::hash::v2::flip8(seed), self.key)
                .unwrap_or(0);
        #[cfg(not(any(
            all(feature = "std", target_arch = "x86_64"),
            all(target_arch = "wasm32", target_feature = "simd128")
        )))]
        let done = 0;
        let rest = bytes.get(done..).unwrap_or_default();
        crate::hash::v2::for_each_xxh3_window(seed, rest, q, |x| self.fold(bins, x));
    }

    /// Folds the word k-shingles of `tokens` (word-token hashes) at spec 2
    /// with `seed` ([`crate::hash::v2::word_shingles`]: each window of `k`
    /// tokens' polynomial, then `fmix64(seed ^ ·)`) into the default 128
    /// raw bins: what [`Keys::fold`] of each shingle's hash gives, in fewer
    /// steps. With AVX-512 (x86-64, `std`), eight windows at a time
    /// (`super::avx512`); with AVX2 alone, their `fmix64` four at a time
    /// (`super::avx2`); else, and for the last windows, one at a time.
    /// Fewer than `k` tokens fold their one shingle, as the scalar values.
    #[inline]
    pub(crate) fn fold_word_windows(
        &self,
        bins: &mut [u32; DEFAULT_BINS],
        seed: u64,
        tokens: &[u64],
        k: usize,
    ) {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        let done = super::avx512::fold_word_windows(bins, tokens, k, seed, self.key)
            .or_else(|| super::avx2::fold_word_windows(bins, tokens, k, seed, self.key))
            .unwrap_or(0);
        #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
        let done = 0;
        // The windows from `done` on (none left when fewer than k tokens
        // remain after the kernel's).
        let rest = tokens.get(done..).unwrap_or_default();
        if done == 0 || rest.len() >= k.max(1) {
            crate::hash::v2::word_shingle_values(rest, k, seed).for_each(|x| self.fold(bins, x));
        }
    }

    /// Densifies raw bins into `values` (same length) and sets bit `i` of
    /// `filled` (`⌈k/32⌉` words) for every bin that held a shingle. An
    /// all-empty input stays all [`EMPTY_VALUE`].
    pub(crate) fn densify(&self, bins: &[u32], values: &mut [u32], filled: &mut [u32]) {
        let k = bins.len();
        filled.fill(0);
        let mut empty = 0usize;
        for (i, &b) in bins.iter().enumerate() {
            let full = b != EMPTY_VALUE;
            filled[i / 32] |= u32::from(full) << (i % 32);
            empty += usize::from(!full);
        }
        values.copy_from_slice(bins);
        if empty == 0 || empty == k {
            return;
        }
        // Every empty bin tries its `t`-th bin at once, `t = 1, 2, …`: the
        // first filled bin it meets is its first in its own sequence, and
        // it leaves the list of open bins. All the tries of a round are
        // independent, and nothing branches on the data (a bin's search
        // ended at random, a mispredicted branch each, when bins were
        // searched one after the other: two thirds of the time of a
        // 20-word text's signature). The list is on the stack up to the
        // default's 128 bins.
        let mut stack = [0u32; DEFAULT_BINS];
        let mut heap = Vec::new();
        let open: &mut [u32] = match empty <= DEFAULT_BINS {
            true => &mut stack[..empty],
            false => {
                heap.resize(empty, 0);
                &mut heap
            }
        };
        let mut n = 0;
        for (i, &b) in bins.iter().enumerate() {
            if b == EMPTY_VALUE {
                open[n] = i as u32;
                n += 1;
            }
        }
        let max_tries = 64 * k as u64;
        let mut t = 1u64;
        if k == DEFAULT_BINS && self.dkey == DEFAULT_KEYS.dkey {
            while n > 0 && t <= TRIES as u64 {
                let at = t as usize - 1;
                n = round(&mut open[..n], bins, values, |i| {
                    DEFAULT_TRIES[i as usize % DEFAULT_BINS][at] as usize
                });
                t += 1;
            }
        }
        while n > 0 && t <= max_tries {
            n = round(&mut open[..n], bins, values, |i| {
                bin_of(self.dkey, i, t, k as u64)
            });
            t += 1;
        }
        for &i in &open[..n] {
            // Not reached in practice (see the module docs): a bin is filled.
            let i = i as usize;
            values[i] = (1..k)
                .map(|d| bins[(i + d) % k])
                .find(|&b| b != EMPTY_VALUE)
                .unwrap_or(EMPTY_VALUE);
        }
    }
}

/// One round of densification: each open bin `i` takes the value of bin
/// `try_of(i)`, and stays open when that bin is empty too. Returns how
/// many stay open, moved to the front of `open`.
#[inline(always)]
fn round(
    open: &mut [u32],
    bins: &[u32],
    values: &mut [u32],
    try_of: impl Fn(u32) -> usize,
) -> usize {
    let mut kept = 0;
    for n in 0..open.len() {
        let i = open[n];
        // An empty donor leaves the bin empty, and open.
        let b = bins.get(try_of(i)).copied().unwrap_or(EMPTY_VALUE);
        values[i as usize] = b;
        open[kept] = i;
        kept += usize::from(b == EMPTY_VALUE);
    }
    kept
}

/// Number of `u32` words of the filled-bin mask for `k` bins.
pub(crate) const fn mask_words(k: usize) -> usize {
    k.div_ceil(32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn densified_bins_borrow_from_filled_ones_only() {
        let keys = Keys::new(3);
        let mut bins = alloc::vec![EMPTY_VALUE; 64];
        keys.add(&mut bins, &[11, 22, 33]);
        let filled_values: alloc::vec::Vec<u32> =
            bins.iter().copied().filter(|&b| b != EMPTY_VALUE).collect();
        assert!(!filled_values.is_empty() && filled_values.len() <= 3);
        let (mut values, mut mask) = (alloc::vec![0; 64], alloc::vec![0; mask_words(64)]);
        keys.densify(&bins, &mut values, &mut mask);
        for (i, &v) in values.iter().enumerate() {
            assert!(filled_values.contains(&v), "bin {i} has {v}");
            let bit = mask[i / 32] >> (i % 32) & 1 == 1;
            assert_eq!(bit, bins[i] != EMPTY_VALUE);
        }
        // Borrowing is spread over the filled bins, not all from one.
        if filled_values.len() > 1 {
            let first = values.iter().filter(|&&v| v == filled_values[0]).count();
            assert!(first < 64);
        }
    }

    #[test]
    fn empty_input_stays_empty_and_one_bin_fills_all() {
        let keys = Keys::new(0);
        let bins = alloc::vec![EMPTY_VALUE; 40];
        let (mut values, mut mask) = (alloc::vec![0; 40], alloc::vec![7; mask_words(40)]);
        keys.densify(&bins, &mut values, &mut mask);
        assert!(values.iter().all(|&v| v == EMPTY_VALUE));
        assert!(mask.iter().all(|&w| w == 0));
        let mut one = bins.clone();
        one[17] = 5;
        keys.densify(&one, &mut values, &mut mask);
        assert!(values.iter().all(|&v| v == 5));
        assert_eq!(mask, [1 << 17, 0]);
        assert_eq!(mask_words(40), 2);
    }

    /// The module docs read literally, one empty bin after the other: bin
    /// `i` takes the first filled bin of its sequence `j_t`.
    fn densify_by_the_definition(keys: &Keys, bins: &[u32]) -> Vec<u32> {
        let k = bins.len() as u64;
        if bins.iter().all(|&b| b == EMPTY_VALUE) {
            return bins.to_vec();
        }
        (0..bins.len())
            .map(|i| {
                if bins[i] != EMPTY_VALUE {
                    return bins[i];
                }
                (1..=64 * k)
                    .map(|t| fmix64(keys.dkey ^ ((i as u64) << 32 | t)))
                    .map(|h| bins[(((h >> 32) * k) >> 32) as usize])
                    .find(|&b| b != EMPTY_VALUE)
                    .expect("a filled bin within 64 k tries")
            })
            .collect()
    }

    /// Every bin borrows what the definition says, at every fill from one
    /// bin to all, for small and large `k`, with the default seed's table
    /// and without.
    #[test]
    fn densification_follows_the_definition() {
        let mut rng = crate::hash::SplitMix64::new(5);
        for k in [1usize, 2, 7, 16, 128, 1000] {
            for filled in [0usize, 1, 2, 3, 4, 5, 14, 15, 50, 51, k / 2, k - 1, k] {
                if filled > k {
                    continue;
                }
                // At k = 128, the default seed too: its first tries come
                // from the compiled table.
                let seed = match k == DEFAULT_BINS && filled % 2 == 0 {
                    true => crate::hash::DEFAULT_SEED,
                    false => rng.next(),
                };
                let keys = Keys::new(seed);
                let mut bins = alloc::vec![EMPTY_VALUE; k];
                while bins.iter().filter(|&&b| b != EMPTY_VALUE).count() < filled {
                    bins[(rng.next() % k as u64) as usize] = (rng.next() as u32) >> 1;
                }
                let (mut values, mut mask) = (alloc::vec![0; k], alloc::vec![0; mask_words(k)]);
                keys.densify(&bins, &mut values, &mut mask);
                assert_eq!(
                    values,
                    densify_by_the_definition(&keys, &bins),
                    "k {k}, {filled} filled"
                );
            }
        }
    }

    #[test]
    fn every_value_lands_below_the_empty_marker() {
        let keys = Keys::new(9);
        let mut bins = alloc::vec![EMPTY_VALUE; 7];
        let xs: alloc::vec::Vec<u64> = (0..10_000u64).collect();
        keys.add(&mut bins, &xs);
        assert!(bins.iter().all(|&b| b < EMPTY_VALUE));
    }
}
