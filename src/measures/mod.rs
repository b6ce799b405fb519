//! Measures: how alike two things are, and how good a decision is.
//!
//! * [`sets`]: resemblance (Jaccard), containment and Dice of sets (Broder
//!   1997) through [`SetCounts`], and the cosine of term frequencies;
//! * [`vectors`]: similarity of weighted sparse vectors (cosine, Euclidean,
//!   extended Jaccard; Jaccard and Dice of their features);
//! * [`classification`]: precision, recall, F1, confusion matrices, ROC AUC;
//! * `avx512`: the intersection of sorted shingle sets eight by eight,
//!   where the CPU has AVX-512; `avx2` four by four where it has AVX2
//!   alone (`kernel_tests.rs`: the check both share).

#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(crate) mod avx2;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(crate) mod avx512;
#[cfg(all(test, feature = "std", target_arch = "x86_64"))]
mod kernel_tests;

/// From position `i` of `x` and `j` of `y` (sorted, without repeats), up
/// to 64 hashes of a set compared in blocks by the widest kernel the CPU
/// has: eight at a time with AVX-512 (`avx512`), else four with AVX2
/// (`avx2`). `Some((i', j', found))` as [`walk_blocks`] gives it; `None`
/// when the CPU has neither (nothing done).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(crate) fn intersect_blocks(
    x: &[u64],
    y: &[u64],
    i: usize,
    j: usize,
) -> Option<(usize, usize, usize)> {
    avx512::intersect_blocks(x, y, i, j, 8).or_else(|| avx2::intersect_blocks(x, y, i, j, 16))
}

/// The walk both intersection kernels take (`avx512` with blocks of eight,
/// `avx2` of four), inlined into each so that `equal` is compiled with its
/// CPU features: from `i` of `x` and `j` of `y` (sorted, without repeats),
/// at most `steps` times, the equal hashes of a block of `L` of each
/// (`equal`: how many of the first block's hashes the second holds), then
/// the block whose last (largest) hash is smaller is left, or both when
/// the two are equal, as a merge leaves one hash; stops where fewer than
/// `L` are left on either side. Two equal hashes lie in blocks that are
/// compared: the block left first ends below the other's (a set holds no
/// repeat), so no hash in it equals one in a later block of the other set.
/// Returns `(i', j', found)`.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn walk_blocks<const L: usize>(
    x: &[u64],
    y: &[u64],
    mut i: usize,
    mut j: usize,
    steps: usize,
    equal: impl Fn(&[u64; L], &[u64; L]) -> u32,
) -> (usize, usize, usize) {
    fn block<const L: usize>(s: &[u64], at: usize) -> Option<&[u64; L]> {
        s.get(at..)?.first_chunk::<L>()
    }
    let mut found = 0usize;
    for _ in 0..steps {
        let (Some(a), Some(b)) = (block::<L>(x, i), block::<L>(y, j)) else {
            break;
        };
        found += equal(a, b) as usize;
        let (last_a, last_b) = (a[L - 1], b[L - 1]);
        i += L * usize::from(last_a <= last_b);
        j += L * usize::from(last_b <= last_a);
    }
    (i, j, found)
}
pub mod classification;
pub mod sets;
pub mod vectors;

pub use sets::{containment, dice, resemblance, SetCounts, TermFrequencies};
