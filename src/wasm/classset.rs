//! `classPairs`: the pairs of a class set that share passages (the core's
//! `neardup::classset::class_pairs`).

use super::{js_error, read_options, str_arg, strs_arg, to_js, u64s_arg};
use crate::classset::{class_pairs, ClassSetConfig};
use crate::text::{utf8_offsets, TextRange};
use alloc::string::String;
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

/// Finds the pairs of a class set that share passages, without comparing
/// every pair: `students` and `sources` are arrays of texts (sources are
/// compared one way, and a passage found in a source pairs students with
/// the source, not with each other), `template` the assignment's text (its
/// passages count for no pair; `""` for none). Options (`ClassSetConfig`):
/// `charQ` (character q-grams of the words, winnowed as MOSS and Dolos do;
/// 0 for word shingles; default 20), `window` (1–64, default 8), `wordK`
/// (1–32, default 3, with `charQ` 0), `seed`, `stockShare` (a phrase of
/// fewer than ten words in more than this share of the students' texts is
/// a stock phrase; default 0.5), `minContainment` (pairs reaching it are
/// reported; default 0.05), `adaptiveCutOff` (default true: the cut-off
/// rises with the class's size), `minShared`, `maxBytes`, `ignoreQuotes`,
/// `ignoreReferences`. Returns `{texts, pairs, cutOff, students,
/// candidates, stockLimit, stockPhrases, sharedPassages, groups, options}`
/// (`cutOff`: pairs at or above it are flagged; `students`: each
/// student's strongest match; `groups`: students' texts identical after
/// normalisation and exclusions, each one pair with `identical` its size;
/// `sharedPassages`: passages of ten words or
/// more in three or more students' texts), texts numbered students then
/// sources, excluded ranges in UTF-16 units. `hiddenRuns` (optional, one
/// count per text, students then sources): runs of hidden text the reader
/// left out of each (`readFiles`' `hidden.runs`), added to its
/// `obfuscation`. Throws a `TypeError` for a non-array or a non-string
/// text (named by its index), an `Error` for a bad option, a text over
/// `maxBytes`, `hiddenRuns` of another length, or fewer than two texts.
#[wasm_bindgen(js_name = classPairs, unchecked_return_type = "ClassSetReport")]
pub fn class_pairs_js(
    #[wasm_bindgen(unchecked_param_type = "string[]")] students: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[]")] sources: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] template: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Partial<ClassSetConfig>")] options: Option<
        JsValue,
    >,
    #[wasm_bindgen(unchecked_optional_param_type = "number[]")] hidden_runs: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let students = strs_arg(&students, "students")?;
    let sources = strs_arg(&sources, "sources")?;
    let template = str_arg(template, "template")?;
    let config: ClassSetConfig = read_options(
        options.unwrap_or(JsValue::UNDEFINED),
        |o: &ClassSetConfig| o.seed,
    )?;
    let hidden = match super::given(hidden_runs) {
        Some(v) => u64s_arg(&v, "hiddenRuns")?,
        None => Vec::new(),
    };
    if !hidden.is_empty() && hidden.len() != students.len() + sources.len() {
        return Err(super::error_msg(alloc::format!(
            "invalid option hiddenRuns: {} counts for {} texts",
            hidden.len(),
            students.len() + sources.len()
        )));
    }
    let s: Vec<&str> = students.iter().map(String::as_str).collect();
    let r: Vec<&str> = sources.iter().map(String::as_str).collect();
    let mut report = class_pairs(&s, &r, &template, &config).map_err(js_error)?;
    // Hidden text the reader left out of each text counts with the tricks
    // the normalisation undid.
    report.add_hidden(&hidden);
    let all: Vec<&str> = s.iter().chain(r.iter()).copied().collect();
    to_js(&report.into_utf16(&all))
}

