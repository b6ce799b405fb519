//! A hint to the processor that an element of a slice will be read soon
//! (`prefetcht0` on x86-64; nothing elsewhere), so that loads of many
//! scattered elements overlap instead of waiting one after another. A
//! hint only: it reads nothing the program sees and changes no result.
//!
//! `unsafe`: the intrinsic, given the address of an element inside its
//! slice.
#![allow(unsafe_code)]

/// Hints that `s[i]` will be read soon; nothing when `i` is out of bounds.
#[inline(always)]
pub(crate) fn prefetch<T>(s: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(x) = s.get(i) {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE is part of x86-64; `x` is an element of `s`, and a
        // prefetch cannot fault.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (s, i);
}
