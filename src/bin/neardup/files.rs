//! A class's files read and grouped into students, for `neardup class`
//! and `neardup library build|add`: the core's folder reader
//! (`neardup::read::ClassTexts`, which Python's `class_set` uses too), its
//! skipped files and grouping notes said on standard error.

use anyhow::Result;
use neardup::read::ClassTexts;
use std::path::PathBuf;

/// Reads `paths` (files and folders) into students, each file a student
/// of its own with `each_file`; names every skipped file and every
/// grouping note on standard error.
pub(crate) fn read_class(paths: &[PathBuf], each_file: bool) -> Result<ClassTexts> {
    let mut texts = ClassTexts::new(each_file);
    for p in paths {
        let skipped = texts.skipped.len();
        let notes = texts.notes.len();
        texts.read(p)?;
        for s in &texts.skipped[skipped..] {
            eprintln!("neardup: {}: {}; skipped", s.path, s.reason);
        }
        for n in &texts.notes[notes..] {
            eprintln!("neardup: note: {n}; give --each-file to make every file a student");
        }
    }
    Ok(texts)
}
