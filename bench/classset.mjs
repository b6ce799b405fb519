// The class-set mode at scale, in Chromium on this machine: 2,000 real
// documents of docs-bench (about 1,000 words each, 543 planted near-copies
// among them) given to the page as one class, from the file input to
// "done": the core's pairs, then the full comparison of every pair above
// the default cut-off in the page's worker pool.
//   npm run build && node bench/classset.mjs [N=2000]
//   PROBE=1 node bench/classset.mjs 5074   # and a teacher's input during the run
// With PROBE=1, every second of the run the table is scrolled with the
// mouse wheel and a column's sort button clicked (before the table is
// there: the page scrolled and the cut-off field clicked), as a teacher
// would while waiting; the page's Event Timing entries (input delay + handling + the
// next paint, per event) say how long each took to be answered.
// Prints the wall time, each worker's WebAssembly memory at the end, the page's longest main-thread task (a
// PerformanceObserver of long tasks), the main page's JS heap, the peak
// resident memory of the whole browser (every Chromium process: the page,
// its workers, the GPU and network processes; sampled with `ps` every
// 250 ms, less what it held before the files were given), and the number of
// pairs compared in full.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from '../tests/browser/browser.mjs';
import { docsBench } from '../tests/js/helpers.mjs';

const n = Number(process.argv[2] ?? 2000);
const { docs } = docsBench();
const ids = [...docs.keys()].slice(0, n);
const words = ids.reduce((w, id) => w + docs.get(id).split(/\s+/).length, 0);
// The texts as files on disk, handed to the file input by path, as a
// user's file picker gives them (Files backed by the disk). Handing them
// over as buffers (BUFFERS=1, how this script did before) makes Playwright
// build each File's bytes inside the page: 2,000 files put 167 MB into the
// renderer (243 at the peak) on a page that does nothing with them, counted
// as the page's.
const folder = mkdtempSync(join(tmpdir(), 'neardup-class-'));
const bytes = ids.reduce((s, id) => s + Buffer.byteLength(docs.get(id), 'utf8'), 0);
const files = process.env.BUFFERS
  ? ids.map((id) => ({ name: `${id}.txt`, mimeType: 'text/plain', buffer: Buffer.from(docs.get(id), 'utf8') }))
  : ids.map((id) => {
    const path = join(folder, `${id}.txt`);
    writeFileSync(path, docs.get(id));
    return path;
  });
const chromiumPids = () =>
  new Set(execFileSync('ps', ['-e', '-o', 'pid=,comm='], { encoding: 'utf8' }).trim().split('\n')
    .map((l) => l.trim().split(/\s+/)).filter(([, comm]) => /chrom/i.test(comm ?? '')).map(([pid]) => Number(pid)));
const before = chromiumPids();
const env = await launch();
const context = await env.browser.newContext();
const page = await context.newPage();
await page.addInitScript(() => {
  window.__tasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__tasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  window.__stages = [];
  document.addEventListener('DOMContentLoaded', () => {
    const status = document.querySelector('[data-testid=class-status]');
    new MutationObserver(() => {
      const text = status.textContent.replace(/ \d+ s$/, '');
      if (window.__stages.at(-1)?.[1] !== text) window.__stages.push([performance.now(), text]);
    }).observe(status, { childList: true, characterData: true, subtree: true });
  });
  window.__events = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__events.push([e.name, e.startTime, e.duration, e.processingStart - e.startTime, e.processingEnd - e.processingStart]);
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
});
await page.goto(`${env.origin}/`);
await page.waitForTimeout(500);
// Resident memory of every process of this browser (the Chromium
// processes that were not running before it was launched), in bytes, in
// all and by process kind (Chromium's `--type=`: renderer — the page and
// its workers —, gpu-process, utility; none for the browser process).
const rssByKind = () => {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,rss=,comm=,args='], { encoding: 'utf8' });
  const kinds = {};
  for (const l of out.trim().split('\n')) {
    const [pid, kb, comm, ...args] = l.trim().split(/\s+/);
    if (!/chrom/i.test(comm ?? '') || before.has(Number(pid))) continue;
    const kind = args.join(' ').match(/--type=([a-z-]+)/)?.[1] ?? 'browser';
    kinds[kind] = (kinds[kind] ?? 0) + Number(kb) * 1024;
  }
  return kinds;
};
const total = (kinds) => Object.values(kinds).reduce((a, b) => a + b, 0);
const idleKinds = rssByKind();
const idle = total(idleKinds);
let peak = idle;
let peakKinds = idleKinds;
let peakAt = 0; // wall milliseconds since the files were given
const samples = []; // [ms since the files were given, renderer bytes over idle]
// NO_RSS=1 leaves the sampling out (it costs some CPU on a 2-core machine).
const sampler = process.env.NO_RSS
  ? 0
  : setInterval(() => {
    const kinds = rssByKind();
    if (total(kinds) > peak) [peak, peakKinds, peakAt] = [total(kinds), kinds, Date.now() - t0];
    samples.push([Date.now() - t0, (kinds.renderer ?? 0) - (idleKinds.renderer ?? 0)]);
  }, 250);
