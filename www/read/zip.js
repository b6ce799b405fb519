// Zip archives streamed through fflate's inflater in small steps, counting
// the bytes each entry actually produces: a zip bomb (an entry that declares
// 4 KB and inflates to 1 GiB) is stopped at the limit, having produced at
// most one step's worth beyond it, and nothing is inflated that no one reads.
import { ReadError, mb } from './error.js';

/** Compressed bytes given to the inflater at a time (at most ~16 MiB out). */
const STEP = 16 << 10;

/**
 * Streams the entries of a zip archive in their order. `open(info)` is
 * called for each entry (`info.name`, `info.originalSize` as declared) and
 * returns a sink `{data(chunk), end(), fail?(error)}` to read it, or null to
 * skip it (a skipped entry is never inflated). An entry over `perEntry` is
 * given to its sink's `fail` (what it produces after is dropped, still
 * counted in `total`), or without one ends the stream with the error. `afterStep()` runs between steps, so
 * entries finished meanwhile can be handled asynchronously.
 * @param {string} name the archive's name, for messages
 * @param {Uint8Array} bytes
 * @param {{open: (info: {name: string}) => ({data: (chunk: Uint8Array) => void, end: () => void}|null),
 *          perEntry: number, total: number, afterStep?: () => Promise<void>}} how
 *   `perEntry`: most bytes one entry may produce; `total`: all entries.
 * @throws {ReadError} for a damaged archive, an entry over `perEntry`, or
 *   more than `total` in all; or what `open` or a sink throws.
 */
export async function streamEntries(name, bytes, { open, perEntry, total, afterStep = async () => {} }) {
  if (!hasDirectory(bytes)) throw new ReadError(name, 'a damaged zip archive (it is cut short: its directory is missing)');
  const { Unzip, UnzipInflate, UnzipPassThrough } = await import('../lib/zip.js');
  let produced = 0;
  const unzip = new Unzip((file) => {
    const sink = open(file);
    if (!sink) return;
    let mine = 0;
    let dead = false;
    file.ondata = (err, chunk, final) => {
      if (err instanceof ReadError) throw err;
      if (err) throw new ReadError(name, `a damaged zip archive (${file.name}: ${err.message ?? err})`);
      mine += chunk.length;
      produced += chunk.length;
      if (produced > total) throw new ReadError(name, `expands to more than ${mb(total)} in all, over the limit`);
      if (dead) return;
      if (mine > perEntry) {
        if (!sink.fail) throw new ReadError(name, `${file.name} expands to more than ${mb(perEntry)}, over the limit`);
        dead = true;
        sink.fail(new ReadError(file.name, `expands to more than ${mb(perEntry)}, over the limit`));
        return;
      }
      if (chunk.length) sink.data(chunk);
      if (final) sink.end();
    };
    file.start();
  });
  unzip.register(UnzipPassThrough);
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < bytes.length; at += STEP) {
      const end = Math.min(at + STEP, bytes.length);
      unzip.push(bytes.subarray(at, end), end === bytes.length);
      await afterStep();
    }
  } catch (err) {
    if (err instanceof ReadError) throw err;
    // fflate hands an error thrown by a sink back to it, wrapped.
    if (err?.cause instanceof ReadError) throw err.cause;
    throw new ReadError(name, `a damaged zip archive (${err?.message ?? err})`);
  }
}

/**
 * Whether the archive ends with its directory's end record ("PK\x05\x06",
 * within the last 22 + 65,535 bytes: the record and its comment), as a
 * whole archive does; a file cut short does not.
 */
function hasDirectory(bytes) {
  const from = Math.max(0, bytes.length - 22 - 0xffff);
  for (let i = bytes.length - 22; i >= from; i--) {
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 0x05 && bytes[i + 3] === 0x06) return true;
  }
  return false;
}
