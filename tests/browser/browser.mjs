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
 * Content Security Policy reports included).
 */
export async function openPage(env, contextOptions = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 1400 }, ...contextOptions });
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
