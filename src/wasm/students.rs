//! `classStudents`: a class's files grouped into students (the core's
//! `neardup::classset::students`), in both modules: the main one and the
//! reader's, whose worker groups what it read.

use super::{strs_arg, to_js};
use alloc::string::String;
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

/// A class set's files grouped into students, as every surface does (the
/// core's `neardup::classset::students`): `paths` (with `/`) and `texts`
/// of one length; the folder all paths share is dropped, a file in a
/// sub-folder belongs to that sub-folder's student, any other file is its
/// own student (its name without the extension); a student's texts are
/// joined by a blank line in byte order of their paths. Returns `[{id,
/// text, files}]` (`files`: the entries' positions, in that order), in
/// byte order of `id`. With `eachFile` true every file is a student of its
/// own, named by its path without the shared folder and the extension
/// (`period1/anna`; the core's `each_file`). Throws a `TypeError` for a
/// non-array or non-string, an `Error` for arrays of different lengths.
#[wasm_bindgen(js_name = classStudents, unchecked_return_type = "Student[]")]
pub fn class_students_js(
    #[wasm_bindgen(unchecked_param_type = "string[]")] paths: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[]")] texts: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "boolean")] each_file: Option<bool>,
) -> Result<JsValue, JsValue> {
    let paths = strs_arg(&paths, "paths")?;
    let texts = strs_arg(&texts, "texts")?;
    if paths.len() != texts.len() {
        return Err(super::error_msg(alloc::format!(
            "invalid option texts: {} paths for {} texts",
            paths.len(),
            texts.len()
        )));
    }
    let entries: Vec<(&str, &str)> = paths
        .iter()
        .map(String::as_str)
        .zip(texts.iter().map(String::as_str))
        .collect();
    match each_file.unwrap_or(false) {
        true => to_js(&crate::classset::students::each_file(&entries)),
        false => to_js(&crate::classset::students::students(&entries)),
    }
}

/// What the grouping did, from each student's count of files
/// (`classStudents`' `files.length`): a sentence such as `"5 files were
/// read as 2 students (2 of them from more than one file: the files of one
/// folder are one student's)"`, or `undefined` when every student has one
/// file (the core's `grouping_note`). Throws a `TypeError` for anything but
/// an array of non-negative integers.
#[wasm_bindgen(js_name = groupingNote, unchecked_return_type = "string | undefined")]
pub fn grouping_note_js(
    #[wasm_bindgen(unchecked_param_type = "number[]")] files_per_student: JsValue,
) -> Result<JsValue, JsValue> {
    let counts: Vec<usize> = super::u64s_arg(&files_per_student, "filesPerStudent")?
        .into_iter()
        .map(|n| n as usize)
        .collect();
    Ok(match crate::classset::students::grouping_note(&counts) {
        Some(note) => JsValue::from_str(&note),
        None => JsValue::UNDEFINED,
    })
}
