// Writes pkg/package.json, the entry (pkg/index.js: the wasm-bindgen module
// plus the routing of compare(a, b, { model })), the Node entry
// (pkg/node.js) and pkg/README.md (from scripts/package-readme.md) after wasm-bindgen. Called by
// scripts/build-pkg.sh.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';

const cargo = readFileSync('Cargo.toml', 'utf8');
const field = (name) => cargo.match(new RegExp(`^${name} = "(.*)"$`, 'm'))[1];

const pkg = {
  name: 'neardup',
  version: field('version'),
  description: field('description'),
  license: field('license'),
  type: 'module',
  main: './index.js',
  types: './index.d.ts',
  exports: {
    '.': {
      workerd: { types: './workerd.d.ts', default: './workerd.js' },
      node: { types: './node.d.ts', default: './node.js' },
      default: { types: './index.d.ts', default: './index.js' },
    },
    './web': { types: './index.d.ts', default: './index.js' },
    './neardup_bg.wasm': './neardup_bg.wasm',
    './model.json': './model.json',
    './multiref.json': './multiref.json',
    './dictionary-en.bin': './dictionary-en.bin',
  },
  files: ['neardup_bg.wasm', 'neardup_bg.wasm.d.ts', 'neardup.js', 'neardup.d.ts', 'index.js', 'index.d.ts', 'node.js', 'node.d.ts', 'workerd.js', 'workerd.d.ts', 'model.json', 'multiref.json', 'dictionary-en.bin', 'dictionary-en.LICENSE', 'LICENSE-MIT', 'LICENSE-APACHE', 'README.md'],
  sideEffects: ['./node.js', './workerd.js'],
  engines: { node: '>=20.19' },
  keywords: ['plagiarism', 'near-duplicate', 'shingling', 'jaccard', 'containment', 'wasm'],
};
writeFileSync('pkg/package.json', JSON.stringify(pkg, null, 2) + '\n');
// The default multireference reference (trained on docs-bench; see EVALUATION.md).
copyFileSync('www/multiref.json', 'pkg/multiref.json');
// The default verdict model (trained on the Clough–Stevenson corpus; EVALUATION.md).
copyFileSync('www/model.json', 'pkg/model.json');
copyFileSync('www/dictionary-en.bin', 'pkg/dictionary-en.bin');
copyFileSync('www/dictionary-en.LICENSE', 'pkg/dictionary-en.LICENSE');
// The package's own licence (MIT OR Apache-2.0): both texts.
copyFileSync('LICENSE-MIT', 'pkg/LICENSE-MIT');
copyFileSync('LICENSE-APACHE', 'pkg/LICENSE-APACHE');

