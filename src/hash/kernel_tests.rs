//! The check that the q-gram window kernels (`super::avx512`,
//! `super::avx2`) share: a kernel's hashes against XXH3-64 of each window
//! alone, and how many windows it covers.

use crate::hash::{v2, SplitMix64};

/// A window kernel: `(out, bytes, q, flip8)` → windows hashed.
pub(crate) type WindowKernel = fn(&mut [u64], &[u8], usize, u64) -> Option<usize>;

/// `kernel` (lanes of `group` windows, each group read from 16 bytes)
/// against XXH3-64 (the `xxhash-rust` crate) of each window alone: q 4 to
/// 8, 0 to 99 random bytes, an output of room for 0 to 100 hashes, three
/// seeds; it covers the whole groups whose 16 bytes are in the slice, as
/// many as fit. Where the CPU lacks the kernel's features (`available`
/// false) it declines; outside 4..=8 bytes it always does.
pub(crate) fn window_kernel_hashes_as_xxh3(kernel: WindowKernel, group: usize, available: bool) {
    let mut rng = SplitMix64::new(5 + group as u64);
    for seed in [0u64, 1, 0xdead_beef_0bad_cafe] {
        for q in 4..=8 {
            for len in 0..100 {
                let bytes: alloc::vec::Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
                for room in [0, 3, 4, 7, 8, 9, 17, 24, 100] {
                    let mut out = alloc::vec![0u64; room];
                    match kernel(&mut out, &bytes, q, v2::flip8(seed)) {
                        None => assert!(!available),
                        Some(m) => {
                            let groups = if len < 16 { 0 } else { (len - 16) / group + 1 };
                            let fit = room / group * group;
                            assert_eq!(m, (group * groups).min(fit), "q {q}, {len} bytes");
                            for (i, w) in bytes.windows(q).take(m).enumerate() {
                                let want = xxhash_rust::xxh3::xxh3_64_with_seed(w, seed);
                                assert_eq!(out[i], want, "window {i}, q {q}, seed {seed}");
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(kernel(&mut [0; 8], &[0; 32], 3, 0), None);
    assert_eq!(kernel(&mut [0; 8], &[0; 32], 9, 0), None);
}
