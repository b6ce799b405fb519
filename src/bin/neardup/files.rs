//! A class's files read and grouped into students, for `neardup class`
//! and `neardup library build|add`: every file through the core's reader
//! (`neardup::read`, the page's too), grouped by the core's rule
//! (`classset::students`, or `each_file`).

use anyhow::{Context, Result};
use neardup::classset::evidence::{shown_name, PackFile};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Texts read from files and folders, grouped into students by the core's
/// rule (`classset::students`, as the page): a file given is a student of
/// its own (named by its file name without the extension); in a folder,
/// every document at any depth, by the folder's name and its path inside
/// (as a browser names a picked folder's files), a sub-folder per student. A file that cannot be read is named on
/// standard error and counted in `failed`.
#[derive(Default)]
pub(crate) struct Texts {
    /// `(path as grouped, text, SHA-256 of the file's bytes)`, in the
    /// order read.
    entries: Vec<(String, String, String)>,
    pub(crate) names: Vec<String>,
    pub(crate) texts: Vec<String>,
    /// Each student's files (path as the page shows it, SHA-256).
    pub(crate) files: Vec<Vec<PackFile>>,
    pub(crate) failed: usize,
    /// Bytes of text read so far, every argument together (the class
    /// set's limit, `READING_LIMITS.class_text_bytes`).
    text_bytes: u64,
    /// Hidden runs left out of each entry, as `entries`.
    hidden: Vec<u64>,
    /// Hidden runs left out of each student's files, as `names`.
    pub(crate) hidden_runs: Vec<u64>,
    /// Every file a student of its own (`--each-file`).
    pub(crate) each_file: bool,
}

/// Folders deeper than this below a folder given are not read.
const MAX_DEPTH: usize = 16;

impl Texts {
    /// Nothing read yet; with `each_file` every file a student of its own.
    pub(crate) fn new(each_file: bool) -> Texts {
        Texts {
            each_file,
            ..Texts::default()
        }
    }

    /// Reads the files of one argument and groups what was read from it.
    pub(crate) fn read(&mut self, path: &Path) -> Result<()> {
        self.entries.clear();
        self.hidden.clear();
        if path.is_dir() {
            let mut files = Vec::new();
            text_files(path, 0, &mut files)?;
            files.sort();
            // Paths as a browser gives a picked folder's files: the
            // folder's own name, then the path inside it.
            let top = path
                .canonicalize()
                .ok()
                .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .unwrap_or_default();
            for f in files {
                let inside = f.strip_prefix(path).unwrap_or(&f);
                let name = std::iter::once(top.clone())
                    .filter(|t| !t.is_empty())
                    .chain(
                        inside
                            .components()
                            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
                    )
                    .collect::<Vec<_>>()
                    .join("/");
                self.read_file(&f, name)?;
            }
        } else {
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            self.read_file(path, name)?;
        }
        let entries: Vec<(&str, &str)> = self
            .entries
            .iter()
            .map(|(p, t, _)| (p.as_str(), t.as_str()))
            .collect();
        let grouped = match self.each_file {
            true => neardup::classset::students::each_file(&entries),
            false => neardup::classset::students::students(&entries),
        };
        let counts: Vec<usize> = grouped.iter().map(|s| s.files.len()).collect();
        if let Some(note) = neardup::classset::students::grouping_note(&counts) {
            eprintln!(
                "neardup: note: {}: {note}; give --each-file to make every file a student",
                path.display()
            );
        }
        for student in grouped {
            self.hidden_runs
                .push(student.files.iter().map(|&i| self.hidden[i as usize]).sum());
            self.names.push(student.id);
            self.texts.push(student.text);
            self.files.push(
                student
                    .files
                    .iter()
                    .map(|&i| {
                        let (path, _, sha256) = &self.entries[i as usize];
                        PackFile {
                            path: shown_name(path),
                            sha256: sha256.clone(),
                        }
                    })
                    .collect(),
            );
        }
        Ok(())
    }

    /// Reads one file through the core's reader (`neardup::read`, the
    /// page's too): its format by its bytes, an archive entry by entry,
    /// hidden text left out; a PDF refused with the reason (the page reads
    /// it with pdf.js). Only regular files (and links to them): a FIFO or a
    /// device would block or never end.
    fn read_file(&mut self, path: &Path, name: String) -> Result<()> {
        use neardup::read::{read_files, READING_LIMITS};
        let bytes = match fs::metadata(path) {
            Err(e) => Err(e.to_string()),
            Ok(m) if !m.is_file() => Err("not a regular file".to_string()),
            Ok(m) if m.len() > READING_LIMITS.file_bytes => Err(format!(
                "{} bytes, over the {} MiB limit",
                m.len(),
                READING_LIMITS.file_bytes >> 20
            )),
            Ok(_) => fs::File::open(path)
                .and_then(|f| {
                    let mut out = Vec::new();
                    f.take(READING_LIMITS.file_bytes + 1)
                        .read_to_end(&mut out)?;
                    Ok(out)
                })
                .map_err(|e| e.to_string())
                .and_then(|b| match b.len() as u64 > READING_LIMITS.file_bytes {
                    true => Err(format!(
                        "over the {} MiB limit",
                        READING_LIMITS.file_bytes >> 20
                    )),
                    false => Ok(b),
                }),
        };
        let bytes = match bytes {
            Ok(b) => b,
            Err(why) => {
                eprintln!("neardup: {}: {why}; skipped", path.display());
                self.failed += 1;
                return Ok(());
            }
        };
        let left = READING_LIMITS
            .class_text_bytes
            .saturating_sub(self.text_bytes);
        let read = read_files(&name, &bytes, left);
        for pdf in &read.pdfs {
            eprintln!(
                "neardup: {}: a PDF: read by the page only (pdf.js); give its text (.txt) here; skipped",
                pdf.path
            );
            self.failed += 1;
        }
        for f in &read.failed {
            eprintln!("neardup: {}: {}; skipped", f.path, f.reason);
            self.failed += 1;
        }
        self.text_bytes += read.text_bytes;
        for t in read.texts {
            self.entries.push((t.path, t.text, t.sha256));
            self.hidden.push(t.hidden.runs);
        }
        Ok(())
    }
}

/// Every file under `dir` (hidden ones and symbolic links to folders left
/// out; the reader decides by their bytes what each is), at most
/// [`MAX_DEPTH`] folders down.
fn text_files(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        let hidden = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        let meta = fs::symlink_metadata(&path)?;
        if hidden {
            continue;
        }
        if meta.is_dir() {
            if depth < MAX_DEPTH {
                text_files(&path, depth + 1, out)?;
            }
        } else {
            out.push(path);
        }
    }
    Ok(())
}
