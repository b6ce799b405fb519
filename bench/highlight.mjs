// The two-text view with a 2 MB pair (docs-bench prose, an edited copy
// against its source: tens of thousands of shared passages), painted with
// the CSS Custom Highlight API (ranges, no DOM node per passage) and with the
// <mark> fallback (the API hidden, as in a browser without it), in turn.
//   npm run build && node bench/highlight.mjs [ROUNDS=3]
// Prints, per painter and round: the time from the score shown to both views
// highlighted in full, the page's longest main-thread task over that time,
// the page's DOM nodes once done (live: in the document; and all, the
// DevTools protocol's Performance metric, after a garbage collection), the
// page's JS heap, the resident memory of its renderer process (the page and
// its workers), the layout time, and how long a click on a highlight and
// three "next passage" clicks take to be answered (Event Timing: input
// delay, handling and the next paint; the median and each), and the gaps
// between frames while A is scrolled with the mouse wheel (95th percentile
// and longest), and, frame to frame, lighting a passage up and scrolling
// both views to it (five passages).
import { execFileSync } from 'node:child_process';
import { launch, clickHighlight } from '../tests/browser/browser.mjs';
import { docsBench } from '../tests/js/helpers.mjs';

const rounds = Number(process.argv[2] ?? 3);
let b = '';
for (const text of docsBench().docs.values()) {
  if (b.length > 2_000_000) break;
  b += `${text}\n\n`;
}
const a = b.replace(/ the /g, ' a ');
// Resident memory of the renderer processes started since `before` (the
// page's, its workers' included), in bytes.
const rendererPids = () => new Set(execFileSync('ps', ['-e', '-o', 'pid=,args='], { encoding: 'utf8' }).trim().split('\n')
  .filter((l) => /chrom/i.test(l) && l.includes('--type=renderer')).map((l) => Number(l.trim().split(/\s+/)[0])));
const rendererRss = (before) => execFileSync('ps', ['-e', '-o', 'pid=,rss=,args='], { encoding: 'utf8' }).trim().split('\n')
  .map((l) => l.trim().split(/\s+/)).filter(([pid, , ...args]) => !before.has(Number(pid)) && /chrom/i.test(args[0]) && args.includes('--type=renderer'))
  .reduce((n, [, kb]) => n + Number(kb) * 1024, 0);
const env = await launch();

async function run(marks) {
  const others = rendererPids();
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 1400 } });
  if (marks) await context.addInitScript(() => Object.defineProperty(CSS, 'highlights', { value: undefined, configurable: true }));
  await context.addInitScript(() => {
    window.__tasks = [];
    new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__tasks.push([e.startTime, e.duration]))).observe({ type: 'longtask', buffered: true });
    window.__events = [];
    new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__events.push([e.name, e.duration]))).observe({ type: 'event', durationThreshold: 16, buffered: true });
  });
  const page = await context.newPage();
  await page.goto(`${env.origin}/`);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const m0 = await metrics();
  await page.evaluate(([a, b]) => {
    document.querySelector('#text-b').value = b;
    const ta = document.querySelector('#text-a');
    ta.value = a;
    ta.dispatchEvent(new Event('input'));
  }, [a, b]);
  await page.waitForFunction(() => document.querySelector('#score').dataset.value !== undefined, null, { timeout: 300_000, polling: 50 });
  const shown = await page.evaluate(() => performance.now());
  await page.waitForFunction(() => ['#view-a', '#view-b'].every((s) => document.querySelector(s).dataset.done === 'true'), null, { timeout: 300_000, polling: 50 });
  const done = await page.evaluate(() => performance.now());
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  await cdp.send('HeapProfiler.collectGarbage');
  const m1 = await metrics();
  const rss = rendererRss(others);
  const live = await page.evaluate(() => {
    const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
    let n = 0;
    while (w.nextNode()) n++;
    return n;
  });
  const longest = await page.evaluate((t) => Math.max(0, ...window.__tasks.filter(([s, d]) => s + d >= t).map(([, d]) => d)), shown);
  // A click on a highlight of A, then "next passage" three times: each
  // lights a passage up on both sides and scrolls both views to it.
  const clicks = [];
  const answered = async (act) => {
    await page.evaluate(() => (window.__events.length = 0));
    await act();
    await page.waitForTimeout(400);
    clicks.push(await page.evaluate(() => Math.max(0, ...window.__events.filter(([n]) => /^(click|pointer(down|up)|mouse(down|up))$/.test(n)).map(([, d]) => d))));
  };
  // Scrolling A with the mouse wheel, 30 turns of 600 px from the top: the
  // longest and the 95th-percentile gap between frames.
  await page.evaluate(() => {
    document.querySelector('#view-a').scrollTop = 0;
    window.__frames = [];
    const tick = (t) => {
      window.__frames.push(t);
      if (!window.__stopFrames) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const box = await page.evaluate(() => {
    const r = document.querySelector('#view-a').getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + 40 };
  });
  await page.evaluate((y) => window.scrollBy(0, y - 200), box.y);
  await page.mouse.move(box.x, 240);
  for (let i = 0; i < 30; i++) {
    await page.mouse.wheel(0, 600);
    await page.waitForTimeout(50);
  }
  const gaps = await page.evaluate(() => {
    window.__stopFrames = true;
    const f = window.__frames;
    return f.slice(1).map((t, i) => t - f[i]).sort((x, y) => x - y);
  });
  const scroll = { p95: Math.round(gaps[Math.floor(gaps.length * 0.95)]), max: Math.round(gaps.at(-1)) };
  await answered(() => clickHighlight(page, '#view-a'));
  for (let i = 0; i < 3; i++) await answered(() => page.click('[data-testid=next-passage]'));
  const click = clicks.slice().sort((x, y) => x - y)[Math.floor(clicks.length / 2)];
  // Frame to frame in the page: five passages of the list (every twelfth of
  // the first 60), each lit up and both views scrolled to it through
  // highlight.js (the same module instance as the page's).
  const frames = await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const hl = await import('/highlight.js');
    const ids = [...document.querySelectorAll('#passages li')].slice(0, 60).map((l) => l.dataset.passage).filter((_, i) => i % 12 === 0);
    const out = [];
    for (const id of ids) {
      await frame();
      await frame();
      const t = performance.now();
      hl.clearLit();
      hl.lightPassage(id, true);
      for (const v of ['#view-a', '#view-b']) hl.revealPassage(document.querySelector(v), id);
      await frame();
      out.push(Math.round(performance.now() - t));
    }
    return out;
  });
  const painter = await page.getAttribute('#view-a', 'data-painter');
  await context.close();
  return {
    painter,
    highlightS: ((done - shown) / 1000).toFixed(2),
    longestTaskMs: Math.round(longest),
    liveNodes: live,
    nodes: m1.Nodes,
    jsHeapMB: (m1.JSHeapUsedSize / 1e6).toFixed(1),
    rendererMB: Math.round(rss / 1e6),
    layoutS: (m1.LayoutDuration - m0.LayoutDuration).toFixed(2),
    clickMs: Math.round(click),
    clicksMs: clicks.map(Math.round).join(' '),
    scrollFrameP95Ms: scroll.p95,
    scrollFrameMaxMs: scroll.max,
    lightAndRevealMs: frames.join(' '),
  };
}

console.log(`a 2 MB pair: A ${a.length} and B ${b.length} UTF-16 units; Chromium ${env.browser.version()}`);
for (let r = 0; r < rounds; r++) {
  for (const marks of r % 2 ? [true, false] : [false, true]) console.log(JSON.stringify(await run(marks)));
}
await env.close();
