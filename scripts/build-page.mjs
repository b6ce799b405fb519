// Bundles the page's heavy libraries into www/lib/ (generated, git-ignored)
// with esbuild: the zip reader (fflate), the markup parser (htmlparser2), the CSV writer (Papa Parse)
// and the PDF reader (pdf.js and its worker). The page's own modules are plain ES modules, not bundled; they
// import these files only when a file needs them, so the two-text view
// loads nothing more until a .docx, .odt, .zip or .pdf is given.
//   node scripts/build-page.mjs
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
await build({
  absWorkingDir: root,
  entryPoints: {
    zip: 'www/vendor/zip.js',
    markup: 'www/vendor/markup.js',
    csv: 'www/vendor/csv.js',
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
console.log('[build] www/lib/: zip.js, markup.js, csv.js, pdf.js, pdf.worker.js');
