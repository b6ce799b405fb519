// The package's two WebAssembly modules in Chromium: the SIMD build
// (neardup_simd_bg.wasm, which the page loads) and the baseline build
// (neardup_bg.wasm), each on its own copy of the glue, on the page's
// origin, on the same 1 MiB of docs-bench prose as `npm run bench:wasm`.
//   npm run build && node bench/wasm-browser.mjs [ROUNDS=3]
// Prints MB/s (wall time in the page's main thread, the median of 7 runs)
// of normalise + word 5-shingles, normalise + character 5-grams and text →
// MinHash-128 (word:5), the two modules in turn each round; and text →
// MinHash-128 one document at a time over the documents of the same 1 MiB
// (as `bench/wasm.mjs`'s `docs:` rows and criterion's `docs/minhash/*/oph`),
// and what making and freeing the objects alone costs.
import { launch } from '../tests/browser/browser.mjs';
import { docsBenchChunk, docsBenchSample } from '../tests/js/helpers.mjs';

const rounds = Number(process.argv[2] ?? 3);
const text = docsBenchChunk();
const mb = Buffer.byteLength(text) / 1e6;
const { sample: docsSample, bytes: docsBytes } = docsBenchSample();
const docsMb = docsBytes / 1e6;

const env = await launch();
const page = await (await env.browser.newContext()).newPage();
await page.goto(`${env.origin}/`);
console.log(`Chromium ${env.browser.version()}, ${mb.toFixed(2)} MB of docs-bench`);
for (let r = 0; r < rounds; r++) {
  for (const file of r % 2 ? ['neardup_bg.wasm', 'neardup_simd_bg.wasm'] : ['neardup_simd_bg.wasm', 'neardup_bg.wasm']) {
    const out = await page.evaluate(async ([file, text, mb, r, docs, docsMb]) => {
      const m = await import(`/pkg/neardup.js?${file}-${r}`);
      m.initSync({ module: await (await fetch(`/pkg/${file}`)).arrayBuffer() });
      const median = (f) => {
        f();
        const t = [];
        for (let i = 0; i < 7; i++) {
          const t0 = performance.now();
          f();
          t.push(performance.now() - t0);
        }
        return t.sort((x, y) => x - y)[3];
      };
      const rate = (f, size = mb) => `${(size / (median(f) / 1000)).toFixed(1)} MB/s`;
      const perDoc = (shingle, spec = 1) => rate(() => {
        for (const d of docs) {
          const h = new m.MinHash({ numPerm: 128, shingle, scheme: 'oph', spec });
          h.update(d);
          h.free();
        }
      }, docsMb);
      const objects = (shingle) => `${median(() => {
        for (let i = 0; i < docs.length; i++) new m.MinHash({ numPerm: 128, shingle, scheme: 'oph' }).free();
      }).toFixed(2)} ms`;
      return {
        'normalise + word5': rate(() => m.wordShingles(text, 5)),
        'normalise + char5': rate(() => m.charShingles(text, 5)),
        'text → MinHash (word:5)': rate(() => {
          const h = new m.MinHash({ shingle: 'word:5' });
          h.update(text);
          h.free();
        }),
        // After the rows above, which bring the module's code to its
        // optimising tier.
        'docs: MinHash word:5 oph': perDoc('word:5'),
        // Spec version 2, the dedup pipeline's default.
        'docs: MinHash word:5 oph spec 2': perDoc('word:5', 2),
        'docs: MinHash word:5 objects alone': objects('word:5'),
        'docs: MinHash char:5 oph': perDoc('char:5'),
        'docs: MinHash char:5 oph spec 2': perDoc('char:5', 2),
        'docs: MinHash char:5 objects alone': objects('char:5'),
      };
    }, [file, text, mb, r, docsSample, docsMb]);
    console.log(file, JSON.stringify(out));
  }
}
await env.close();
