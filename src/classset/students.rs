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
    let root = common_root(entries);
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by(|&x, &y| entries[x].0.cmp(entries[y].0));
    let mut out: BTreeMap<String, Student> = BTreeMap::new();
    for i in order {
        let (path, text) = entries[i];
        let id = student_of(&path[root..]);
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
        assert_eq!(student_of("deep/x/y/z.txt"), "y");
        assert!(students(&[]).is_empty());
    }
}
