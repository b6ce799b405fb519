// The class-set view: who shares what with whom across a whole class, in
// the browser. Files are read by files.js; the core's classPairs (in a Web
// Worker) finds the pairs sharing passages, with the template, stock
// phrases, quotations and reference lists left out (the core's exclusions);
// every pair above the cut-off then gets the full comparison (containment
// both ways, passages, the learned verdict) in a pool of Web Workers, one
// per core (engine.js), streamed into the table; table.js, histogram.js and
// graph.js draw, reviews.js keeps the marks, exports.js writes the CSV and
// the evidence pack. Nothing leaves the page.
import { Engine, StallError } from '../engine.js';
import { shownName } from '../names.js';
import { cancelReads, readFile } from '../reader.js';
import { sha256, studentsOf } from './files.js';
import { exportCsv, exportPack } from './exports.js';
import { renderGraph, resetGraph } from './graph.js';
import { renderHistogram } from './histogram.js';
import { loadReviews, markKey, renderOrphans } from './reviews.js';
import { $, above, compareRequest, cutOff, pairKey, settings, state } from './state.js';
import { keep, onForgotten, recall } from '../store.js';
import { checkLibrary, compareLibrary, libraryLabel, renderLibrary, saveLibrary } from './library.js';
import { renderStudents } from './students.js';
import { unpackResult } from './result.js';
import { handlers, renderTable, sortBy, updateRow } from './table.js';
import { keepClass, keptClass } from './kept.js';

/** Pairs scoring at least this are returned by the core for the histogram. */
const HISTOGRAM_FLOOR = 0.02;

/** The class set's own pool of workers: Cancel stops only these. */
const pool = new Engine();

/**
 * How long a worker has to answer one full comparison before it is taken
 * as stalled (stopped, said, and the run paused with Resume), in ms: two
 * minutes, or `?stall=MS` in the page's address (tests, slow machines).
 * The core's classPairs over the whole class gets that and 20 ms a text
 * (about ten times what it takes here: 221 s for 5,074 texts).
 */
const STALL_MS = Number(new URLSearchParams(globalThis.location?.search ?? '').get('stall')) || 120_000;

/**
 * Full comparisons already made, kept across runs: a change of sources,
 * template or settings compares again only the pairs whose texts,
 * exclusions or normalisation changed. Key: the two texts' hashes, the
 * normalisation and both texts' excluded ranges.
 */
const comparisons = new Map();
const MAX_KEPT_COMPARISONS = 20000;

function comparisonKey(cur, p) {
  const ex = (i) => cur.result.texts[i].excluded.map((r) => `${r.start}-${r.end}`).join(',');
  return `${markKey(cur, p)}|${cur.options.foldDiacritics ? 'fold' : ''}|${ex(p.a)}|${ex(p.b)}`;
}

/** Called by app.js with the function that opens a pair in the two-text view. */
export function onOpenPair(f) {
  handlers.openPair = f;
}

let ticker = 0;

/**
 * The run's state ('running', 'done', 'error', 'stalled') and what it is
 * doing. While running, the seconds elapsed are added every second, so a
 * long stage visibly goes on; `then` is an action offered beside it
 * (Resume, Restart).
 */
function setStatus(s, text, then) {
  const el = $('class-status');
  delete el.dataset.kept; // set again by showKeptClass for the class kept
  el.dataset.state = s;
  el.dataset.run = String(state.run); // which analysis the state is of
  el.textContent = text;
  clearInterval(ticker);
  if (s === 'running') {
    const t0 = performance.now();
    const run = state.run;
    ticker = setInterval(() => {
      if (run !== state.run || el.dataset.state !== 'running') return clearInterval(ticker);
      el.textContent = `${text} ${Math.round((performance.now() - t0) / 1000)} s`;
    }, 1000);
  }
  const action = $('class-action');
  action.hidden = !then;
  if (then) {
    action.textContent = then.label;
    action.onclick = () => {
      action.hidden = true;
      then.run();
    };
  }
}

