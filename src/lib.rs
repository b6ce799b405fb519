//! # neardup
//!
//! Near-duplicate text detection and plagiarism scoring, from one `no_std`
//! core that runs natively, in the browser and at the edge (WebAssembly).
//!
//! The data path is one straight line (see `ARCHITECTURE.md`):
//!
//! ```text
//! text ─▶ Document ─▶ features ─▶ sketch ─▶ index      (find near-duplicates)
//!         (normalised   (shingles,   (MinHash,  (LSH, Hamming)
//!          once)         keywords)    SimHash)
//!                     └──────────▶ score: compare, verdict (how much a copies b)
//! ```
//!
//! Modules, one family per folder, one algorithm per file:
//!
//! * [`text`]: Unicode normalisation (NFKC, case folding, punctuation and
//!   whitespace folding) and UAX #29 word tokens with byte ranges back into
//!   the original; UTF-16 offsets for JavaScript.
//! * [`hash`]: the one seeded hash of every stored or compared value (keyed
//!   FNV-1a 64 + MurmurHash3 `fmix64`) and the SplitMix64 generator.
//! * [`document`]: [`Document`], a text normalised once, with its token
//!   hashes and memoised shingles; every method reads it.
//! * [`shingle`]: word k-shingles and character q-grams ([`Shingling`],
//!   [`ShingleSet`]).
//! * [`tfidf`]: document frequencies, smoothed idf, top-k keywords.
//! * [`measures`]: set measures (resemblance, containment, Dice), vector
//!   similarities, and classification metrics (precision, recall, F1, ROC AUC).
//! * [`exclude`]: what a grader leaves out — quotations, a trailing
//!   reference list, a template's or a class's phrases — as ranges, and
//!   their blanking.
//! * [`compare`](mod@compare): [`compare()`], every measure of two texts and
//!   their shared passages, with one plagiarism score.
//! * [`minhash`]: MinHash signatures and the LSH index with its band advisor.
//! * [`multiref`]: multireference cosine signatures over a reference text
//!   trained by a genetic algorithm (`neardup multiref train`).
//! * [`phonetic`]: phonetic codes (Soundex, Phonex, Phonix, Double
//!   Metaphone, DSound, SoundD) and the token hashes of phonetic shingles
//!   (`phonetic:K`, `phonetic:ALGO:K`).
//! * [`spell`]: dictionary correction (symmetric-delete candidates ranked
//!   by typing distance, phonetic code and frequency) for `word:K+correct`.
//! * [`simhash`]: 64-bit SimHash fingerprints and the permuted-block Hamming
//!   index.
//! * [`dedup`]: the dedup pipeline of a collection ([`dedup::Deduplicator`]:
//!   pairs, clusters, what to keep) and its stage functions for engines that
//!   process a collection in pieces.
//! * [`index`]: what every index shares: the [`NearDupIndex`] contract, hits,
//!   pairs, clusters, the exact all-pairs Jaccard join, snapshot framing.
//! * [`verdict`] (feature `serde`): the learned verdict, a similarity vector
//!   fed to SVMs trained by `neardup train`.
//!
//! Cargo features:
//!
//! * `std` (default): switches on `std` in dependencies; the algorithms are
//!   the same without it (the core builds for `thumbv7m-none-eabi`).
//! * `serde`: serde derives on reports and configurations, and the
//!   [`verdict`] module (its model is JSON).
//! * `wasm`: the WebAssembly binding (`src/wasm/`, one file per JavaScript
//!   class) with TypeScript types generated from the Rust types; `wasm-read`
//!   the reader's own module (`readFile`, `readFiles`, `readingLimits`,
//!   `classStudents`); `wasm-compare` the comparison's own module
//!   (`compare`, `SvmModel`, `Speller`, `textOfBytes`, `normalize`,
//!   shingles and phonetic codes: the page's two-text view and
//!   `neardup/compare`).
//! * `read`: the reader of a class's files ([`read`]: zip, `.docx`, `.odt`,
//!   HTML and text to text, hidden text left out).
//! * `cli`: the command-line tool `neardup` (`src/bin/neardup/`).
#![no_std]
#![deny(unsafe_code)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[cfg(feature = "assets")]
pub mod assets;
pub mod classset;
pub mod compare;
pub mod config;
pub mod dedup;
pub mod document;
mod error;
pub mod exclude;
pub mod hash;
pub mod index;
pub mod measures;
pub mod minhash;
pub mod multiref;
pub mod phonetic;
#[cfg(feature = "read")]
pub mod read;
pub mod shingle;
pub mod simhash;
pub mod spell;
#[cfg(test)]
mod testing;
pub mod text;
pub mod tfidf;
#[cfg(feature = "serde")]
pub mod verdict;

#[cfg(all(feature = "wasm-bindings", target_arch = "wasm32"))]
pub mod wasm;

pub use compare::{
    compare, compare_documents, compare_with, CompareConfig, Exclusions, Measures, OffsetUnit,
    Passage, Report,
};
pub use document::Document;
pub use error::{Error, ErrorKind};
pub use index::{Hit, NearDupIndex, Pair, Score};
pub use shingle::{ShingleSet, Shingling};
pub use text::{normalize, Normalization, Normalized, Obfuscation, TextRange, Token};

/// The instruction-set level this build needs and the running processor
/// lacks: `Some("x86-64-v2 (POPCNT, SSE4.2)")` when native x86-64 code was
/// built for x86-64-v2 (the repository's `.cargo/config.toml`) and runs on an
/// older processor; `None` otherwise, and always on other targets. The CLI
/// and the Python module ask before any other work, so that such a
/// processor gets a message instead of an illegal instruction.
#[cfg(feature = "std")]
pub fn missing_cpu_level() -> Option<&'static str> {
    #[cfg(all(target_arch = "x86_64", target_feature = "popcnt"))]
    if !std::is_x86_feature_detected!("popcnt") || !std::is_x86_feature_detected!("sse4.2") {
        return Some("x86-64-v2 (POPCNT, SSE4.2)");
    }
    None
}

/// The default version of the shingle hashing and normalisation
/// specification (`SPEC.md`): what a value made without a `spec` option
/// follows. [`hash::Spec`] lists every version this build reads and writes
/// (1 and 2); every persisted value derived from shingle hashes
/// (signatures, fingerprints, snapshots) records its own version, and a
/// change to any golden vector is a new version.
pub const SPEC_VERSION: u32 = 1;

/// The README's Rust example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
