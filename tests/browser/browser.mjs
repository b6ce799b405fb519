// Shared by the browser tests: Debian's Chromium driven by playwright-core
// (never a downloaded browser; ../shared/TOOLCHAIN.md), the page served by
// scripts/serve.mjs on a free port, and the two waits every test needs.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Starts the server and the browser: `{server, browser, origin, close()}`. */
export async function launch() {
  const server = await startServer(0);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  return {
    server,
    browser,
    origin,
    async close() {
      await browser.close();
      server.close();
    },
  };
}

/**
 * Opens the page in a fresh context: `{context, page, requests, errors,
 * consoleErrors}` (every request's URL; uncaught errors; console errors,
 * Content Security Policy reports included). `{marks: true}` opens it as a
 * browser without the CSS Custom Highlight API would (the <mark> fallback).
 * Service workers are blocked unless `contextOptions` allow them (the
 * offline tests): the other tests see the page's own requests only.
 */
export async function openPage(env, contextOptions = {}, { marks = false } = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 1400 }, serviceWorkers: 'block', ...contextOptions });
  if (marks) await context.addInitScript(() => Object.defineProperty(CSS, 'highlights', { value: undefined, configurable: true }));
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  const errors = [];
  const consoleErrors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  await page.goto(`${env.origin}/`);
  return { context, page, requests, errors, consoleErrors };
}

/** Runs `fill` and waits for a new headline score: returns it. */
export async function scoreAfter(page, fill) {
  const before = await page.getAttribute('[data-testid=score]', 'data-value');
  await fill();
  await page.waitForFunction(
    (prev) => {
      const el = document.querySelector('[data-testid=score]');
      return el.dataset.value !== undefined && el.dataset.value !== prev;
    },
    before,
    { timeout: 30_000 },
  );
  return Number(await page.getAttribute('[data-testid=score]', 'data-value'));
}

/** A text file for `setInputFiles`. */
export const txt = (name, text) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text, 'utf8') });

/** Waits for a class-set analysis newer than run `after` to end, and checks it is done. */
export async function classDone(page, after = 0, timeout = 120_000) {
  await page.waitForFunction(
    (n) => {
      const el = document.querySelector('[data-testid=class-status]');
      return Number(el.dataset.run ?? 0) > n && ['done', 'error'].includes(el.dataset.state);
    },
    after,
    { timeout },
  );
  assert.equal(await page.getAttribute('[data-testid=class-status]', 'data-state'), 'done', await page.textContent('[data-testid=class-status]'));
}

/**
 * What the browser paints as highlighted in the view `sel`, in text order,
 * read from the page's DOM (<mark> elements) or from the CSS highlight
 * registry (the ranges of `nd-src-K`, `nd-hot`, `nd-overlap`, registered
 * for the blocks in or near view), whichever painter the view used:
 * `[{at, text, colour, hot, overlap}]` (`at` the offset in the view's text,
 * colour K of src-K).
 */
export function highlighted(page, sel) {
  return page.evaluate((sel) => {
    const view = document.querySelector(sel);
    const start = new Map();
    const walk = document.createTreeWalker(view, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(), at = 0; n; n = walk.nextNode()) {
      start.set(n, at);
      at += n.data.length;
    }
    if (view.dataset.painter !== 'ranges') {
      return [...view.querySelectorAll('mark')].map((m) => ({
        at: start.get(m.firstChild),
        text: m.textContent,
        colour: Number(/src-(\d)/.exec(m.className)[1]),
        hot: m.classList.contains('hot'),
        overlap: m.classList.contains('overlap'),
      }));
    }
    const inView = (name) => [...(CSS.highlights.get(name) ?? [])].filter((r) => start.has(r.startContainer));
    const hot = new Set(inView('nd-hot'));
    const overlap = new Set(inView('nd-overlap'));
    const out = [];
    for (let k = 0; k < 5; k++) {
      for (const r of inView(`nd-src-${k}`)) {
        out.push({
          at: start.get(r.startContainer) + r.startOffset,
          text: r.startContainer.data.slice(r.startOffset, r.endOffset),
          colour: k,
          hot: hot.has(r),
          overlap: overlap.has(r),
        });
      }
    }
    return out.sort((x, y) => x.at - y.at);
  }, sel);
}

/**
 * Clicks (or taps, `{tap: true}`) the first highlight of colour `colour` in
 * the view `sel` (scrolled into sight first), as a user would: at a point
 * inside its first box.
 */
export async function clickHighlight(page, sel, colour = 0, { tap = false } = {}) {
  const point = await page.evaluate(([sel, colour]) => {
    const view = document.querySelector(sel);
    const live = document.createRange();
    if (view.dataset.painter !== 'ranges') {
      live.selectNodeContents(view.querySelector(`mark.src-${colour}`));
    } else {
      const r = [...CSS.highlights.get(`nd-src-${colour}`)].find((x) => view.contains(x.startContainer));
      live.setStart(r.startContainer, r.startOffset);
      live.setEnd(r.endContainer, r.endOffset);
    }
    live.startContainer.parentElement.scrollIntoView({ block: 'center' });
    let box = live.getClientRects()[0];
    const v = view.getBoundingClientRect();
    view.scrollTop += box.top - v.top - 20;
    box = live.getClientRects()[0];
    window.scrollBy(0, box.top - innerHeight / 2);
    box = live.getClientRects()[0];
    return { x: box.left + Math.min(4, box.width / 2), y: box.top + box.height / 2 };
  }, [sel, colour]);
  if (tap) await page.touchscreen.tap(point.x, point.y);
  else await page.mouse.click(point.x, point.y);
}

/** Waits until passage segments are lit up (`nd-hot` or mark.hot) in the view `sel`. */
export function waitHot(page, sel) {
  return page.waitForFunction((sel) => {
    const view = document.querySelector(sel);
    if (view.dataset.painter !== 'ranges') return !!view.querySelector('mark.hot');
    return [...(CSS.highlights.get('nd-hot') ?? [])].some((r) => view.contains(r.startContainer));
  }, sel);
}
