// Cloudflare Workers entry (the `workerd` export condition, which wrangler
// and esbuild's workerd builds use): the .wasm is imported as a compiled
// WebAssembly.Module, as workerd loads WebAssembly, and instantiated
// synchronously, so `import { compare } from 'neardup'` is ready to use.
// workerd (V8) always runs WebAssembly SIMD: the SIMD build is the one
// bundled, with no baseline beside it to double the Worker's size.
// The dictionary and the reference are not bundled into a Worker: give
// them (`loadDictionary(bytes)`, `loadReference(json)`) when needed.
import wasm from './neardup_simd_bg.wasm';
import { initSync } from './neardup.js';

initSync({ module: wasm });
export * from './index.js';
export { default } from './index.js';
