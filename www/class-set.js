// The class-set view: who shares what with whom across a whole class,
// in the browser. Files (picked, dropped, a folder, .zip archives) are read
// by reader.js; the core's classPairs (in a Web Worker) finds the pairs
// sharing passages with the template, stock phrases and sources left out;
// every pair above the cut-off then gets the full comparison (containment
// both ways, passages, the learned verdict) in a pool of Web Workers, one
// per core, streamed into the table. Nothing leaves the page.
import { readFile, readBytes, readArchive, isArchive, ReadError } from './reader.js';
import { download, evidenceHtml, verdictWords, GRADE_WORDS } from './report.js';
import { blank, merge, quotedRanges, referenceListRanges } from './exclusions.js';

const $ = (id) => document.getElementById(id);

/** The core's limit on one text, in bytes of UTF-8 (ClassSetConfig.maxBytes). */
const MAX_TEXT_BYTES = 16 << 20;

/** Pairs scoring at least this are returned by the core for the histogram. */
const HISTOGRAM_FLOOR = 0.02;

let state = null; // {students, sources, template, result, pairs, compared, key}
let run = 0; // the current analysis; a newer one or Cancel stops the older
let pool = [];

/** Called by app.js with the function that opens a pair in the two-text view. */
let openPair = () => {};
export function onOpenPair(f) {
  openPair = f;
}

// ---- input -------------------------------------------------------------

// A student's id: the file name without its extension, or, for files in
// sub-folders (of a picked folder or an archive), the sub-folder's name.
function studentOf(path) {
  const parts = path.split('/').filter(Boolean);
  if (parts.length >= 2) return parts[parts.length - 2];
  return parts[0].replace(/\.[^.]+$/, '');
}

// Drops the folder every path shares (a picked folder's own name, an
// archive's top folder), so that what is left starts at the students.
function stripCommonRoot(entries) {
  const first = entries[0]?.path.split('/') ?? [];
  if (first.length < 2) return entries;
  const root = first[0] + '/';
  if (!entries.every((e) => e.path.startsWith(root) && e.path.split('/').length >= 2)) return entries;
  return entries.map((e) => ({ ...e, path: e.path.slice(root.length) }));
}

// Reads Files (archives expanded) into [{path, read: () => Promise<text>}].
async function entriesOf(files) {
  const out = [];
  const failed = [];
  for (const file of files) {
    const path = file.webkitRelativePath || file.name;
    if (isArchive(file)) {
      try {
        const inner = stripCommonRoot(await readArchive(file));
        for (const e of inner) {
          out.push({ path: e.path, name: e.path.split('/').pop(), read: () => readBytes(e.path, e.bytes), bytes: async () => e.bytes });
        }
      } catch (err) {
        failed.push({ name: file.name, reason: err instanceof ReadError ? err.reason : String(err?.message ?? err) });
      }
    } else {
      out.push({ path, name: file.name, read: () => readFile(file), bytes: async () => new Uint8Array(await file.arrayBuffer()) });
    }
  }
  return { entries: stripCommonRoot(out), failed };
}

// Students: entries grouped by student, their texts joined.
async function studentsOf(files, progress) {
  const { entries, failed } = await entriesOf(files);
  const byId = new Map();
  let done = 0;
  for (const e of entries) {
    try {
      const { text } = await e.read();
      // A UTF-16 unit is at most 3 bytes of UTF-8: encode only when it may be over.
      if (text.length > MAX_TEXT_BYTES / 3 && new TextEncoder().encode(text).length > MAX_TEXT_BYTES) {
        throw new ReadError(e.path, `its text is over the ${MAX_TEXT_BYTES >> 20} MiB limit of one text`);
      }
      const id = studentOf(e.path);
      const s = byId.get(id) ?? { id, parts: [], files: [] };
      s.parts.push(text);
      s.files.push({ path: e.path, sha256: await sha256(await e.bytes()) });
      byId.set(id, s);
    } catch (err) {
      failed.push({ name: e.path, reason: err instanceof ReadError ? err.reason : String(err?.message ?? err) });
    }
    progress(++done, entries.length);
  }
  const students = [...byId.values()]
    .map((s) => ({ id: s.id, text: s.parts.join('\n\n'), files: s.files }))
    .sort((x, y) => x.id.localeCompare(y.id));
  return { students, failed };
}

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

