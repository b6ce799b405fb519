// Text → MinHash-128 at spec 2 in the npm package (Node, the SIMD module
// where the runtime has SIMD), one document at a time over the documents of
// the 1 MiB sample, in wall time (Node's process CPU time counts its compiler
// and collector threads, which run beside the work): the WebAssembly side of
// benches/sketch_wasm_native.rs (scripts/bench-wasm.sh runs the two in turn).
// The measurement is bench/sketch-times.mjs's, which bench/wasm-chromium.mjs
// runs in Chromium.
//   npm run build && node bench/wasm-native.mjs
// Prints, for word:5 and char:5, one object cleared and a new object a
// document, the fastest of 15 passes (after a second of them to warm up),
// in milliseconds: on a shared machine the least disturbed pass.
import * as nd from '../pkg/node.js';
import { docsBenchSample } from '../tests/js/helpers.mjs';
import { printTimes, sketchTimes } from './sketch-times.mjs';

const { sample, bytes } = docsBenchSample();
console.log(`${sample.length} documents, ${bytes} bytes`);
printTimes('wasm', await sketchTimes({ nd, sample }));
