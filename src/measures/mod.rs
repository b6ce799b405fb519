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

/// An intersection kernel (`avx512`, `avx2`): from position `i` of `x` and
/// `j` of `y`, at most `steps` blocks, `Some((i', j', found))`; `None` when
/// the CPU lacks its features.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(crate) type BlocksKernel =
    fn(&[u64], &[u64], usize, usize, usize) -> Option<(usize, usize, usize)>;
pub mod classification;
pub mod sets;
pub mod vectors;

pub use sets::{containment, dice, resemblance, SetCounts, TermFrequencies};
