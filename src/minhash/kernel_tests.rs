//! The checks that the fold kernels (`super::avx512`, `super::avx2`) share:
//! a kernel's bins against each window (or word shingle) hashed by the
//! reference and folded alone (`Keys::fold`), and how many windows it
//! covers, for groups of its lane count.

use crate::hash::{v2, SplitMix64};
use crate::minhash::one_permutation::{Keys, EMPTY_VALUE};
use alloc::vec::Vec;

/// A q-gram kernel: `(bins, bytes, q, flip8, key)` → windows folded.
pub(crate) type WindowKernel = fn(&mut [u32; 128], &[u8], usize, u64, u64) -> Option<usize>;
/// A word kernel: `(bins, tokens, k, seed, key)` → windows folded.
pub(crate) type WordKernel = fn(&mut [u32; 128], &[u64], usize, u64, u64) -> Option<usize>;

/// `kernel` (lanes of `group` windows, each group read from 16 bytes) against
/// each window hashed by `v2::xxh3` (the reference XXH3-64) and folded
/// alone: q 4 to 8, 0 to 99 bytes of random ASCII, three seeds; it covers
/// every whole group whose 16 bytes are in the slice. Also the dispatch
/// (`Keys::fold_windows`) against the same. Where the CPU lacks the
/// kernel's features (`available` false) it declines.
pub(crate) fn folds_as_each_window_alone(kernel: WindowKernel, group: usize, available: bool) {
    let mut rng = SplitMix64::new(7 + group as u64);
    for seed in [0u64, 1, 0xdead_beef_0bad_cafe] {
        let keys = Keys::new(seed);
        for q in 4..=8 {
            for len in 0..100 {
                let bytes: Vec<u8> = (0..len).map(|_| (rng.next() % 0x80) as u8).collect();
                let mut want = [EMPTY_VALUE; 128];
                for w in bytes.windows(q) {
                    keys.fold(&mut want, v2::xxh3(seed, w));
                }
                let mut got = [EMPTY_VALUE; 128];
                keys.fold_windows(&mut got, seed, &bytes, q);
                assert_eq!(got, want, "seed {seed}, q {q}, {len} bytes");
                let mut part = [EMPTY_VALUE; 128];
                match kernel(&mut part, &bytes, q, v2::flip8(seed), keys.key()) {
                    None => assert!(!available),
                    Some(m) => {
                        let groups = if len < 16 { 0 } else { (len - 16) / group + 1 };
                        assert_eq!(m, group * groups, "q {q}, {len} bytes");
                        let mut alone = [EMPTY_VALUE; 128];
                        for w in bytes.windows(q).take(m) {
                            keys.fold(&mut alone, v2::xxh3(seed, w));
                        }
                        assert_eq!(part, alone, "seed {seed}, q {q}, {len} bytes");
                    }
                }
            }
        }
    }
    // Outside the formula's lengths the kernel declines.
    assert_eq!(kernel(&mut [0; 128], &[0; 32], 3, 0, 0), None);
    assert_eq!(kernel(&mut [0; 128], &[0; 32], 9, 0, 0), None);
}

/// `kernel` (lanes of `group` windows) against each word shingle hashed
/// (`v2::word_shingles`, the rolled polynomial) and folded alone: k 1 to
/// 9 (and 0, taken as 1), 0 to 69 random token hashes, three seeds; it
/// covers every whole group of windows. Also the dispatch
/// (`Keys::fold_word_windows`: fewer tokens than k fold their one
/// shingle).
pub(crate) fn folds_as_each_shingle_alone(kernel: WordKernel, group: usize, available: bool) {
    let mut rng = SplitMix64::new(11 + group as u64);
    for seed in [0u64, 1, 0xdead_beef_0bad_cafe] {
        let keys = Keys::new(seed);
        for k in 0..=9 {
            for n in 0..70usize {
                let tokens: Vec<u64> = (0..n).map(|_| rng.next()).collect();
                let mut want = [EMPTY_VALUE; 128];
                for x in v2::word_shingles(&tokens, k, seed) {
                    keys.fold(&mut want, x);
                }
                let mut got = [EMPTY_VALUE; 128];
                keys.fold_word_windows(&mut got, seed, &tokens, k);
                assert_eq!(got, want, "seed {seed}, k {k}, {n} tokens");
                let mut part = [EMPTY_VALUE; 128];
                match kernel(&mut part, &tokens, k, seed, keys.key()) {
                    None => assert!(!available),
                    Some(m) => {
                        let windows = (n + 1).saturating_sub(k.max(1));
                        assert_eq!(m, windows / group * group, "k {k}, {n} tokens");
                        let mut alone = [EMPTY_VALUE; 128];
                        for x in v2::word_shingles(&tokens, k, seed).into_iter().take(m) {
                            keys.fold(&mut alone, x);
                        }
                        assert_eq!(part, alone, "seed {seed}, k {k}, {n} tokens");
                    }
                }
            }
        }
    }
}
