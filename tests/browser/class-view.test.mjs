// Browser tests of the class view a teacher can read (issue 39), in
// Chromium, on the shared Clough–Stevenson answers: a source given after
// the class is applied and shown; review marks survive a student added and
// are listed, not dropped, when their pair leaves; sorting by verdict; the
// way back from a pair to the class; a phone layout without sideways
// scrolling; no axe-core violation of any impact in either view; accents
// forgiven by default; a table of hundreds of pairs rendered only where it
// is looked at; a graph whose labels never overlap, with groups opened one
// by one; a histogram where a handful of near copies shows; a worker that
// stops answering found, said, and the run resumed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { clough, cloughLabels, docsBench } from '../js/helpers.mjs';
import { classDone as done, launch, openPage, scoreAfter, txt } from './browser.mjs';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

const runOf = async (page) => Number(await page.getAttribute('[data-testid=class-status]', 'data-run'));


const rows = (page) =>
  page.$$eval('[data-testid=class-pairs] tbody tr', (trs) =>
    trs.map((t) => ({ a: t.dataset.a, b: t.dataset.b, source: t.dataset.source === 'true', verdict: t.dataset.verdict, review: t.querySelector('select').value })));

// The answers of task a of the corpus (19 students) and its source.
const taskA = () => cloughLabels().filter((l) => l.source === 'orig_taska.txt');
const files = (labels) => labels.map((l) => txt(l.file, clough(l.file)));

