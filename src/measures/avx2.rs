//! The size of the intersection of two sorted sets of 64-bit shingle
//! hashes (the `|S ∩ T|` behind resemblance and containment, Broder 1997)
//! four by four with AVX2 (x86-64, detected when the program runs; the
//! `std` feature), for the processors without AVX-512 (`super::avx512`,
//! the same method eight by eight).
//!
//! A block of four of each set is compared whole: the block of one set
//! against each of the four rotations of the other's (`vpermq`,
//! `vpcmpeqq`), the four masks ORed and counted; the walk from block to
//! block is `super::walk_blocks`, which the AVX-512 kernel takes too. The
//! count is the scalar merge's (tested against it).
//! Where the scalar merge waits on each comparison to know which set to
//! read next, this waits once a block of four.
//!
//! `unsafe` (as in `crate::hash::avx2`): calling the kernel, compiled for
//! AVX2, once the CPU has been seen to have it, and its loads, each of
//! four values inside its slice.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256i, _mm256_castsi256_pd, _mm256_cmpeq_epi64, _mm256_loadu_si256, _mm256_movemask_pd,
    _mm256_or_si256, _mm256_permute4x64_epi64,
};

/// From positions `i` of `x` and `j` of `y` (two sets sorted ascending,
/// without repeats), at most `steps` comparisons of a block of four of
/// each (fewer where fewer than four are left on either side): returns
/// the positions reached and the equal hashes found among the blocks left
/// behind, `(i', j', found)`, as `super::avx512::intersect_blocks` does
/// with blocks of eight. `None` when the CPU lacks AVX2 (nothing done).
pub(crate) fn intersect_blocks(
    x: &[u64],
    y: &[u64],
    i: usize,
    j: usize,
    steps: usize,
) -> Option<(usize, usize, usize)> {
    if !crate::hash::avx2::available() {
        return None;
    }
    // SAFETY: the CPU has AVX2 (checked just above).
    Some(unsafe { intersect_blocks_avx2(x, y, i, j, steps) })
}

#[target_feature(enable = "avx2")]
fn intersect_blocks_avx2(
    x: &[u64],
    y: &[u64],
    i: usize,
    j: usize,
    steps: usize,
) -> (usize, usize, usize) {
    super::walk_blocks::<4>(x, y, i, j, steps, |a, b| {
        // SAFETY: `a` and `b` are four values each.
        let (va, vb) = unsafe {
            (
                _mm256_loadu_si256(a.as_ptr().cast::<__m256i>()),
                _mm256_loadu_si256(b.as_ptr().cast::<__m256i>()),
            )
        };
        // `vb` rotated by one, two and three lanes.
        let m = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_cmpeq_epi64(va, vb),
                _mm256_cmpeq_epi64(va, _mm256_permute4x64_epi64::<0b00_11_10_01>(vb)),
            ),
            _mm256_or_si256(
                _mm256_cmpeq_epi64(va, _mm256_permute4x64_epi64::<0b01_00_11_10>(vb)),
                _mm256_cmpeq_epi64(va, _mm256_permute4x64_epi64::<0b10_01_00_11>(vb)),
            ),
        );
        _mm256_movemask_pd(_mm256_castsi256_pd(m)).count_ones()
    })
}

#[cfg(test)]
mod tests {
    /// The kernel's count against a plain merge
    /// (`kernel_tests::blocks_count_as_a_merge`, blocks of four).
    #[test]
    fn the_blocks_count_as_a_merge() {
        crate::measures::kernel_tests::blocks_count_as_a_merge(
            super::intersect_blocks,
            4,
            crate::hash::avx2::available(),
        );
    }
}
