// Time to the two-text view's first score in Chromium, on a cold visit (a
// fresh profile, nothing cached; on the loopback, and on a line throttled to
// 10 Mbit/s with 40 ms of latency) and a warm one (the visit after, the
// service worker answering from its cache), for the page as it is (the
// view's worker on the comparison's own module, `neardup/compare`) and as
// it was before the modules were split (the same page with the view's
// worker on the whole package's module: www/ copied with engine.js's
// two-text worker replaced by worker.js), interleaved (issue 49,
// BENCHMARKS.md "Modules by use"). The WebAssembly bytes fetched before
// the first score are counted too (gzip -9 of each distinct module).
//   bash scripts/build-pkg.sh && node bench/first-score.mjs [ROUNDS=5]
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startServer } from '../scripts/serve.mjs';
import { clough } from '../tests/js/helpers.mjs';

const rounds = Number(process.argv[2] ?? 5);
const repo = new URL('..', import.meta.url).pathname;
const before = mkdtempSync(join(tmpdir(), 'neardup-www-before-'));
cpSync(join(repo, 'www'), before, { recursive: true });
const engine = join(before, 'engine.js');
const split = "new Engine(undefined, new URL('./two-text/worker.js', import.meta.url))";
const source = readFileSync(engine, 'utf8');
if (!source.includes(split)) throw new Error('engine.js no longer starts the two-text worker as this script expects');
writeFileSync(engine, source.replace(split, 'new Engine()'));

const pages = {};
for (const [name, www] of [['now', join(repo, 'www')], ['before', before]]) {
  const server = await startServer(0, { mounts: [['/pkg/', join(repo, 'pkg')], ['/', www]] });
  pages[name] = { server, origin: `http://127.0.0.1:${server.address().port}` };
}
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
const [a, b] = [clough('g0pB_taska.txt'), clough('orig_taska.txt')];

/**
 * One visit: ms from navigation to the first score, and the .wasm fetched
 * (URL → bytes); `mbits` throttles the page's network (Chromium's
 * emulation: that many Mbit/s down, 40 ms of latency).
 */
async function visit(context, origin, mbits = 0) {
  const page = await context.newPage();
  if (mbits) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 40, downloadThroughput: (mbits * 1e6) / 8, uploadThroughput: (mbits * 1e6) / 8 });
  }
  const wasm = new Map();
  page.on('response', async (r) => {
    if (r.url().endsWith('.wasm')) wasm.set(r.url(), await r.body().catch(() => Buffer.alloc(0)));
  });
  await page.goto(`${origin}/`);
  await page.fill('#text-b', b);
  await page.fill('#text-a', a);
  await page.waitForFunction(() => document.querySelector('[data-testid=score]').dataset.value !== undefined, null, { timeout: 60_000 });
  const ms = await page.evaluate(() => performance.now());
  await page.close();
  return { ms, wasm };
}

const times = { now: { cold: [], slow: [], warm: [] }, before: { cold: [], slow: [], warm: [] } };
const bytes = {};
for (let r = 0; r < rounds; r++) {
  for (const name of r % 2 ? ['before', 'now'] : ['now', 'before']) {
    // A cold visit on a 10 Mbit/s line, in a profile of its own.
    const slowContext = await browser.newContext({ serviceWorkers: 'block' });
    times[name].slow.push((await visit(slowContext, pages[name].origin, 10)).ms);
    await slowContext.close();
    const context = await browser.newContext();
    const cold = await visit(context, pages[name].origin);
    // The service worker has taken everything into its cache (the footer says so).
    const p = await context.newPage();
    await p.goto(`${pages[name].origin}/`);
    await p.waitForSelector('[data-testid=offline-status][data-ready=true]', { state: 'attached', timeout: 60_000 });
    await p.close();
    const warm = await visit(context, pages[name].origin);
    await context.close();
    times[name].cold.push(cold.ms);
    times[name].warm.push(warm.ms);
    bytes[name] = [...cold.wasm].map(([url, body]) => `${url.slice(url.lastIndexOf('/') + 1)} ${gzipSync(body, { level: 9 }).length} B gzipped`);
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
console.log(`Chromium ${browser.version()}, ${rounds} rounds, interleaved; ms from navigation to the first score (median)`);
for (const name of ['before', 'now']) {
  const t = (k) => `${median(times[name][k]).toFixed(0)} ms`;
  console.log(`${name}: cold ${t('cold')}, cold at 10 Mbit/s ${t('slow')}, warm ${t('warm')}; WebAssembly before the score: ${bytes[name].join(', ')}`);
}
await browser.close();
for (const { server } of Object.values(pages)) server.close();
rmSync(before, { recursive: true, force: true });