async function axeViolations(page) {
  await page.evaluate(readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8'));
  return page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3)}`));
}

test('a source given after the class is applied and shown; marks survive a student added and are listed when their pair leaves', async () => {
  const answers = taskA();
  const { context, page, errors, consoleErrors } = await openPage(env);
  await page.click('[data-testid=mode-class-set]');
  await page.setInputFiles('[data-testid=class-files]', files(answers));
  await done(page);
  const without = await rows(page);
  assert.ok(!without.some((r) => r.source), 'no source yet');
  assert.match(await page.textContent('[data-testid=class-inputs]'), /19 students · no source · no template/);

  // The source, given after the class: the class is analysed again with it,
  // without giving the class again.
  let run = await runOf(page);
  await page.setInputFiles('[data-testid=class-sources]', [txt('orig_taska.txt', clough('orig_taska.txt'))]);
  await done(page, run);
  const withSource = await rows(page);
  const copied = answers.filter((l) => l.category === 'cut').map((l) => l.file.replace(/\.txt$/, ''));
  assert.ok(copied.length >= 3);
  for (const id of copied) {
    assert.ok(withSource.some((r) => r.a === id && r.b === 'source: orig_taska' && r.source), `${id} (cut) paired with the source given after the class`);
  }
  assert.match(await page.textContent('[data-testid=class-inputs]'), /19 students · 1 source \(orig_taska\)/);

  // A template typed after the class is applied too.
  run = await runOf(page);
  await page.fill('[data-testid=class-template]', 'PageRank and inheritance in object oriented programming: explain.');
  await done(page, run);
  assert.match(await page.textContent('[data-testid=class-inputs]'), /a template of 8 words/);

  // A mark on a pair (a student and the source: with the source given, the
  // answers copied from it pair with it rather than with each other)…
  const pair = (await rows(page))[0];
  const sel = `[data-testid=class-pairs] tbody tr[data-a="${pair.a}"][data-b="${pair.b}"] select`;
  await page.selectOption(sel, 'confirmed');
  await page.waitForFunction(() => /saved/.test(document.querySelector('#class-saved').textContent));
  // …survives a student added (the class given again with one more answer).
  const extra = cloughLabels().find((l) => l.source === 'orig_taskb.txt');
  run = await runOf(page);
  await page.setInputFiles('[data-testid=class-files]', files([...answers, extra]));
  await done(page, run);
  assert.match(await page.textContent('[data-testid=class-inputs]'), /20 students/);
  assert.equal(await page.inputValue(sel), 'confirmed', 'the mark survived a student added');
  assert.equal(await page.isHidden('[data-testid=class-orphan-marks]'), true);
  // A student of the marked pair leaves: the mark is listed, not dropped.
  run = await runOf(page);
  await page.setInputFiles('[data-testid=class-files]', files(answers.filter((l) => l.file !== `${pair.a}.txt`)));
  await done(page, run);
  assert.equal(await page.isVisible('[data-testid=class-orphan-marks]'), true);
  assert.match(await page.textContent('[data-testid=class-orphan-marks]'), new RegExp(`${pair.a} and ${pair.b}: confirmed`));
  // And comes back when the student does.
  run = await runOf(page);
  await page.setInputFiles('[data-testid=class-files]', files(answers));
  await done(page, run);
  assert.equal(await page.inputValue(sel), 'confirmed');
  assert.deepEqual(errors, []);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('sort by verdict, a way back from a pair to the class, no axe-core violation in either view', async () => {
  const { context, page, errors } = await openPage(env);
  await page.click('[data-testid=mode-class-set]');
  await page.setInputFiles('[data-testid=class-files]', files(taskA()));
  await done(page);
  // Sorted by verdict: every near copy before every light revision, before
  // every heavy one, before the originals.
  await page.click('[data-testid=class-pairs] th[data-sort=verdict] button');
  const rank = { cut: 4, light: 3, heavy: 2, non: 1 };
  const order = (await rows(page)).map((r) => rank[r.verdict] ?? 0);
  assert.ok(order.length >= 5, `${order.length} pairs`);
  assert.deepEqual(order, [...order].sort((x, y) => y - x), 'near copies first');
  assert.equal(await page.getAttribute('[data-testid=class-pairs] th[data-sort=verdict]', 'aria-sort'), 'descending');
  await page.click('[data-testid=class-pairs] th[data-sort=verdict] button');
  const reversed = (await rows(page)).map((r) => rank[r.verdict] ?? 0);
  assert.deepEqual(reversed, [...reversed].sort((x, y) => x - y), 'the same column again reverses');

  // Open the pair in the middle of the table, then come back to it.
  const all = await rows(page);
  const mid = all[Math.floor(all.length / 2)];
  const row = `[data-testid=class-pairs] tbody tr[data-a="${mid.a}"][data-b="${mid.b}"]`;
  await page.click(`${row} td:last-child button`);
  await page.waitForFunction(() => document.querySelector('[data-testid=score]').dataset.value !== undefined);
  assert.equal(await page.isVisible('[data-testid=back-to-class]'), true);
  assert.equal(await page.isHidden('#class-view'), true);
  assert.deepEqual(await axeViolations(page), [], 'two-text view');
  await page.click('[data-testid=back-to-class]');
  assert.equal(await page.isVisible('#class-view'), true);
  const focused = await page.evaluate(() => {
    const tr = document.activeElement.closest('tr');
    return tr && [tr.dataset.a, tr.dataset.b];
  });
  assert.deepEqual(focused, [mid.a, mid.b], 'back at the same pair');
  const inView = await page.$eval(row, (tr) => {
    const r = tr.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });
  assert.ok(inView, 'its row in view');
  // The class view's help, open, and the whole view: nothing for axe.
  await page.click('[data-testid=class-help] summary');
  assert.match(await page.textContent('[data-testid=class-help]'), /Choosing the cut-off/);
  assert.deepEqual(await axeViolations(page), [], 'class-set view');
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a phone (390 × 844) the class table needs no sideways scroll to reach Verdict, Review and Open', async () => {
  const { context, page, errors } = await openPage(env, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.click('[data-testid=mode-class-set]');
  await page.setInputFiles('[data-testid=class-files]', files(taskA()));
  await done(page);
  const widths = await page.evaluate(() => ({
    page: document.scrollingElement.scrollWidth,
    viewport: window.innerWidth,
    table: document.querySelector('[data-testid=class-pairs]').getBoundingClientRect().right,
  }));
  assert.ok(widths.page <= widths.viewport, `page ${widths.page} px wide in ${widths.viewport}`);
  assert.ok(widths.table <= widths.viewport, `table ends at ${widths.table} px`);
  for (const what of ['td[data-label=Verdict]', 'select', 'td:last-child button']) {
    const box = await page.$eval(`[data-testid=class-pairs] tbody tr ${what}`, (e) => e.getBoundingClientRect().right);
    assert.ok(box <= widths.viewport, `${what} at ${box} px`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('accents are forgiven by default: German typed with ae/oe/ue, Spanish without accents', async () => {
  const data = JSON.parse(readFileSync(new URL('../data/accents.json', import.meta.url), 'utf8'));
  const { context, page, errors } = await openPage(env);
  for (const language of ['german', 'spanish']) {
    const { original, typed } = data[language];
    const on = await scoreAfter(page, async () => {
      await page.fill('[data-testid=source-1]', original);
      await page.fill('[data-testid=text-a]', typed);
    });
    assert.ok(on >= 0.95, `${language}: ${on} with accents forgiven (the default)`);
    const off = await scoreAfter(page, () => page.uncheck('[data-testid=accents-switch]'));
    assert.ok(off < 0.9, `${language}: ${off} without`);
    await page.check('[data-testid=accents-switch]');
    await page.fill('[data-testid=text-a]', '');
  }
  // In the class set too (on by default there).
  await page.click('[data-testid=mode-class-set]');
  await page.setInputFiles('[data-testid=class-files]', [txt('de.txt', data.german.original), txt('de-typed.txt', data.german.typed)]);
  await done(page);
  const got = await rows(page);
  assert.deepEqual(got.map((r) => [r.a, r.b]), [['de', 'de-typed']]);
  const score = Number(await page.getAttribute('[data-testid=class-pairs] tbody tr', 'data-score'));
  assert.ok(score >= 0.95, `class pair ${score}`);
  assert.deepEqual(errors, []);
  await context.close();
});

// docs-bench documents of `n` planted pairs: their texts as files.
function plantedClass(n) {
  const { docs, pairs } = docsBench();
  const ids = [...new Set(pairs.slice(0, n).flatMap((p) => [p.a, p.b]))];
  return ids.map((id) => txt(`${id}.txt`, docs.get(id)));
}

// Whether two labels' rotated boxes (from their screen matrix) intersect:
// the separating-axis test on the two rectangles.
const overlapping = (page) =>
  page.$$eval('[data-testid=class-graph] text.label', (labels) => {
    const quads = labels.map((t) => {
      const b = t.getBBox();
      const m = t.getScreenCTM();
      return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
        .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
    });
    const axes = (q) => [0, 1].map((i) => [q[i + 1][1] - q[i][1], q[i][0] - q[i + 1][0]]);
    const apart = (p, q) => [...axes(p), ...axes(q)].some(([ax, ay]) => {
      const proj = (r) => r.map(([x, y]) => x * ax + y * ay);
      const [a, b] = [proj(p), proj(q)];
      return Math.max(...a) <= Math.min(...b) + 0.01 || Math.max(...b) <= Math.min(...a) + 0.01;
    });
    const bad = [];
    for (let i = 0; i < quads.length; i++) {
      for (let j = i + 1; j < quads.length; j++) {
        if (!apart(quads[i], quads[j])) bad.push(`${labels[i].textContent} / ${labels[j].textContent}`);
      }
    }
    return { labels: labels.length, bad: bad.slice(0, 5) };
  });

test('the graph: labels never overlap, a large group collapsed and opened on its own; the histogram shows a handful of near copies', async () => {
  const { context, page, errors } = await openPage(env);
  await page.click('[data-testid=mode-class-set]');
  await page.setInputFiles('[data-testid=class-files]', files(taskA()));
  await done(page);
  let o = await overlapping(page);
  assert.ok(o.labels >= 3, `${o.labels} labels at 19 texts`);
  assert.deepEqual(o.bad, [], 'labels overlap at 19 texts');
  let run;

  // A ring of 12 students sharing one passage: one group, larger than the
  // overview draws whole, collapsed into a disc and opened on its own.
  const shared = clough('orig_taskb.txt').split(/\s+/).slice(0, 60).join(' ');
  const own = cloughLabels().filter((l) => l.category === 'non').slice(0, 12);
  run = await runOf(page);
  await page.setInputFiles('[data-testid=class-files]', own.map((l, i) => txt(`ring${String(i).padStart(2, '0')}.txt`, `${clough(l.file)}\n\n${shared}`)));
  await done(page, run);
  assert.equal(await page.getAttribute('[data-testid=class-graph]', 'data-clusters'), '1');
  assert.equal((await page.$$('[data-testid=class-graph] .group-disc')).length, 1, 'the group of 12 collapsed');
  assert.match(await page.textContent('[data-testid=class-graph] .group-count'), /^12 texts$/);
  await page.click('[data-testid=class-graph-open]');
  assert.equal(await page.getAttribute('[data-testid=class-graph]', 'data-zoomed'), '12');
  o = await overlapping(page);
  assert.equal(o.labels, 12);
  assert.deepEqual(o.bad, [], 'labels overlap in the ring opened');
  await page.click('[data-testid=class-graph-back]');

  // 120 planted pairs of docs-bench at a 2 % cut-off: groups of texts
  // sharing subject wording, and many small ones.
  run = await runOf(page);
  await page.fill('[data-testid=class-cutoff]', '2');
  await page.locator('[data-testid=class-cutoff]').blur(); // applied now, not at the next click
  await page.setInputFiles('[data-testid=class-files]', plantedClass(120));
  await done(page, run, 300_000);
  o = await overlapping(page);
  assert.deepEqual(o.bad, [], 'labels overlap in the overview');
  const groups = Number(await page.getAttribute('[data-testid=class-graph]', 'data-clusters'));
  assert.ok(groups >= 2, `${groups} groups`);
  // Open the largest group: every one of its texts labelled, none overlapping.
  const open = await page.$$('[data-testid=class-graph-open]');
  assert.ok(open.length >= 1, 'a group to open');
  const size = Number((await open[0].textContent()).match(/group of (\d+)/)[1]);
  await open[0].click();
  assert.equal(Number(await page.getAttribute('[data-testid=class-graph]', 'data-zoomed')), size);
  o = await overlapping(page);
  assert.equal(o.labels, size);
  assert.deepEqual(o.bad, [], 'labels overlap in the group opened');
  await page.click('[data-testid=class-graph-back]');
  assert.equal(await page.getAttribute('[data-testid=class-graph]', 'data-zoomed'), '');

  // The histogram: every non-empty bin, the few near copies at 95–100 %
  // included, is drawn tall enough to see beside the fullest.
  const bars = await page.$$eval('[data-testid=class-histogram] rect.bar', (rs) =>
    rs.map((r) => ({ h: r.getBoundingClientRect().height, n: Number(r.querySelector('title').textContent.match(/: (\d+) pairs/)[1]) })));
  const most = Math.max(...bars.map((b) => b.n));
  const tallest = Math.max(...bars.map((b) => b.h));
  assert.ok(most >= 20, `${most} pairs in the fullest bin`);
  // On a linear scale a bin of one pair would be 1/most as tall.
  for (const b of bars.filter((x) => x.n > 0)) {
    assert.ok(b.h >= 6 && b.h >= 0.15 * tallest, `a bin of ${b.n} pairs drawn ${b.h.toFixed(1)} px tall beside ${tallest.toFixed(1)} px for ${most}`);
  }
  const counts = await page.$$eval('[data-testid=class-histogram] text.count', (ts) => ts.map((t) => t.textContent));
  assert.equal(counts.length, bars.filter((b) => b.n > 0).length, 'every bar carries its count');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a table of hundreds of pairs renders only the rows in view; scrolling, sorting and the way back still reach every pair', async () => {
  const { context, page, errors } = await openPage(env);
  await page.click('[data-testid=mode-class-set]');
  await page.fill('[data-testid=class-cutoff]', '40');
  await page.locator('[data-testid=class-cutoff]').blur(); // applied now, not at the next click
  const class_ = plantedClass(260);
  await page.setInputFiles('[data-testid=class-files]', class_);
  await done(page, 0, 300_000);
  const count = Number((await page.textContent('#class-count')).match(/^(\d+)/)[1]);
  assert.ok(count > 200, `${count} pairs: the table is virtual`);
  const rendered = async () => page.$$eval('[data-testid=class-pairs] tbody tr[data-pair]', (trs) => trs.map((t) => t.dataset.pair));
  let shown = await rendered();
  assert.ok(shown.length < 100 && shown.length >= 10, `${shown.length} rows in the page for ${count} pairs`);
  assert.equal(await page.getAttribute('[data-testid=class-pairs]', 'aria-rowcount'), String(count + 1));
  // Scrolled to the end: the last pairs are there, the first are not.
  const first = shown[0];
  await page.$eval('[data-testid=class-pairs-scroll]', (b) => { b.scrollTop = b.scrollHeight; });
  await page.waitForFunction((f) => !document.querySelector(`[data-testid=class-pairs] tbody tr[data-pair="${f}"]`), first);
  shown = await rendered();
  const last = await page.$eval('[data-testid=class-pairs] tbody tr[data-pair]:last-of-type', (t) => Number(t.getAttribute('aria-rowindex')));
  assert.equal(last, count + 1, 'the last pair rendered at the end');
  // Sorting re-renders the window: the highest scores first again.
  await page.click('[data-testid=class-pairs] th[data-sort=containmentAb] button');
  await page.$eval('[data-testid=class-pairs-scroll]', (b) => { b.scrollTop = 0; });
  await page.waitForFunction(() => document.querySelector('[data-testid=class-pairs] tbody tr[data-pair]')?.getAttribute('aria-rowindex') === '2');
  const top = await page.$$eval('[data-testid=class-pairs] tbody tr[data-pair]', (trs) => trs.slice(0, 5).map((t) => t.cells[2].textContent));
  assert.deepEqual(top, [...top].sort((x, y) => parseFloat(y) - parseFloat(x)));
  // A pair far down the table, opened and come back to: its row is
  // rendered, in view and focused.
  await page.$eval('[data-testid=class-pairs-scroll]', (b) => { b.scrollTop = b.scrollHeight * 0.6; });
  // The window follows the scroll: its first row is far from the top.
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=class-pairs] tbody tr[data-pair]')?.getAttribute('aria-rowindex')) > 20);
  const far = await page.$eval('[data-testid=class-pairs] tbody tr[data-pair]:nth-of-type(20)', (t) => t.dataset.pair);
  await page.click(`[data-testid=class-pairs] tbody tr[data-pair="${far}"] td:last-child button`);
  await page.waitForFunction(() => document.querySelector('[data-testid=score]').dataset.value !== undefined);
  await page.$eval('[data-testid=class-pairs-scroll]', (b) => { b.scrollTop = 0; }); // as if the view had moved
  await page.click('[data-testid=back-to-class]');
  const focused = await page.evaluate(() => document.activeElement.closest('tr')?.dataset.pair);
  assert.equal(focused, far);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a worker that stops answering is found, said, and the run resumed to the end', async () => {
  const { context, page, errors } = await openPage(env);
  // Three seconds to answer a full comparison (two minutes by default).
  await page.goto(`${env.origin}/?stall=3000`);
  await page.click('[data-testid=mode-class-set]');
  await page.fill('[data-testid=class-cutoff]', '40');
  await page.locator('[data-testid=class-cutoff]').blur(); // applied now, not at the next click
  await page.setInputFiles('[data-testid=class-files]', plantedClass(150));
  await page.waitForFunction(() => /Comparing/.test(document.querySelector('[data-testid=class-status]').textContent));
  // One worker of the class's pool stops answering: a 15-second loop, five
  // times the stall limit.
  const pool = page.workers().filter((w) => /\/worker\.js/.test(w.url()) && !/read\//.test(w.url()));
  assert.ok(pool.length >= 1, 'the pool\'s workers');
  const hung = pool[pool.length - 1].evaluate(() => { const t = Date.now(); while (Date.now() - t < 15_000) {} }).catch(() => 'stopped');
  await page.waitForFunction(() => document.querySelector('[data-testid=class-status]').dataset.state === 'stalled', null, { timeout: 15_000 });
  assert.match(await page.textContent('[data-testid=class-status]'), /stopped answering for 3 s .* still to compare in full/);
  assert.equal(await page.textContent('[data-testid=class-action]'), 'Resume');
  await hung; // ends when the stalled worker is stopped
  await page.click('[data-testid=class-action]');
  await page.waitForFunction(() => document.querySelector('[data-testid=class-status]').dataset.state === 'done', null, { timeout: 120_000 });
  const verdicts = await page.$$eval('[data-testid=class-pairs] tbody tr[data-pair]', (trs) => trs.map((t) => t.dataset.verdict));
  assert.ok(verdicts.length > 0 && verdicts.every((v) => v && v !== 'error'), `every pair compared: ${verdicts.filter((v) => !v || v === 'error').length} not`);
  assert.deepEqual(errors, []);
  await context.close();
});