// The core's note when files were joined into students (a folder of class
// sections reads as one student a section), with how to undo it.
function showGrouping(note) {
  const box = $('class-grouping');
  box.hidden = !note;
  box.textContent = note ? `${note}. Tick "Each file a student" to make every file one.` : '';
}

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

/** The template's pending re-run (typing), replaced by any newer run. */
let templateTimer;

/**
 * Analyses the class given by `files` (see run below); whatever goes wrong
 * is said, with Restart, never left as a run that seems to go on.
 */
function analyse(files, why = '') {
  clearTimeout(templateTimer);
  const run = state.run + 1; // the number analyseRun takes
  return analyseRun(files, why)
    .catch((err) => {
      console.warn(err);
      $('class-cancel').hidden = true;
      setStatus('error', `The analysis stopped: ${err?.message ?? err}.`, { label: 'Restart', run: () => analyse(files) });
    })
    .finally(() => ended(run));
}

// Runs that have ended (finished, failed, cancelled or given way to a newer
// one), the last ten, in `data-ended` of the status: a run listed there will
// never change the page again (tests wait for it, not for a time).
const endedRuns = [];
function ended(run) {
  endedRuns.push(run);
  if (endedRuns.length > 10) endedRuns.shift();
  $('class-status').dataset.ended = endedRuns.join(' ');
}

async function analyseRun(files, why) {
  const mine = ++state.run;
  const began = performance.now(); // the status's time counts the reading too
  const alive = () => mine === state.run;
  // A run still reading gives way to this one.
  cancelReads();
  showMode('class');
  $('class-cancel').hidden = false;
  setStatus('running', `${why}Reading files…`);
  const bar = $('class-progress');
  const progress = (done, total) => {
    bar.max = total;
    bar.value = done;
  };
  let students, failed, sourcesRead;
  try {
    // The class as read last time, when these are its files.
    const eachFile = $('class-each-file').checked;
    if (state.read?.files !== files || state.read.eachFile !== eachFile) {
      resetGraph();
      state.read = { files, eachFile, ...(await studentsOf(files, progress, eachFile)) };
    }
    showGrouping(state.read.note);
    ({ students } = state.read);
    failed = [...state.read.failed];
    sourcesRead = await studentsOf([...$('class-sources').files], () => {});
  } catch (err) {
    // Cancelled, or replaced by a newer run: nothing to show.
    if (alive()) setStatus('error', `The files could not be read: ${err.message}`);
    return;
  }
  if (!alive()) return;
  failed.push(...sourcesRead.failed);
  showFailed(failed);
  const sources = sourcesRead.students.map((s) => ({ ...s, id: `source: ${s.id}`, name: s.id }));
  if (students.length + sources.length < 2 || !students.length) {
    setStatus('error', `Give at least two texts (${students.length} student${students.length === 1 ? '' : 's'} read).`);
    $('class-cancel').hidden = true;
    return;
  }
  const template = $('class-template').value;
  const options = settings();
  showInputs(students, sources, template, options, await libraryLabel());
  setStatus('running', `${why}Finding the pairs among ${students.length} students${sources.length ? ` and ${sources.length} sources` : ''}…`);
  bar.removeAttribute('value'); // one step of unknown length: the bar shows it is busy
  let result;
  const reading = performance.now() - began;
  try {
    ({ result } = await pool.ask({
      kind: 'classPairs',
      students: students.map((s) => s.text),
      sources: sources.map((s) => s.text),
      template,
      options: { ...options, minContainment: Math.min(options.minContainment, HISTOGRAM_FLOOR) },
      // Runs of hidden text the reader left out of each text (counted in
      // its obfuscation by the core).
      hidden: [...students, ...sources].map((s) => s.hidden ?? 0),
    }, { timeout: STALL_MS + 20 * (students.length + sources.length) }));
    // The worker's memory grew to hold the whole class and never shrinks:
    // a fresh worker takes its place for the comparisons that follow.
    pool.recycle(0);
    result = unpackResult(result);
  } catch (err) {
    if (alive()) {
      setStatus('error', `The class set could not be analysed: ${err.message}`, { label: 'Restart', run: () => analyse(files) });
      $('class-cancel').hidden = true;
    }
    return;
  }
  if (!alive()) return;
  const texts = [...students, ...sources];
  const counted = {
    quotes: result.texts.reduce((n, t) => n + t.quotations, 0),
    refs: result.texts.filter((t) => t.referenceList).length,
  };
  const current = { students, sources, texts, template, result, options, counted, compared: new Map() };
  await loadReviews(current);
  current.templateSha = await sha256(new TextEncoder().encode(template));
  state.current = current;
  await checkLibrary(pool, alive);
  if (!alive()) return;
  await compareLibrary(pool, alive);
  if (!alive()) return;
  render();
  await compareAbove(mine, began, reading);
}

