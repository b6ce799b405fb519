// Bundles the page's heavy libraries into www/lib/ (generated, git-ignored)
// with esbuild: the PDF reader (pdf.js and its worker), idb-keyval (the
// page's store on this device); and the service
// worker, www/sw.js (generated, git-ignored), from www/vendor/sw.js with
// Workbox and the list of files it precaches, each with a hash of its
// bytes (run after pkg/ is built: it lists pkg/'s files too). Every other format —
// zip, .docx, .odt, HTML — is read by the core's reader in the WebAssembly
// module, and the class set's CSV is written by the core. The page's own
// modules are plain ES modules, not bundled; they import these files only
// when needed, so the two-text view loads nothing more until a .pdf is given.
//   node scripts/build-page.mjs
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
await build({
  absWorkingDir: root,
  entryPoints: {
    pdf: 'www/vendor/pdf.js',
    'pdf.worker': 'www/vendor/pdf.worker.js',
    idb: 'www/vendor/idb.js',
  },
  outdir: 'www/lib',
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2022',
  legalComments: 'eof',
  logLevel: 'warning',
});
console.log('[build] www/lib/: pdf.js, pdf.worker.js, idb.js');

// What the service worker precaches: every file of the page but the
// bundlers' sources (www/vendor/), the static host's headers and the worker
// itself; and the package's files the page loads. URLs are relative to
// www/sw.js (pkg/ is served beside the page as ../pkg/).
const PKG = ['index.js', 'neardup.js', 'simd.js', 'shared.js', 'neardup_bg.wasm', 'neardup_simd_bg.wasm',
  'compare.js', 'neardup_compare.js', 'neardup_compare_bg.wasm', 'neardup_compare_simd_bg.wasm',
  'neardup_read.js', 'neardup_read_bg.wasm', 'model.json', 'dictionary-en.bin'];
const www = join(root, 'www');
const walk = (dir) => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? walk(path) : [path];
});
const revision = (path) => createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16);
const precache = [
  ...walk(www)
    .map((path) => relative(www, path).split('\\').join('/'))
    .filter((rel) => !rel.startsWith('vendor/') && rel !== '_headers' && rel !== 'sw.js')
    .sort()
    .map((rel) => ({ url: rel === 'index.html' ? './' : `./${rel}`, revision: revision(join(www, rel)) })),
  ...PKG.map((name) => ({ url: `../pkg/${name}`, revision: revision(join(root, 'pkg', name)) })),
];
await build({
  absWorkingDir: root,
  entryPoints: { sw: 'www/vendor/sw.js' },
  outdir: 'www',
  bundle: true,
  format: 'iife',
  minify: true,
  target: 'es2022',
  define: { PRECACHE: JSON.stringify(precache), 'process.env.NODE_ENV': '"production"' },
  legalComments: 'eof',
  logLevel: 'warning',
});
// The bytes a browser precaches: every file but the WebAssembly builds it does not run.
const onDisk = (url) => (url.startsWith('../pkg/') ? join(root, url.slice(3)) : join(www, url === './' ? 'index.html' : url.slice(2)));
const bytes = precache.filter((f) => !/\/neardup(_compare)?_bg\.wasm$/.test(f.url)).reduce((n, f) => n + statSync(onDisk(f.url)).size, 0);
console.log(`[build] www/sw.js: ${precache.length} files listed; a browser precaches ${(bytes / 2 ** 20).toFixed(1)} MiB of them`);
