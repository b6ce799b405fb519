//! SimHash: 64-bit fingerprints whose Hamming distance estimates the angle
//! between weighted feature vectors (Charikar 2002), and the exact
//! permuted-block Hamming index that finds near-duplicates among them (Manku,
//! Jain, Das Sarma 2007).
//!
//! * [`fingerprint`](mod@fingerprint): [`SimHashConfig`], [`Fingerprint`], the bit-sliced
//!   computation, Hamming distance and the cosine estimate;
//! * [`hamming_index`]: [`SimHashIndex`] (the contract of [`crate::index`]).

#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod avx2;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod avx512;
pub mod fingerprint;
pub mod hamming_index;
#[cfg(all(test, feature = "std", target_arch = "x86_64"))]
mod kernel_tests;

pub use fingerprint::{
    cosine_estimate, fingerprint, fingerprint_weighted, hamming_distance, Fingerprint,
    SimHashConfig, Weighting,
};
pub use hamming_index::{SimHashIndex, SimHashIndexConfig, MAX_K, MAX_TABLES};
