//! The check that the bit-count kernels (`super::avx512`, `super::avx2`)
//! share: a kernel's counts against each bit counted.

use crate::hash::SplitMix64;

/// A bit-count kernel: adds to `ones[i]` the hashes with bit `i` set;
/// `false` when the CPU lacks its features.
pub(crate) type CountKernel = fn(&mut [u64; 64], &[u64]) -> bool;

/// `kernel` against each bit counted: 0 to 2,100 hashes (around the
/// emptyings of 8-bit counters: every 255 features a register), uniform
/// and skewed (bits set with p = 1/4, and all ones: every counter at its
/// most), added to counts that are not zero. Where the CPU lacks the
/// kernel's features (`available` false) it declines and adds nothing.
pub(crate) fn counts_each_bit(kernel: CountKernel, available: bool) {
    let mut rng = SplitMix64::new(9);
    for n in [
        0usize, 1, 3, 4, 5, 254, 255, 256, 510, 511, 1019, 1020, 1021, 2041, 2100,
    ] {
        for kind in 0..3 {
            let hs: alloc::vec::Vec<u64> = (0..n)
                .map(|_| match kind {
                    0 => rng.next(),
                    1 => rng.next() & rng.next(),
                    _ => u64::MAX,
                })
                .collect();
            let mut got = [7u64; 64];
            if !kernel(&mut got, &hs) {
                assert!(!available);
                assert_eq!(got, [7; 64]);
                continue;
            }
            for (i, &g) in got.iter().enumerate() {
                let want = 7 + hs.iter().filter(|&&h| (h >> i) & 1 == 1).count() as u64;
                assert_eq!(g, want, "bit {i}, {n} hashes, kind {kind}");
            }
        }
    }
}
