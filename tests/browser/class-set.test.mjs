// Browser tests of the class-set mode (issue 24), in Chromium: real
// Clough–Stevenson answers of one task as a class with their Wikipedia
// source, docs-bench documents with their planted pairs, .docx/.pdf/.zip
// and folder input, the template exclusion, review marks across a reload,
// the CSV export, a pair opened in the two-text view, and no request off
// the page's origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import { zipSync, strToU8 } from 'fflate';
import Papa from 'papaparse';
import * as nd from '../../pkg/node.js';
import { cliPath, clough, cloughLabels, docsBench, repo } from '../js/helpers.mjs';
import { cyrillic, everyNth } from '../js/tricks.mjs';
import { classDone as done, highlighted, launch, openPage, txt, waitHot } from './browser.mjs';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});



/** The neardup CLI that `cargo test --features cli` built (npm test runs it first). */
const cli = () => {
  const path = cliPath();
  assert.ok(path, 'the neardup CLI is built (cargo test --features cli builds it)');
  return path;
};
const rows = (page) =>
  page.$$eval('[data-testid=class-pairs] tbody tr', (trs) =>
    trs.map((t) => ({ a: t.dataset.a, b: t.dataset.b, source: t.dataset.source === 'true', score: Number(t.dataset.score), verdict: t.dataset.verdict })));

