//! The learned verdict's training and model selection (behind `neardup
//! train` and `neardup eval --svm`), a folder of its own so that no
//! subcommand file imports another:
//!
//! * `args.rs`: the model's options (feature groups, scheme, grades,
//!   calibration, kernels) and the setup they describe;
//! * `data.rs`: labelled pairs (the Clough–Stevenson corpus, JSONL), their
//!   documents and the keywords' document frequencies;
//! * `fit.rs`: support vector machines fitted by `linfa-svm` (SMO) and
//!   exported through linfa's public API into the model JSON that
//!   `neardup::verdict` evaluates, with Platt calibration;
//! * `cv.rs`: hyper-parameters by cross-validation grouped by task, and the
//!   nested evaluation with its baselines;
//! * `cuts.rs`: the graded cut points on the plagiarism score.
//!
//! Cortes & Vapnik 1995; Platt 1999; Frank & Hall 2001; Clough & Stevenson
//! 2011; Raveena & Nandini 2014.

mod args;
mod cuts;
mod cv;
mod data;
mod fit;

pub use args::{GradesBy, KernelChoice, ModelArgs, SchemeChoice};
pub use cv::{nested_cv, select, Outer};
pub use data::{is_copied, read_clough, read_jsonl, Kind, Pair, CLOUGH_GRADES};
pub use fit::{fit_calibrated, Hyper};

/// The seed of the model's keyword hashes (the stored document frequencies).
pub(crate) const DF_SEED: u64 = 0;
