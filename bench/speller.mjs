// Dictionary correction in WebAssembly (the package's `Speller`, Node): the
// misspellings of a list, one a line, corrected one at a time
// (`Speller.correct`), then texts corrected whole (`Speller.correctText`,
// which remembers the corrections a dictionary has found). Prints the
// load time, corrections a second, and this process's CPU for each part.
//   node bench/speller.mjs WORDS_FILE [PKG_DIR] [DOCS_JSONL]
// PKG_DIR defaults to pkg/ (scripts/build-pkg.sh); DOCS_JSONL, when given,
// is read for its "text" fields (e.g. ../shared/data/docs-bench/docs.jsonl).
// BENCHMARKS.md, "Dictionary correction: a bit-parallel distance and a memo
// a dictionary".
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [wordsFile, pkgDir = 'pkg', docsFile] = process.argv.slice(2);
if (!wordsFile) {
  console.error('usage: node bench/speller.mjs WORDS_FILE [PKG_DIR] [DOCS_JSONL]');
  process.exit(2);
}
const nd = await import(pathToFileURL(resolve(pkgDir, 'node.js')).href);
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
let t = cpu();
const speller = nd.Speller.fromBytes(readFileSync(resolve(pkgDir, 'dictionary-en.bin')));
console.log(`load: ${(cpu() - t).toFixed(2)} s CPU`);
const words = readFileSync(wordsFile, 'utf8').split('\n').filter((w) => w.length > 0);
t = cpu();
let changed = 0;
for (const w of words) if (speller.correct(w) !== w) changed++;
const s = cpu() - t;
console.log(`correct: ${words.length} words, ${changed} changed, ${s.toFixed(2)} s CPU, ${Math.round(words.length / s)} words/s`);
if (docsFile) {
  const texts = readFileSync(docsFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l).text);
  t = cpu();
  let bytes = 0;
  for (const x of texts) bytes += speller.correctText(x).length;
  const d = cpu() - t;
  console.log(`correctText: ${texts.length} texts (${bytes} UTF-16 units out), ${d.toFixed(2)} s CPU, ${(d / texts.length * 1e3).toFixed(2)} ms a text`);
}