// The full comparison of every pair above the cut-off, in the pool, each
// text's exclusions (the core's, from classPairs) left out by the core. The
// status then says the time since `t0`, and `reading` ms of it spent
// reading the files (null: none read, a re-run of the pairs only).
async function compareAbove(mine, t0, reading = null) {
  const alive = () => mine === state.run;
  const cur = state.current;
  const todo = above().filter((p) => !cur.compared.has(pairKey(p)));
  const bar = $('class-progress');
  bar.max = Math.max(1, todo.length);
  bar.value = 0;
  let next = 0;
  let done = 0;
  let stalled = null;
  $('class-cancel').hidden = false;
  setStatus('running', `Comparing ${todo.length} pairs in full…`);
  await Promise.all(
    Array.from({ length: pool.size }, async (_, w) => {
      while (alive() && !stalled && next < todo.length) {
        const p = todo[next++];
        const key = comparisonKey(cur, p);
        if (comparisons.has(key)) {
          cur.compared.set(pairKey(p), comparisons.get(key));
          bar.value = ++done;
          updateRow(p);
          continue;
        }
        try {
          const { reports, row } = await pool.ask(
            compareRequest(cur, p.a, cur.texts[p.b].text, cur.result.texts[p.b].excluded, { pair: p }),
            { worker: w, timeout: STALL_MS },
          );
          if (!alive()) return;
          // The core's row of the pair: its full comparison's figures.
          reports[0].row = row;
          cur.compared.set(pairKey(p), reports[0]);
          if (comparisons.size >= MAX_KEPT_COMPARISONS) comparisons.clear();
          comparisons.set(key, reports[0]);
        } catch (err) {
          if (!alive()) return;
          if (err instanceof StallError) {
            stalled = err; // the pair stays to compare: Resume does it
            return;
          }
          cur.compared.set(pairKey(p), { error: err.message });
        }
        bar.value = ++done;
        updateRow(p);
      }
    }),
  );
  if (!alive()) return;
  renderGraph();
  $('class-cancel').hidden = true;
  if (stalled) {
    const left = above().filter((p) => !cur.compared.has(pairKey(p))).length;
    setStatus('stalled', `Paused: ${stalled.message}. ${left} of ${above().length} pairs are still to compare in full.`,
      { label: 'Resume', run: () => compareAbove(mine, performance.now()) });
    return;
  }
  const s = ((performance.now() - t0) / 1000).toFixed(1);
  const read = reading === null ? '' : ` (${(reading / 1000).toFixed(1)} s of it reading the files)`;
  // Kept on this device, so that a reload shows it again (kept.js).
  const kept = await keepClass(cur).catch(() => false);
  if (!alive()) return;
  setStatus('done', `${summary(cur)} · ${s} s in your browser${read} · nothing uploaded${kept ? '' : ' · too large to keep on this device'}`);
}

/** The status's account of class `cur`. */
function summary(cur) {
  return `${cur.students.length} students, ${cur.sources.length} source${cur.sources.length === 1 ? '' : 's'}: ${above().length} pairs at or above the cut-off (${Math.round(cutOff() * 100)} %${settings().adaptiveCutOff ? `, the default for ${cur.students.length} students` : ''}), ${cur.result.candidates} sharing any phrase`;
}

