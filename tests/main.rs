//! The one integration-test binary (ripgrep's layout): every module below is
//! a group of tests. `golden` also runs on wasm32 under Node
//! (`wasm-bindgen-test`), so the same vectors are checked on both.

mod golden;

#[cfg(not(target_arch = "wasm32"))]
mod accents;
#[cfg(not(target_arch = "wasm32"))]
mod bad_input;
#[cfg(all(feature = "cli", not(target_arch = "wasm32")))]
mod cli;
#[cfg(not(target_arch = "wasm32"))]
mod dedup;
#[cfg(not(target_arch = "wasm32"))]
mod estimators;
#[cfg(all(feature = "read", not(target_arch = "wasm32")))]
mod read;
#[cfg(not(target_arch = "wasm32"))]
mod segmentation;
#[cfg(all(feature = "serde", not(target_arch = "wasm32")))]
mod tricks;
#[cfg(not(target_arch = "wasm32"))]
mod util;
#[cfg(all(feature = "serde", not(target_arch = "wasm32")))]
mod verdicts;
#[cfg(all(feature = "wasm", target_arch = "wasm32"))]
mod wasm_api;
