//! MinHash: signatures that estimate the Jaccard resemblance of shingle sets
//! (Broder 1997; Broder, Charikar, Frieze, Mitzenmacher 2000), and the LSH
//! index that finds near-duplicates among them by banding (Indyk and
//! Motwani 1998; *Mining of Massive Datasets* ch. 3.4).
//!
//! * [`signature`]: [`MinHashConfig`], [`MinHashScheme`], [`MinHasher`],
//!   [`Signature`];
//! * [`one_permutation`]: the one-permutation scheme with optimal
//!   densification (Shrivastava 2017), the default;
//! * [`bands`]: [`LshConfig`], the banding [`LshParams`] and its advisor;
//! * [`lsh`]: the index [`MinHashLsh`] (the contract of [`crate::index`]).

#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod avx2;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod avx512;
pub mod bands;
#[cfg(all(test, feature = "std", target_arch = "x86_64"))]
mod kernel_tests;
pub mod lsh;
pub mod one_permutation;
pub mod signature;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;

pub use bands::{s_curve, LshConfig, LshParams};
pub use lsh::MinHashLsh;
pub use signature::{
    standard_error, MinHashConfig, MinHashScheme, MinHasher, Signature, SignatureKind, EMPTY_VALUE,
    MAX_PERM,
};
