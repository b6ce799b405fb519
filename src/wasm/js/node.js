// Node entry: instantiates the module synchronously from the .wasm file
// (the SIMD build where Node runs WebAssembly SIMD, as every supported Node
// does; the baseline build otherwise), so `import { compare } from
// 'neardup'` is ready to use, and loads the
// package's dictionary and multireference reference from its own files when
// a configuration needs them.
import { readFileSync } from 'node:fs';
import { initSync } from './neardup.js';
import { useAssets } from './index.js';
import { simd } from './simd.js';

initSync({ module: readFileSync(new URL(simd ? './neardup_simd_bg.wasm' : './neardup_bg.wasm', import.meta.url)) });
useAssets({
  dictionary: () => readFileSync(new URL('./dictionary-en.bin', import.meta.url)),
  reference: () => readFileSync(new URL('./multiref.json', import.meta.url), 'utf8'),
});
export * from './index.js';
export { default } from './index.js';