// ---- the worker pool ---------------------------------------------------

function startPool() {
  if (pool.length) return pool;
  const n = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 8));
  pool = Array.from({ length: n }, () => {
    const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    return { w, busy: false };
  });
  return pool;
}

function stopPool() {
  for (const { w } of pool) w.terminate();
  pool = [];
}

let msgId = 0;
function ask(entry, message) {
  return new Promise((resolve, reject) => {
    const id = ++msgId;
    const onMessage = (e) => {
      if (e.data.id !== id) return;
      entry.w.removeEventListener('message', onMessage);
      if (e.data.error) reject(new Error(e.data.error));
      else resolve(e.data);
    };
    entry.w.addEventListener('message', onMessage);
    entry.w.postMessage({ id, ...message });
  });
}

// ---- the analysis ------------------------------------------------------

function setStatus(s, text) {
  const el = $('class-status');
  el.dataset.state = s;
  el.dataset.run = String(run); // which analysis the state is of
  el.textContent = text;
}

function settings() {
  return {
    minContainment: Number($('class-cutoff').value) / 100,
    stockShare: Number($('class-stock').value) / 100,
  };
}

async function analyse(files) {
  const mine = ++run;
  const alive = () => mine === run;
  showMode('class');
  $('class-cancel').hidden = false;
  setStatus('running', 'Reading files…');
  const bar = $('class-progress');
  const progress = (done, total) => {
    bar.max = total;
    bar.value = done;
  };
  const { students, failed } = await studentsOf(files, progress);
  const sourceFiles = [...$('class-sources').files];
  const sourcesRead = await studentsOf(sourceFiles, () => {});
  if (!alive()) return;
  failed.push(...sourcesRead.failed);
  showFailed(failed);
  const sources = sourcesRead.students.map((s) => ({ ...s, id: `source: ${s.id}` }));
  if (students.length + sources.length < 2 || !students.length) {
    setStatus('error', `Give at least two texts (${students.length} student${students.length === 1 ? '' : 's'} read).`);
    $('class-cancel').hidden = true;
    return;
  }
  const template = $('class-template').value;
  const options = settings();
  // Quotations and trailing reference lists are left out before the core
  // sees the texts (blanked, so offsets hold), and greyed with the rest.
  // A few texts per task, so that the page keeps answering.
  const quotes = $('class-quotes').checked;
  const refs = $('class-references').checked;
  const own = [];
  const blanked = [];
  const counted = { quotes: 0, refs: 0 };
  for (const [i, t] of [...students, ...sources].entries()) {
    const q = quotes ? quotedRanges(t.text) : [];
    const r = refs ? referenceListRanges(t.text) : [];
    counted.quotes += q.length;
    counted.refs += r.length ? 1 : 0;
    own.push(merge([...q, ...r]));
    blanked.push(blank(t.text, own[i]));
    if (i % 50 === 49) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (!alive()) return;
    }
  }
  setStatus('running', `Finding the pairs among ${students.length} students${sources.length ? ` and ${sources.length} sources` : ''}…`);
  const [first] = startPool();
  let result;
  const t0 = performance.now();
  try {
    ({ result } = await ask(first, {
      kind: 'classPairs',
      students: blanked.slice(0, students.length),
      sources: blanked.slice(students.length),
      template,
      options: { ...options, minContainment: Math.min(options.minContainment, HISTOGRAM_FLOOR) },
    }));
  } catch (err) {
    if (alive()) {
      setStatus('error', `The class set could not be analysed: ${err.message}`);
      $('class-cancel').hidden = true;
    }
    return;
  }
  if (!alive()) return;
  const texts = [...students, ...sources];
  for (const [i, t] of result.texts.entries()) t.excluded = merge([...t.excluded, ...own[i]]);
  state = { students, sources, texts, template, result, options, counted, compared: new Map(), key: await classKey(texts, template) };
  state.reviews = await loadReviews(state.key);
  state.templateSha = await sha256(new TextEncoder().encode(template));
  render();
  await compareAbove(mine, t0);
}

