// Writes pkg/package.json, the Node entry (pkg/node.js, pkg/node.d.ts) and
// pkg/README.md after wasm-bindgen. Called by scripts/build-pkg.sh.
import { readFileSync, writeFileSync } from 'node:fs';

const cargo = readFileSync('Cargo.toml', 'utf8');
const field = (name) => cargo.match(new RegExp(`^${name} = "(.*)"$`, 'm'))[1];

const pkg = {
  name: 'neardup',
  version: field('version'),
  description: field('description'),
  license: field('license'),
  type: 'module',
  main: './neardup.js',
  types: './neardup.d.ts',
  exports: {
    '.': {
      node: { types: './node.d.ts', default: './node.js' },
      default: { types: './neardup.d.ts', default: './neardup.js' },
    },
    './web': { types: './neardup.d.ts', default: './neardup.js' },
    './neardup_bg.wasm': './neardup_bg.wasm',
  },
  files: ['neardup_bg.wasm', 'neardup_bg.wasm.d.ts', 'neardup.js', 'neardup.d.ts', 'node.js', 'node.d.ts', 'README.md'],
  sideEffects: ['./node.js'],
  engines: { node: '>=20' },
  keywords: ['plagiarism', 'near-duplicate', 'shingling', 'jaccard', 'containment', 'wasm'],
};
writeFileSync('pkg/package.json', JSON.stringify(pkg, null, 2) + '\n');

writeFileSync(
  'pkg/node.js',
  `// Node entry: instantiates the module synchronously from the .wasm file,
// so \`import { compare } from 'neardup'\` is ready to use.
import { readFileSync } from 'node:fs';
import { initSync } from './neardup.js';
initSync({ module: readFileSync(new URL('./neardup_bg.wasm', import.meta.url)) });
export * from './neardup.js';
export { default } from './neardup.js';
`,
);
writeFileSync('pkg/node.d.ts', `export * from './neardup.js';\nexport { default } from './neardup.js';\n`);

writeFileSync(
  'pkg/README.md',
  `# neardup

Near-duplicate text detection and plagiarism scoring in WebAssembly: word and
character shingles, Jaccard resemblance and containment, Dice, cosine, and the
passages two texts share, with ranges you can highlight.

\`\`\`js
// Node >= 20: ready on import.
import { compare } from 'neardup';
// Browsers and bundlers: initialise once.
// import init, { compare } from 'neardup'; await init();

const r = compare(suspiciousText, sourceText, { wordK: 3 });
r.score;      // containment of the first text in the second, in [0, 1]
r.passages;   // [{ a: {start, end}, b: {start, end}, ... }] in UTF-16 offsets
\`\`\`

Errors (an empty text, an unknown option) are thrown as \`Error\` with a message.
The shingle hashes are specified, with golden vectors, in the project's SPEC.md.
`,
);
