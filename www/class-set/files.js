// Reading a class set's files: picked files, a folder (a sub-folder per
// student), or .zip archives, each file read by reader.js; a student's
// files joined into one text; every file's SHA-256 for the evidence pack.
// Files that cannot be read are listed with the reason; the rest goes on.
import { isArchive, readArchive, readBytes, readFile, ReadError } from '../reader.js';

/** The core's limit on one text, in bytes of UTF-8 (ClassSetConfig.maxBytes). */
export const MAX_TEXT_BYTES = 16 << 20;

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

// Reads Files (archives expanded) into [{path, read: () => Promise<text>}].
async function entriesOf(files) {
  const out = [];
  const failed = [];
  for (const file of files) {
    const path = file.webkitRelativePath || file.name;
    if (isArchive(file)) {
      try {
        const inner = stripCommonRoot(await readArchive(file));
        for (const e of inner) {
          out.push({ path: e.path, name: e.path.split('/').pop(), read: () => readBytes(e.path, e.bytes), bytes: async () => e.bytes });
        }
      } catch (err) {
        failed.push({ name: file.name, reason: err instanceof ReadError ? err.reason : String(err?.message ?? err) });
      }
    } else {
      out.push({ path, name: file.name, read: () => readFile(file), bytes: async () => new Uint8Array(await file.arrayBuffer()) });
    }
  }
  return { entries: stripCommonRoot(out), failed };
}

// Students: entries grouped by student, their texts joined.
export async function studentsOf(files, progress) {
  const { entries, failed } = await entriesOf(files);
  const byId = new Map();
  let done = 0;
  for (const e of entries) {
    try {
      const { text } = await e.read();
      // A UTF-16 unit is at most 3 bytes of UTF-8: encode only when it may be over.
      if (text.length > MAX_TEXT_BYTES / 3 && new TextEncoder().encode(text).length > MAX_TEXT_BYTES) {
        throw new ReadError(e.path, `its text is over the ${MAX_TEXT_BYTES >> 20} MiB limit of one text`);
      }
      const id = studentOf(e.path);
      const s = byId.get(id) ?? { id, parts: [], files: [] };
      s.parts.push(text);
      s.files.push({ path: e.path, sha256: await sha256(await e.bytes()) });
      byId.set(id, s);
    } catch (err) {
      failed.push({ name: e.path, reason: err instanceof ReadError ? err.reason : String(err?.message ?? err) });
    }
    progress(++done, entries.length);
  }
  const students = [...byId.values()]
    .map((s) => ({ id: s.id, text: s.parts.join('\n\n'), files: s.files }))
    .sort((x, y) => x.id.localeCompare(y.id));
  return { students, failed };
}

export async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

