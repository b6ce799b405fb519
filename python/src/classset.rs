//! `class_pairs(students, sources=(), template="", **options)`: the class
//! measure's report over texts (the core's `neardup::classset::class_pairs`);
//! `class_set(paths, …)`: a whole class run from files and folders (the
//! core's folder reader `neardup::read::ClassTexts` and class run
//! `neardup::classset::run::ClassRun`, what `neardup class` drives), a
//! `ClassSet` whose CSV, JSON and evidence pack are the CLI's.

use neardup::classset::evidence::PackFile;
use neardup::classset::library::Library;
use neardup::classset::run::{ClassNames, ClassRun, PackInput};
use neardup::read::{ClassTexts, READING_LIMITS};
use neardup::verdict::SvmModel;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::{Path, PathBuf};

/// The built-in verdict model (trained on clough-abc), the CLI's and the
/// page's.
static MODEL: &str = neardup::assets::MODEL_JSON;

/// Finds the pairs of a class set that share passages without comparing
/// every pair: character 20-grams of the normalised words, winnowed
/// (Schleimer, Wilkerson & Aiken 2003, as MOSS and Dolos), or word
/// k-shingles (Broder 1997); an inverted index of them (Sarawagi & Kirpal
/// 2004); stock phrases — short phrases in more than a share of the texts
/// — left out, a passage of ten words or more never. `students` and
/// `sources` are sequences of str; a source is compared one way, and a
/// passage found in it pairs the student with the source, not with other
/// students. `template`: the assignment's text, whose phrases count for no
/// pair. Options: the core's `ClassSetConfig` in snake_case — `char_q`
/// (0 for word shingles, or 1–32, default 20), `window` (1–64, default 8),
/// `word_k` (1–32, default 3, with `char_q` 0), `seed`, `stock_share`
/// ((0, 1], default 0.5), `min_containment` ([0, 1], default 0.05),
/// `adaptive_cut_off` (default True: the cut-off rises with the class's
/// size, 0.05 up to 20 texts, +0.15 per tenfold more, at most 0.5),
/// `min_shared` (1–1000, default 5), `max_bytes`, `ignore_quotes` and
/// `ignore_references` (default True, as the page), `fold_diacritics`
/// (default False: é as e, ä/ö/ü as ae/oe/ue, SPEC.md §1).
///
/// Returns the report as a dict: `texts` (students then sources: `tokens`,
/// `shingles`, `templateShingles`, `stockShingles`, `quotations`,
/// `referenceList`, `shared` — the share of the text found in another
/// text, `excluded` and `common` ranges in UTF-8 bytes), `pairs` (`a`, `b`
/// indices into students then sources, `source`, `shared`,
/// `containmentAb`, `containmentBa`, `resemblance`, `score`; highest score
/// first, every pair reaching `min_containment`), `cutOff` (the pairs at or
/// above it are flagged), `students` (each student's strongest match:
/// `best`, `covered`, `source`), `candidates`, `stockLimit`,
/// `stockPhrases`, `sharedPassages` (passages of ten words or more in three
/// or more students' texts: `texts`, `words`), `groups` (students' texts
/// identical after normalisation and exclusions, found by hash: each a
/// list of members, one pair standing for it with `identical` its size),
/// `options`. `TypeError` for a
/// text that is not a str; `ValueError` for a bad option, a text over
/// `max_bytes`, or fewer than two texts.
#[pyfunction]
#[pyo3(signature = (students, sources=Vec::new(), template="", **options))]
pub fn class_pairs<'py>(
    py: Python<'py>,
    students: Vec<String>,
    sources: Vec<String>,
    template: &str,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let config: neardup::classset::ClassSetConfig = crate::options::serde_config(py, options)?;
    let template = template.to_string();
    let report = py
        .detach(|| {
            let s: Vec<&str> = students.iter().map(String::as_str).collect();
            let r: Vec<&str> = sources.iter().map(String::as_str).collect();
            neardup::classset::class_pairs(&s, &r, &template, &config)
        })
        .map_err(crate::value_error)?;
    json_value(py, &report)
}

