//! Shared helpers: where the labelled data is.

use std::path::PathBuf;

/// The shared data folder: `$NEARDUP_DATA`, else `../shared/data` beside the
/// repository.
pub fn data_dir() -> PathBuf {
    let dir = match std::env::var_os("NEARDUP_DATA") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
    };
    assert!(
        dir.join("README.md").is_file(),
        "labelled data not found at {}; set NEARDUP_DATA to the shared data folder",
        dir.display()
    );
    dir
}
