// The reader's Web Worker (reader.js is its one client): every file the page
// is given is read, decoded, unzipped and sized here, never on the main
// thread, within the limits of budget.js — bytes actually produced, not
// declared. Requests in: {id, kind, …}; answers out: {id, result}.
//
//   students {paths, texts}  → [{id, text, files, hash}]: the core's
//                               classStudents, each text's hash added
//   file   {file, maxText?}  → {text, format, encoding?, sha256}, or {failed: reason}
//   class  {file, maxText}   → {texts: [{path, text, format, sha256}],
//                               failed: [{name, reason}], bytes}: a .zip of
//                               students' files expanded entry by entry, or
//                               one file; `bytes` the texts' UTF-8 bytes, at
//                               most `maxText` in all
import { MAX_ARCHIVE_BYTES, MAX_ARCHIVE_FILES, MAX_FILE_BYTES, MAX_TEXT_BYTES } from './budget.js';
import { mb, ReadError } from './error.js';
import { readBytes, utf8Length } from './formats.js';
import { streamEntries } from './zip.js';

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const reason = (err) => (err instanceof ReadError ? err.reason : String(err?.message ?? err));

async function bytesOf(file) {
  const name = file.name || 'file';
  if (file.size > MAX_FILE_BYTES) throw new ReadError(name, `${mb(file.size)} is over the ${mb(MAX_FILE_BYTES)} limit`);
  return new Uint8Array(await file.arrayBuffer());
}

/** Whether a file is a .zip of students' files (a .docx or .odt is one too). */
const isArchive = (name) => /\.zip$/i.test(name);

async function readOne(file, maxText = MAX_TEXT_BYTES) {
  const bytes = await bytesOf(file);
  // Hashed first: reading a PDF hands its bytes to pdf.js's worker.
  const hash = await sha256(bytes);
  const out = await readBytes(file.name || 'file', bytes, maxText);
  return { ...out, sha256: hash };
}

// A .zip of students' files: every regular file but hidden ones, read one
// at a time as it inflates; the archive's entries count against
// MAX_ARCHIVE_BYTES as they are produced. An entry's path is the
// archive's folder (in a picked folder) and its path inside: the archive
// stands for the files it holds, where it lies.
async function readArchive(file, maxText) {
  const name = file.name || 'archive.zip';
  const at = file.webkitRelativePath ?? '';
  const folder = at.includes('/') ? at.slice(0, at.lastIndexOf('/') + 1) : '';
  const bytes = await bytesOf(file);
  const texts = [];
  const failed = [];
  const done = [];
  let count = 0;
  let left = maxText;
  const handle = async ({ path, data }) => {
    try {
      const hash = await sha256(data);
      const out = await readBytes(path, data, left);
      left -= utf8Length(out.text);
      texts.push({ path, text: out.text, format: out.format, sha256: hash });
    } catch (err) {
      failed.push({ name: path, reason: reason(err) });
    }
  };
  const streamed = streamEntries(name, bytes, {
    perEntry: MAX_FILE_BYTES,
    total: MAX_ARCHIVE_BYTES,
    open(info) {
      const base = info.name.split('/').pop();
      if (!base || base.startsWith('.') || info.name.startsWith('__MACOSX/')) return null;
      count += 1;
      if (count > MAX_ARCHIVE_FILES) throw new ReadError(name, `more than ${MAX_ARCHIVE_FILES} files`);
      const parts = [];
      return {
        data: (c) => parts.push(c),
        end: () => {
          const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
          let at = 0;
          for (const p of parts) {
            data.set(p, at);
            at += p.length;
          }
          done.push({ path: folder + info.name, data });
        },
        fail: (err) => failed.push({ name: info.name, reason: reason(err) }),
      };
    },
    // Entries finished in a step are read before the next step inflates.
    async afterStep() {
      while (done.length) await handle(done.shift());
    },
  });
  try {
    await streamed;
  } catch (err) {
    // What was read before stays read.
    failed.push({ name, reason: `${reason(err)}; the files before it were read` });
  }
  return { texts, failed, bytes: maxText - left };
}

const kinds = {
  // The texts read, grouped into students by the core's rule; each
  // student's text with its hash (the first 32 hex digits of the SHA-256 of
  // its UTF-8: the key of review marks and kept comparisons), computed here
  // rather than on the page's thread.
  async students({ paths, texts }) {
    const pkg = await import('../../pkg/index.js');
    await pkg.default();
    const students = pkg.classStudents(paths, texts);
    const encoder = new TextEncoder();
    for (const s of students) s.hash = (await sha256(encoder.encode(s.text))).slice(0, 32);
    return students;
  },
  async file({ file, maxText }) {
    try {
      return await readOne(file, maxText);
    } catch (err) {
      return { failed: reason(err) };
    }
  },
  async class({ file, maxText }) {
    const name = file.webkitRelativePath || file.name || 'file';
    try {
      if (isArchive(file.name ?? '')) return await readArchive(file, maxText);
      const out = await readOne(file, maxText);
      return { texts: [{ path: name, text: out.text, format: out.format, sha256: out.sha256 }], failed: [], bytes: utf8Length(out.text) };
    } catch (err) {
      return { texts: [], failed: [{ name, reason: reason(err) }], bytes: 0 };
    }
  },
};

self.onmessage = async (event) => {
  const { id, kind } = event.data;
  try {
    if (!Object.hasOwn(kinds, kind)) throw new Error(`unknown request ${JSON.stringify(kind)}`);
    self.postMessage({ id, result: await kinds[kind](event.data) });
  } catch (err) {
    self.postMessage({ id, error: err && err.message ? err.message : String(err) });
  }
};