/// `value` as a Python value, through JSON.
fn json_value<'py>(py: Python<'py>, value: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// A regular file's bytes, at most the reader's file limit (50 MiB),
/// `OSError` naming it otherwise.
fn bounded(path: &Path, what: &str) -> PyResult<Vec<u8>> {
    neardup::read::read_bounded(path, READING_LIMITS.file_bytes).map_err(|e| {
        pyo3::exceptions::PyOSError::new_err(format!("{what} {}: {e}", path.display()))
    })
}

/// A class run from files: its report, its listed rows (pairs at or above
/// the cut-off, each with its full comparison's figures and learned
/// verdict, then the reference library's matches), and the CSV, JSON and
/// evidence pack `neardup class` writes for the same files and options.
#[pyclass(frozen, module = "neardup")]
pub struct ClassSet {
    run: ClassRun,
    students: Vec<String>,
    sources: Vec<String>,
    library: Vec<String>,
    library_texts: Vec<Option<String>>,
    texts: Vec<String>,
    files: Vec<Vec<PackFile>>,
    template_sha256: Option<String>,
    skipped: Vec<(String, String)>,
    notes: Vec<String>,
}

impl ClassSet {
    fn names(&self) -> ClassNames<'_> {
        ClassNames {
            students: &self.students,
            sources: &self.sources,
            library: &self.library,
        }
    }
}

#[pymethods]
impl ClassSet {
    /// The students' names (a sub-folder's, a file's without extension),
    /// in the class's order: list[str].
    #[getter]
    fn students(&self) -> Vec<String> {
        self.students.clone()
    }

    /// The sources' names: list[str].
    #[getter]
    fn sources(&self) -> Vec<String> {
        self.sources.clone()
    }

    /// The listed rows, as the JSON's `rows`: list of dicts with `kind`
    /// ("students", "source", "library"), `a` (a student's index), `b` (a
    /// text's index, students then sources; a library text's index),
    /// `shared`, `similarity` (the class measure's score, in [0, 1]),
    /// `containmentAb`, `containmentBa` (the full comparison's, in [0, 1]),
    /// `compared`, `verdict` (a grade: "cut", "light", "heavy", "non"),
    /// `passages` (UTF-8 byte ranges in a and b).
    #[getter]
    fn pairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_value(py, &self.run.rows)
    }

    /// The class measure's report (as `class_pairs` returns it), hidden
    /// runs counted: dict.
    #[getter]
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_value(py, &self.run.report)
    }

    /// Files not read, with the reason: list of (path, reason).
    #[getter]
    fn skipped(&self) -> Vec<(String, String)> {
        self.skipped.clone()
    }

    /// Notes on how files were grouped into students: list[str].
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    /// The listed rows as CSV, byte for byte what `neardup class --csv`
    /// prints (header `a,b,kind,containment_ab,containment_ba,similarity,
    /// verdict,review,obfuscation_a,obfuscation_b`); with `pseudonyms`
    /// students named "Student 1", ….
    #[pyo3(signature = (pseudonyms = false))]
    fn to_csv(&self, pseudonyms: bool) -> String {
        self.run.to_csv(&self.names(), &[], pseudonyms)
    }

    /// The run as JSON, what `neardup class --json` prints (without its
    /// final newline): str.
    fn to_json(&self) -> PyResult<String> {
        self.run.to_json(&self.names()).map_err(crate::value_error)
    }

    /// The evidence pack, one self-contained HTML document (str): every
    /// setting, every file's SHA-256, each listed pair with both texts and
    /// its shared passages highlighted, the library's matches — what
    /// `neardup class --evidence` writes. `made` the line under the title
    /// (default: the time now in UTC).
    #[pyo3(signature = (pseudonyms = false, made = None))]
    fn evidence_pack(
        &self,
        py: Python<'_>,
        pseudonyms: bool,
        made: Option<String>,
    ) -> PyResult<String> {
        let made = match made {
            Some(m) => m,
            None => {
                let now: String = py
                    .import("datetime")?
                    .getattr("datetime")?
                    .call_method1(
                        "now",
                        (py.import("datetime")?.getattr("timezone")?.getattr("utc")?,),
                    )?
                    .call_method1("strftime", ("%Y-%m-%d %H:%M",))?
                    .extract()?;
                format!("Made {now} UTC by neardup (Python); nothing was uploaded.")
            }
        };
        let texts: Vec<&str> = self.texts.iter().map(String::as_str).collect();
        let pack = self.run.evidence_pack(PackInput {
            texts: &texts,
            names: self.names(),
            files: &self.files,
            made: &made,
            template_sha256: self.template_sha256.clone(),
            reviews: &[],
            pseudonyms,
            library_texts: &self.library_texts,
        });
        pack.to_html().map_err(crate::value_error)
    }

    fn __repr__(&self) -> String {
        format!(
            "ClassSet({} students, {} sources, {} rows)",
            self.students.len(),
            self.sources.len(),
            self.run.rows.len()
        )
    }
}