// The full comparison of every pair above the cut-off, in the pool.
async function compareAbove(mine, t0) {
  const alive = () => mine === run;
  const todo = above().filter((p) => !state.compared.has(pairKey(p)));
  const bar = $('class-progress');
  bar.max = todo.length;
  bar.value = 0;
  let next = 0;
  let done = 0;
  const masked = state.texts.map((t, i) => blank(t.text, state.result.texts[i].excluded));
  const workers = startPool();
  setStatus('running', `Comparing ${todo.length} pairs in full…`);
  await Promise.all(
    workers.map(async (entry) => {
      while (alive() && next < todo.length) {
        const p = todo[next++];
        try {
          const { reports } = await ask(entry, { a: masked[p.a], sources: [masked[p.b]], options: {} });
          if (!alive()) return;
          state.compared.set(pairKey(p), reports[0]);
        } catch (err) {
          state.compared.set(pairKey(p), { error: err.message });
        }
        bar.value = ++done;
        updateRow(p);
      }
    }),
  );
  if (!alive()) return;
  renderGraph();
  $('class-cancel').hidden = true;
  const s = ((performance.now() - t0) / 1000).toFixed(1);
  setStatus('done', `${state.students.length} students, ${state.sources.length} source${state.sources.length === 1 ? '' : 's'}: ${above().length} pairs at or above the cut-off, ${state.result.candidates} sharing any phrase · ${s} s in your browser · nothing uploaded`);
}

function above() {
  const cut = settings().minContainment;
  return state.result.pairs.filter((p) => p.score >= cut);
}

const pairKey = (p) => `${p.a}:${p.b}`;

// ---- views -------------------------------------------------------------

function showFailed(failed) {
  const box = $('class-failed');
  box.hidden = !failed.length;
  const list = document.createElement('ul');
  for (const f of failed) {
    const li = document.createElement('li');
    li.textContent = `${f.name}: ${f.reason}`;
    list.append(li);
  }
  const head = document.createElement('strong');
  head.textContent = `${failed.length} file${failed.length === 1 ? '' : 's'} not read (the rest was analysed):`;
  box.replaceChildren(head, list);
}

function render() {
  const { result, texts } = state;
  const ex = result.texts.reduce((n, t) => n + (t.templateShingles ? 1 : 0), 0);
  const stock = result.stockPhrases;
  const { quotes, refs } = state.counted;
  $('class-exclusions').textContent =
    `Excluded from every pair: the template's phrases (found in ${ex} of ${texts.length} texts), ` +
    `${stock} stock phrase${stock === 1 ? '' : 's'} (in more than ${result.stockLimit} students' texts and in no source), ` +
    `${quotes} quotation${quotes === 1 ? '' : 's'}, ${refs} reference list${refs === 1 ? '' : 's'}. ` +
    'They are greyed in the texts of a pair.';
  renderTable();
  renderHistogram();
  renderGraph();
}

function verdictOf(p) {
  const r = state.compared.get(pairKey(p));
  if (!r) return '';
  if (r.error) return 'error';
  return r.verdict?.class ?? '';
}

function renderTable() {
  const rows = sortedRows(above());
  const tbody = $('class-pairs').tBodies[0];
  tbody.replaceChildren(...rows.map(rowOf));
  $('class-export-csv').disabled = false;
  $('class-export-pack').disabled = false;
  $('class-count').textContent = `${rows.length} pair${rows.length === 1 ? '' : 's'}`;
}

