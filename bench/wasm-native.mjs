// Text → MinHash-128 at spec 2 in the npm package (Node, the SIMD module
// where the runtime has SIMD), one document at a time over the documents of
// the 1 MiB sample, in wall time (Node's process CPU time counts its compiler
// and collector threads, which run beside the work): the WebAssembly side of
// benches/sketch_wasm_native.rs (scripts/bench-wasm.sh runs the two in turn).
// Two forms: one object cleared between documents (the native bench's one
// hasher), and a new MinHash per document, freed after it.
//   npm run build && node bench/wasm-native.mjs
// Prints, for word:5 and char:5, the fastest of 15 passes (after a second
// of them to warm up), in milliseconds: on a shared machine the least disturbed pass.
import * as nd from '../pkg/node.js';
import { docsBenchSample } from '../tests/js/helpers.mjs';

const { sample, bytes } = docsBenchSample();
const cpu = () => performance.now();
// V8 runs a module first in its baseline compiler and tiers hot functions up
// in the background: the first second or so is not the steady state.
const warm = (f) => {
  const end = performance.now() + 1000;
  while (performance.now() < end) f();
};
const fastest = (f) => {
  warm(f);
  const ms = [];
  for (let pass = 0; pass < 15; pass++) {
    const t = cpu();
    f();
    ms.push(cpu() - t);
  }
  ms.sort((a, b) => a - b);
  return ms[0];
};
console.log(`${sample.length} documents, ${bytes} bytes`);
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
  console.log(`wasm ${shingle} cleared ${cleared.toFixed(3)} ms`);
  console.log(`wasm ${shingle} new ${fresh.toFixed(3)} ms`);
}
