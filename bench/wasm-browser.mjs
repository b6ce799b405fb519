// The package's two WebAssembly modules in Chromium: the SIMD build
// (neardup_simd_bg.wasm, which the page loads) and the baseline build
// (neardup_bg.wasm), each on its own copy of the glue, on the page's
// origin, on the same 1 MiB of docs-bench prose as `npm run bench:wasm`.
//   npm run build && node bench/wasm-browser.mjs [ROUNDS=3]
// Prints MB/s (wall time in the page's main thread, the median of 7 runs)
// of normalise + word 5-shingles, normalise + character 5-grams and text →
// MinHash-128 (word:5), the two modules in turn each round.
import { launch } from '../tests/browser/browser.mjs';
import { docsBenchChunk } from '../tests/js/helpers.mjs';

const rounds = Number(process.argv[2] ?? 3);
const text = docsBenchChunk();
const mb = Buffer.byteLength(text) / 1e6;

const env = await launch();
const page = await (await env.browser.newContext()).newPage();
await page.goto(`${env.origin}/`);
console.log(`Chromium ${env.browser.version()}, ${mb.toFixed(2)} MB of docs-bench`);
for (let r = 0; r < rounds; r++) {
  for (const file of r % 2 ? ['neardup_bg.wasm', 'neardup_simd_bg.wasm'] : ['neardup_simd_bg.wasm', 'neardup_bg.wasm']) {
    const out = await page.evaluate(async ([file, text, mb, r]) => {
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
      const rate = (f) => `${(mb / (median(f) / 1000)).toFixed(1)} MB/s`;
      return {
        'normalise + word5': rate(() => m.wordShingles(text, 5)),
        'normalise + char5': rate(() => m.charShingles(text, 5)),
        'text → MinHash (word:5)': rate(() => {
          const h = new m.MinHash({ shingle: 'word:5' });
          h.update(text);
          h.free();
        }),
      };
    }, [file, text, mb, r]);
    console.log(file, JSON.stringify(out));
  }
}
await env.close();