let sortKey = 'score';
function sortedRows(pairs) {
  const filter = $('class-filter').value.trim().toLowerCase();
  const kind = $('class-kind').value;
  const name = (i) => state.texts[i].id.toLowerCase();
  return pairs
    .filter((p) => !filter || name(p.a).includes(filter) || name(p.b).includes(filter))
    .filter((p) => kind === 'all' || (kind === 'source') === p.source)
    .sort((x, y) => {
      if (sortKey === 'a') return name(x.a).localeCompare(name(y.a));
      if (sortKey === 'b') return name(x.b).localeCompare(name(y.b));
      return y[sortKey] - x[sortKey] || x.a - y.a || x.b - y.b;
    });
}

function rowOf(p) {
  const tr = document.createElement('tr');
  tr.dataset.pair = pairKey(p);
  tr.dataset.source = String(p.source);
  tr.dataset.a = state.texts[p.a].id;
  tr.dataset.b = state.texts[p.b].id;
  tr.dataset.score = String(p.score);
  const r = state.compared.get(pairKey(p));
  const words = r && !r.error ? Math.round(r.coverageA * r.tokensA) : '';
  const cells = [
    state.texts[p.a].id,
    state.texts[p.b].id,
    `${Math.round(p.containmentAb * 100)}%`,
    `${Math.round(p.containmentBa * 100)}%`,
    String(words),
    p.source ? 'shared source' : r?.verdict ? verdictWords(r.verdict) : r ? '' : '…',
  ];
  for (const text of cells) {
    const td = document.createElement('td');
    td.textContent = text;
    tr.append(td);
  }
  if (p.source && r?.verdict) tr.cells[5].textContent = `shared source (${verdictWords(r.verdict)})`;
  tr.dataset.verdict = p.source ? 'shared-source' : verdictOf(p);
  const review = document.createElement('select');
  review.setAttribute('aria-label', `Review of ${state.texts[p.a].id} and ${state.texts[p.b].id}`);
  for (const [v, label] of [['', 'to review'], ['confirmed', 'confirmed'], ['dismissed', 'dismissed']]) {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = label;
    review.append(o);
  }
  review.value = state.reviews.get(pairKey(p)) ?? '';
  review.dataset.testid = 'class-review';
  review.addEventListener('change', () => saveReview(p, review.value));
  const td = document.createElement('td');
  td.append(review);
  tr.append(td);
  const open = document.createElement('button');
  open.type = 'button';
  open.textContent = 'Open';
  open.setAttribute('aria-label', `Open ${state.texts[p.a].id} and ${state.texts[p.b].id} side by side`);
  open.addEventListener('click', () => openPair({
    a: state.texts[p.a].text,
    aName: state.texts[p.a].id,
    b: state.texts[p.b].text,
    bName: state.texts[p.b].id,
    excludedA: state.result.texts[p.a].excluded,
    excludedB: state.result.texts[p.b].excluded,
    commonA: state.result.texts[p.a].common,
  }));
  const td2 = document.createElement('td');
  td2.append(open);
  tr.append(td2);
  return tr;
}

function updateRow(p) {
  const old = $('class-pairs').querySelector(`tr[data-pair="${pairKey(p)}"]`);
  if (old) old.replaceWith(rowOf(p));
}

