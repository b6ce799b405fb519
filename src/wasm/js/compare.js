// The package's `neardup/compare` entry: the two-text comparison alone —
// `compare` (with `{ model }` for the learned verdict), `SvmModel`,
// `textOfBytes`, `withHiddenText`, `defaultOptions`, `specVersion` (the
// dictionary's `Speller`, `normalize`, the shingle and phonetic-code
// functions are the whole package's, `neardup`) — from the comparison's own WebAssembly module
// (neardup_compare_bg.wasm, neardup_compare_simd_bg.wasm), built from the
// same core without the class set, dedup, library and multireference code:
// about 40 % of the whole package's module to download (issue 49;
// BENCHMARKS.md "Modules by use"). In a browser or a Worker, `await init()`
// once first; the Node entry (compare-node.js) instantiates it on import.
import initBinding, { compare as compareTexts, SvmModel } from './neardup_compare.js';
import { initModule, routedCompare } from './shared.js';
import { simd } from './simd.js';

export * from './neardup_compare.js';

/** Whether this runtime runs WebAssembly SIMD: `init()` then loads `neardup_compare_simd_bg.wasm`, else `neardup_compare_bg.wasm` (the same results, bit for bit). */
export const wasmSimd = simd;

/**
 * Loads and instantiates the comparison's module: with no argument the one
 * this runtime runs best, fetched from beside this file; any argument is
 * passed to wasm-bindgen's initialiser as given
 * (`{ module_or_path: URL | Response | bytes | WebAssembly.Module }`).
 * @param {{ module_or_path: any } | any} [input]
 * @returns {Promise<import('./neardup_compare.js').InitOutput>}
 */
export default function init(input) {
  return initModule(initBinding, input, (withSimd) => (withSimd ? new URL('./neardup_compare_simd_bg.wasm', import.meta.url) : new URL('./neardup_compare_bg.wasm', import.meta.url)));
}

/** compare(a, b, options); with options.model (an SvmModel) the report has a verdict. */
export const compare = routedCompare(compareTexts, SvmModel);