/// The class set's evidence pack, the one builder of the page and `neardup
/// class --evidence` (the core's `neardup::classset::evidence`): `pack` is
/// `{made, students, texts: [{name, text, excluded, files: [{path,
/// sha256}]}], pairs: [{a, b, source, containmentAb, containmentBa,
/// verdict, review, passages: [{a, b}]}], settings: {templateSha256,
/// cutOff, adaptiveCutOff, stockLimit, stockPhrases, quotations,
/// referenceLists, options}, pseudonyms}` with ranges in UTF-16 units of
/// each text (as `classPairs` and `compare` give them); or, with `rows`
/// (`classRows`: the pairs and library matches, ranges in UTF-16 units),
/// `pairs` empty and the pairs and library matches taken from the rows,
/// with `reviews` (each row's review mark), `libraryNames` and
/// `libraryTexts` (each library text's kept text or `null`: a library
/// match compared in full is shown beside the student's text with its
/// passages). Returns a complete,
/// self-contained HTML document with no script. Throws an `Error` naming
/// the field for a pack of the wrong shape, a pair whose texts are missing,
/// or a range outside its text.
#[wasm_bindgen(js_name = evidencePack)]
pub fn evidence_pack_js(
    #[wasm_bindgen(unchecked_param_type = "EvidencePack")] pack: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ClassRow[]")] rows: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "string[]")] reviews: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "string[]")] library_names: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "(string | null)[]")] library_texts: Option<
        JsValue,
    >,
) -> Result<String, JsValue> {
    use crate::classset::evidence::EvidencePack;
    use crate::classset::run::ClassRow;
    if !pack.is_object() {
        return Err(super::type_error("pack", "an object", &pack));
    }
    let mut pack: EvidencePack = serde_wasm_bindgen::from_value(pack)
        .map_err(|e| super::error_msg(alloc::format!("invalid option pack: {e}")))?;
    // A class run's rows (`classRows`): its pairs and library matches, as
    // `neardup class --evidence` adds them.
    if let Some(rows) = super::given(rows) {
        let rows: Vec<ClassRow> = shaped(rows, "rows")?;
        let reviews = match super::given(reviews) {
            Some(v) => strs_arg(&v, "reviews")?,
            None => Vec::new(),
        };
        let names = match super::given(library_names) {
            Some(v) => strs_arg(&v, "libraryNames")?,
            None => Vec::new(),
        };
        let texts: Vec<Option<String>> = match super::given(library_texts) {
            Some(v) => shaped(v, "libraryTexts")?,
            None => Vec::new(),
        };
        pack.add_rows(&rows, &reviews, &names, &texts);
    }
    for (i, t) in pack.texts.iter_mut().enumerate() {
        to_bytes(
            &t.text,
            &mut t.excluded,
            &alloc::format!("texts[{i}].excluded"),
        )?;
    }
    let n = pack.texts.len();
    for (k, p) in pack.pairs.iter_mut().enumerate() {
        let (a, b) = (p.a as usize, p.b as usize);
        if a >= n || b >= n {
            return Err(super::error_msg(alloc::format!(
                "invalid option pack: pairs[{k}]: texts {a} and {b} of {n}"
            )));
        }
        passages_to_bytes(
            (&pack.texts[a].text, &pack.texts[b].text),
            &mut p.passages,
            &alloc::format!("pairs[{k}].passages"),
        )?;
    }
    for (k, m) in pack.library.iter_mut().enumerate() {
        let Some(a) = pack.texts.get(m.a as usize) else {
            continue; // named by the pack's check
        };
        passages_to_bytes(
            (&a.text, &m.text),
            &mut m.passages,
            &alloc::format!("library match {k}'s passages"),
        )?;
    }
    pack.to_html().map_err(js_error)
}

/// UTF-16 units to UTF-8 bytes in `text`, each range checked against it.
fn to_bytes(text: &str, ranges: &mut [TextRange], what: &str) -> Result<(), JsValue> {
    let units = text.encode_utf16().count();
    let mut offsets = Vec::with_capacity(ranges.len() * 2);
    for r in ranges.iter() {
        if r.start > r.end || r.end > units {
            return Err(super::error_msg(alloc::format!(
                "invalid option pack: {what}: range {}..{} is not inside its text of {units} UTF-16 units",
                r.start,
                r.end
            )));
        }
        offsets.extend([r.start, r.end]);
    }
    let bytes = utf8_offsets(text, &offsets);
    for (r, b) in ranges.iter_mut().zip(bytes.chunks_exact(2)) {
        *r = TextRange {
            start: b[0],
            end: b[1].max(b[0]),
        };
    }
    Ok(())
}

/// A pair's passages from UTF-16 units to UTF-8 bytes of its two texts.
fn passages_to_bytes(
    (a, b): (&str, &str),
    passages: &mut [crate::classset::evidence::PackPassage],
    what: &str,
) -> Result<(), JsValue> {
    let mut ra: Vec<TextRange> = passages.iter().map(|x| x.a).collect();
    let mut rb: Vec<TextRange> = passages.iter().map(|x| x.b).collect();
    to_bytes(a, &mut ra, &alloc::format!("{what} (a)"))?;
    to_bytes(b, &mut rb, &alloc::format!("{what} (b)"))?;
    for ((x, ra), rb) in passages.iter_mut().zip(ra).zip(rb) {
        x.a = ra;
        x.b = rb;
    }
    Ok(())
}

/// A value of the shape `T` (its TypeScript type), or an `Error` naming
/// `name` and what was wrong.
fn shaped<T: serde::de::DeserializeOwned>(value: JsValue, name: &str) -> Result<T, JsValue> {
    serde_wasm_bindgen::from_value(value)
        .map_err(|e| super::error_msg(alloc::format!("invalid option {name}: {e}")))
}