// A histogram of the pairs' scores (the larger containment) from 2 %, in
// bins of 5 points, with the cut-off marked: plain SVG.
function renderHistogram() {
  const svgNS = 'http://www.w3.org/2000/svg';
  const bins = new Array(20).fill(0);
  for (const p of state.result.pairs) bins[Math.min(19, Math.floor(p.score * 20))]++;
  const max = Math.max(1, ...bins);
  const svg = document.createElementNS(svgNS, 'svg');
  svg.setAttribute('viewBox', '0 0 400 120');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `Pairs by score: ${bins.map((n, i) => `${i * 5}–${i * 5 + 5} %: ${n}`).join(', ')}`);
  bins.forEach((n, i) => {
    const h = n ? Math.max(2, (n / max) * 100) : 0;
    const rect = document.createElementNS(svgNS, 'rect');
    rect.setAttribute('x', String(i * 20 + 1));
    rect.setAttribute('y', String(105 - h));
    rect.setAttribute('width', '18');
    rect.setAttribute('height', String(h));
    rect.setAttribute('class', 'bar');
    const title = document.createElementNS(svgNS, 'title');
    title.textContent = `${i * 5}–${i * 5 + 5} %: ${n} pairs`;
    rect.append(title);
    svg.append(rect);
  });
  const x = settings().minContainment * 400;
  const line = document.createElementNS(svgNS, 'line');
  for (const [k, v] of [['x1', x], ['x2', x], ['y1', 0], ['y2', 108]]) line.setAttribute(k, String(v));
  line.setAttribute('class', 'cutoff');
  svg.append(line);
  for (const [t, at] of [['0 %', 0], ['50 %', 200], ['100 %', 370]]) {
    const label = document.createElementNS(svgNS, 'text');
    label.setAttribute('x', String(at));
    label.setAttribute('y', '119');
    label.textContent = t;
    svg.append(label);
  }
  $('class-histogram').replaceChildren(svg);
}

