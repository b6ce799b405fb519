// The page's one file reader, shared by the two-text view and the class-set
// mode: a File in, its text out, or a ReadError saying why not. The work —
// reading, unzipping, parsing, decoding, sizing — is done in the reader's
// Web Worker (read/worker.js) by the core's reader (the same as the CLI's
// and Python's), within the core's limits (readingLimits(): bytes actually
// produced), so no file can stall the page or exhaust its memory; here only
// Files go out and texts come back.
import { Engine, StallError } from './engine.js';
import { ReadError } from './read/error.js';

export { ReadError } from './read/error.js';

/** The reader's worker (one: files are read one at a time). */
const readers = new Engine(1, new URL('./read/worker.js', import.meta.url));

/**
 * How long one file may take to read, in ms (the limits of read/budget.js
 * bound the work; this bounds a reader that stops answering): two minutes.
 * A file of a class that takes longer is listed as not read, and the
 * reader is restarted for the next.
 */
const READ_STALL_MS = 120_000;

let limits = null;
/**
 * The core's reading limits (`readingLimits()`: `fileBytes`, `textBytes`,
 * `classTextBytes`, … in bytes), asked of the reader once.
 * @returns {Promise<import('../pkg/neardup.js').ReadingLimits>}
 */
export async function readingLimits() {
  // Kept once answered (a cancelled ask is asked again).
  limits ??= await readers.ask({ kind: 'limits' });
  return limits;
}

/**
 * Reads a file's text.
 * @param {File} file
 * @returns {Promise<{text: string, format: 'text'|'markdown'|'html'|'docx'|'odt'|'pdf', encoding?: string,
 *   hidden: {runs: number, bytes: number}, sha256: string}>}
 *   `encoding` for text files only; `hidden` the text left out as hidden
 *   from the eye; `sha256` of the file's bytes.
 * @throws {ReadError} when the file is too large, corrupt, encrypted, an
 *   unknown binary, or holds no text (e.g. a scanned PDF without a text layer).
 */
export async function readFile(file) {
  let out;
  try {
    out = await readers.ask({ kind: 'file', file }, { timeout: READ_STALL_MS });
  } catch (err) {
    if (err instanceof StallError) throw new ReadError(file.name || 'file', `its reading stopped: ${err.message}`);
    throw err;
  }
  if (out.failed !== undefined) throw new ReadError(file.name || 'file', out.failed);
  return out;
}

/**
 * Reads the files of a class set — picked files, a folder's, or .zip
 * archives of students' files (expanded entry by entry) — within
 * the core's classTextBytes of text in all. Files that cannot be read, or that
 * pass a limit, are listed with the reason; the rest is read, and grouped
 * into students by the core's rule (`classStudents`; with `eachFile`
 * every file a student of its own), with the core's note of files joined.
 * @param {File[]} files
 * @param {(done: number, total: number) => void} progress
 * @returns {Promise<{texts: Array<{path: string, text: string, format: string, sha256: string}>,
 *   students: Array<{id: string, text: string, files: number[]}>,
 *   failed: Array<{name: string, reason: string}>}>}
 */
export async function readClass(files, progress = () => {}, { eachFile = false } = {}) {
  const texts = [];
  const failed = [];
  let left = (await readingLimits()).classTextBytes;
  for (const [i, file] of files.entries()) {
    let out;
    try {
      out = await readers.ask({ kind: 'class', file, maxText: left }, { timeout: READ_STALL_MS });
    } catch (err) {
      if (!(err instanceof StallError)) throw err;
      failed.push({ name: file.webkitRelativePath || file.name, reason: `not read: ${err.message}` });
      progress(i + 1, files.length);
      continue;
    }
    texts.push(...out.texts);
    failed.push(...out.failed);
    left -= out.bytes;
    progress(i + 1, files.length);
  }
  // A task of its own for sending the texts (tens of MB for a large class):
  // not after the last file's answer in the same task.
  await new Promise((resolve) => setTimeout(resolve, 0));
  // Grouped into students by the core (classStudents): [{id, text, files, hash}].
  const { students, note } = texts.length
    ? await readers.ask({ kind: 'students', paths: texts.map((t) => t.path), texts: texts.map((t) => t.text), eachFile })
    : { students: [], note: undefined };
  // The reader held every text of the class (its WebAssembly memory only
  // grows, and the bytes it read wait for a collection): a fresh one takes
  // its place before the class is compared.
  readers.recycle(0);
  return { texts, students, failed, note };
}

/** Stops every read under way (Cancel); the next read starts afresh. */
export function cancelReads() {
  readers.cancel();
}
