//! The size of the intersection of two sorted sets of 64-bit shingle
//! hashes (the `|S ∩ T|` behind resemblance and containment, Broder 1997)
//! eight by eight with AVX-512 (x86-64, detected when the program runs;
//! the `std` feature), for `crate::shingle::ShingleSet`'s merge.
//!
//! A block of eight of each set is compared whole: each of the eight
//! rotations of one block (`valignq`) against the other (`vpcmpeqq`), the
//! eight masks ORed and counted; the walk from block to block is
//! `super::walk_blocks`, which the AVX2 kernel takes too. The count is the
//! scalar merge's (tested against it).
//!
//! `unsafe` (as in `crate::hash::avx512`): calling the kernel, compiled for
//! AVX-512F, BW and DQ, once the CPU has been seen to have them, and its
//! loads, each of eight values inside its slice.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm512_alignr_epi64, _mm512_cmpeq_epi64_mask, _mm512_loadu_si512,
};

/// From positions `i` of `x` and `j` of `y` (two sets sorted ascending,
/// without repeats), at most `steps` comparisons of a block of eight of
/// each (fewer where fewer than eight are left on either side): returns
/// the positions reached and the equal hashes found among the blocks left
/// behind, `(i', j', found)`. Where the block of `x` at `i'` was compared
/// with earlier blocks of `y` its equal hashes there are counted already,
/// so `found` plus `|x[i'..] ∩ y[j'..]|` is `|x[i..] ∩ y[j..]|`. `None`
/// when the CPU lacks AVX-512 (nothing done).
pub(crate) fn intersect_blocks(
    x: &[u64],
    y: &[u64],
    i: usize,
    j: usize,
    steps: usize,
) -> Option<(usize, usize, usize)> {
    if !crate::hash::avx512::available() {
        return None;
    }
    // SAFETY: the CPU has AVX-512F, BW and DQ (checked just above).
    Some(unsafe { intersect_blocks_avx512(x, y, i, j, steps) })
}

#[target_feature(enable = "avx512f,avx512bw,avx512dq")]
fn intersect_blocks_avx512(
    x: &[u64],
    y: &[u64],
    i: usize,
    j: usize,
    steps: usize,
) -> (usize, usize, usize) {
    super::walk_blocks::<8>(x, y, i, j, steps, |a, b| {
        // SAFETY: `a` and `b` are eight values each.
        let (va, vb) = unsafe {
            (
                _mm512_loadu_si512(a.as_ptr().cast::<__m512i>()),
                _mm512_loadu_si512(b.as_ptr().cast::<__m512i>()),
            )
        };
        let m = _mm512_cmpeq_epi64_mask(va, vb)
            | _mm512_cmpeq_epi64_mask(va, _mm512_alignr_epi64::<1>(vb, vb))
            | _mm512_cmpeq_epi64_mask(va, _mm512_alignr_epi64::<2>(vb, vb))
            | _mm512_cmpeq_epi64_mask(va, _mm512_alignr_epi64::<3>(vb, vb))
            | _mm512_cmpeq_epi64_mask(va, _mm512_alignr_epi64::<4>(vb, vb))
            | _mm512_cmpeq_epi64_mask(va, _mm512_alignr_epi64::<5>(vb, vb))
            | _mm512_cmpeq_epi64_mask(va, _mm512_alignr_epi64::<6>(vb, vb))
            | _mm512_cmpeq_epi64_mask(va, _mm512_alignr_epi64::<7>(vb, vb));
        m.count_ones()
    })
}

#[cfg(test)]
mod tests {
    /// The kernel's count against a plain merge
    /// (`kernel_tests::blocks_count_as_a_merge`, blocks of eight).
    #[test]
    fn the_blocks_count_as_a_merge() {
        crate::measures::kernel_tests::blocks_count_as_a_merge(
            super::intersect_blocks,
            8,
            crate::hash::avx512::available(),
        );
    }
}
