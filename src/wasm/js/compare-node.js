// `neardup/compare` in Node: the comparison's module instantiated
// synchronously from its file on import (the SIMD build where Node runs
// WebAssembly SIMD), so that `import { compare } from 'neardup/compare'`
// is ready to use.
import { readFileSync } from 'node:fs';
import { initSync } from './neardup_compare.js';
import { simd } from './simd.js';

initSync({ module: readFileSync(new URL(simd ? './neardup_compare_simd_bg.wasm' : './neardup_compare_bg.wasm', import.meta.url)) });
export * from './compare.js';
export { default } from './compare.js';
