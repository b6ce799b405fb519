//! The check that the intersection kernels (`super::avx512`,
//! `super::avx2`) share: a kernel's count against a plain merge.

use crate::hash::SplitMix64;
use alloc::vec::Vec;

/// An intersection kernel (`super::avx512`, `super::avx2`): from `i` of
/// `x` and `j` of `y`, at most `steps` blocks; `None` when the CPU lacks
/// its features.
type BlocksKernel = fn(&[u64], &[u64], usize, usize, usize) -> Option<(usize, usize, usize)>;

/// `kernel` (blocks of `lanes`), then a plain merge from where it stops,
/// against a plain merge of the whole: sets of 0 to 60 hashes drawn from a
/// small range (so that they share many) and from the whole range, from
/// every start, a few blocks at a time. Where the CPU lacks the kernel's
/// features (`available` false) it declines every time.
pub(crate) fn blocks_count_as_a_merge(kernel: BlocksKernel, lanes: usize, available: bool) {
    let mut rng = SplitMix64::new(13);
    let merge = |x: &[u64], y: &[u64]| x.iter().filter(|h| y.binary_search(h).is_ok()).count();
    let mut blocks = 0usize;
    for _ in 0..400 {
        let range = [40u64, 200, u64::MAX][(rng.next() % 3) as usize];
        let mut set = |n: u64| {
            let mut v: Vec<u64> = (0..rng.next() % n).map(|_| rng.next() % range).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let (x, y) = (set(61), set(61));
        for (i0, j0) in [(0, 0), (x.len() / 3, y.len() / 2)] {
            let Some((i, j, mut n)) = kernel(&x, &y, i0, j0, 2) else {
                assert!(!available, "the kernel declined on a CPU that has it");
                continue;
            };
            assert!(i >= i0 && j >= j0 && i <= x.len() && j <= y.len());
            assert!((i - i0) % lanes == 0 && (j - j0) % lanes == 0);
            blocks += (i - i0 + j - j0) / lanes;
            // A few more blocks, then the rest by the plain merge.
            let (i, j, more) = kernel(&x, &y, i, j, 3).unwrap();
            n += more;
            n += merge(&x[i..], &y[j..]);
            assert_eq!(
                n,
                merge(&x[i0..], &y[j0..]),
                "{x:?} from {i0}, {y:?} from {j0}"
            );
        }
    }
    assert_eq!(blocks > 100, available, "blocks compared: {blocks}");
}