/// Runs a class set from files and folders, as `neardup class` does:
/// `paths` files (each a student, named by its file name without the
/// extension) or folders (every file at any depth read by the core's
/// reader — `.txt`, `.md`, `.html`, `.docx`, `.odt`, `.zip` archives of
/// them, the format told by the bytes, hidden text left out and counted —
/// a sub-folder per student, its files joined; with `each_file` every file
/// a student); `sources` read the same way (a passage found in a source
/// pairs the student with the source); `template` a file whose phrases
/// count for no pair; `library` a reference library file (`neardup library
/// build`), checked one way. Options as `class_pairs`. Every listed pair is
/// compared in full with the built-in verdict model (Raveena & Nandini
/// 2014's features, an SVM trained on clough-abc). Runs without the GIL.
///
/// Returns a `ClassSet`. `OSError` for a folder, template or library that
/// cannot be read; `ValueError` (a `neardup.Error`) for a bad option, a
/// library that is not one, fewer than two texts; files that cannot be
/// read are skipped and listed in `ClassSet.skipped`.
#[pyfunction]
#[pyo3(signature = (paths, *, sources = Vec::new(), template = None, library = None, each_file = false, **options))]
pub fn class_set(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    sources: Vec<PathBuf>,
    template: Option<PathBuf>,
    library: Option<PathBuf>,
    each_file: bool,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<ClassSet> {
    let config: neardup::classset::ClassSetConfig = crate::options::serde_config(py, options)?;
    let template = match &template {
        Some(p) => neardup::text::decode_text(&bounded(p, "template")?).text,
        None => String::new(),
    };
    let library = match &library {
        Some(p) => Some(Library::from_bytes(&bounded(p, "library")?).map_err(crate::value_error)?),
        None => None,
    };
    let model = SvmModel::from_json(MODEL).map_err(crate::value_error)?;
    let read = |paths: &[PathBuf]| -> PyResult<ClassTexts> {
        let mut texts = ClassTexts::new(each_file);
        for p in paths {
            texts.read(p)?;
        }
        Ok(texts)
    };
    let (students, sources, run) = py.detach(|| -> PyResult<_> {
        let students = read(&paths)?;
        let sources = read(&sources)?;
        let mut run = ClassRun::of_files(&students, &sources, &template, &config, library.as_ref())
            .map_err(crate::value_error)?;
        run.compare(
            &ClassRun::texts_of(&students, &sources),
            library.as_ref(),
            Some(&model),
        );
        Ok((students, sources, run))
    })?;
    Ok(ClassSet {
        run,
        library_texts: library
            .as_ref()
            .map_or_else(Vec::new, |l| l.texts().to_vec()),
        library: library.map_or_else(Vec::new, |l| l.names().to_vec()),
        texts: students
            .texts
            .iter()
            .chain(&sources.texts)
            .cloned()
            .collect(),
        files: students
            .files
            .iter()
            .chain(&sources.files)
            .cloned()
            .collect(),
        template_sha256: (!template.trim().is_empty())
            .then(|| neardup::read::sha256_hex(template.as_bytes())),
        skipped: students
            .skipped
            .iter()
            .chain(&sources.skipped)
            .map(|s| (s.path.clone(), s.reason.clone()))
            .collect(),
        notes: students
            .notes
            .iter()
            .chain(&sources.notes)
            .cloned()
            .collect(),
        students: students.names,
        sources: sources.names,
    })
}
