// bench/wasm-native.mjs's measurement (bench/sketch-times.mjs) in Chromium:
// text → MinHash-128 at spec 2, one document at a time over the 1 MiB
// sample, on the page's main thread, the SIMD module the page loads (on its
// origin, served by scripts/serve.mjs). scripts/bench-wasm.sh runs it in
// turn with the native bench and Node.
//   npm run build && node bench/wasm-chromium.mjs
// Prints `chromium word:5 cleared 3.210 ms` and so on: the fastest of 15
// passes after a second of warm-up, in milliseconds of wall time.
import { launch } from '../tests/browser/browser.mjs';
import { docsBenchSample } from '../tests/js/helpers.mjs';
import { printTimes, sketchTimes } from './sketch-times.mjs';

const { sample } = docsBenchSample();
const env = await launch();
try {
  const page = await (await env.browser.newContext()).newPage();
  await page.goto(`${env.origin}/`);
  const times = await page.evaluate(sketchTimes, { file: 'neardup_simd_bg.wasm', sample });
  printTimes('chromium', times);
} finally {
  await env.close();
}
