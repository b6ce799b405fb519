//! A learned plagiarism verdict (Hajishirzi, Yih, Kolcz 2010; Raveena &
//! Nandini 2014): a similarity vector of two documents ([`vector`]), scaled
//! and fed to support vector machines ([`svm`]) trained natively (`neardup
//! train`, with `linfa-svm`), in a versioned model format ([`model`]) whose
//! decision function runs in `no_std`, natively and in WebAssembly.

pub mod calibration;
pub mod lcs;
pub mod model;
pub mod svm;
pub mod tiling;
pub mod vector;

pub use calibration::{Ends, Platt, ENDS_EPSILON};
pub use model::{
    CalibrationEnds, ModelFile, Scheme, StoredDf, SvmModel, Verdict, CLOSE_PROBABILITIES,
    MODEL_FORMAT, OLDEST_MODEL_FORMAT,
};
pub use svm::{Kernel, Machine, Scaler};
pub use vector::{keyword_terms, Feature, VectorSpec, MAX_FEATURES, STOP_WORDS};
