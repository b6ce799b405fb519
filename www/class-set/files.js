// A class set's students from the files given: picked files, a folder (a
// sub-folder per student), or .zip archives, read by reader.js (in its
// worker, within the class set's limits); a student's files joined into one
// text, with every file's SHA-256 for the evidence pack. Files that cannot
// be read are listed with the reason; the rest goes on.
import { shownName } from '../names.js';
import { readClass } from '../reader.js';

// Students: the texts read, grouped by the core's rule (classStudents: a
// sub-folder per student, the folder all paths share dropped, a student's
// files joined), with every file's path and SHA-256.
export async function studentsOf(files, progress, eachFile = false) {
  const { texts, students, failed, note } = await readClass(files, progress, { eachFile });
  return {
    students: students.map((s) => ({
      id: shownName(s.id),
      text: s.text,
      hash: s.hash, // SHA-256 of the text, 32 hex digits (review marks)
      // Runs of hidden text the reader left out of the student's files.
      hidden: s.files.reduce((n, i) => n + (texts[i].hidden?.runs ?? 0), 0),
      files: s.files.map((i) => ({ path: shownName(texts[i].path), sha256: texts[i].sha256 })),
    })),
    failed: failed.map((f) => ({ ...f, name: shownName(f.name) })),
    note, // the core's note when files were joined into students
  };
}

export async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}