test('a task of the Clough–Stevenson corpus with its source: copies flagged as "shared source", independent answers not', async () => {
  const answers = cloughLabels().filter((l) => l.source === 'orig_taska.txt');
  const { context, page, requests, errors, consoleErrors } = await openPage(env);
  // The reader's workers, as they start and end: the one that read the
  // class (and held every text) is ended once the texts are read, and a
  // fresh one takes its place.
  const readers = [];
  page.on('worker', (w) => {
    if (!w.url().endsWith('/read/worker.js')) return;
    const r = { closed: false };
    readers.push(r);
    w.on('close', () => (r.closed = true));
  });
  // Sources first, then the class: giving the class starts the analysis,
  // with no other click (and without switching modes first).
  await page.setInputFiles('[data-testid=class-sources]', [txt('orig_taska.txt', clough('orig_taska.txt'))]);
  await page.setInputFiles('[data-testid=class-files]', answers.map((l) => txt(l.file, clough(l.file))));
  await done(page);
  assert.ok(readers.length >= 2 && readers.at(-2).closed && !readers.at(-1).closed, `readers ${JSON.stringify(readers)}`);
  assert.equal(await page.isVisible('[data-testid=class-pairs]'), true);
  const got = await rows(page);
  const flagged = new Set(got.filter((r) => r.source).map((r) => r.a));
  // Copied answers whose text is in the corpus's source (an independent
  // measure: the share of their 3-word phrases found in it).
  for (const l of answers) {
    const id = l.file.replace(/\.txt$/, '');
    const share = nd.compare(clough(l.file), clough(l.source)).score;
    if (l.category === 'non') assert.ok(!flagged.has(id), `${id} (non) flagged as copying the source`);
    else if (share > 0.3) assert.ok(flagged.has(id), `${id} (${l.category}, ${share.toFixed(2)}) not flagged`);
  }
  for (const r of got.filter((x) => x.source)) assert.equal(r.b, 'source: orig_taska');
  assert.ok(got.filter((r) => r.source).every((r) => r.verdict === 'shared-source'));

  // The CSV: the exact header, one row per pair shown, each with the
  // figures its table row shows (the full comparison's, issue 48 item 3)
  // and the class measure's score as its similarity.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=class-export-csv]')]);
  const text = readFileSync(await download.path(), 'utf8');
  assert.equal(text.split('\n')[0], 'a,b,kind,containment_ab,containment_ba,similarity,verdict,review,obfuscation_a,obfuscation_b');
  const csv = Papa.parse(text.trim(), { header: true }).data;
  assert.equal(csv.length, got.length);
  const shownFigures = await page.$$eval('[data-testid=class-pairs] tbody tr', (trs) =>
    Object.fromEntries(trs.map((t) => [`${t.dataset.a} ${t.dataset.b}`, [t.cells[2].textContent, t.cells[3].textContent, Number(t.dataset.score)]])));
  for (const r of csv) {
    const [ab, ba, score] = shownFigures[`${r.a} ${r.b}`];
    assert.deepEqual([`${Math.round(r.containment_ab * 100)}%`, `${Math.round(r.containment_ba * 100)}%`], [ab, ba], JSON.stringify(r));
    assert.equal(Number(r.similarity), score);
    assert.equal(r.kind, r.b.startsWith('source: ') ? 'source' : 'students');
  }

  // The view passes an axe-core audit: no violation of any impact (issue 39).
  await page.evaluate(readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8'));
  const bad = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3)}`));
  assert.deepEqual(bad, []);

  const foreign = requests.filter((u) => !u.startsWith(env.origin + '/') && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(foreign, [], 'requests outside the page origin');
  assert.deepEqual(errors, []);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('a class whose copied answers are tricked still pairs them with the source, the students flagged (issue 47)', async () => {
  const answers = cloughLabels().filter((l) => l.source === 'orig_taskb.txt');
  // The near copies that share a third of their phrases with the source
  // (an independent measure, as above), tricked.
  const tricked = new Set(answers
    .filter((l) => l.category === 'cut' && nd.compare(clough(l.file), clough(l.source)).score > 0.3)
    .map((l) => l.file.replace(/\.txt$/, '')));
  assert.ok(tricked.size >= 2);
  const trick = (t) => everyNth(cyrillic(t), 2, '\u200b');
  const { context, page, errors } = await openPage(env);
  await page.click('[data-testid=mode-class-set]');
  await page.setInputFiles('[data-testid=class-sources]', [txt('orig_taskb.txt', clough('orig_taskb.txt'))]);
  await page.setInputFiles('[data-testid=class-files]', answers.map((l) => {
    const id = l.file.replace(/\.txt$/, '');
    return txt(l.file, tricked.has(id) ? trick(clough(l.file)) : clough(l.file));
  }));
  await done(page);
  const paired = await rows(page);
  for (const id of tricked) assert.ok(paired.some((r) => r.a === id && r.source), `${id} not paired with the source`);
  const flagged = await page.$$eval('[data-testid=class-obfuscation]', (els) => els.map((e) => e.dataset.text));
  for (const id of tricked) assert.ok(flagged.includes(id), `${id} not flagged: ${flagged}`);
  assert.ok(flagged.every((id) => tricked.has(id)), `only the tricked are flagged: ${flagged}`);
  // The CSV carries each text's count.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=class-export-csv]')]);
  const csv = Papa.parse(readFileSync(await download.path(), 'utf8').trim(), { header: true }).data;
  for (const r of csv) assert.equal(Number(r.obfuscation_a) > 0, tricked.has(r.a), JSON.stringify(r));
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 47 item 3 in the page: a copy padded with hidden words in a .docx
// (Word's hidden text and white text, as a student would hide them) is read
// by the core's reader without them, pairs with the source as the copy it
// is, and the student is flagged with the runs counted.
test('a .docx copy padded with hidden text pairs with its source and is flagged (issue 47)', async () => {
  const copy = clough('g0pA_taskb.txt');
  const padding = clough('g4pC_taska.txt').split(/\n+/).filter((l) => l.trim());
  const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const esc = (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const lines = copy.split(/\n+/).filter((l) => l.trim());
  const body = lines.map((l, i) => {
    const trick = i % 2 ? '<w:color w:val="FFFFFF"/>' : '<w:vanish/>';
    return `<w:p><w:r><w:t xml:space="preserve">${esc(l)} </w:t></w:r><w:r><w:rPr>${trick}</w:rPr><w:t>${esc(padding[i % padding.length])}</w:t></w:r></w:p>`;
  }).join('');
  const docx = zipSync({ 'word/document.xml': strToU8(`<?xml version="1.0"?><w:document ${w}><w:body>${body}</w:body></w:document>`) });
  const { context, page, errors } = await openPage(env);
  await page.click('[data-testid=mode-class-set]');
  await page.setInputFiles('[data-testid=class-files]', [
    { name: 'copier.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: Buffer.from(docx) },
    txt('original.txt', copy),
    txt('other.txt', clough('g4pC_taska.txt')),
  ]);
  await done(page);
  const paired = await rows(page);
  assert.deepEqual(paired.map((r) => [r.a, r.b]), [['copier', 'original']], JSON.stringify(paired));
  const flagged = await page.$$eval('[data-testid=class-obfuscation]', (els) => els.map((e) => [e.dataset.text, e.textContent + e.title]));
  assert.deepEqual(flagged.map((f) => f[0]), ['copier']);
  assert.match(flagged[0][1], new RegExp(`${lines.length} runs of hidden text left out`), flagged[0][1]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('docs-bench documents as a class set: the planted pairs are found (F1 ≥ 0.95 at a 50 % cut-off)', async () => {
  const { docs, pairs } = docsBench();
  // 150 planted pairs and 100 other documents.
  const chosen = pairs.slice(0, 150);
  const inPairs = new Set(chosen.flatMap((p) => [p.a, p.b]));
  const others = [...docs.keys()].filter((id) => !pairs.some((p) => p.a === id || p.b === id)).slice(0, 100);
  const ids = [...inPairs, ...others];
  const { context, page, errors } = await openPage(env);
  await page.click('[data-testid=mode-class-set]');
  await page.fill('[data-testid=class-cutoff]', '50');
  await page.setInputFiles('[data-testid=class-files]', ids.map((id) => txt(`${id}.txt`, docs.get(id))));
  await done(page);
  // The time said counts the reading of the files too (issue 49), and says how much of it.
  const status = await page.textContent('[data-testid=class-status]');
  const [, all, reading] = status.match(/· ([\d.]+) s in your browser \(([\d.]+) s of it reading the files\) · nothing uploaded$/) ?? [];
  assert.ok(all && Number(reading) <= Number(all), status);
  const got = await rows(page);
  // Truth: the planted pairs, and pairs where one text occurs word for word
  // in the other (real reuse the benchmark did not plant).
  const fold = (s) => s.toLowerCase().replace(/\s+/g, ' ').trim();
  const planted = new Set(chosen.map((p) => [p.a, p.b].sort().join(' ')));
  let tp = 0;
  let fp = 0;
  for (const r of got) {
    const key = [r.a, r.b].sort().join(' ');
    if (planted.has(key) || fold(docs.get(r.a)).includes(fold(docs.get(r.b))) || fold(docs.get(r.b)).includes(fold(docs.get(r.a)))) tp++;
    else fp++;
  }
  const found = got.filter((r) => planted.has([r.a, r.b].sort().join(' '))).length;
  const f1 = (2 * tp) / (2 * tp + fp + (planted.size - found));
  assert.ok(f1 >= 0.95, `F1 ${f1.toFixed(3)}: ${found}/${planted.size} planted found, ${fp} false`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('.docx, .pdf and .txt in a .zip with a folder per student, and a picked folder', async () => {
  const [x, y, z] = [clough('g0pA_taskb.txt'), clough('g1pD_taskb.txt'), clough('g0pB_taskb.txt')]; // cut, cut, non
  const docx = new Uint8Array(await Packer.toBuffer(new Document({
    sections: [{ children: x.split(/\n+/).filter(Boolean).map((p) => new Paragraph({ children: [new TextRun(p)] })) }],
  })));
  const pdf = await (async () => {
    const c = await env.browser.newContext();
    const p = await c.newPage();
    await p.setContent(`<!doctype html><meta charset="utf-8"><body style="font-variant-ligatures:none">${y.split(/\n+/).map((s) => `<p>${s.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`).join('')}</body>`);
    const out = new Uint8Array(await p.pdf({ format: 'A4' }));
    await c.close();
    return out;
  })();
  const zip = zipSync({
    'class/alice/essay.docx': docx,
    'class/bob/essay.pdf': pdf,
    'class/carol/part1.txt': strToU8(z.slice(0, 600)),
    'class/carol/part2.txt': strToU8(z.slice(600)),
    'class/dave/essay.bin': new Uint8Array(64).fill(1),
    'class/erin/huge.txt': strToU8('word '.repeat((17 << 20) / 5)),
  });
  const { context, page, errors } = await openPage(env);
  await page.setInputFiles('[data-testid=class-files]', [{ name: 'class.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) }]);
  await done(page);
  const got = await rows(page);
  assert.ok(got.some((r) => r.a === 'alice' && r.b === 'bob'), `alice–bob found: ${JSON.stringify(got)}`);
  assert.ok(!got.some((r) => r.a === 'carol' || r.b === 'carol'), 'carol (independent) not paired');
  const failed = await page.textContent('[data-testid=class-failed]');
  assert.match(failed, /essay\.bin: not a text/);
  assert.match(failed, /huge\.txt: its text is over the 16 MiB limit of one text/);

  // The same class as a picked folder: a sub-folder per student.
  const dir = mkdtempSync(join(tmpdir(), 'neardup-class-'));
  for (const [who, name, bytes] of [['alice', 'essay.docx', docx], ['bob', 'essay.pdf', pdf], ['carol', 'essay.txt', strToU8(z)]]) {
    mkdirSync(join(dir, 'class', who), { recursive: true });
    writeFileSync(join(dir, 'class', who, name), bytes);
  }
  const before = Number(await page.getAttribute('[data-testid=class-status]', 'data-run'));
  await page.setInputFiles('[data-testid=class-folder]', join(dir, 'class'));
  await done(page, before);
  const again = await rows(page);
  assert.deepEqual(again.map((r) => [r.a, r.b]), [['alice', 'bob']]);
  // The graph: one group, alice and bob, joined by one edge.
  assert.equal(await page.getAttribute('[data-testid=class-graph]', 'data-clusters'), '1');
  assert.deepEqual(await page.$$eval('[data-testid=class-graph] text', (ts) => ts.map((t) => t.textContent).sort()), ['alice', 'bob']);
  assert.equal((await page.$$('[data-testid=class-graph] line.edge')).length, 1);
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 48: a folder of class sections (a sub-folder per section, a file a
// student) reads as one student a section, and the page says so
// (class-grouping); "Each file a student" makes every file one, the two
// anna.txt of two sections kept apart — as `neardup class --each-file`.
test('a folder of sections is said to be joined; "Each file a student" keeps every file apart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'neardup-sections-'));
  const texts = ['g0pA_taskb.txt', 'g0pB_taskb.txt', 'g0pC_taskb.txt', 'g0pA_taskb.txt', 'g0pD_taskb.txt'].map(clough);
  const files = ['period1/anna.txt', 'period1/ben.txt', 'period1/cy.txt', 'period2/anna.txt', 'period2/dee.txt'];
  files.forEach((f, i) => {
    mkdirSync(join(dir, 'class', f.split('/')[0]), { recursive: true });
    writeFileSync(join(dir, 'class', f), texts[i]);
  });
  const { context, page, errors } = await openPage(env);
  await page.click('[data-testid=mode-class-set]');
  await page.setInputFiles('[data-testid=class-folder]', join(dir, 'class'));
  await done(page);
  assert.match(await page.textContent('[data-testid=class-status]'), /^2 students/);
  assert.equal(await page.isVisible('[data-testid=class-grouping]'), true);
  assert.match(await page.textContent('[data-testid=class-grouping]'), /^5 files were read as 2 students \(2 of them from more than one file/);
  const before = Number(await page.getAttribute('[data-testid=class-status]', 'data-run'));
  await page.check('[data-testid=class-each-file]');
  await done(page, before);
  assert.match(await page.textContent('[data-testid=class-status]'), /^5 students/);
  assert.equal(await page.isVisible('[data-testid=class-grouping]'), false);
  // The two anna.txt hold one answer: the pair of the two sections' annas.
  const got = await rows(page);
  assert.ok(got.some((r) => r.a === 'period1/anna' && r.b === 'period2/anna'), JSON.stringify(got));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the template counts for no pair; review marks survive a reload; a pair opens in the two-text view', async () => {
  const template = 'Question 3. Explain what PageRank is, how it is computed from the links between pages, and why a search engine would use it to order its results.';
  const students = [
    [`${template}\n\nMy answer: ranking uses links as votes, counted again and again until the numbers settle down.`],
    [`${template}\n\nI think the algorithm models a surfer who clicks at random, and pages where he often lands rank high.`],
    [`${template}\n\n${clough('g0pA_taskb.txt')}`],
    [`${template}\n\n${clough('g0pA_taskb.txt').replace(/Google/g, 'the company')}`],
    [`${template}\n\nIn short: ${clough('g0pA_taskb.txt').split('\n')[0]}`],
  ].map(([text], i) => txt(`student${i + 1}.txt`, text));
  const { context, page, errors } = await openPage(env);
  // The prompt is in all five texts: 28 words, too long for a stock
  // phrase (issue 38), it pairs everyone and the page names it as a passage
  // of five texts, saying to give it as the template.
  await page.setInputFiles('[data-testid=class-files]', students);
  await done(page);
  let before = Number(await page.getAttribute('[data-testid=class-status]', 'data-run'));
  const without = await rows(page);
  assert.ok(without.some((r) => r.a === 'student1' && r.b === 'student2'), 'without the template, the prompt pairs everyone');
  const named = await page.textContent('[data-testid=class-shared-passages]');
  assert.match(named, /in 5 texts: student1, student2, student3, student4, student5/);
  assert.match(named, /give it as the template/);
  // …and the template takes it out.
  await page.fill('[data-testid=class-template]', template);
  before = Number(await page.getAttribute('[data-testid=class-status]', 'data-run'));
  await page.setInputFiles('[data-testid=class-files]', students);
  await done(page, before);
  const withT = await rows(page);
  assert.deepEqual(withT.map((r) => [r.a, r.b]).sort(), [['student3', 'student4'], ['student3', 'student5'], ['student4', 'student5']]);
  assert.match(await page.textContent('[data-testid=class-exclusions]'), /template's phrases \(found in 5 of 5 texts\)/);

  // The evidence pack, with pseudonyms: settings, every file's SHA-256, the
  // pair with its passages highlighted and the template greyed; no script,
  // no student's name.
  await page.check('[data-testid=class-pseudonyms]');
  const [pack] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=class-export-pack]')]);
  const html = readFileSync(await pack.path(), 'utf8');
  for (const f of students) assert.ok(html.includes(createHash('sha256').update(f.buffer).digest('hex')), `SHA-256 of ${f.name}`);
  assert.ok(!/student\d/.test(html), 'no student name with pseudonyms');
  assert.match(html, /Pair \d: Student 3 and Student 4/);
  assert.ok((html.match(/<mark/g) ?? []).length >= 2, 'passages highlighted');
  assert.ok(html.includes('class="excluded"'), 'the template greyed');
  assert.ok(!/<script|<link|src=/i.test(html), 'self-contained, no script');
  // Issue 39: pseudonyms reach the CSV; a pair dismissed on review is left
  // out of the pack, and the pack says so.
  const [csvPseudo] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=class-export-csv]')]);
  const csvText = readFileSync(await csvPseudo.path(), 'utf8');
  assert.ok(!/student\d/.test(csvText), csvText);
  assert.match(csvText, /Student 3,Student 4/);
  const pairsBefore = (html.match(/<section class="pair">/g) ?? []).length;
  await page.selectOption('[data-testid=class-pairs] tbody tr select', 'dismissed');
  const [pack2] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=class-export-pack]')]);
  const html2 = readFileSync(await pack2.path(), 'utf8');
  assert.equal((html2.match(/<section class="pair">/g) ?? []).length, pairsBefore - 1);
  assert.match(html2, /<td>Pairs dismissed on review<\/td><td>1 \(left out\)<\/td>/);

  await page.selectOption('[data-testid=class-pairs] tbody tr select', 'confirmed');
  await page.waitForFunction(() => /saved/.test(document.querySelector('#class-saved').textContent));
  await page.reload();
  await page.click('[data-testid=mode-class-set]');
  await page.fill('[data-testid=class-stock]', '100');
  await page.fill('[data-testid=class-template]', template);
  await page.setInputFiles('[data-testid=class-files]', students);
  await done(page);
  assert.equal(await page.inputValue('[data-testid=class-pairs] tbody tr select'), 'confirmed');

  await page.click('[data-testid=class-pairs] tbody tr[data-a=student3][data-b=student4] button');
  await page.waitForFunction(() => document.querySelector('[data-testid=score]').dataset.value !== undefined);
  assert.equal(await page.isVisible('[data-testid=text-a]'), true);
  assert.equal(await page.getAttribute('[data-testid=text-a]', 'data-file'), 'student3');
  assert.ok(Number(await page.getAttribute('[data-testid=score]', 'data-value')) > 0.8);
  await page.click('[data-testid=next-passage]');
  await waitHot(page, '#view-b');
  // The class set's exclusions go with the pair: the template is greyed in
  // both texts, not highlighted as shared.
  await page.waitForFunction(() => document.querySelector('#view-a').dataset.done === 'true');
  const greyed = await page.$$eval('#view-a span.excluded', (ss) => ss.map((x) => x.textContent).join(' '));
  assert.ok(greyed.includes('Explain what PageRank is'), `template greyed: ${greyed.slice(0, 80)}`);
  const marked = (await highlighted(page, '#view-a')).map((h) => h.text).join(' ');
  assert.ok(!marked.includes('Explain what PageRank is'), 'the template is not a shared passage');
  // The first paragraph is in three students' texts: the passage list says so.
  const inClass = await page.$$eval('#passages li[data-texts]', (ls) => ls.map((l) => [Number(l.dataset.texts), l.textContent]));
  assert.ok(inClass.some(([n, t]) => n === 3 && /in 3 texts of the class/.test(t)), JSON.stringify(inClass).slice(0, 200));
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 48 item 3: a pair of students opened from a class with a source
// shows the passage both took from the source as the source's (in its own
// colour), and only what they share beyond it as each other's.
test('a pair opened from a class with a source shows what came from the source as the source\'s', async () => {
  const source = clough('orig_taska.txt');
  const taken = source.split(/(?<=\.)\s+/).slice(0, 3).join(' ');
  const own = 'Our group agreed that a subclass should never reach into the private state of its parent, because that couples the two classes far more tightly than the interface ever promised.';
  const students = [
    txt('ann.txt', `${taken}\n\n${own}\n\nAnn adds a closing line about Java and its single inheritance of classes.`),
    txt('ben.txt', `In my words: ${taken}\n\n${own}\n\nBen ends by comparing this with interfaces in C sharp, which may be many.`),
  ];
  const { context, page, errors } = await openPage(env);
  await page.click('[data-testid=mode-class-set]');
  await page.setInputFiles('[data-testid=class-sources]', [txt('orig_taska.txt', source)]);
  await page.setInputFiles('[data-testid=class-files]', students);
  await done(page);
  const got = await rows(page);
  assert.ok(got.some((r) => r.a === 'ann' && r.b === 'ben'), JSON.stringify(got));
  await page.click('[data-testid=class-pairs] tbody tr[data-a=ann][data-b=ben] button');
  await page.waitForFunction(() => document.querySelector('[data-testid=score]').dataset.value !== undefined);
  assert.equal(await page.inputValue('[data-testid=source-2]'), source.replace(/\r\n/g, '\n'));
  await page.waitForFunction(() => document.querySelector('#view-a').dataset.done === 'true');
  const marks = await highlighted(page, '#view-a');
  const by = (colour) => marks.filter((m) => m.colour === colour).map((m) => m.text).join(' ');
  // The source's passage in the source's colour (source 2: colour 1), the
  // students' own shared sentence in B's (colour 0).
  assert.ok(by(1).includes(taken.split(' ').slice(2, 12).join(' ')), `source's: ${by(1).slice(0, 200)}`);
  assert.ok(by(0).includes('couples the two classes'), `B's: ${by(0).slice(0, 200)}`);
  assert.ok(!by(0).includes(taken.split(' ').slice(2, 12).join(' ')), `the source's passage shown as B's: ${by(0).slice(0, 200)}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('quotations and a trailing reference list count for no pair unless the switches are off', async () => {
  const quote = 'PageRank is a link analysis algorithm used by the Google Internet search engine that assigns a numerical weighting to each element of a hyperlinked set of documents';
  const refs = 'References\n\nPage, L., Brin, S., Motwani, R. and Winograd, T. (1999) The PageRank citation ranking: bringing order to the web. Stanford InfoLab technical report 1999-66.\nWikipedia contributors (2009) PageRank. Wikipedia, the free encyclopedia.';
  const students = [
    `My own view is that links act like votes between pages.\nAs one source says, "${quote}." That seems fair to me overall.\n\n${refs}`,
    `Search engines must order results somehow and links help.\nThe book puts it this way: "${quote}." I found this hard to follow.\n\n${refs}`,
  ].map((t, i) => txt(`s${i + 1}.txt`, t));
  const { context, page, errors } = await openPage(env);
  await page.setInputFiles('[data-testid=class-files]', students);
  await done(page);
  assert.deepEqual(await rows(page), [], 'a shared quotation and reference list pair no one');
  assert.match(await page.textContent('[data-testid=class-exclusions]'), /2 quotations, 2 reference lists/);
  await page.uncheck('[data-testid=class-quotes]');
  await page.uncheck('[data-testid=class-references]');
  const before = Number(await page.getAttribute('[data-testid=class-status]', 'data-run'));
  await page.setInputFiles('[data-testid=class-files]', students);
  await done(page, before);
  assert.deepEqual((await rows(page)).map((r) => [r.a, r.b]), [['s1', 's2']]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Cancel stops an analysis; a class given again replaces the one running', async () => {
  const { docs } = docsBench();
  const ids = [...docs.keys()].slice(0, 600);
  const { context, page, errors } = await openPage(env);
  await page.setInputFiles('[data-testid=class-files]', ids.map((id) => txt(`${id}.txt`, docs.get(id))));
  await page.click('[data-testid=class-cancel]');
  await page.waitForFunction(() => document.querySelector('[data-testid=class-status]').textContent === 'Cancelled.');
  assert.equal(await page.getAttribute('[data-testid=class-status]', 'data-state'), 'error');
  // A class given while another runs replaces it.
  await page.setInputFiles('[data-testid=class-files]', ids.map((id) => txt(`${id}.txt`, docs.get(id))));
  const before = Number(await page.getAttribute('[data-testid=class-status]', 'data-run'));
  const small = [txt('x.txt', clough('g0pA_taskb.txt')), txt('y.txt', clough('g0pA_taskb.txt')), txt('z.txt', clough('g0pB_taskb.txt'))];
  await page.setInputFiles('[data-testid=class-files]', small);
  await done(page, before);
  assert.deepEqual((await rows(page)).map((r) => [r.a, r.b]), [['x', 'y']]);
  // The replaced run has ended (no timing: the page lists ended runs), and
  // did not come back.
  await page.waitForFunction((run) => (document.querySelector('[data-testid=class-status]').dataset.ended ?? '').split(' ').includes(String(run)), before);
  assert.deepEqual((await rows(page)).map((r) => [r.a, r.b]), [['x', 'y']]);
  assert.match(await page.textContent('[data-testid=class-status]'), /^3 students/);
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 34: the page gives the class-set cases of tests/surfaces.json that
// the CLI, npm and Python are held to (the same hand-counted pairs).
test('the page gives the shared class-set cases (tests/surfaces.json)', async () => {
  const fx = JSON.parse(readFileSync(new URL('../surfaces.json', import.meta.url), 'utf8'));
  const students = fx.students.map((t, i) => txt(`s${i}.txt`, t));
  const names = [...fx.students.map((_, i) => `s${i}`), 'source: src'];
  const { context, page, errors } = await openPage(env);
  await page.click('[data-testid=mode-class-set]');
  await page.setInputFiles('[data-testid=class-sources]', [txt('src.txt', fx.sources[0])]);
  let before = 0;
  for (const c of fx.class_pairs) {
    await page.fill('[data-testid=class-template]', c.template ? fx.template : '');
    await page.setChecked('[data-testid=class-quotes]', c.options.ignore_quotes ?? true);
    await page.setChecked('[data-testid=class-references]', c.options.ignore_references ?? true);
    await page.setInputFiles('[data-testid=class-files]', students);
    await done(page, before);
    before = Number(await page.getAttribute('[data-testid=class-status]', 'data-run'));
    const got = (await rows(page)).map((r) => [r.a, r.b, r.source]).sort();
    const want = c.pairs.map((p) => [names[p.a], names[p.b], p.source]).sort();
    assert.deepEqual(got, want, c.name);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 35: a 3 MB .zip of 20 texts of 15 MiB each (inside every limit of
// one archive and one text) crashed the tab; the class set's reading stops
// at its total (64 MiB of text): what fits is analysed, the rest listed.
test('a small .zip of huge texts is read up to the class set\'s limit, the rest listed with the reason', async () => {
  const unit = 'the same fifteen megabytes of an essay copied again and again ';
  const text = strToU8(unit.repeat(Math.ceil((15 << 20) / unit.length)).slice(0, 15 << 20));
  const files = {};
  for (let i = 0; i < 20; i++) files[`class/s${String(i).padStart(2, '0')}.txt`] = text;
  const zip = zipSync(files, { level: 1 });
  assert.ok(zip.length < 4 << 20, `${zip.length}`);
  const { context, page, errors } = await openPage(env);
  await page.setInputFiles('[data-testid=class-files]', [{ name: 'class.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) }]);
  await done(page, 0, 300_000);
  assert.match(await page.textContent('[data-testid=class-status]'), /^4 students/);
  const failed = await page.$$eval('#class-failed li', (ls) => ls.map((l) => l.textContent));
  assert.equal(failed.length, 16, failed.join('\n'));
  assert.ok(failed.every((f) => /its text is over the .* left of the class set's limit/.test(f)), failed[0]);
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 51 item 2: a ring of identical essays is one row of the table (a
// group, found by hash by the core), drawn whole in the graph, said in the
// CSV; a copy revised by one word is a pair of its own with the group's
// first.
test('a ring of 300 identical essays is one row, the group said in the table and the CSV', async () => {
  const essay = clough('g0pA_taskb.txt');
  const files = Array.from({ length: 300 }, (_, i) => txt(`s${String(i).padStart(3, '0')}.txt`, i % 2 ? essay.toUpperCase() : essay));
  files.push(txt('revised.txt', essay.replace('PageRank', 'the ranking')));
  const { context, page, errors } = await openPage(env);
  await page.click('[data-testid=mode-class-set]');
  await page.setInputFiles('[data-testid=class-files]', files);
  await done(page);
  const got = await page.$$eval('[data-testid=class-pairs] tbody tr', (trs) => trs.map((t) => [t.dataset.a, t.dataset.b, t.dataset.identical ?? '', t.cells[1].textContent]));
  assert.deepEqual(got.map((r) => r.slice(0, 3)), [['s000', 's001', '300'], ['revised', 's000', '']]);
  assert.match(got[0][3], /s001 \(group of 300 identical texts\)/);
  assert.equal(await page.getAttribute('[data-testid=class-graph]', 'data-clusters'), '1');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=class-export-csv]')]);
  const csv = Papa.parse(readFileSync(await download.path(), 'utf8').trim(), { header: true }).data;
  assert.deepEqual(csv.map((r) => [r.a, r.b]), [['s000', 's001 (group of 300 identical texts)'], ['revised', 's000']]);
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 35: names come from file names. A CSV cell that begins with =, +,
// -, @ is written after a ' (OWASP's rule: a spreadsheet would run it); a
// right-to-left override is shown escaped, in the table and the CSV alike.
test('names that are formulas are neutralised in the CSV, bidirectional controls shown escaped', async () => {
  // Near copies, each with a sentence of its own (identical texts would be
  // one group, two of its names shown).
  const essays = ['g0pA_taskb.txt', 'g0pA_taskb.txt', 'g0pB_taskb.txt', 'g0pB_taskb.txt', 'g0pB_taskb.txt'].map((f, i) => `${clough(f)} This copy was handed in as number ${['one', 'two', 'three', 'four', 'five'][i]}.`);
  const names = ['=HYPERLINK("http://evil.example","x")', '+SUM(1,2)', '-1+2', '@cmd', 'report\u202Etxt.exe'];
  const { context, page, errors } = await openPage(env);
  await page.setInputFiles('[data-testid=class-files]', names.map((n, i) => txt(`${n}.txt`, essays[i])));
  await done(page);
  const shown = await page.$$eval('[data-testid=class-pairs] tbody tr', (trs) => trs.flatMap((t) => [t.cells[0].textContent, t.cells[1].textContent]));
  assert.ok(shown.some((s) => s.includes('report⟨U+202E⟩txt.exe')), shown.join(' | '));
  assert.ok(!shown.some((s) => s.includes('\u202E')));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=class-export-csv]')]);
  const csv = readFileSync(await download.path(), 'utf8');
  const cells = Papa.parse(csv.trim(), { header: true }).data.flatMap((r) => [r.a, r.b]);
  assert.equal(cells.length, 8, csv);
  for (const c of cells) assert.ok(!/^[=+\-@\t\r]/.test(c), `a cell a spreadsheet would run: ${c}`);
  assert.ok(cells.some((c) => c.includes("'=HYPERLINK")), csv);
  assert.ok(!csv.includes('\u202E') && csv.includes('⟨U+202E⟩'));
  assert.deepEqual(errors, []);
  await context.close();
});

// Issues 35 and 38: five of twenty students handing in one essay are five
// of twenty texts, more than a stock share of 0.2: their ten pairs are
// listed whatever the stock share, and the group is named.
test('a copy ring is listed as one group of identical texts and named, whatever the stock share', async () => {
  const answers = cloughLabels().filter((l) => l.source === 'orig_taskb.txt');
  const own = answers.slice(0, 15).map((l, i) => txt(`own${String(i).padStart(2, '0')}.txt`, clough(l.file)));
  const ring = Array.from({ length: 5 }, (_, i) => txt(`ring${i}.txt`, clough('g0pA_taska.txt')));
  const { context, page, errors } = await openPage(env);
  let before = 0;
  await page.click('[data-testid=mode-class-set]');
  for (const share of ['50', '20']) {
    await page.fill('[data-testid=class-stock]', share);
    await page.setInputFiles('[data-testid=class-files]', [...own, ...ring]);
    await done(page, before);
    before = Number(await page.getAttribute('[data-testid=class-status]', 'data-run'));
    // One row for the five identical texts (issue 51: a group, not ten pairs).
    const ringRows = await page.$$eval('[data-testid=class-pairs] tbody tr', (trs) =>
      trs.filter((t) => t.dataset.a.startsWith('ring') && t.dataset.b.startsWith('ring')).map((t) => t.dataset.identical));
    assert.deepEqual(ringRows, ['5'], share);
    assert.equal(await page.isVisible('[data-testid=class-shared-passages]'), true);
    const said = await page.textContent('[data-testid=class-shared-passages]');
    assert.match(said, /in 5 texts: ring0, ring1, ring2, ring3, ring4/);
    // The per-student table: twenty rows, each ring member's strongest
    // match another member holding all of it.
    const summary = await page.$$eval('[data-testid=class-student-summary] tbody tr', (trs) => trs.map((t) => ({ ...t.dataset })));
    assert.equal(summary.length, 20);
    for (const s of summary.filter((x) => x.student.startsWith('ring'))) {
      assert.ok(s.best.startsWith('ring') && s.best !== s.student, JSON.stringify(s));
      assert.equal(Number(s.covered), 1);
    }
    assert.ok(summary.filter((x) => x.student.startsWith('own')).every((s) => Number(s.covered) < 1));
    // The cut-off left blank is the core's for 20 texts: 5 %.
    assert.match(await page.textContent('[data-testid=class-status]'), /at or above the cut-off \(5 %, the default for 20 students\)/);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 38: a class saved as a reference library (class-library-save)
// checks next year's class one way (class-library-file); saved without its
// texts (class-library-keep unticked) the file holds no text, reads in npm,
// and a damaged one is named, never a crash. Issue 48 item 4: saved with
// its texts (the default), a match is compared in full — a verdict, the
// CSV's row with it, and Open showing the library text beside the
// student's.
test('a class saved as a reference library finds next year\'s copies; a damaged library is named', async () => {
  const past = cloughLabels().filter((l) => l.source === 'orig_taskb.txt').slice(0, 6);
  const { context, page, errors } = await openPage(env);
  await page.click('[data-testid=mode-class-set]');
  await page.setInputFiles('[data-testid=class-files]', past.map((l) => txt(`y25-${l.file}`, clough(l.file))));
  await done(page);
  const save = async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=class-library-save]')]);
    return readFileSync(await download.path());
  };
  assert.equal(await page.isChecked('[data-testid=class-library-keep]'), true, 'texts kept by default');
  const withTexts = await save();
  await page.uncheck('[data-testid=class-library-keep]');
  const bytes = await save();
  const lib = nd.ClassLibrary.fromBytes(bytes);
  assert.deepEqual(lib.names, past.map((l) => `y25-${l.file.replace(/\.txt$/, '')}`));
  assert.ok(!bytes.toString('latin1').includes(clough(past[0].file).slice(0, 40)), 'no text in the library');
  assert.equal(lib.text(0), undefined);
  lib.free();
  assert.ok(withTexts.toString('utf8').includes(clough(past[0].file).slice(0, 40)), 'the texts in the library');
  const kept = nd.ClassLibrary.fromBytes(withTexts);
  assert.ok(kept.text(2).includes(clough(past[2].file).slice(0, 40)));
  kept.free();
  // Next year: a copy of last year's third answer and an answer of its own.
  const next = [txt('new1.txt', clough(past[2].file)), txt('new2.txt', clough('g4pC_taska.txt'))];
  const libName = `y25-${past[2].file.replace(/\.txt$/, '')}`;
  const before = Number(await page.getAttribute('[data-testid=class-status]', 'data-run'));
  await page.setInputFiles('[data-testid=class-library-file]', { name: 'school.ndl', mimeType: 'application/octet-stream', buffer: bytes });
  await page.setInputFiles('[data-testid=class-files]', next);
  await done(page, before);
  assert.equal(await page.isVisible('[data-testid=class-library-matches]'), true);
  const found = await page.$$eval('[data-testid=class-library-matches] tbody tr', (trs) => trs.map((t) => [t.dataset.student, t.dataset.text, Number(t.dataset.containment), t.dataset.compared]));
  assert.deepEqual(found, [['new1', libName, 1, 'false']]);
  assert.match(await page.textContent('[data-testid=class-library-matches] tbody'), /not compared \(the library keeps no text\)/);
  assert.equal(await page.$('[data-testid=class-library-open]'), null, 'nothing to open without the text');
  // The match is a row of the CSV, kind library (issue 48 item 4).
  const csvRows = async () => {
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=class-export-csv]')]);
    return Papa.parse(readFileSync(await csvDownload.path(), 'utf8').trim(), { header: true }).data.filter((r) => r.kind === 'library');
  };
  let library = await csvRows();
  assert.deepEqual(library.map((r) => [r.a, r.b, Number(r.containment_ab), r.verdict]), [['new1', `library: ${libName}`, 1, '']]);
  // The library with its texts: the match compared in full.
  const withRun = Number(await page.getAttribute('[data-testid=class-status]', 'data-run'));
  await page.setInputFiles('[data-testid=class-library-file]', { name: 'school-texts.ndl', mimeType: 'application/octet-stream', buffer: withTexts });
  await page.setInputFiles('[data-testid=class-files]', next);
  await done(page, withRun);
  const compared = await page.$$eval('[data-testid=class-library-matches] tbody tr', (trs) => trs.map((t) => [t.dataset.student, t.dataset.text, t.dataset.compared]));
  assert.deepEqual(compared, [['new1', libName, 'true']]);
  assert.match(await page.textContent('[data-testid=class-library-matches] tbody'), /near copy/);
  library = await csvRows();
  // Its containments are the full comparison's: an exact copy, 1 both ways
  // (an independent check: the texts are the same file).
  assert.deepEqual(library.map((r) => [r.a, r.b, Number(r.containment_ab), Number(r.containment_ba), r.verdict]), [['new1', `library: ${libName}`, 1, 1, 'cut']]);
  // The evidence pack shows the library text beside the student's (the core's builder).
  const [packDownload] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=class-export-pack]')]);
  const html = readFileSync(await packDownload.path(), 'utf8');
  assert.match(html, new RegExp(`Library match 1: new1 and library: ${libName}`));
  assert.ok(html.includes(clough(past[2].file).slice(0, 30).replace(/&/g, '&amp;').replace(/</g, '&lt;')), 'the kept text shown');
  await page.click('[data-testid=class-library-open]');
  await page.waitForFunction(() => document.querySelector('[data-testid=score]').dataset.value !== undefined);
  assert.equal(await page.getAttribute('#text-b', 'data-file'), `library: ${libName}`);
  assert.equal(await page.inputValue('#text-a'), await page.inputValue('#text-b'));
  await page.click('[data-testid=back-to-class]');
  // A damaged library: said, the class analysed all the same.
  const damaged = Buffer.from(bytes);
  damaged[damaged.length >> 1] ^= 0xff;
  const again = Number(await page.getAttribute('[data-testid=class-status]', 'data-run'));
  await page.setInputFiles('[data-testid=class-library-file]', { name: 'broken.ndl', mimeType: 'application/octet-stream', buffer: damaged });
  await page.setInputFiles('[data-testid=class-files]', [txt('new1.txt', clough(past[2].file)), txt('new2.txt', clough('g4pC_taska.txt'))]);
  await done(page, again);
  assert.match(await page.textContent('[data-testid=class-library-matches]'), /The library broken\.ndl could not be read: .*checksum/);
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 38: the same folder — a sub-folder per student, files of their
// own, .txt and .md — and the same source give the same students, the
// same pairs, the same CSV and the same evidence pack (one builder, the
// core's) in the page and in `neardup class` (both group by the core's
// rule and compare each pair in full as the page does).
test('the page and neardup class give the same pairs, CSV and evidence pack for the same folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'neardup-same-'));
  const answers = cloughLabels().filter((l) => l.source === 'orig_taskc.txt').slice(0, 8);
  for (const [i, l] of answers.entries()) {
    const text = clough(l.file);
    if (i % 3 === 0) {
      // A student who handed in two files.
      const who = join(dir, 'class', `student${i}`);
      mkdirSync(who, { recursive: true });
      const cut = text.indexOf(' ', text.length >> 1);
      writeFileSync(join(who, 'part1.txt'), text.slice(0, cut));
      writeFileSync(join(who, 'part2.md'), text.slice(cut + 1));
    } else {
      mkdirSync(join(dir, 'class'), { recursive: true });
      writeFileSync(join(dir, 'class', `student${i}.txt`), text);
    }
  }
  const source = join(dir, 'orig_taskc.txt');
  writeFileSync(source, clough('orig_taskc.txt'));
  // The page forgives accents by default (issue 39); the CLI when asked.
  const neardup = (...args) => {
    const out = spawnSync(cli(), ['class', join(dir, 'class'), '--source', source, '--fold-diacritics', ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.equal(out.status, 0, out.stderr);
    return out.stdout;
  };
  const report = JSON.parse(neardup('--json'));
  const names = [...report.studentNames, ...report.sourceNames.map((n) => `source: ${n}`)];
  const fromCli = report.pairs.filter((p) => p.score >= report.cutOff).map((p) => [names[p.a], names[p.b]].join(' ')).sort();
  assert.ok(fromCli.filter((p) => !p.includes('source: ')).length >= 2, fromCli.join(', '));
  assert.ok(fromCli.some((p) => p.includes('source: orig_taskc')), fromCli.join(', '));
  const packFile = join(dir, 'pack.html');
  const csvFromCli = neardup('--csv', '--evidence', packFile);

  const { context, page, errors } = await openPage(env);
  await page.click('[data-testid=mode-class-set]');
  await page.setInputFiles('[data-testid=class-sources]', source);
  await page.setInputFiles('[data-testid=class-folder]', join(dir, 'class'));
  await done(page);
  const fromPage = (await rows(page)).map((r) => [r.a, r.b].join(' ')).sort();
  assert.deepEqual(fromPage, fromCli);
  const summary = await page.$$eval('[data-testid=class-student-summary] tbody tr', (trs) => trs.map((t) => t.dataset.student).sort());
  assert.deepEqual(summary, [...report.studentNames].sort());

  // The CSV: the same header and rows (verdicts from the same full
  // comparison with the same model).
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=class-export-csv]')]);
  const csvFromPage = readFileSync(await csvDownload.path(), 'utf8');
  const parse = (csv) => Papa.parse(csv.trim(), { header: true }).data.map((r) => ({ ...r, containment_ab: Number(r.containment_ab), containment_ba: Number(r.containment_ba), similarity: Number(r.similarity) }));
  assert.equal(csvFromCli.split('\n')[0], csvFromPage.split('\n')[0]);
  assert.deepEqual(parse(csvFromCli), parse(csvFromPage));
  assert.ok(parse(csvFromPage).some((r) => ['cut', 'light', 'heavy', 'non'].includes(r.verdict)), csvFromPage);

  // The evidence pack: the same file but for the line saying when and
  // where it was made.
  const [packDownload] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=class-export-pack]')]);
  const packFromPage = readFileSync(await packDownload.path(), 'utf8');
  const packFromCli = readFileSync(packFile, 'utf8');
  const made = /<p class="muted">Made [^<]*<\/p>/;
  assert.match(packFromPage, made);
  assert.match(packFromCli, made);
  assert.equal(packFromCli.replace(made, ''), packFromPage.replace(made, ''));
  assert.match(packFromPage, /<mark /);
  for (const f of ['class/student0/part1.txt', 'class/student0/part2.md', 'class/student1.txt', 'orig_taskc.txt']) {
    const hash = createHash('sha256').update(readFileSync(join(dir, f))).digest('hex');
    assert.ok(packFromPage.includes(`<td>${f}</td><td><code>${hash}</code>`), f);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 48 ("done when"): one folder of odd files — a .markdown, an empty
// file, a 55 MB .txt, a .docx with no text, a zip inside a sub-folder, two
// files of one name in two sub-folders, emoji and right-to-left names, and
// (issue 51) a zip and a .docx whose 1,000 entries overlap —
// gives the page and `neardup class` the same students, the same skipped
// files with the same reasons (the core's reader and its words on both)
// and the same CSV.
test('a folder of odd files: the page and neardup class give the same students, skipped files and CSV', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'neardup-odd-'));
  const root = join(dir, 'class');
  const put = (path, bytes) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), bytes);
  };
  const answer = clough('g0pA_taskb.txt');
  put('ann/essay.markdown', `# My answer\n\n${answer}`);
  put('bob/empty.txt', '');
  put('carl/huge.txt', Buffer.alloc(55 * 1000 * 1000, 'a '));
  put('dora/blank.docx', await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph({ children: [new TextRun('   ')] })] }] })));
  put('eve/sub/answers.zip', zipSync({ 'answer.txt': strToU8(clough('g0pB_taskb.txt')) }));
  put('p1/same.txt', clough('g0pC_taskb.txt'));
  put('p2/same.txt', `${clough('g0pC_taskb.txt')} Handed in twice.`);
  put('😀 émile.txt', clough('g0pD_taskb.txt'));
  put('مريم.txt', `${answer} Copied, with a line of my own.`);
  const bomb = readFileSync(join(repo, 'tests/data/overlapping.zip'));
  put('fay/bomb.zip', bomb);
  put('fay/essay.docx', bomb);

  const out = spawnSync(cli(), ['class', root, '--csv'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(out.status, 1, 'files were skipped');
  const csvFromCli = out.stdout;
  const skippedByCli = out.stderr.split('\n').filter((l) => l.endsWith('; skipped')).map((l) => l.replace(/^neardup: /, '').replace(/; skipped$/, '')).sort();
  const json = JSON.parse(spawnSync(cli(), ['class', root, '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 }).stdout);
  assert.ok(skippedByCli.length >= 5, skippedByCli.join('\n'));
  for (const name of ['bomb.zip', 'essay.docx']) {
    assert.ok(skippedByCli.some((l) => l.includes(`fay/${name}`) && /overlap .*zip bomb/.test(l)), skippedByCli.join('\n'));
  }

  const { context, page, errors } = await openPage(env);
  await page.click('[data-testid=mode-class-set]');
  await page.setInputFiles('[data-testid=class-folder]', root);
  await done(page);
  const students = await page.$$eval('[data-testid=class-student-summary] tbody tr', (trs) => trs.map((t) => t.dataset.student).sort());
  assert.deepEqual(students, [...json.studentNames].sort());
  const skippedByPage = await page.$$eval('[data-testid=class-failed] li', (lis) => lis.map((l) => l.textContent).sort());
  assert.deepEqual(skippedByPage, skippedByCli);
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=class-export-csv]')]);
  assert.equal(readFileSync(await csvDownload.path(), 'utf8'), csvFromCli);
  assert.deepEqual(errors, []);
  await context.close();
});
