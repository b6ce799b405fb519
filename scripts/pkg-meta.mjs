// Writes pkg/package.json, copies the entries (src/wasm/js/: index.js, the
// Node and workerd entries, their types), the assets and licences, and
// pkg/README.md (from scripts/package-readme.md) after wasm-bindgen. Called
// by scripts/build-pkg.sh.
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
    // The reader's own module (readFile, readFiles, readingLimits,
    // classStudents): web target, `init()` before use.
    './read': { types: './neardup_read.d.ts', default: './neardup_read.js' },
    // The comparison's own module (compare, SvmModel, textOfBytes,
    // withHiddenText; not Speller, normalize, shingles, phonetic codes): in Node ready on import,
    // elsewhere `init()` before use.
    './compare': {
      node: { types: './compare.d.ts', default: './compare-node.js' },
      default: { types: './compare.d.ts', default: './compare.js' },
    },
    './neardup_compare_bg.wasm': './neardup_compare_bg.wasm',
    './neardup_compare_simd_bg.wasm': './neardup_compare_simd_bg.wasm',
    './neardup_read_bg.wasm': './neardup_read_bg.wasm',
    './neardup_bg.wasm': './neardup_bg.wasm',
    './neardup_simd_bg.wasm': './neardup_simd_bg.wasm',
    './model.json': './model.json',
    './multiref.json': './multiref.json',
    './dictionary-en.bin': './dictionary-en.bin',
  },
  files: ['neardup_bg.wasm', 'neardup_simd_bg.wasm', 'neardup_bg.wasm.d.ts', 'neardup.js',
    'neardup_read_bg.wasm', 'neardup_read_bg.wasm.d.ts', 'neardup_read.js', 'neardup_read.d.ts', 'simd.js', 'shared.js',
    'neardup_compare_bg.wasm', 'neardup_compare_simd_bg.wasm', 'neardup_compare_bg.wasm.d.ts', 'neardup_compare.js', 'neardup_compare.d.ts',
    'compare.js', 'compare-node.js', 'compare.d.ts', 'neardup.d.ts', 'index.js', 'index.d.ts', 'node.js', 'node.d.ts', 'workerd.js', 'workerd.d.ts', 'model.json', 'multiref.json', 'dictionary-en.bin', 'dictionary-en.LICENSE', 'LICENSE-MIT', 'LICENSE-APACHE', 'README.md'],
  sideEffects: ['./node.js', './workerd.js', './compare-node.js'],
  engines: { node: '>=20.19' },
  keywords: ['plagiarism', 'near-duplicate', 'shingling', 'jaccard', 'containment', 'wasm'],
};
writeFileSync('pkg/package.json', JSON.stringify(pkg, null, 2) + '\n');
// The default multireference reference (trained on docs-bench; see EVALUATION.md).
copyFileSync('assets/multiref.json', 'pkg/multiref.json');
// The default verdict model (trained on the Clough–Stevenson corpus; EVALUATION.md).
copyFileSync('assets/model.json', 'pkg/model.json');
copyFileSync('assets/dictionary-en.bin', 'pkg/dictionary-en.bin');
copyFileSync('assets/dictionary-en.LICENSE', 'pkg/dictionary-en.LICENSE');
// The package's own licence (MIT OR Apache-2.0): both texts.
copyFileSync('LICENSE-MIT', 'pkg/LICENSE-MIT');
copyFileSync('LICENSE-APACHE', 'pkg/LICENSE-APACHE');

// The entries: src/wasm/js/ (index.js with its types, node.js, workerd.js),
// real sources, linted and tested (tests/js/entry.test.mjs).
for (const f of ['index.js', 'index.d.ts', 'node.js', 'node.d.ts', 'workerd.js', 'workerd.d.ts', 'simd.js', 'shared.js', 'compare.js', 'compare-node.js', 'compare.d.ts']) {
  copyFileSync(`src/wasm/js/${f}`, `pkg/${f}`);
}
// The generated classes implement \`[Symbol.dispose]\`, whose type is in
// TypeScript's \`esnext.disposable\` library: reference it, so that the types
// check under \`tsc --strict\` with a project's default libraries and no
// \`skipLibCheck\` (tests/js/typescript.test.mjs).
for (const file of ['pkg/neardup.d.ts', 'pkg/neardup_compare.d.ts']) {
  const dts = readFileSync(file, 'utf8');
  const reference = '/// <reference lib="esnext.disposable" />\n';
  if (!dts.startsWith(reference)) writeFileSync(file, reference + dts);
}
// The README for npm users: scripts/package-readme.md, whose `js` examples
// tests/js/readme.test.mjs runs against the packed package.
copyFileSync('scripts/package-readme.md', 'pkg/README.md');