/**
 * The last class kept on this device (kept.js), shown as it was at the
 * page's start, unless a class was given meanwhile: nothing is read or
 * computed again. Its files are not kept, so a change of sources, template
 * or settings needs them given again.
 */
async function showKeptClass() {
  const kept = await keptClass().catch(() => null);
  if (!kept || state.current || state.run) return;
  await loadReviews(kept);
  kept.templateSha = await sha256(new TextEncoder().encode(kept.template));
  if (state.current || state.run) return;
  state.current = kept;
  render();
  const when = kept.savedAt.slice(0, 16).replace('T', ' ');
  setStatus('done', `${summary(kept)} · the last class, kept on this device since ${when} UTC: give its files again to change its sources, template or settings`);
  $('class-status').dataset.kept = 'true';
}
showKeptClass();

function render() {
  const { result, texts, counted } = state.current;
  const ex = result.texts.reduce((n, t) => n + (t.templateShingles ? 1 : 0), 0);
  const stock = result.stockPhrases;
  const { quotes, refs } = counted;
  $('class-exclusions').textContent =
    `Excluded from every pair: the template's phrases (found in ${ex} of ${texts.length} texts), ` +
    `${stock} stock phrase${stock === 1 ? '' : 's'} (short phrases in more than ${result.stockLimit} students' texts and in no source), ` +
    `${quotes} quotation${quotes === 1 ? '' : 's'}, ${refs} reference list${refs === 1 ? '' : 's'}. ` +
    'They are greyed in the texts of a pair.' +
    quotedMostly(result, texts);
  renderSharedPassages(result, texts);
  renderTable();
  renderOrphans(state.current, above());
  renderStudents();
  renderLibrary();
  renderHistogram();
  renderGraph();
}

// The students whose texts are more than a third inside quotation marks
// (left out): wrapping a copy in quotation marks would otherwise hide it.
// The share is the core's (each text's `quoted`).
function quotedMostly(result, texts) {
  const many = result.texts
    .map((t, i) => [t.quoted ?? 0, texts[i]?.id, t.quotationWarning])
    .filter(([, , w]) => w);
  if (!many.length) return '';
  const named = many.map(([q, id]) => `${id} (${Math.round(q * 100)} %)`).join(', ');
  return ` Mostly inside quotation marks, left out: ${named} — quoting a copy would otherwise hide it.`;
}

// Passages of ten words or more that three or more students' texts share
// (a copy ring, a source the class used, a template not given): counted as
// evidence in their pairs, and named here as a group.
function renderSharedPassages(result, texts) {
  const box = $('class-shared-passages');
  const found = result.sharedPassages ?? [];
  box.hidden = !found.length;
  if (!found.length) return box.replaceChildren();
  const head = document.createElement('strong');
  head.textContent = `${found.length} passage${found.length === 1 ? '' : 's'} of ten words or more ${found.length === 1 ? 'is' : 'are'} shared word for word by three or more students:`;
  const list = document.createElement('ul');
  for (const p of found.slice(0, 20)) {
    const li = document.createElement('li');
    const names = p.texts.map((i) => shownName(texts[i].id));
    li.textContent = `${p.words} words, in ${names.length} texts: ${names.slice(0, 12).join(', ')}${names.length > 12 ? ', …' : ''}`;
    list.append(li);
  }
  const hint = document.createElement('p');
  hint.textContent = 'They count in the pairs of these texts. If one is wording of the assignment, give it as the template; if it comes from a source the class used, give the source.';
  box.replaceChildren(head, list, hint);
}

