//! Measures: how alike two things are, and how good a decision is.
//!
//! * [`sets`]: resemblance (Jaccard), containment and Dice of sets (Broder
//!   1997) through [`SetCounts`], and the cosine of term frequencies;
//! * [`vectors`]: similarity of weighted sparse vectors (cosine, Euclidean,
//!   extended Jaccard; Jaccard and Dice of their features);
//! * [`classification`]: precision, recall, F1, confusion matrices, ROC AUC;
//! * `avx512`: the intersection of sorted shingle sets eight by eight,
//!   where the CPU has AVX-512.

#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(crate) mod avx512;
pub mod classification;
pub mod sets;
pub mod vectors;

pub use sets::{containment, dice, resemblance, SetCounts, TermFrequencies};
