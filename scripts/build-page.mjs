// Bundles the page's heavy libraries into www/lib/ (generated, git-ignored)
// with esbuild: the PDF reader (pdf.js and its worker). Every other format —
// zip, .docx, .odt, HTML — is read by the core's reader in the WebAssembly
// module, and the class set's CSV is written by the core. The page's own
// modules are plain ES modules, not bundled; they import these files only
// when needed, so the two-text view loads nothing more until a .pdf is given.
//   node scripts/build-page.mjs
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
await build({
  absWorkingDir: root,
  entryPoints: {
    pdf: 'www/vendor/pdf.js',
    'pdf.worker': 'www/vendor/pdf.worker.js',
  },
  outdir: 'www/lib',
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2022',
  legalComments: 'eof',
  logLevel: 'warning',
});
console.log('[build] www/lib/: pdf.js, pdf.worker.js');