// Every input the analysis uses, in one line, so that none is used unseen.
function showInputs(students, sources, template, o, library) {
  const n = (k, word) => `${k} ${word}${k === 1 ? '' : 's'}`;
  const words = template.trim() ? template.trim().split(/\s+/).length : 0;
  const parts = [
    n(students.length, 'student'),
    sources.length ? `${n(sources.length, 'source')} (${sources.map((s) => s.id.replace(/^source: /, '')).join(', ')})` : 'no source',
    words ? `a template of ${n(words, 'word')}` : 'no template',
    library ? `the library ${shownName(library)}` : 'no library',
    `quotations ${o.ignoreQuotes ? 'left out' : 'counted'}`,
    `reference lists ${o.ignoreReferences ? 'left out' : 'counted'}`,
    `accents ${o.foldDiacritics ? 'forgiven' : 'as written'}`,
    `stock phrases: in more than ${Math.round(o.stockShare * 100)} % of the texts`,
  ];
  $('class-inputs').textContent = `In use: ${parts.join(' · ')}.`;
}

// A source, template, library or setting given or changed after the class:
// the class is analysed again with it (the class's files are not read
// again, and the full comparisons that did not change are kept).
function rerun(why) {
  if (state.read) analyse(state.read.files, why);
}

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
    showFailed([{ name: shownName(file.name), reason: err.reason ?? err.message }]);
    return;
  }
  rerun('Template changed: ');
});
$('class-template').addEventListener('input', () => {
  clearTimeout(templateTimer);
  templateTimer = setTimeout(() => rerun('Template changed: '), 700);
});
$('class-sources').addEventListener('change', () => rerun('Sources changed: '));
$('class-library').addEventListener('change', () => rerun('Library changed: '));
for (const id of ['class-stock', 'class-quotes', 'class-references', 'class-accents', 'class-each-file']) {
  $(id).addEventListener('change', () => rerun('Settings changed: '));
}
$('class-cancel').addEventListener('click', () => {
  state.run++;
  pool.cancel();
  cancelReads();
  $('class-cancel').hidden = true;
  setStatus('error', 'Cancelled.');
});
// A promise of this view that failed unseen is said (a run never seems to
// go on after it stopped).
window.addEventListener('unhandledrejection', (e) => {
  if ($('class-status').dataset.state !== 'running') return;
  setStatus('error', `The analysis stopped: ${e.reason?.message ?? e.reason}.`, state.read ? { label: 'Restart', run: () => analyse(state.read.files) } : undefined);
});
$('class-library-save').addEventListener('click', () => saveLibrary(pool).catch((err) => setStatus('error', `The library could not be saved: ${err.message}`)));
$('class-cutoff').addEventListener('change', () => {
  if (!state.current) return;
  render();
  compareAbove(state.run, performance.now());
});
for (const id of ['class-filter', 'class-kind']) $(id).addEventListener('input', () => state.current && renderTable());
for (const th of document.querySelectorAll('#class-pairs th[data-sort]')) {
  th.querySelector('button').addEventListener('click', () => {
    if (state.current) sortBy(th.dataset.sort);
  });
}
$('class-export-csv').addEventListener('click', () => exportCsv(pool));
$('class-export-pack').addEventListener('click', () => exportPack(pool));

// The class set's settings, kept on this device (store.js) when changed and
// given back at the next visit.
const KEPT_SETTINGS = ['class-cutoff', 'class-stock', 'class-quotes', 'class-references', 'class-accents'];
const settingOf = (el) => (el.type === 'checkbox' ? el.checked : el.value);
recall('settings').then((kept) => {
  for (const [id, v] of Object.entries(kept ?? {})) {
    const el = KEPT_SETTINGS.includes(id) ? $(id) : null;
    if (el?.type === 'checkbox') el.checked = Boolean(v);
    else if (el) el.value = String(v);
  }
});
for (const id of KEPT_SETTINGS) {
  $(id).addEventListener('change', () => keep('settings', Object.fromEntries(KEPT_SETTINGS.map((k) => [k, settingOf($(k))]))));
}
// A library forgotten is no longer checked: the class runs again without it.
onForgotten((what) => {
  if (what !== 'library') return;
  $('class-library').value = '';
  if (state.current) rerun('Library forgotten: ');
});
