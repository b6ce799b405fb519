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
/// byte order of `id`. Throws a `TypeError` for a
/// non-array or non-string, an `Error` for arrays of different lengths.
#[wasm_bindgen(js_name = classStudents, unchecked_return_type = "Student[]")]
pub fn class_students_js(
    #[wasm_bindgen(unchecked_param_type = "string[]")] paths: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[]")] texts: JsValue,
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
    to_js(&crate::classset::students::students(&entries))
}
