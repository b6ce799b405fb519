// The reader's Web Worker (reader.js is its one client): every file the page
// is given is read here, never on the main thread, by the core's reader in
// its own WebAssembly module (pkg/neardup_read.js, `neardup/read`:
// readFile / readFiles, the same reader as `neardup class`, its formats
// decided by the bytes, hidden text left out, every limit the core's
// readingLimits()). Only PDFs, which the core hands back, are read here,
// by pdf.js (read/pdf.js). Requests in: {id, kind, …};
// answers out: {id, result}.
//
//   limits                   → the core's readingLimits()
//   students {paths, texts, eachFile}
//                            → {students: [{id, text, files, hash}], note?}:
//                               the core's classStudents, each text's hash
//                               added, and its groupingNote
//   file   {file}            → {text, format, encoding?, hidden, sha256},
//                               or {failed: reason}
//   class  {file, maxText}   → {texts: [{path, text, format, hidden, sha256}],
//                               failed: [{name, reason}], bytes}: one of a
//                               class's files (a .zip of students' files
//                               expanded entry by entry); `bytes` the
//                               texts' UTF-8 bytes, at most `maxText`
import { ReadError } from './error.js';
import { newResources } from '../resources.js';
import { pdfText } from './pdf.js';

let loaded = null;
let attempts = 0;
/**
 * The reader's WebAssembly module (`neardup/read`), loaded once. A load that
 * failed (the server away) is tried again by the next file, under another
 * URL: a module that failed to load is remembered as failed by its URL
 * (issue 49).
 */
function core() {
  loaded ??= (async () => {
    const url = attempts++ ? `../../pkg/neardup_read.js?attempt=${attempts}` : '../../pkg/neardup_read.js';
    const pkg = await import(url);
    await pkg.default();
    return pkg;
  })().catch((err) => {
    loaded = null;
    throw err;
  });
  return loaded;
}

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const reason = (err) => (err instanceof ReadError ? err.reason : String(err?.message ?? err));
const utf8Length = (s) => new TextEncoder().encode(s).length;

async function bytesOf(file, limits) {
  const name = file.name || 'file';
  if (file.size > limits.fileBytes) {
    // Checked before the bytes are held, said in the core's words.
    throw new ReadError(name, (await core()).tooLargeReason(file.size));
  }
  return new Uint8Array(await file.arrayBuffer());
}

// A PDF's text, by pdf.js, with the SHA-256 of its bytes.
async function readPdf(name, bytes, maxText, limits) {
  // Hashed first: reading a PDF hands its bytes to pdf.js's worker.
  const hash = await sha256(bytes);
  const { tooMuchTextReason } = await core();
  const text = await pdfText(name, bytes, Math.min(maxText, limits.textBytes), limits, tooMuchTextReason);
  return { text, format: 'pdf', hidden: { runs: 0, bytes: 0 }, sha256: hash };
}

const kinds = {
  async limits() {
    return (await core()).readingLimits();
  },
  // The texts read, grouped into students by the core's rule; each
  // student's text with its hash (the first 32 hex digits of the SHA-256 of
  // its UTF-8: the key of review marks and kept comparisons), computed here
  // rather than on the page's thread.
  async students({ paths, texts, eachFile }) {
    const pkg = await core();
    const students = pkg.classStudents(paths, texts, eachFile);
    const encoder = new TextEncoder();
    for (const s of students) s.hash = (await sha256(encoder.encode(s.text))).slice(0, 32);
    return { students, note: pkg.groupingNote(students.map((s) => s.files.length)) };
  },
  async file({ file }) {
    const pkg = await core();
    const limits = pkg.readingLimits();
    const name = file.name || 'file';
    try {
      const bytes = await bytesOf(file, limits);
      try {
        return pkg.readFile(name, bytes);
      } catch (err) {
        if (err?.kind !== 'pdf') throw new ReadError(name, reason(err));
        return await readPdf(name, bytes, limits.textBytes, limits);
      }
    } catch (err) {
      return { failed: reason(err) };
    }
  },
  async class({ file, maxText }) {
    const pkg = await core();
    const limits = pkg.readingLimits();
    const name = file.webkitRelativePath || file.name || 'file';
    let bytes;
    try {
      bytes = await bytesOf(file, limits);
    } catch (err) {
      return { texts: [], failed: [{ name, reason: reason(err) }], bytes: 0 };
    }
    const out = pkg.readFiles(name, bytes, maxText);
    bytes = null;
    const failed = out.failed.map((f) => ({ name: f.path, reason: f.reason }));
    let used = out.textBytes;
    const texts = out.texts;
    for (const pdf of out.pdfs) {
      try {
        const read = await readPdf(pdf.path, pdf.bytes, maxText - used, limits);
        used += utf8Length(read.text);
        texts.push({ path: pdf.path, ...read });
      } catch (err) {
        failed.push({ name: pdf.path, reason: reason(err) });
      }
    }
    return { texts, failed, bytes: used };
  },
};

self.onmessage = async (event) => {
  const { id, kind } = event.data;
  try {
    if (!Object.hasOwn(kinds, kind)) throw new Error(`unknown request ${JSON.stringify(kind)}`);
    const result = await kinds[kind](event.data);
    self.postMessage({ id, result, resources: newResources() });
  } catch (err) {
    self.postMessage({ id, error: err && err.message ? err.message : String(err), resources: newResources() });
  }
};
