// The last class's result, kept on this device (issue 49 item 4: nothing
// lost on reload): once a class's pairs are all compared, its texts, the
// core's result, the full comparisons and the library's matches are kept
// in IndexedDB (store.js, listed under "Kept on this device" with a Forget
// button); at the next visit the class view shows it again as it was, no
// file read and nothing computed again. A class over MAX_KEPT_BYTES is not
// kept (said in the status). Nothing here computes or draws.
import { keep, recall } from '../store.js';

/** The largest class kept, in bytes of its texts and figures (about 64 MB). */
export const MAX_KEPT_BYTES = 64 * 2 ** 20;

/** A rough count of `value`'s bytes: strings as UTF-16, typed arrays as they are. */
function bytesOf(value) {
  if (typeof value === 'string') return value.length * 2;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (value === null || typeof value !== 'object') return 8;
  let n = 0;
  for (const v of value instanceof Map ? value.entries() : Object.values(value)) n += bytesOf(v);
  return n;
}

/**
 * Keeps class `cur` (the view's state.current) as the last class; returns
 * false, keeping nothing, when it is over MAX_KEPT_BYTES.
 */
export async function keepClass(cur) {
  const lib = cur.library;
  const value = {
    savedAt: new Date().toISOString(),
    students: cur.students,
    sources: cur.sources,
    template: cur.template,
    options: cur.options,
    counted: cur.counted,
    result: cur.result,
    compared: [...cur.compared],
    // The library's matches as found, and its bytes (to save the class added to it).
    library: lib && !lib.error ? { file: lib.file, bytes: lib.bytes, names: lib.names, matches: lib.matches, texts: lib.texts, compared: lib.compared } : null,
  };
  const bytes = bytesOf(value);
  if (bytes > MAX_KEPT_BYTES) return false;
  await keep('class', { ...value, bytes });
  return true;
}

/** The last class kept, as the view's state.current needs it (without its review marks), or null. */
export async function keptClass() {
  const k = await recall('class');
  if (!k?.result) return null;
  return {
    students: k.students,
    sources: k.sources,
    texts: [...k.students, ...k.sources],
    template: k.template,
    result: k.result,
    options: k.options,
    counted: k.counted,
    compared: new Map(k.compared),
    library: k.library,
    savedAt: k.savedAt,
  };
}
