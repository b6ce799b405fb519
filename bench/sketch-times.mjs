// Text → MinHash-128 at spec 2, one document at a time, in the npm
// package's WebAssembly: the one measurement that bench/wasm-native.mjs
// (Node) and bench/wasm-chromium.mjs (Chromium's main thread) both run, the
// WebAssembly side of benches/sketch_wasm_native.rs.
//
// `sketchTimes` is self-contained (no module-level names), so that
// Playwright can send its source to a page as it is.

/**
 * Times text → MinHash-128 (one-permutation, spec 2) over `sample`, for
 * word:5 and char:5, in two forms: one object cleared between documents
 * (`MinHash.clear()`, the native bench's one hasher) and a new `MinHash`
 * per document, freed after it.
 *
 * @param {object} args
 * @param {object} [args.nd] the package's module (Node); absent in a page,
 *   where `/pkg/neardup.js` is imported and `args.file` instantiated.
 * @param {string} [args.file] the module file under `/pkg/` (in a page).
 * @param {string[]} args.sample the documents, each a string.
 * @returns {Promise<Record<string, {cleared: number, fresh: number}>>}
 *   for `word:5` and `char:5`: the fastest of 15 passes over the sample,
 *   after one second of passes for the engine's optimising tier, in
 *   milliseconds of wall time (on a shared machine, the least disturbed).
 */
export async function sketchTimes({ nd, file, sample }) {
  if (!nd) {
    nd = await import(`/pkg/neardup.js?${file}`);
    nd.initSync({ module: await (await fetch(`/pkg/${file}`)).arrayBuffer() });
  }
  // Engines run a module first in a baseline compiler and tier hot
  // functions up in the background: the first second is not the steady state.
  const fastest = (f) => {
    const end = performance.now() + 1000;
    while (performance.now() < end) f();
    let best = Infinity;
    for (let pass = 0; pass < 15; pass++) {
      const t = performance.now();
      f();
      best = Math.min(best, performance.now() - t);
    }
    return best;
  };
  const out = {};
  for (const shingle of ['word:5', 'char:5']) {
    const options = { numPerm: 128, shingle, scheme: 'oph', spec: 2 };
    const m = new nd.MinHash(options);
    const cleared = fastest(() => {
      for (const d of sample) {
        m.clear();
        m.update(d);
      }
    });
    m.free();
    const fresh = fastest(() => {
      for (const d of sample) {
        const one = new nd.MinHash(options);
        one.update(d);
        one.free();
      }
    });
    out[shingle] = { cleared, fresh };
  }
  return out;
}

/** The lines scripts/bench-wasm.sh reads: `PREFIX word:5 cleared 3.210 ms`. */
export function printTimes(prefix, times) {
  for (const [shingle, t] of Object.entries(times)) {
    console.log(`${prefix} ${shingle} cleared ${t.cleared.toFixed(3)} ms`);
    console.log(`${prefix} ${shingle} new ${t.fresh.toFixed(3)} ms`);
  }
}
