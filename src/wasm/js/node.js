// Node entry: instantiates the module synchronously from the .wasm file,
// so `import { compare } from 'neardup'` is ready to use, and loads the
// package's dictionary and multireference reference from its own files when
// a configuration needs them.
import { readFileSync } from 'node:fs';
import { initSync } from './neardup.js';
import { useAssets } from './index.js';

initSync({ module: readFileSync(new URL('./neardup_bg.wasm', import.meta.url)) });
useAssets({
  dictionary: () => readFileSync(new URL('./dictionary-en.bin', import.meta.url)),
  reference: () => readFileSync(new URL('./multiref.json', import.meta.url), 'utf8'),
});
export * from './index.js';
export { default } from './index.js';