// The entry: everything wasm-bindgen exports, with compare(a, b, { model })
// handed to model.compare(a, b, rest) (the one thing the Rust binding cannot
// do without keeping a registry of live models).
writeFileSync(
  'pkg/index.js',
  `import { compare as compareTexts, dedupDocuments, dedupWithReference, MultiRef, SvmModel } from './neardup.js';
export * from './neardup.js';
export { default } from './neardup.js';

/** dedup(documents, options); with options.reference (a MultiRef) the multiref method has its reference. */
export function dedup(documents, options) {
  if (options !== null && typeof options === 'object' && options.reference != null) {
    const { reference, ...rest } = options;
    if (!(reference instanceof MultiRef)) {
      throw new TypeError('invalid option reference: must be a MultiRef (from MultiRef.fromJson)');
    }
    if (reference.__wbg_ptr === 0) throw new Error('invalid option reference: the reference has been freed');
    return dedupWithReference(documents, reference, rest);
  }
  return dedupDocuments(documents, options);
}

/** compare(a, b, options); with options.model (an SvmModel) the report has a verdict. */
export function compare(a, b, options) {
  if (options !== null && typeof options === 'object' && options.model != null) {
    const { model, ...rest } = options;
    if (!(model instanceof SvmModel)) {
      throw new TypeError('invalid option model: must be an SvmModel (from SvmModel.fromJson)');
    }
    if (model.__wbg_ptr === 0) throw new Error('invalid option model: the model has been freed');
    return model.compare(a, b, rest);
  }
  return compareTexts(a, b, options);
}
`,
);
// The generated classes implement \`[Symbol.dispose]\`, whose type is in
// TypeScript's \`esnext.disposable\` library: reference it, so that the types
// check under \`tsc --strict\` with a project's default libraries and no
// \`skipLibCheck\` (tests/js/typescript.test.mjs).
{
  const dts = readFileSync('pkg/neardup.d.ts', 'utf8');
  const reference = '/// <reference lib="esnext.disposable" />\n';
  if (!dts.startsWith(reference)) writeFileSync('pkg/neardup.d.ts', reference + dts);
}
writeFileSync(
  'pkg/index.d.ts',
  `import type { CompareConfig, DedupDocument, DedupOptions, DedupResult, MultiRef, Report, SvmModel, Verdict } from './neardup.js';
export * from './neardup.js';
export { default } from './neardup.js';
/**
 * Finds the near-duplicates of a collection with the core's dedup pipeline
 * (the defaults of \`neardup dedup\`: MinHash LSH over character 5-grams,
 * estimated Jaccard ≥ 0.5). \`documents\`: an array or iterable of
 * \`{id, text}\`, or of strings (ids are then their indexes). Returns
 * \`{pairs: [{a, b, similarity}], clusters, keep, summary}\`; \`a\` precedes
 * \`b\` in input order, each cluster's first member is the one kept. Throws a
 * TypeError naming the document's position for a bad document, an Error for
 * a duplicate id or a bad option. \`reference\` (a MultiRef) is needed by
 * \`method: "multiref"\`.
 */
export function dedup(documents: Iterable<DedupDocument>, options?: DedupOptions & { reference?: MultiRef }): DedupResult;
/** Options of \`compare\`: every field optional; \`model\` adds the learned verdict. */
export type CompareOptions = Partial<CompareConfig> & { model?: SvmModel };
/**
 * Compares suspicious text \`a\` with source text \`b\`: every measure, the
 * shared passages (UTF-16 offsets) and, with \`options.model\`, the verdict.
 * Throws an Error for an empty text, a text over maxBytes or a bad option.
 */
export function compare(a: string, b: string, options: CompareOptions & { model: SvmModel }): Report & { verdict: Verdict };
export function compare(a: string, b: string, options?: CompareOptions): Report & { verdict?: Verdict };
`,
);

writeFileSync(
  'pkg/node.js',
  `// Node entry: instantiates the module synchronously from the .wasm file,
// so \`import { compare } from 'neardup'\` is ready to use.
import { readFileSync } from 'node:fs';
import { initSync } from './neardup.js';
initSync({ module: readFileSync(new URL('./neardup_bg.wasm', import.meta.url)) });
export * from './index.js';
export { default } from './index.js';
`,
);
writeFileSync('pkg/node.d.ts', `export * from './index.js';\nexport { default } from './index.js';\n`);
writeFileSync(
  'pkg/workerd.js',
  `// Cloudflare Workers entry (the \`workerd\` export condition, which wrangler
// and esbuild's workerd builds use): the .wasm is imported as a compiled
// WebAssembly.Module, as workerd loads WebAssembly, and instantiated
// synchronously, so \`import { compare } from 'neardup'\` is ready to use.
import wasm from './neardup_bg.wasm';
import { initSync } from './neardup.js';
initSync({ module: wasm });
export * from './index.js';
export { default } from './index.js';
`,
);
writeFileSync('pkg/workerd.d.ts', `export * from './index.js';\nexport { default } from './index.js';\n`);

// The README for npm users: scripts/package-readme.md, whose `js` examples
// tests/js/readme.test.mjs runs against the packed package.
copyFileSync('scripts/package-readme.md', 'pkg/README.md');
