// The class-set mode at scale, in Chromium on this machine: 2,000 real
// documents of docs-bench (about 1,000 words each, 543 planted near-copies
// among them) given to the page as one class, from the file input to
// "done": the core's pairs, then the full comparison of every pair above
// the default cut-off in the page's worker pool.
//   npm run build && node bench/classset.mjs [N=2000]
// Prints the wall time, the page's longest main-thread task (a
// PerformanceObserver of long tasks), the main page's JS heap, and the
// number of pairs compared in full.
import { launch } from '../tests/browser/browser.mjs';
import { docsBench } from '../tests/js/helpers.mjs';

const n = Number(process.argv[2] ?? 2000);
const { docs } = docsBench();
const ids = [...docs.keys()].slice(0, n);
const words = ids.reduce((w, id) => w + docs.get(id).split(/\s+/).length, 0);
const files = ids.map((id) => ({ name: `${id}.txt`, mimeType: 'text/plain', buffer: Buffer.from(docs.get(id), 'utf8') }));
const env = await launch();
const context = await env.browser.newContext();
const page = await context.newPage();
await page.addInitScript(() => {
  window.__longest = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
  }).observe({ type: 'longtask', buffered: true });
});
await page.goto(`${env.origin}/`);
await page.waitForTimeout(500);
await page.evaluate(() => { window.__longest = 0; });
const t0 = Date.now();
await page.setInputFiles('[data-testid=class-files]', files);
// Playwright builds the 2,000 File objects inside the page in one task of
// about a second (base64 over the DevTools protocol): a user's file picker
// does not. The page's own tasks are counted from here.
await page.evaluate(() => { window.__longest = 0; });
await page.waitForFunction(() => ['done', 'error'].includes(document.querySelector('[data-testid=class-status]').dataset.state), null, { timeout: 600_000 });
const wall = (Date.now() - t0) / 1000;
const status = await page.textContent('[data-testid=class-status]');
const longest = await page.evaluate(() => window.__longest);
const cdp = await context.newCDPSession(page);
await cdp.send('Performance.enable');
const { metrics } = await cdp.send('Performance.getMetrics');
const heap = metrics.find((m) => m.name === 'JSHeapUsedSize').value;
console.log(`${n} documents, ${(words / n).toFixed(0)} words each on average, ${(files.reduce((s, f) => s + f.buffer.length, 0) / 1e6).toFixed(1)} MB`);
console.log(`status: ${status}`);
console.log(`wall ${wall.toFixed(1)} s (from the file input to done, reading included); longest main-thread task ${longest.toFixed(0)} ms; main page JS heap ${(heap / 1e6).toFixed(0)} MB (${(heap / n / 1e3).toFixed(1)} KB per document)`);
await env.close();
