//! A class's files and folders on disk, read and grouped into students:
//! what `neardup class`, `neardup library build|add` and Python's
//! `neardup.class_set` read (the page is given the same files by the
//! browser and groups them by the same rule, `classset::students`).
//!
//! A file given is a student of its own, named by its file name without
//! the extension. In a folder every file at any depth (hidden files and
//! links to folders left out, at most [`MAX_DEPTH`] folders down) is read
//! by [`read_files`] — its format told by its bytes — and named as a
//! browser names a picked folder's files: the folder's own name, then the
//! path inside it; a sub-folder is a student (its files joined), or, with
//! `each_file`, every file a student of its own. Only regular files are
//! read (a FIFO or a device would block or never end), each at most
//! [`READING_LIMITS`]`.file_bytes`, all together at most
//! `class_text_bytes` of text.

use super::{read_files, Skipped, READING_LIMITS};
use crate::classset::evidence::{shown_name, PackFile};
use crate::classset::students;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Folders deeper than this below a folder given are not read.
pub const MAX_DEPTH: usize = 16;

/// Texts read from files and folders and grouped into students (module
/// docs), in the order the paths were given; what could not be read is in
/// [`ClassTexts::skipped`] with the reason.
#[derive(Clone, Debug, Default)]
pub struct ClassTexts {
    /// Each student's name (a sub-folder's, a file's without extension).
    pub names: Vec<String>,
    /// Each student's text, its files joined by a blank line.
    pub texts: Vec<String>,
    /// Each student's files: the path as shown and the SHA-256 of its
    /// bytes.
    pub files: Vec<Vec<PackFile>>,
    /// Hidden runs the reader left out of each student's files.
    pub hidden_runs: Vec<u64>,
    /// Files that were not read, with the reason (a PDF among them: read
    /// by the page only).
    pub skipped: Vec<Skipped>,
    /// Notes on the grouping (files joined into fewer students), one per
    /// path given that joined any.
    pub notes: Vec<String>,
    /// Every file a student of its own.
    each_file: bool,
    /// Bytes of text read so far, every path together.
    text_bytes: u64,
}

/// One file read: `(path as grouped, text, SHA-256, hidden runs)`.
type Entry = (String, String, String, u64);

impl ClassTexts {
    /// Nothing read yet; with `each_file` every file a student of its own.
    pub fn new(each_file: bool) -> ClassTexts {
        ClassTexts {
            each_file,
            ..ClassTexts::default()
        }
    }

    /// Files skipped so far.
    pub fn failed(&self) -> usize {
        self.skipped.len()
    }

    /// Reads the files of one path given and groups them into students.
    ///
    /// # Errors
    /// An [`io::Error`] naming the folder when a folder cannot be listed (a
    /// file that cannot be read, or is not there, is skipped, not an
    /// error).
    pub fn read(&mut self, path: &Path) -> io::Result<()> {
        let mut entries: Vec<Entry> = Vec::new();
        if path.is_dir() {
            let mut files = Vec::new();
            files_under(path, 0, &mut files)?;
            files.sort();
            let top = path
                .canonicalize()
                .ok()
                .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .unwrap_or_default();
            for f in files {
                let inside = f.strip_prefix(path).unwrap_or(&f);
                let name = core::iter::once(top.clone())
                    .filter(|t| !t.is_empty())
                    .chain(
                        inside
                            .components()
                            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
                    )
                    .collect::<Vec<_>>()
                    .join("/");
                self.read_file(&f, &name, name.clone(), &mut entries);
            }
        } else {
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            self.read_file(path, &name, path.display().to_string(), &mut entries);
        }
        let pairs: Vec<(&str, &str)> = entries
            .iter()
            .map(|(p, t, _, _)| (p.as_str(), t.as_str()))
            .collect();
        let grouped = match self.each_file {
            true => students::each_file(&pairs),
            false => students::students(&pairs),
        };
        let counts: Vec<usize> = grouped.iter().map(|s| s.files.len()).collect();
        if let Some(note) = students::grouping_note(&counts) {
            self.notes.push(format!("{}: {note}", path.display()));
        }
        for student in grouped {
            self.hidden_runs
                .push(student.files.iter().map(|&i| entries[i as usize].3).sum());
            self.files.push(
                student
                    .files
                    .iter()
                    .map(|&i| PackFile {
                        path: shown_name(&entries[i as usize].0),
                        sha256: entries[i as usize].2.clone(),
                    })
                    .collect(),
            );
            self.names.push(student.id);
            self.texts.push(student.text);
        }
        Ok(())
    }

    /// Reads one file through [`read_files`]; what cannot be read is
    /// skipped with the reason, named `shown` (a folder's file by its path
    /// inside, as the page names it; a file given, as given).
    fn read_file(&mut self, path: &Path, name: &str, shown: String, entries: &mut Vec<Entry>) {
        let bytes = match read_bounded(path, READING_LIMITS.file_bytes).map_err(|e| e.to_string()) {
            Ok(b) => b,
            Err(reason) => {
                self.skipped.push(Skipped {
                    path: shown,
                    reason,
                });
                return;
            }
        };
        let left = READING_LIMITS
            .class_text_bytes
            .saturating_sub(self.text_bytes);
        let read = read_files(name, &bytes, left);
        for pdf in read.pdfs {
            self.skipped.push(Skipped {
                path: pdf.path,
                reason: "a PDF: read by the page only (pdf.js); give its text (.txt) here"
                    .to_string(),
            });
        }
        self.skipped.extend(read.failed);
        self.text_bytes += read.text_bytes;
        for t in read.texts {
            entries.push((t.path, t.text, t.sha256, t.hidden.runs));
        }
    }
}

/// A regular file's bytes, at most `limit` of them: the size checked
/// before anything is held, and again as the bytes are read (a file may
/// grow). The one bounded read of a whole file for every surface: a
/// class's documents (`READING_LIMITS.file_bytes`), and the CLI's and
/// Python's libraries, templates, models, references and snapshots (issue
/// 51 item 3).
///
/// # Errors
/// [`io::ErrorKind::InvalidInput`] for anything but a regular file (a
/// FIFO, a device or a folder would block, never end or mean nothing),
/// [`io::ErrorKind::FileTooLarge`] over `limit` (the reason says which
/// limit, as [`super::over_limit`]), and the file's own I/O errors; the
/// message is without the file's name, which the caller adds.
pub fn read_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let over = |n: Option<u64>| {
        io::Error::new(
            io::ErrorKind::FileTooLarge,
            super::over_limit(n, limit).reason().to_string(),
        )
    };
    let meta = fs::metadata(path)?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    if meta.len() > limit {
        return Err(over(Some(meta.len())));
    }
    let mut out = Vec::with_capacity(meta.len() as usize);
    fs::File::open(path)?
        .take(limit + 1)
        .read_to_end(&mut out)?;
    if out.len() as u64 > limit {
        return Err(over(None));
    }
    Ok(out)
}

/// Every file under `dir` (hidden ones and symbolic links to folders left
/// out), at most [`MAX_DEPTH`] folders down.
fn files_under(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) -> io::Result<()> {
    let named =
        |e: io::Error| io::Error::new(e.kind(), format!("cannot read {}: {e}", dir.display()));
    for entry in fs::read_dir(dir).map_err(named)? {
        let path = entry.map_err(named)?.path();
        if path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        {
            continue;
        }
        let meta = fs::symlink_metadata(&path).map_err(named)?;
        if meta.is_dir() {
            if depth < MAX_DEPTH {
                files_under(&path, depth + 1, out)?;
            }
        } else {
            out.push(path);
        }
    }
    Ok(())
}
