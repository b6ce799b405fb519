//! Who handed in what: a class set's files grouped into students, the rule
//! every surface shares (the page's picked files, folders and archives,
//! `neardup class`'s files and folders). Paths use `/`; the folder all
//! paths share (a picked folder's own name, an archive's top folder) is
//! dropped; a file in a sub-folder belongs to the student named by that
//! sub-folder (the folder just above the file), any other file is a
//! student of its own, named by its file name without the extension. A
//! student's files are joined, in byte order of their paths, by a blank
//! line; the students come in byte order of their names.

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// One student: a name and a text (its files joined).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct Student {
    /// The student's name: the sub-folder's, or the file's without its
    /// extension.
    pub id: String,
    /// The texts of the student's files joined by `"\n\n"`.
    pub text: String,
    /// The files', by their position in the entries given, in order.
    pub files: Vec<u32>,
}

/// The student a path belongs to (the path already without the shared
/// folder): its folder's name, or its file name without the extension.
pub fn student_of(path: &str) -> String {
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    match parts.len() {
        0 => String::new(),
        1 => {
            let name = parts[0];
            match name.rfind('.') {
                Some(dot) if dot > 0 => name[..dot].to_string(),
                _ => name.to_string(),
            }
        }
        n => parts[n - 2].to_string(),
    }
}

/// Groups `(path, text)` entries into students (module docs). A student's
/// files are taken in byte order of their paths (then as given), whatever
/// order they arrive in (a browser lists a folder's files in an order of
/// its own).
pub fn students(entries: &[(&str, &str)]) -> Vec<Student> {
    group(entries, student_of)
}

/// Groups entries by the student `key` names for each path (without the
/// shared folder), a student's files in byte order of their paths.
fn group(entries: &[(&str, &str)], key: impl Fn(&str) -> String) -> Vec<Student> {
    let root = common_root(entries);
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by(|&x, &y| entries[x].0.cmp(entries[y].0));
    let mut out: BTreeMap<String, Student> = BTreeMap::new();
    for i in order {
        let (path, text) = entries[i];
        let id = key(&path[root..]);
        match out.get_mut(&id) {
            Some(s) => {
                s.text.push_str("\n\n");
                s.text.push_str(text);
                s.files.push(i as u32);
            }
            None => {
                out.insert(
                    id.clone(),
                    Student {
                        id,
                        text: text.to_string(),
                        files: alloc::vec![i as u32],
                    },
                );
            }
        }
    }
    out.into_values().collect()
}

/// Every file a student of its own (`neardup class --each-file`, the page's
/// "Each file a student"): named by its path without the shared folder and
/// without the extension (`period1/anna`), so that two files of one name in
/// two folders stay two students; in byte order of their names. Files of
/// one name and folder but for the extension (`anna.txt`, `anna.md`) are
/// one student's, joined as [`students`] joins them.
pub fn each_file(entries: &[(&str, &str)]) -> Vec<Student> {
    group(entries, |path| {
        let inside = path.trim_start_matches('/');
        match inside.rfind('.') {
            Some(dot) if dot > inside.rfind('/').map_or(0, |s| s + 1) => inside[..dot].to_string(),
            _ => inside.to_string(),
        }
    })
}

/// What the grouping did, from each student's count of files, when it
/// joined files: `"5 files were read as 2 students (2 of them from more
/// than one file: …)"`; `None` when every student has one file. Each surface adds how to make every file a
/// student (`--each-file`, the page's switch).
pub fn grouping_note(files_per_student: &[usize]) -> Option<String> {
    let files: usize = files_per_student.iter().sum();
    let joined = files_per_student.iter().filter(|&&n| n > 1).count();
    if joined == 0 {
        return None;
    }
    let plural = |n: usize, one: &str, many: &str| match n {
        1 => alloc::format!("1 {one}"),
        n => alloc::format!("{n} {many}"),
    };
    Some(alloc::format!(
        "{} were read as {} ({} of them from more than one file: the files of one folder are one student's)",
        plural(files, "file", "files"),
        plural(files_per_student.len(), "student", "students"),
        joined
    ))
}

/// Bytes to drop from every path: `"root/"` when every path has at least
/// two parts and the same first one, else 0.
fn common_root(entries: &[(&str, &str)]) -> usize {
    let first = match entries.first() {
        Some((p, _)) => p.trim_start_matches('/'),
        None => return 0,
    };
    let root = match first.find('/') {
        Some(at) => &first[..=at],
        None => return 0,
    };
    let all = entries.iter().all(|(p, _)| {
        let p = p.trim_start_matches('/');
        p.starts_with(root) && p[root.len()..].split('/').any(|x| !x.is_empty())
    });
    match all {
        // Leading slashes are dropped with the root.
        true => entries[0].0.len() - first.len() + root.len(),
        false => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_and_subfolders_become_students() {
        let got = students(&[
            ("class/bob/part2.txt", "B2"),
            ("class/alice.txt", "A"),
            ("class/bob/part1.txt", "B1"),
            ("class/carol.essay.md", "C"),
        ]);
        let view: Vec<(&str, &str, &[u32])> = got
            .iter()
            .map(|s| (s.id.as_str(), s.text.as_str(), s.files.as_slice()))
            .collect();
        assert_eq!(
            view,
            [
                ("alice", "A", &[1][..]),
                ("bob", "B1\n\nB2", &[2, 0][..]),
                ("carol.essay", "C", &[3][..])
            ]
        );
        // Picked files (no folder): each its own student.
        let got = students(&[("b.txt", "x"), ("a.txt", "y")]);
        assert_eq!(
            got.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        // No shared folder: the first folder is a student's.
        let got = students(&[("alice/1.txt", "x"), ("bob/1.txt", "y"), ("carol.txt", "z")]);
        assert_eq!(
            got.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
            ["alice", "bob", "carol"]
        );
        assert_eq!(student_of(".hidden"), ".hidden");
        // Sections: two folders of files are two students, said so; each
        // file its own student keeps names apart by folder.
        let sections = [
            ("class/period1/anna.txt", "a"),
            ("class/period1/ben.txt", "b"),
            ("class/period1/cy.docx", "c"),
            ("class/period2/anna.txt", "d"),
            ("class/period2/dee.txt", "e"),
        ];
        let got = students(&sections);
        assert_eq!(got.len(), 2);
        assert_eq!(
            grouping_note(&got.iter().map(|s| s.files.len()).collect::<Vec<_>>()).as_deref(),
            Some("5 files were read as 2 students (2 of them from more than one file: the files of one folder are one student's)")
        );
        let each = each_file(&sections);
        assert_eq!(
            each.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
            [
                "period1/anna",
                "period1/ben",
                "period1/cy",
                "period2/anna",
                "period2/dee"
            ]
        );
        assert_eq!(grouping_note(&[1, 1, 1, 1, 1]), None);
        // One file of a name with a dot in its folder keeps the folder.
        assert_eq!(
            each_file(&[("x.y/essay", "t"), ("b.txt", "u")])[1].id,
            "x.y/essay"
        );
        assert_eq!(student_of("deep/x/y/z.txt"), "y");
        assert!(students(&[]).is_empty());
    }
}
