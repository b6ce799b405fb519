// A class set's students from the files given: picked files, a folder (a
// sub-folder per student), or .zip archives, read by reader.js (in its
// worker, within the class set's limits); a student's files joined into one
// text, with every file's SHA-256 for the evidence pack. Files that cannot
// be read are listed with the reason; the rest goes on.
import { shownName } from '../names.js';
import { readClass } from '../reader.js';

// A student's id: the file name without its extension, or, for files in
// sub-folders (of a picked folder or an archive), the sub-folder's name.
export function studentOf(path) {
  const parts = path.split('/').filter(Boolean);
  if (parts.length >= 2) return parts[parts.length - 2];
  return parts[0].replace(/\.[^.]+$/, '');
}

// Drops the folder every path shares (a picked folder's own name, an
// archive's top folder), so that what is left starts at the students.
function stripCommonRoot(entries) {
  const first = entries[0]?.path.split('/') ?? [];
  if (first.length < 2) return entries;
  const root = first[0] + '/';
  if (!entries.every((e) => e.path.startsWith(root) && e.path.split('/').length >= 2)) return entries;
  return entries.map((e) => ({ ...e, path: e.path.slice(root.length) }));
}

// Students: texts grouped by student, joined.
export async function studentsOf(files, progress) {
  const { texts, failed } = await readClass(files, progress);
  const byId = new Map();
  for (const e of stripCommonRoot(texts)) {
    const id = shownName(studentOf(e.path));
    const s = byId.get(id) ?? { id, parts: [], files: [] };
    s.parts.push(e.text);
    s.files.push({ path: shownName(e.path), sha256: e.sha256 });
    byId.set(id, s);
  }
  const students = [...byId.values()]
    .map((s) => ({ id: s.id, text: s.parts.join('\n\n'), files: s.files }))
    .sort((x, y) => x.id.localeCompare(y.id));
  return { students, failed: failed.map((f) => ({ ...f, name: shownName(f.name) })) };
}

export async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}
