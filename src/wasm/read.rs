//! The core's reader (`neardup::read`) for JavaScript: `readingLimits`,
//! `readFile` (one document) and `readFiles` (one of a class's files, an
//! archive entry by entry). The page's reader worker reads every file
//! through these; it keeps only pdf.js for PDFs.

use super::{bytes_arg, error_msg, opt_u64_arg, str_arg, to_js};
use crate::read::{self, ReadErrorKind};
use wasm_bindgen::prelude::*;

/// The reading limits every surface shares, in bytes (`fileBytes` 50 MiB,
/// `xmlBytes` 64 MiB, `textBytes` 16 MiB, `archiveBytes` 500 MiB,
/// `classTextBytes` 64 MiB) and counts (`archiveFiles` 5,000,
/// `archiveDepth` 2, `pdfPages` 2,000).
#[wasm_bindgen(js_name = readingLimits, unchecked_return_type = "ReadingLimits")]
pub fn reading_limits() -> Result<JsValue, JsValue> {
    to_js(&read::READING_LIMITS)
}

/// Why a file of `size` bytes is not read when it is over the file limit
/// (`readingLimits().fileBytes`): the reader's own words, e.g. `"57671680
/// bytes, over the 50 MiB limit"`, for a caller that checks a file's size
/// before reading its bytes. `size` a number of bytes (an integer, at most
/// 2^53 − 1); a `TypeError` otherwise.
#[wasm_bindgen(js_name = tooLargeReason)]
pub fn too_large_reason(
    #[wasm_bindgen(unchecked_param_type = "number")] size: JsValue,
) -> Result<alloc::string::String, JsValue> {
    let size = super::u64_arg(&size, "size")?;
    Ok(
        read::over_limit(Some(size), read::READING_LIMITS.file_bytes)
            .reason()
            .into(),
    )
}

/// Why a text is not read when it is over `max` bytes of UTF-8 (a class
/// set's share left, or `readingLimits().textBytes` for one text): the
/// reader's own words, for a caller reading a format of its own (the
/// page's PDFs). `max` a number of bytes; a `TypeError` otherwise.
#[wasm_bindgen(js_name = tooMuchTextReason)]
pub fn too_much_text_reason(
    #[wasm_bindgen(unchecked_param_type = "number")] max: JsValue,
) -> Result<alloc::string::String, JsValue> {
    let max = super::u64_arg(&max, "max")?;
    Ok(read::over_text(max).reason().into())
}

/// The kind of a reading error as JavaScript sees it: `"tooLarge"`,
/// `"damaged"`, `"refused"`, `"unsupported"`, `"pdf"` or `"noText"`.
fn kind_name(kind: ReadErrorKind) -> &'static str {
    match kind {
        ReadErrorKind::TooLarge => "tooLarge",
        ReadErrorKind::Damaged => "damaged",
        ReadErrorKind::Refused => "refused",
        ReadErrorKind::Unsupported => "unsupported",
        ReadErrorKind::Pdf => "pdf",
        _ => "noText",
    }
}

/// Reads one document's bytes (`.txt`, `.md`, `.html`, `.docx`, `.odt`;
/// the format by the bytes, `name` a hint): `{text, format, encoding?,
/// hidden: {runs, bytes}, sha256}`, the text at most `maxText` bytes of
/// UTF-8 (default and at most 16 MiB). Throws an `Error` whose message is
/// the reason and whose `kind` is `"tooLarge"`, `"damaged"`, `"refused"`,
/// `"unsupported"`, `"pdf"` (read it with a PDF reader) or `"noText"`; a
/// `TypeError` for arguments of the wrong type.
#[wasm_bindgen(js_name = readFile, unchecked_return_type = "FileText")]
pub fn read_file(
    #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | undefined")] max_text: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let name = str_arg(name, "name")?;
    let bytes = bytes_arg(&bytes, "bytes")?;
    let max = opt_u64_arg(max_text, "maxText")?.unwrap_or(u64::MAX);
    match read::read_file(&name, &bytes, max) {
        Ok(read) => to_js(&read),
        Err(e) => {
            let err = error_msg(e.reason());
            js_sys::Reflect::set(&err, &"kind".into(), &kind_name(e.kind()).into())?;
            Err(err)
        }
    }
}

/// Reads one of a class's files (`path` with its folders, as a picked
/// folder names it): `{texts: [{path, text, format, hidden, sha256}],
/// failed: [{path, reason}], pdfs: [{path, bytes}], textBytes}` — a
/// document, or a zip archive of files entry by entry (archives inside to
/// depth 2), every text at most 16 MiB and all together at most `maxText`
/// (default: no limit but the module's). What cannot be read is in
/// `failed`, never thrown; PDFs are handed back for pdf.js. Throws a
/// `TypeError` only for arguments of the wrong type.
#[wasm_bindgen(js_name = readFiles, unchecked_return_type = "ClassFiles")]
pub fn read_files(
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | undefined")] max_text: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let path = str_arg(path, "path")?;
    let bytes = bytes_arg(&bytes, "bytes")?;
    let max = opt_u64_arg(max_text, "maxText")?.unwrap_or(u64::MAX);
    to_js(&read::read_files(&path, &bytes, max))
}
