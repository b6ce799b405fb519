// Issue 49 items 2 and 3: the page as an app, private by proof. The
// network-proof line counts the requests made since the texts were given,
// the page's and its workers'. After one visit it is
// installable (Chromium finds no installability error in its manifest),
// a service worker controls it after a reload, and with the server stopped
// a reload, a new comparison and a class set read from files (a .docx and
// a .txt) still work, served from the precache.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import { classDone, launch, openPage, scoreAfter, txt } from './browser.mjs';
import { startServer } from '../../scripts/serve.mjs';
import * as nd from '../../pkg/node.js';
import { clough } from '../js/helpers.mjs';

let env;

before(async () => {
  env = await launch();
});

after(async () => {
  await env?.close();
});

test('after one visit the page is installable and works with the server stopped, both views and files', async () => {
  // A server of its own, to stop.
  const server = await startServer(0);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const { context, page, errors, requests } = await openPage({ ...env, origin }, { serviceWorkers: 'allow' });
  // A first visit compares two texts. Up to the first score, the only
  // WebAssembly fetched — the service worker's fetches included — is the
  // comparison's module: the worker is registered after the score, and
  // its precache of every module comes after (issue 49).
  // (A visitor who reads the page for a few seconds before pasting.)
  await page.waitForTimeout(3000);
  const a = clough('g0pA_taskb.txt');
  const first = await scoreAfter(page, async () => {
    await page.fill('#text-b', clough('orig_taskb.txt'));
    await page.fill('#text-a', a);
  });
  const wasm = (list) => [...new Set(list.filter((u) => u.endsWith('.wasm')).map((u) => u.slice(u.lastIndexOf('/') + 1)))];
  assert.deepEqual(wasm(requests), ['neardup_compare_simd_bg.wasm'], `fetched before the first score: ${requests}`);
  await page.waitForSelector('[data-testid=offline-status][data-ready=true]', { timeout: 60_000 });
  // Then the precache, the service worker's: every module this browser runs.
  assert.deepEqual(wasm(requests).sort(), ['neardup_compare_simd_bg.wasm', 'neardup_read_bg.wasm', 'neardup_simd_bg.wasm'], `${requests}`);
  const cdp = await context.newCDPSession(page);
  // Playwright's contexts are incognito, which Chromium never installs
  // from: that error is the test browser's, every other would be the page's.
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors.filter((e) => e.errorId !== 'in-incognito'), []);
  const manifest = await cdp.send('Page.getAppManifest');
  assert.deepEqual(manifest.errors, []);
  await page.reload();
  assert.ok(await page.evaluate(() => navigator.serviceWorker.controller !== null), 'controlled after a reload');

  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
  const gone = await fetch(`${origin}/`).then(() => false, () => true);
  assert.ok(gone, 'the server is stopped');

  await page.reload();
  const score = await scoreAfter(page, async () => {
    await page.fill('#text-b', clough('orig_taskb.txt'));
    await page.fill('#text-a', a);
  });
  assert.ok(score > 0.5, `a cut answer scores ${score} offline`);
  assert.equal(score, first, 'the same score offline as online');

  await page.click('[data-testid=mode-class-set]');
  const docx = await Packer.toBuffer(new Document({ sections: [{ children: a.split('\n').map((l) => new Paragraph({ children: [new TextRun(l)] })) }] }));
  await page.setInputFiles('[data-testid=class-files]', [
    { name: 'ann.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: docx },
    txt('ben.txt', `${a} And a line of my own.`),
    txt('cy.txt', clough('g0pB_taskb.txt')),
  ]);
  await classDone(page);
  const pairs = await page.$$eval('[data-testid=class-pairs] tbody tr', (trs) => trs.map((t) => `${t.dataset.a} ${t.dataset.b}`));
  assert.ok(pairs.includes('ann ben'), `offline class: ${pairs}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the network-proof line: 0 requests after texts are given; a class\'s requests all the page\'s own', async () => {
  const { context, page, requests, errors } = await openPage(env);
  assert.ok(await page.isHidden('[data-testid=network-proof]'), 'nothing to say before a text is given');
  await page.waitForSelector('body[data-engine=ready]');
  const before = requests.length;
  await scoreAfter(page, async () => {
    await page.fill('#text-b', clough('orig_taska.txt'));
    await page.fill('#text-a', clough('g0pA_taska.txt'));
  });
  await scoreAfter(page, () => page.fill('#text-a', clough('g0pB_taska.txt')));
  // What the browser itself saw (Playwright's count, not the page's).
  assert.equal(requests.length, before, requests.slice(before).join(' '));
  assert.equal(await page.textContent('[data-testid=network-proof]'), 'Nothing has left this computer: 0 requests since you opened your texts.');
  assert.equal(await page.getAttribute('[data-testid=network-proof]', 'data-requests'), '0');

  // A class set starts its workers (the reader's and the comparisons'):
  // each of their requests is counted and is one of the page's own files.
  await page.click('[data-testid=mode-class-set]');
  await page.setInputFiles('[data-testid=class-files]', ['g0pA_taska.txt', 'g0pB_taska.txt', 'g0pC_taska.txt'].map((f) => txt(f, clough(f))));
  await classDone(page);
  const proof = page.locator('[data-testid=network-proof]');
  // The workers started again after the run may still be loading: the
  // count is read once it has caught up with the browser's (or at 10 s).
  for (let t = 0; t < 100 && Number(await proof.getAttribute('data-requests')) !== requests.length - before; t++) await page.waitForTimeout(100);
  const counted = Number(await proof.getAttribute('data-requests'));
  const seen = requests.slice(before);
  assert.ok(seen.length > 0 && seen.every((u) => u.startsWith(`${env.origin}/`)), seen.join(' '));
  // Every request the browser made after the texts is counted, workers' included.
  assert.equal(counted, seen.length, `${await proof.textContent()} / ${seen.join(' ')}`);
  assert.equal(await proof.getAttribute('data-foreign'), '0');
  assert.match(await proof.textContent(), new RegExp(`^Nothing has left this computer: ${counted} requests since you opened your texts, each a download of this page's own files \\(`));
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 49 item 4: the reference library, the review marks, the class
// set's settings and the last class's result are kept on this device across
// a reload, listed with their sizes under "Kept on this device", and each
// can be forgotten.
test('the library, review marks, settings and last class survive a reload, are listed with their sizes and can be forgotten', async () => {
  const lib = new nd.ClassLibrary({});
  lib.add(['last-year'], [clough('g0pA_taska.txt')]);
  const bytes = Buffer.from(lib.toBytes());
  lib.free();
  const files = [txt('ann.txt', clough('g0pA_taska.txt')), txt('ben.txt', `${clough('g0pA_taska.txt')} My own line.`), txt('cy.txt', clough('g0pB_taska.txt'))];
  const { context, page, errors } = await openPage(env);
  const kept = () => page.$$eval('[data-testid=stored-data] li[data-kept]', (lis) => Object.fromEntries(lis.map((l) => [l.dataset.kept, Number(l.dataset.bytes)])));
  assert.deepEqual(await kept(), {});
  await page.click('[data-testid=mode-class-set]');
  await page.fill('[data-testid=class-stock]', '40');
  await page.dispatchEvent('[data-testid=class-stock]', 'change');
  await page.setInputFiles('[data-testid=class-library-file]', { name: 'school.ndl', mimeType: 'application/octet-stream', buffer: bytes });
  await page.setInputFiles('[data-testid=class-files]', files);
  await classDone(page);
  const matches = () => page.$$eval('[data-testid=class-library-matches] tbody tr', (trs) => trs.map((t) => `${t.dataset.student} ${t.dataset.text}`).sort());
  assert.deepEqual(await matches(), ['ann last-year', 'ben last-year']);
  await page.selectOption('[data-testid=class-pairs] tbody tr[data-a=ann][data-b=ben] select', 'confirmed');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=stored-data] li[data-kept]').length === 4);
  const sizes = await kept();
  assert.deepEqual(Object.keys(sizes).sort(), ['class', 'library', 'marks', 'settings']);
  assert.ok(sizes.library >= bytes.length, `library ${sizes.library} bytes of ${bytes.length}`);
  assert.ok(sizes.marks > 0 && sizes.settings > 0, JSON.stringify(sizes));
  // The last class is its texts and figures: more than its three texts' characters.
  const chars = files.reduce((n, f) => n + f.buffer.length, 0);
  assert.ok(sizes.class > chars, `class ${sizes.class} bytes for ${chars} characters of text`);
  const table = () => page.$$eval('[data-testid=class-pairs] tbody tr', (trs) => trs.map((t) => [t.dataset.a, t.dataset.b, t.dataset.verdict, t.cells[2].textContent, t.querySelector('select').value]));
  const before = await table();
  assert.ok(before.length >= 1 && before.every((r) => r[2] !== ''), JSON.stringify(before));

  // A reload: the last class is shown again as it was, nothing read or
  // computed (issue 49 item 4), its library matches and review mark with it.
  await page.reload();
  await page.click('[data-testid=mode-class-set]');
  await page.waitForSelector('[data-testid=class-status][data-kept=true]');
  assert.match(await page.textContent('[data-testid=class-status]'), /the last class, kept on this device since/);
  assert.deepEqual(await table(), before);
  assert.deepEqual(await matches(), ['ann last-year', 'ben last-year']);
  // Given again, the class runs as usual: the library, the mark and the
  // setting are back.
  await page.waitForFunction(() => document.querySelector('[data-testid=class-stock]').value === '40');
  await page.setInputFiles('[data-testid=class-files]', files);
  await classDone(page);
  assert.deepEqual(await matches(), ['ann last-year', 'ben last-year']);
  assert.match(await page.textContent('[data-testid=class-inputs]'), /the library school\.ndl \(kept on this device\)/);
  assert.equal(await page.inputValue('[data-testid=class-pairs] tbody tr[data-a=ann][data-b=ben] select'), 'confirmed');

  // Forgotten: the library is no longer checked (the class runs again
  // without it) and no longer listed; the rest stays.
  const run = Number(await page.getAttribute('[data-testid=class-status]', 'data-run'));
  await page.click('[data-testid=stored-data] summary');
  await page.click('[data-testid=stored-data] li[data-kept=library] button');
  await classDone(page, run);
  assert.equal(await page.isVisible('[data-testid=class-library-matches]'), false);
  assert.deepEqual(Object.keys(await kept()).sort(), ['class', 'marks', 'settings']);
  for (const what of ['marks', 'class']) {
    await page.click(`[data-testid=stored-data] li[data-kept=${what}] button`);
    await page.waitForFunction((w) => !document.querySelector(`[data-testid=stored-data] li[data-kept=${w}]`), what);
  }
  await page.reload();
  await page.waitForSelector('[data-testid=stored-data] li[data-kept=settings]', { state: 'attached' });
  assert.deepEqual(Object.keys(await kept()), ['settings']);
  // No class kept: the class view is empty after the reload.
  await page.click('[data-testid=mode-class-set]');
  assert.equal(await page.getAttribute('[data-testid=class-status]', 'data-kept'), null);
  assert.equal(await page.$$eval('[data-testid=class-pairs] tbody tr', (trs) => trs.length), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