/// The rows of a class's listed pairs (the core's
/// `neardup::classset::run::class_rows`, what `neardup class` and Python
/// list): `pairs` the pairs at or above the cut-off (`classPairs`' `pairs`),
/// `library` the reference library's matches (`ClassLibrary.check`),
/// after the pairs; `compared` each row's full comparison in the same
/// order, the pairs' then the matches' (`compare`'s report with its
/// `verdict`, `{error}` when it failed, `null` or missing when not
/// compared: a match with a library text that is not kept). A compared row's containments
/// are its full comparison's (what the opened pair shows); otherwise the
/// class measure's. Throws an `Error` naming the argument of the wrong
/// shape.
#[wasm_bindgen(js_name = classRows, unchecked_return_type = "ClassRow[]")]
pub fn class_rows_js(
    #[wasm_bindgen(unchecked_param_type = "ClassPair[]")] pairs: JsValue,
    #[wasm_bindgen(unchecked_param_type = "(Report | { error: string } | null)[]")]
    compared: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "LibraryMatch[]")] library: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    use crate::classset::evidence::PackPassage;
    use crate::classset::run::{class_rows, Containments};
    use crate::classset::ClassPair;
    /// What a row takes of the page's comparison of a pair: its report's
    /// two containments and passages, its verdict's grade, or its error.
    #[derive(serde::Deserialize)]
    struct Seen {
        #[serde(default)]
        error: Option<String>,
        #[serde(skip)]
        containments: Containments,
        #[serde(default)]
        passages: Vec<PackPassage>,
        #[serde(default)]
        verdict: Option<Grade>,
    }
    #[derive(serde::Deserialize)]
    struct Grade {
        #[serde(default)]
        class: Option<String>,
    }
    let pairs: Vec<ClassPair> = shaped(pairs, "pairs")?;
    if !js_sys::Array::is_array(&compared) {
        return Err(super::type_error("compared", "an array", &compared));
    }
    let mut seen: Vec<Option<Seen>> = Vec::new();
    for (i, c) in js_sys::Array::from(&compared).iter().enumerate() {
        seen.push(if c.is_null() || c.is_undefined() {
            None
        } else if let Some(error) = js_sys::Reflect::get(&c, &JsValue::from_str("error"))
            .ok()
            .and_then(|e| e.as_string())
        {
            Some(Seen {
                error: Some(error),
                containments: Containments::default(),
                passages: Vec::new(),
                verdict: None,
            })
        } else {
            // The report's measures are at its top level, beside the rest.
            let name = alloc::format!("compared[{i}]");
            let mut one: Seen = shaped(c.clone(), &name)?;
            one.containments = shaped(c, &name)?;
            Some(one)
        });
    }
    let matches: Vec<crate::classset::library::LibraryMatch> = match super::given(library) {
        Some(v) => shaped(v, "library")?,
        None => Vec::new(),
    };
    let rows = class_rows(
        &pairs,
        |i, row| match seen.get_mut(i).and_then(Option::take) {
            Some(Seen { error: Some(e), .. }) => row.error = Some(e),
            Some(s) => row.set_figures(
                &s.containments,
                s.verdict.and_then(|v| v.class).unwrap_or_default(),
                s.passages,
            ),
            None => {}
        },
        &matches,
    );
    to_js(&rows)
}

/// What `classCsv` writes from: the rows (`classRows`), each text's
/// `obfuscation` (`classPairs`' texts, students then sources), the names,
/// each row's review mark and the pseudonyms switch.
#[derive(serde::Deserialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ClassCsvInput {
    /// The rows, in order.
    pub rows: Vec<crate::classset::run::ClassRow>,
    /// Each text's obfuscation, students then sources.
    pub obfuscation: Vec<crate::Obfuscation>,
    /// The students' names.
    pub students: Vec<String>,
    /// The sources' names (without `source: `).
    #[serde(default)]
    #[tsify(optional)]
    pub sources: Vec<String>,
    /// The library texts' names.
    #[serde(default)]
    #[tsify(optional)]
    pub library_names: Vec<String>,
    /// Each row's review mark (`""`, `"confirmed"`, `"dismissed"`).
    #[serde(default)]
    #[tsify(optional)]
    pub reviews: Vec<String>,
    /// Students as "Student 1", … by their order.
    #[serde(default)]
    #[tsify(optional)]
    pub pseudonyms: bool,
}

/// The class set's CSV, the one writer of the page's "Export CSV",
/// `neardup class --csv` and Python's `ClassSet.to_csv()` (the core's
/// `neardup::classset::run::class_csv`): header `a,b,kind,containment_ab,
/// containment_ba,similarity,verdict,review,obfuscation_a,obfuscation_b`, a
/// row per listed pair then per library match, formula-like names written
/// after a `'`. Throws an `Error` naming the field of the wrong shape.
#[wasm_bindgen(js_name = classCsv)]
pub fn class_csv_js(
    #[wasm_bindgen(unchecked_param_type = "ClassCsvInput")] input: JsValue,
) -> Result<String, JsValue> {
    use crate::classset::run::{class_csv, ClassNames, CsvTable};
    if !input.is_object() {
        return Err(super::type_error("input", "an object", &input));
    }
    let t: ClassCsvInput = shaped(input, "input")?;
    let undone: Vec<u64> = t
        .obfuscation
        .iter()
        .map(crate::Obfuscation::undone)
        .collect();
    Ok(class_csv(&CsvTable {
        rows: &t.rows,
        undone: &undone,
        students: t.students.len() as u32,
        names: ClassNames {
            students: &t.students,
            sources: &t.sources,
            library: &t.library_names,
        },
        reviews: &t.reviews,
        pseudonyms: t.pseudonyms,
    }))
}