// A graph of the texts: an edge per pair at or above the cut-off, coloured
// by its verdict (grey while not compared; dashed to a source). Each
// connected group (a cluster of students who share passages) is drawn on
// its own circle, the largest first: plain SVG.
const EDGE_CLASS = { cut: 'e-cut', light: 'e-light', heavy: 'e-heavy', non: 'e-non' };
function renderGraph() {
  const svgNS = 'http://www.w3.org/2000/svg';
  const pairs = above();
  const parent = new Map();
  const find = (x) => {
    while (parent.get(x) !== x) x = parent.get(x);
    return x;
  };
  for (const p of pairs) {
    for (const x of [p.a, p.b]) if (!parent.has(x)) parent.set(x, x);
    parent.set(find(p.a), find(p.b));
  }
  const groups = new Map();
  for (const x of parent.keys()) {
    const r = find(x);
    groups.set(r, [...(groups.get(r) ?? []), x]);
  }
  const clusters = [...groups.values()].sort((x, y) => y.length - x.length || x[0] - y[0]);
  const svg = document.createElementNS(svgNS, 'svg');
  const cols = Math.max(1, Math.min(4, clusters.length));
  const cell = 200;
  const rowsN = Math.max(1, Math.ceil(clusters.length / cols));
  svg.setAttribute('viewBox', `0 0 ${cols * cell} ${rowsN * cell}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `${clusters.length} groups of texts sharing passages: ` +
    clusters.map((c) => c.map((i) => state.texts[i].id).join(', ')).join('; '));
  const at = new Map();
  clusters.forEach((c, k) => {
    const cx = (k % cols) * cell + cell / 2;
    const cy = Math.floor(k / cols) * cell + cell / 2;
    const r = c.length === 1 ? 0 : Math.min(80, 25 + 8 * c.length);
    c.forEach((x, j) => {
      const t = (2 * Math.PI * j) / c.length;
      at.set(x, [cx + r * Math.cos(t), cy + r * Math.sin(t)]);
    });
  });
  for (const p of pairs) {
    const [x1, y1] = at.get(p.a);
    const [x2, y2] = at.get(p.b);
    const line = document.createElementNS(svgNS, 'line');
    for (const [k, v] of [['x1', x1], ['y1', y1], ['x2', x2], ['y2', y2]]) line.setAttribute(k, v.toFixed(1));
    line.setAttribute('class', `edge ${p.source ? 'e-source' : EDGE_CLASS[verdictOf(p)] ?? 'e-pending'}`);
    line.setAttribute('stroke-width', String(1 + 4 * p.score));
    const title = document.createElementNS(svgNS, 'title');
    title.textContent = `${state.texts[p.a].id} – ${state.texts[p.b].id}: ${Math.round(p.score * 100)} %`;
    line.append(title);
    svg.append(line);
  }
  for (const [x, [cx, cy]] of at) {
    const g = document.createElementNS(svgNS, 'g');
    const dot = document.createElementNS(svgNS, 'circle');
    dot.setAttribute('cx', cx.toFixed(1));
    dot.setAttribute('cy', cy.toFixed(1));
    dot.setAttribute('r', '6');
    dot.setAttribute('class', x >= state.students.length ? 'node source' : 'node');
    const label = document.createElementNS(svgNS, 'text');
    label.setAttribute('x', (cx + 8).toFixed(1));
    label.setAttribute('y', (cy + 4).toFixed(1));
    label.textContent = state.texts[x].id;
    g.append(dot, label);
    svg.append(g);
  }
  $('class-graph').replaceChildren(svg);
  $('class-graph').dataset.clusters = String(clusters.length);
}

// ---- review marks, kept in IndexedDB per class set ---------------------

async function classKey(texts, template) {
  const data = new TextEncoder().encode(JSON.stringify([texts.map((t) => [t.id, t.text]), template]));
  return (await sha256(data)).slice(0, 32);
}

function db() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open('neardup-class-sets', 1);
    req.onupgradeneeded = () => req.result.createObjectStore('reviews');
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function loadReviews(key) {
  try {
    const d = await db();
    return await new Promise((resolve) => {
      const req = d.transaction('reviews').objectStore('reviews').get(key);
      req.onsuccess = () => resolve(new Map(Object.entries(req.result ?? {})));
      req.onerror = () => resolve(new Map());
    });
  } catch {
    return new Map(); // private browsing without storage: marks last the session
  }
}

async function saveReview(p, value) {
  if (value) state.reviews.set(pairKey(p), value);
  else state.reviews.delete(pairKey(p));
  try {
    const d = await db();
    const tx = d.transaction('reviews', 'readwrite');
    tx.objectStore('reviews').put(Object.fromEntries(state.reviews), state.key);
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    $('class-saved').textContent = 'Review marks saved in this browser.';
  } catch (err) {
    $('class-saved').textContent = `Review marks not saved: ${err?.message ?? err}`;
  }
}

// ---- export ------------------------------------------------------------

async function exportCsv() {
  if (!state) return;
  const { unparse } = await import('./lib/csv.js');
  const rows = above().map((p) => ({
    a: state.texts[p.a].id,
    b: state.texts[p.b].id,
    containment_ab: p.containmentAb,
    containment_ba: p.containmentBa,
    similarity: p.score,
    verdict: p.source ? 'shared source' : verdictOf(p),
    review: state.reviews.get(pairKey(p)) ?? '',
  }));
  const csv = unparse(rows, { columns: ['a', 'b', 'containment_ab', 'containment_ba', 'similarity', 'verdict', 'review'], newline: '\n' });
  download(`${rows.length ? csv : 'a,b,containment_ab,containment_ba,similarity,verdict,review'}\n`, 'neardup-pairs.csv', 'text/csv');
}

// The evidence pack: settings, every file's SHA-256, and each pair at or
// above the cut-off with both texts highlighted (report.js).
function exportPack() {
  if (!state) return;
  const pseudo = $('class-pseudonyms').checked;
  const names = new Map();
  state.texts.forEach((t, i) => {
    const isSource = i >= state.students.length;
    names.set(i, pseudo && !isSource ? `Student ${i + 1}` : t.id);
  });
  const o = settings();
  const sha = state.templateSha;
  const pairs = above().map((p) => {
    const r = state.compared.get(pairKey(p));
    return {
      a: names.get(p.a),
      b: names.get(p.b),
      source: p.source,
      containmentAb: p.containmentAb,
      containmentBa: p.containmentBa,
      verdict: GRADE_WORDS[verdictOf(p)] ?? '',
      review: state.reviews.get(pairKey(p)) ?? '',
      textA: state.texts[p.a].text,
      textB: state.texts[p.b].text,
      passages: r && !r.error ? r.passages : [],
      excludedA: state.result.texts[p.a].excluded,
      excludedB: state.result.texts[p.b].excluded,
    };
  });
  const files = state.texts.flatMap((t, i) =>
    t.files.map((f, j) => ({ student: names.get(i), path: pseudo && i < state.students.length ? `${names.get(i)}, file ${j + 1}` : f.path, sha256: f.sha256 })),
  );
  const html = evidenceHtml({
    settings: [
      ['Students', String(state.students.length)],
      ['Sources (compared one way)', state.sources.map((s) => s.id).join(', ') || 'none'],
      ['Template', state.template.trim() ? `given (SHA-256 of its text ${sha})` : 'none'],
      ['Cut-off (larger containment)', `${Math.round(o.minContainment * 100)} %`],
      ['Stock phrases', `in more than ${Math.round(o.stockShare * 100)} % of the students' texts (${state.result.stockLimit}) and in no source: ${state.result.stockPhrases}`],
      ['Words per phrase (k)', String(state.result.options.wordK)],
      ['Quotations', $('class-quotes').checked ? `left out (${state.counted.quotes})` : 'counted'],
      ['Trailing reference lists', $('class-references').checked ? `left out (${state.counted.refs})` : 'counted'],
      ['Names', pseudo ? 'replaced by pseudonyms' : 'as given'],
    ],
    files,
    pairs,
  });
  download(html, 'neardup-evidence.html', 'text/html');
}


