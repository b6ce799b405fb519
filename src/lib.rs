//! # neardup
//!
//! Near-duplicate text detection and plagiarism scoring, from one `no_std`
//! core that runs natively, in the browser and at the edge (WebAssembly).
//!
//! The pipeline, each step in its own module and specified in `SPEC.md`:
//!
//! 1. [`text`]: Unicode normalisation (NFKC, case folding, punctuation and
//!    whitespace folding) and word tokens by UAX #29 word boundaries, each token
//!    keeping its byte range in the original text.
//! 2. [`hash`]: the one fixed, seeded hash every stored or compared value uses
//!    (keyed FNV-1a 64 finalised by the MurmurHash3 `fmix64` mixer).
//! 3. [`shingle`]: word k-shingles and character q-gram shingles as `u64`
//!    hashes, and [`shingle::ShingleSet`].
//! 4. [`measures`]: Jaccard resemblance and containment (Broder 1997), Dice,
//!    cosine over term frequencies, shared-shingle counts.
//! 5. [`evidence`]: the passages two texts share, as maximal runs of shared
//!    word k-shingles mapped back to the original texts.
//! 6. [`compare()`]: all of the above in one [`Report`] with a plagiarism score.
//!
//! The crate is `#![no_std]` with `alloc`; the `std` feature (on by default)
//! only switches on `std` in dependencies. The WebAssembly binding
//! (`wasm` feature) and the command-line tool (`cli` feature) are thin layers
//! over this core.
#![no_std]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod allpairs;
mod codec;
pub mod compare;
mod error;
pub mod eval;
pub mod evidence;
pub mod hash;
pub mod lsh;
pub mod measures;
pub mod minhash;
mod segment;
pub mod shingle;
pub mod simhash;
pub mod similarity;
pub mod text;
pub mod tfidf;
pub mod unionfind;
#[cfg(feature = "serde")]
pub mod verdict;

#[cfg(all(feature = "wasm", target_arch = "wasm32"))]
pub mod wasm;

pub use compare::OffsetUnit;
pub use compare::{compare, CompareOptions, Measures, Report};
pub use error::{Error, ErrorKind};
pub use evidence::Passage;
pub use shingle::ShingleSet;
pub use text::{normalize, Normalized, TextRange, Token};

/// Version of the shingle hashing and normalisation specification (`SPEC.md`).
///
/// Every persisted value derived from shingle hashes (signatures, fingerprints,
/// snapshots) records this number; it changes whenever a golden vector would.
pub const SPEC_VERSION: u32 = 1;