const t0 = Date.now();
await page.setInputFiles('[data-testid=class-files]', files);
// With BUFFERS=1, Playwright builds the 2,000 File objects inside the page
// in one task of about a second (base64 over the DevTools protocol): a
// user's file picker does not. The page's own tasks are those that start
// from here.
const from = await page.evaluate(() => performance.now());
let doneAt = 0;
const finished = page.waitForFunction(() => ['done', 'error', 'stalled'].includes(document.querySelector('[data-testid=class-status]').dataset.state), null, { timeout: 1_800_000, polling: 500 });
let probes = 0;
if (process.env.PROBE) {
  let over = false;
  finished.then(() => { over = true; doneAt = Date.now(); }, () => { over = true; });
  // A probe never waits long: the run's own time is what is measured.
  // Columns the page has had sortable from the start (a run of an older
  // commit measures the same clicks).
  const keys = ['containmentAb', 'b', 'containmentBa', 'a'];
  while (!over) {
    await new Promise((r) => setTimeout(r, 1000));
    if (over) break;
    try {
      const th = await page.$('[data-testid=class-pairs] th[data-sort] button');
      if (th && (await th.isVisible())) {
        await page.hover('[data-testid=class-pairs] tbody', { timeout: 2000 });
        await page.mouse.wheel(0, 600);
        await page.click(`[data-testid=class-pairs] th[data-sort=${keys[probes % keys.length]}] button`, { timeout: 5000 });
      } else {
        // Before the table: the page scrolled, the cut-off field clicked.
        await page.mouse.wheel(0, probes % 2 ? -300 : 300);
        await page.click('[data-testid=class-cutoff]', { timeout: 5000 });
      }
      probes++;
      if (process.env.TASKS) console.log(`  probe ${probes} done at ${((Date.now() - t0) / 1000).toFixed(1)} s of the wall`);
    } catch (err) {
      if (process.env.TASKS) console.log(`  probe failed: ${String(err).slice(0, 600)}`);
      // the view changed under the probe: try again at the next tick
    }
  }
}
await finished;
doneAt ||= Date.now();
const wall = (doneAt - t0) / 1000;
clearInterval(sampler);
const status = await page.textContent('[data-testid=class-status]');
const longest = await page.evaluate((t) => Math.max(0, ...window.__tasks.filter(([start]) => start >= t).map(([, d]) => d)), from);
const events = await page.evaluate((t) => window.__events.filter(([, start]) => start >= t), from);
const stages = await page.evaluate(() => window.__stages);
const tasks = await page.evaluate((t) => window.__tasks.filter(([start, d]) => start >= t && d > 50), from);
if (process.env.TASKS) {
  // Each task over 50 ms, with the stage the status showed when it began.
  for (const [start, d] of tasks) {
    const stage = stages.filter(([at]) => at <= start).at(-1)?.[1] ?? '(before the first stage)';
    console.log(`  task ${d.toFixed(0)} ms at ${((start - from) / 1000).toFixed(1)} s, during: ${stage.slice(0, 70)}`);
  }
}
const pairs = await page.evaluate(() => document.querySelector('#class-count').textContent);
const cdp = await context.newCDPSession(page);
await cdp.send('Performance.enable');
const { metrics } = await cdp.send('Performance.getMetrics');
const heap = metrics.find((m) => m.name === 'JSHeapUsedSize').value;
console.log(`${n} documents, ${(words / n).toFixed(0)} words each on average, ${(bytes / 1e6).toFixed(1)} MB`);
console.log(`status: ${status}`);
console.log(`browser resident memory: ${(idle / 1e6).toFixed(0)} MB before the files, peak ${(peak / 1e6).toFixed(0)} MB: ${((peak - idle) / 1e6).toFixed(0)} MB more (${((peak - idle) / n / 1e3).toFixed(0)} KB per document)`);
console.log(`at the peak, by process kind (MB over idle): ${Object.keys(peakKinds).sort().map((k) => `${k} ${(((peakKinds[k] ?? 0) - (idleKinds[k] ?? 0)) / 1e6).toFixed(0)}`).join(', ')}`);
// When the peak came: the wall second, and the renderer over idle each
// second of the run (the stages the page showed, in the page's own time,
// are printed with TASKS=1).
const endKinds = rssByKind();
console.log(`the peak at ${(peakAt / 1000).toFixed(1)} s of the wall; at the end the renderer is ${(((endKinds.renderer ?? 0) - (idleKinds.renderer ?? 0)) / 1e6).toFixed(0)} MB over idle`);
const perSecond = samples.filter(([ms], i) => i === 0 || Math.floor(ms / 1000) !== Math.floor(samples[i - 1][0] / 1000));
console.log(`renderer over idle, each second: ${perSecond.map(([ms, b]) => `${(ms / 1000).toFixed(0)} s ${(b / 1e6).toFixed(0)}`).join(' · ')} MB`);
// The page's workers alive at the end, by script (each its own heap and,
// for the comparison worker, its own WebAssembly instance).
const byScript = {};
for (const w of page.workers()) {
  const name = new URL(w.url()).pathname.split('/').slice(-2).join('/');
  byScript[name] = (byScript[name] ?? 0) + 1;
}
console.log(`workers at the end: ${Object.entries(byScript).map(([k, v]) => `${v} × ${k}`).join(', ') || 'none'}`);
// Each worker's WebAssembly memory at the end (what its instance of the
// module has grown to; it never shrinks): the module's exports, as init()
// returns them once initialised (a worker that has not used the module yet,
// as the reader started afresh after the reading, loads it here: about
// 1 MB, after every figure above was taken).
const wasmMemory = [];
for (const w of page.workers()) {
  const name = new URL(w.url()).pathname.split('/').slice(-2).join('/');
  const bytes = await w.evaluate(async () => {
    try {
      const m = await import('/pkg/index.js');
      return (await m.default()).memory.buffer.byteLength;
    } catch {
      return 0;
    }
  });
  wasmMemory.push(`${name} ${(bytes / 1e6).toFixed(0)} MB`);
}
console.log(`WebAssembly memory by worker at the end: ${wasmMemory.join(', ')}`);
if (process.env.PROBE) {
  const clicks = events.filter(([name]) => name === 'click').map(([, , d]) => d).sort((x, y) => x - y);
  if (process.env.TASKS) for (const [name, , d, delay, handling] of events.filter(([, , d]) => d > 50)) console.log(`  ${name} ${d.toFixed(0)} ms: waited ${delay.toFixed(0)} ms, handled in ${handling.toFixed(0)} ms, then painted`);
  const all = events.map(([, , d]) => d).sort((x, y) => x - y);
  const q = (v, f) => (v.length ? v[Math.min(v.length - 1, Math.floor(f * v.length))].toFixed(0) : '-');
  // Event Timing reports only events over 16 ms: the others were answered
  // within a frame.
  console.log(`input during the run: ${probes} scroll + sort-click probes; clicks answered (Event Timing: delay + handling + next paint) in over 16 ms: ${clicks.length} of ${probes}, their median ${q(clicks, 0.5)} ms, worst ${q(clicks, 1)} ms; any input event over 16 ms: ${all.length}, worst ${q(all, 1)} ms`);
}
console.log(`${pairs} listed; in the page, from the files to done: ${((stages.at(-1)[0] - from) / 1000).toFixed(1)} s (the rest of the wall is Playwright handing the files over)`);
console.log(`wall ${wall.toFixed(1)} s (from the file input to done, reading included); longest main-thread task ${longest.toFixed(0)} ms; main page JS heap ${(heap / 1e6).toFixed(0)} MB (${(heap / n / 1e3).toFixed(1)} KB per document)`);
await env.close();
rmSync(folder, { recursive: true, force: true });