// ---- modes and wiring --------------------------------------------------

/** Shows the two-text view (`'two'`) or the class-set view (`'class'`). */
export function showMode(mode) {
  $('two-text-view').hidden = mode !== 'two';
  $('class-view').hidden = mode !== 'class';
  $('mode-two-text').setAttribute('aria-pressed', String(mode === 'two'));
  $('mode-class-set').setAttribute('aria-pressed', String(mode === 'class'));
}

$('mode-two-text').addEventListener('click', () => showMode('two'));
$('mode-class-set').addEventListener('click', () => showMode('class'));
$('class-files').addEventListener('change', () => {
  const files = [...$('class-files').files];
  if (files.length) analyse(files);
});
$('class-folder').addEventListener('change', () => {
  const files = [...$('class-folder').files];
  if (files.length) analyse(files);
});
$('class-drop').addEventListener('dragover', (e) => {
  e.preventDefault();
  $('class-drop').classList.add('drop');
});
$('class-drop').addEventListener('dragleave', () => $('class-drop').classList.remove('drop'));
$('class-drop').addEventListener('drop', (e) => {
  e.preventDefault();
  $('class-drop').classList.remove('drop');
  const files = [...e.dataTransfer.files];
  if (files.length) analyse(files);
});
$('class-template-file').addEventListener('change', async () => {
  const file = $('class-template-file').files[0];
  if (!file) return;
  try {
    $('class-template').value = (await readFile(file)).text;
  } catch (err) {
    $('class-template').value = '';
    showFailed([{ name: file.name, reason: err.reason ?? err.message }]);
  }
});
$('class-cancel').addEventListener('click', () => {
  run++;
  stopPool();
  $('class-cancel').hidden = true;
  setStatus('error', 'Cancelled.');
});
$('class-cutoff').addEventListener('change', () => {
  if (!state) return;
  render();
  const mine = run;
  compareAbove(mine, performance.now());
});
for (const id of ['class-filter', 'class-kind']) $(id).addEventListener('input', () => state && renderTable());
for (const th of document.querySelectorAll('#class-pairs th[data-sort]')) {
  th.querySelector('button').addEventListener('click', () => {
    sortKey = th.dataset.sort;
    if (state) renderTable();
  });
}
$('class-export-csv').addEventListener('click', exportCsv);
$('class-export-pack').addEventListener('click', exportPack);
