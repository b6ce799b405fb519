// The two-text view's rendering: the headline (the closest source's score,
// labelled), the reading and the learned verdict, the measures, every
// source's passages highlighted in both texts (a click lights a passage on
// both sides), the typos matched, the printout's settings and the report.
// It reads what state.js holds and draws; it computes nothing.
import { clearLit, highlightInto, highlightNow, lightPassage, plainInto, revealPassage, segmentAt, SOURCE_COLOURS, trickWords } from '../highlight.js';
import { download, reportHtml, verdictWords } from '../report.js';
import { sourceName } from './inputs.js';
import { $, state } from './state.js';

// Score bands, in plain words, used when there is no learned verdict, and to
// say when the verdict and the share of phrases tell different stories. The
// bands are read from the category means on the Clough–Stevenson corpus
// (EVALUATION.md): near copies ≥ 0.7, light revisions ≈ 0.4–0.7, heavy
// revisions ≈ 0.1–0.4, independent answers below.
const LEVEL = { non: 0, heavy: 1, light: 2, cut: 3 };
function band(score) {
  return score >= 0.7 ? 'cut' : score >= 0.4 ? 'light' : score >= 0.1 ? 'heavy' : 'non';
}
const BAND_READING = {
  cut: 'Near copy: most of A’s phrasing comes from the source.',
  light: 'Substantial copying: many passages of A come from the source, lightly revised.',
  heavy: 'Some reuse: A shares a number of phrases with the source (a heavy revision, or quotes).',
  non: 'Little or no copying: A and the source share few phrases.',
};
// The graded classes of the Clough–Stevenson corpus, in plain words.
const CLASS_WORDS = { cut: 'Near copy', light: 'Light revision', heavy: 'Heavy revision', non: 'Original' };
const CLASS_READING = {
  cut: 'Near copy: most of A’s phrasing comes from the source.',
  light: 'Light revision: A reuses the source’s passages with small changes.',
  heavy: 'Heavy revision: A reworks material from the source; some of its phrasing remains.',
  non: 'Original: A does not appear to be taken from the source.',
};

function pct(x) {
  return `${Math.round(x * 100)}%`;
}

function probabilityOf(verdict, cls) {
  return verdict.probabilities?.find(([c]) => c === cls)?.[1];
}

export function clearResult() {
  state.highlightJob++;
  state.shown = null;
  for (const id of ['sources', 'show-source', 'note', 'typos-found', 'pair-note', 'obfuscation-warning']) $(id).hidden = true;
  $('report').disabled = true;
  for (const id of ['score-label', 'coverage', 'status', 'print-info']) $(id).textContent = '';
  $('verdict').replaceChildren();
  $('print-sources').replaceChildren();
  $('measures').tBodies[0].replaceChildren();
  $('measures-caption').textContent = 'Measures';
  $('passages').replaceChildren();
  $('passages-head').textContent = 'Shared passages';
  delete $('score').dataset.value;
}

export function showIdle(a, b) {
  state.pending = null;
  clearResult();
  $('score').textContent = '–';
  $('score').classList.remove('error');
  $('reading').textContent = 'Paste two texts to compare them.';
  plainInto($('view-a'), a);
  plainInto($('view-b'), b);
}

export function showError(message) {
  clearResult();
  $('score').textContent = 'No score';
  $('score').classList.add('error');
  $('reading').textContent = message;
}

// Words of A in passages: token ranges, as the core counts them.
function tokensInside(ranges) {
  const sorted = ranges.slice().sort((x, y) => x.start - y.start);
  let n = 0;
  let at = 0;
  for (const r of sorted) {
    const start = Math.max(r.start, at);
    if (r.end > start) {
      n += r.end - start;
      at = r.end;
    }
  }
  return n;
}

// The tricks the core undid to compare the texts (look-alike letters of
// another script, invisible characters inside words, hidden text a file's
// reader left out): said beside the
// score, in the core's words, for A and for each source in which any was
// found.
function showObfuscation(reports, sources) {
  const lines = [];
  const a = reports[0]?.obfuscationA;
  if (a?.warning) lines.push(`Text A: ${a.warning}`);
  reports.forEach((r, s) => {
    if (r.obfuscationB?.warning) lines.push(`${sourceName(sources[s].k)}: ${r.obfuscationB.warning}`);
  });
  const box = $('obfuscation-warning');
  box.textContent = lines.join(' ');
  box.hidden = !lines.length;
  // Where: the words holding a replaced or removed character, marked in
  // the views on demand (a wavy underline), A's and each source's.
  const where = (a?.ranges?.length ?? 0) + reports.reduce((n, r) => n + (r.obfuscationB?.ranges?.length ?? 0), 0);
  if (where) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.testid = 'obfuscation-show';
    button.setAttribute('aria-pressed', String(state.showTricks));
    button.textContent = state.showTricks ? 'Hide where' : 'Show where';
    button.addEventListener('click', () => {
      state.showTricks = !state.showTricks;
      button.setAttribute('aria-pressed', String(state.showTricks));
      button.textContent = state.showTricks ? 'Hide where' : 'Show where';
      repaint();
    });
    box.append(' ', button);
  }
  box.dataset.lookalikes = String(a?.lookalikes ?? 0);
  box.dataset.invisible = String(a?.invisible ?? 0);
  box.dataset.hidden = String(a?.hidden ?? 0);
}

export function render(answer) {
  const { a, sources, reports, options, ms, modelError } = answer;
  // The headline is the closest source's score (the first of equals).
  const best = reports.reduce((b, r, i) => (r.score > reports[b].score ? i : b), 0);
  const report = reports[best];
  const several = reports.length > 1;
  const k = report.options.wordK;
  const bestName = sourceName(sources[best].k);
  const minWords = options.minWords;

  const score = $('score');
  score.classList.remove('error');
  score.textContent = pct(report.score);
  score.dataset.value = String(report.score);
  score.dataset.source = String(sources[best].k);
  const label =
    `of A’s ${k}-word phrases are found in ${bestName}` +
    (several ? `, the closest of ${reports.length} sources` : '') +
    (minWords > 0 ? `, counting passages of ${minWords} words or more` : '');
  $('score-label').textContent = label;

  // Passages: every source's, with its words (tokens of A, as the core counts).
  const passages = reports.flatMap((r, s) =>
    r.passages.map((p, i) => ({
      id: `${sources[s].k}:${i}`,
      src: sources[s].k,
      s,
      p,
      words: p.aTokens.end - p.aTokens.start,
      a: p.a,
    })),
  );
  const union = several ? tokensInside(passages.map((x) => x.p.aTokens)) / report.tokensA : report.coverageA;
  const coverage = $('coverage');
  coverage.textContent = several
    ? `${pct(union)} of A’s words are in passages shared with any of the ${reports.length} sources (their union)`
    : `${pct(union)} of A’s words are in passages shared with ${bestName}`;
  coverage.dataset.value = String(union);

  showObfuscation(reports, sources);

  const reading = showReading(report, bestName);
  const verdictLine = showVerdict(report.verdict, modelError, several ? bestName : '');
  const notes = [];
  if (report.quotationWarning) notes.push(report.quotationWarning);
  if (minWords > 0) {
    notes.push(
      `Only passages of ${minWords} words or more count in the score, the coverage, the passages and the highlights; ` +
        'the learned verdict reads the full comparison.',
    );
  }
  $('note').textContent = notes.join(' ');
  $('note').hidden = !notes.length;

  const n = passages.length;
  $('status').textContent =
    `${n} shared passage${n === 1 ? '' : 's'}${minWords > 0 ? ` of ${minWords} words or more` : ''} · ` +
    `computed in ${ms.toFixed(1)} ms in your browser · nothing uploaded`;
  $('report').disabled = false;

  const measures = measureRows(report);
  $('measures-caption').textContent =
    `Measures of A against ${bestName} (${report.options.phonetic ? 'sound-alike ' : ''}word ${k}-shingles unless stated)`;
  $('measures').tBodies[0].replaceChildren(
    ...measures.map(([label, value, desc, key]) => {
      const tr = document.createElement('tr');
      tr.dataset.measure = key;
      [label, value, desc].forEach((text, i) => {
        const td = document.createElement('td');
        td.className = ['k', 'v', 'd'][i];
        td.textContent = text;
        tr.append(td);
      });
      return tr;
    }),
  );

  const job = ++state.highlightJob;
  // A pair opened from a class with sources: a passage of A that B and a
  // source both hold is the source's (its colour first), as the class counts it.
  const fromClass = state.pair?.classSources;
  const rangesA = passages.map((x) => ({ start: x.a.start, end: x.a.end, id: x.id, src: x.src, rank: fromClass && x.src > 0 ? 1 : 0 }));
  const bySource = reports.map((r, s) =>
    r.passages.map((p, i) => ({ start: p.b.start, end: p.b.end, id: `${sources[s].k}:${i}`, src: sources[s].k })),
  );
  const excluded = { a: report.excludedA ?? [], b: reports.map((r) => r.excludedB ?? []) };
  paintA({ a, rangesA, excluded, reports }, job);
  const misspellings = showTypos(report, a, sources[best].text);
  state.shown = { ...answer, excluded, best, job, passages, rangesA, bySource, label, reading, verdictLine, measures, misspellings, union };
  showSource(best);
  showSources(reports, sources, passages, best);
  showPassages(passages, a, minWords, several);
  printInfo();
}

function measureRows(r) {
  return [
    ['Containment of A in the source', pct(r.containment), 'share of A’s phrases found in the source (the score)', 'containment'],
    ['Containment of the source in A', pct(r.containmentBInA), 'share of the source’s phrases found in A', 'containmentBInA'],
    ['Resemblance (Jaccard)', pct(r.resemblance), 'shared ÷ all distinct phrases of both', 'resemblance'],
    ['Dice', pct(r.dice), '2 × shared ÷ (A’s + the source’s phrases)', 'dice'],
    ['Character 5-gram resemblance', pct(r.charResemblance), 'robust to small edits; not limited by the minimum match length', 'charResemblance'],
    ['Cosine (word frequencies)', pct(r.cosine), 'same vocabulary, any order; not limited by the minimum match length', 'cosine'],
    ['Shared phrases', `${r.sharedShingles} of ${r.shinglesA}`, 'A’s distinct phrases found in the source', 'sharedShingles'],
  ];
}

// The reading is the learned verdict's when there is one (one decision, one
// story), the score band's otherwise. When the two disagree by two grades
// or more, the page says why instead of telling two stories.
function showReading(report, name) {
  const el = $('reading');
  const cls = report.verdict?.class;
  let text;
  if (cls && CLASS_READING[cls]) {
    text = CLASS_READING[cls].replace('the source', name);
    const between = report.verdict.between;
    if (between) {
      // Not sure which of two classes: say both, never a confident wrong word.
      const words = verdictWords(report.verdict);
      text = `${words[0].toUpperCase()}${words.slice(1)}: the learned verdict is not sure which (${pct(probabilityOf(report.verdict, between[0]))} against ${pct(probabilityOf(report.verdict, between[1]))}).`;
    }
    const b = band(report.score);
    el.dataset.from = 'verdict';
    el.dataset.class = cls;
    el.dataset.agrees = String(Math.abs(LEVEL[cls] - LEVEL[b]) < 2);
    if (el.dataset.agrees === 'false') {
      const why = LEVEL[cls] > LEVEL[b]
        ? 'the verdict reads every measure: A may copy long passages in a different order, or with many small edits'
        : 'the verdict reads every measure: the shared phrases may be common wording of the topic rather than copying';
      text = `Learned verdict: ${CLASS_WORDS[cls].toLowerCase()}, though only ${pct(report.score)} of A’s phrases are found in ${name}: ${why}.`;
    }
  } else {
    text = BAND_READING[band(report.score)].replace('the source', name);
    el.dataset.from = 'score';
    delete el.dataset.class;
    delete el.dataset.agrees;
  }
  el.textContent = text;
  return text;
}

function showVerdict(verdict, modelError, against) {
  const el = $('verdict');
  if (!verdict) {
    el.textContent = modelError ? `(No learned verdict: ${modelError})` : '';
    delete el.dataset.class;
    delete el.dataset.confidence;
    delete el.dataset.between;
    return el.textContent;
  }
  const strong = document.createElement('strong');
  strong.textContent = CLASS_WORDS[verdict.class] ?? verdict.class ?? '';
  // The calibrated confidence (Platt scaling, EVALUATION.md), and "between"
  // two classes when the next one is close.
  const confidence = document.createElement('span');
  confidence.className = 'confidence';
  confidence.dataset.testid = 'verdict-confidence';
  if (verdict.confidence != null) {
    confidence.textContent = ` (${pct(verdict.confidence)} likely)`;
    el.dataset.confidence = verdict.confidence.toFixed(3);
  } else {
    delete el.dataset.confidence;
  }
  if (verdict.between) {
    const words = verdictWords(verdict);
    strong.textContent = `${words[0].toUpperCase()}${words.slice(1)}`;
    confidence.textContent = ` (${verdict.between.map((c) => `${(CLASS_WORDS[c] ?? c).toLowerCase()} ${pct(probabilityOf(verdict, c))}`).join(', ')})`;
    el.dataset.between = verdict.between.join(' ');
  } else {
    delete el.dataset.between;
  }
  const tag = document.createElement('span');
  tag.className = `tag ${verdict.copied ? 'yes' : 'no'}`;
  // The binary machine (copied or not) and the graded class are two
  // decisions; when they disagree the case is borderline, and says so.
  const agree = (verdict.class === 'non') === !verdict.copied;
  tag.textContent = (verdict.copied ? 'reuse detected' : 'no reuse detected') + (agree ? '' : ' (borderline)');
  tag.title = `decision value g(x) = ${verdict.binaryDecision.toFixed(3)}`;
  const head = against ? `Learned verdict against ${against}: ` : 'Learned verdict: ';
  el.replaceChildren(document.createTextNode(head), strong, confidence, document.createTextNode(' · '), tag);
  el.dataset.class = verdict.class ?? '';
  el.dataset.copied = String(verdict.copied);
  return el.textContent;
}

// The B view shows one source at a time (the select when there are several).
function showSource(s) {
  const last = state.shown;
  if (!last) return Promise.resolve(false);
  const { sources, bySource, job, excluded } = last;
  last.showing = s;
  const select = $('show-source');
  select.hidden = sources.length < 2;
  select.replaceChildren(
    ...sources.map((src, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = sourceName(src.k);
      o.selected = i === s;
      return o;
    }),
  );
  const tricks = tricksOf(sources[s].text, last.reports[s]?.obfuscationB);
  printSources(s);
  return highlightInto($('view-b'), sources[s].text, bySource[s], () => job === state.highlightJob, excluded.b[s], tricks);
}

// On paper, every source, not only the one shown (issue 49): the others in a
// block only print shows, each with its passages marked (as the report does).
function printSources(shown) {
  const box = $('print-sources');
  const last = state.shown;
  if (!last || last.sources.length < 2) return box.replaceChildren();
  const blocks = last.sources.flatMap((src, s) => {
    if (s === shown) return [];
    const head = document.createElement('h2');
    head.textContent = `${sourceName(src.k)} — shared passages highlighted`;
    const view = document.createElement('div');
    view.className = 'view';
    view.dataset.source = String(src.k);
    highlightNow(view, src.text, last.bySource[s], last.excluded.b[s], tricksOf(src.text, last.reports[s]?.obfuscationB));
    return [head, view];
  });
  box.replaceChildren(...blocks);
}

// A's view painted as highlight job `job`: every source's passages, the
// exclusions greyed, the tricks' words marked when asked.
function paintA({ a, rangesA, excluded, reports }, job) {
  return highlightInto($('view-a'), a, rangesA, () => job === state.highlightJob, excluded.a, tricksOf(a, reports[0]?.obfuscationA));
}

// The words to mark as holding a trick in `text` (none unless asked).
function tricksOf(text, obfuscation) {
  return state.showTricks && obfuscation?.ranges?.length ? trickWords(text, obfuscation.ranges) : [];
}

// Paints both views again (the tricks shown or hidden), as a new job.
function repaint() {
  const last = state.shown;
  if (!last) return;
  const job = ++state.highlightJob;
  last.job = job;
  paintA(last, job);
  showSource(last.showing ?? last.best);
}
$('show-source').addEventListener('change', () => showSource(Number($('show-source').value)));

// Several sources: each with its colour, its score (containment of A in it)
// and the share of A's words in passages shared with it.
function showSources(reports, sources, passages, best) {
  const table = $('sources');
  table.hidden = reports.length < 2;
  if (table.hidden) return table.tBodies[0].replaceChildren();
  const rows = reports.map((r, s) => {
    const tr = document.createElement('tr');
    tr.dataset.source = String(sources[s].k);
    tr.dataset.score = String(r.score);
    if (s === best) tr.className = 'best';
    const swatch = document.createElement('span');
    swatch.className = `swatch src-${sources[s].k % SOURCE_COLOURS}`;
    const first = document.createElement('td');
    first.append(swatch, document.createTextNode(sourceName(sources[s].k) + (s === best ? ' (closest)' : '')));
    tr.append(first);
    for (const text of [`${pct(r.score)} of A’s phrases`, `${pct(r.coverageA)} of A’s words`, `${r.passages.length} passages`]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  });
  table.tBodies[0].replaceChildren(...rows);
}

// The list of shared passages, longest first (the first MAX_LISTED); a click
// or Enter shows the passage in both texts.
const MAX_LISTED = 300;
function showPassages(passages, a, minWords, several) {
  const sorted = passages.slice().sort((x, y) => y.words - x.words || x.a.start - y.a.start);
  const items = sorted.slice(0, MAX_LISTED).map(({ id, src, words, a: r }) => {
    const li = document.createElement('li');
    li.dataset.passage = id;
    li.dataset.source = String(src);
    li.dataset.words = String(words);
    li.tabIndex = 0;
    const n = document.createElement('span');
    n.className = 'n';
    const inClass = classTexts(r);
    if (inClass) li.dataset.texts = String(inClass);
    n.textContent = `${words} word${words === 1 ? '' : 's'}${several ? ` · source ${src + 1}` : ''}` +
      (inClass ? ` · in ${inClass} texts of the class` : '');
    const quote = a.slice(r.start, r.end);
    const t = document.createElement('span');
    t.className = 'q';
    t.textContent = quote.length > 90 ? `${quote.slice(0, 90)}…` : quote;
    li.append(n, document.createTextNode(' '), t);
    return li;
  });
  if (sorted.length > MAX_LISTED) {
    const more = document.createElement('li');
    more.className = 'more';
    more.textContent = `and ${sorted.length - MAX_LISTED} shorter passages`;
    items.push(more);
  }
  $('passages').replaceChildren(...items);
  $('passages-head').textContent =
    `Shared passages (${passages.length})${minWords > 0 ? ` · ${minWords} words or more` : ''}`;
}

// For a pair opened from the class set: how many texts of the class share
// A's range `r` — the count the core gives the class passage overlapping it
// most (the texts holding at least half of that passage, not of any phrase
// inside it); 0 when none of three texts or more overlaps it.
function classTexts(r) {
  let n = 0;
  let most = 0;
  for (const c of state.shown?.common ?? []) {
    const overlap = Math.min(r.end, c.range.end) - Math.max(r.start, c.range.start);
    if (overlap > most) [most, n] = [overlap, c.texts];
  }
  return 2 * most >= r.end - r.start ? n : 0;
}

// Activates passage `id` ("k:i"): shows its source in the B view, lights it
// up in both texts, scrolls both into view, and says what it is in the
// pair note (on a phone, where A and B are one above the other, the note
// shows the source's words beside A's).
async function activate(id, scroll = true) {
  const last = state.shown;
  if (!last) return;
  const x = last.passages.find((p) => p.id === id);
  if (!x) return;
  if (last.showing !== x.s) await showSource(x.s);
  clearLit();
  lightPassage(id, true);
  if (scroll) for (const view of [$('view-a'), $('view-b')]) revealPassage(view, id);
  const p = x.p;
  const src = last.sources[x.s];
  const note = $('pair-note');
  note.replaceChildren();
  const head = document.createElement('strong');
  const inClass = classTexts(p.a);
  head.textContent = `${x.words}-word passage shared with ${sourceName(src.k)}` +
    (inClass ? ` (in ${inClass} texts of the class)` : '');
  const qa = document.createElement('p');
  qa.textContent = `A: “${clip(last.a.slice(p.a.start, p.a.end))}”`;
  const qb = document.createElement('p');
  qb.textContent = `Source ${src.k + 1}: “${clip(src.text.slice(p.b.start, p.b.end))}”`;
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'close';
  close.textContent = 'Close';
  close.addEventListener('click', () => {
    note.hidden = true;
    lightPassage(id, false);
  });
  note.append(close, head, qa, qb);
  note.hidden = false;
  note.dataset.passage = id;
}

function clip(s) {
  return s.length > 400 ? `${s.slice(0, 400)}…` : s;
}

$('passages').addEventListener('click', (e) => {
  const li = e.target instanceof Element ? e.target.closest('li[data-passage]') : null;
  if (li) activate(li.dataset.passage);
});
$('passages').addEventListener('keydown', (e) => {
  const li = e.target instanceof Element ? e.target.closest('li[data-passage]') : null;
  if (li && (e.key === 'Enter' || e.key === ' ')) {
    e.preventDefault();
    activate(li.dataset.passage);
  }
});

// Hovering a passage lights it up in both texts; a click (or a tap) on any
// highlight activates its passage: both sides shown and lit. The highlight.js
// painter finds the passage under the pointer (a <mark>, or a range).
for (const view of [$('view-a'), $('view-b')]) {
  let hovered;
  const leave = () => {
    if (hovered !== undefined && hovered !== $('pair-note').dataset.passage) lightPassage(hovered, false);
    hovered = undefined;
  };
  view.addEventListener('mousemove', (e) => {
    const seg = segmentAt(view, e);
    const id = seg?.ids[0];
    view.style.cursor = seg ? 'pointer' : '';
    view.title = seg && seg.srcs.length > 1 ? `shared with sources ${seg.srcs.map((s) => s + 1).join(' and ')}` : '';
    if (id === hovered) return;
    leave();
    if (id !== undefined) lightPassage(id, true);
    hovered = id;
  });
  view.addEventListener('mouseleave', leave);
  view.addEventListener('click', (e) => {
    const id = segmentAt(view, e)?.ids[0];
    if (id !== undefined) activate(id);
  });
}

// With "Tolerate typos": A's words matched with a differently spelt,
// same-sounding word of the source. A word that is itself an English
// dictionary word ("is" matched with "as") is a sound-alike swap, not a
// misspelling: it is counted, not listed.
function showTypos(report, a, b) {
  const box = $('typos-found');
  box.hidden = !report.options.phonetic;
  if (box.hidden) {
    box.replaceChildren();
    return null;
  }
  const all = report.misspellings ?? [];
  const list = all.filter((m) => !m.known);
  const swaps = all.length - list.length;
  const pairs = list.map((m) => [a.slice(m.a.start, m.a.end), b.slice(m.b.start, m.b.end)]);
  const head = document.createElement('span');
  head.textContent = list.length ? `Treated as misspellings (${list.length}): ` : 'No misspelt word matched.';
  const items = pairs.slice(0, 50).map(([x, y], i) => {
    const item = document.createElement('span');
    item.className = 'typo';
    item.textContent = `${x} → ${y}${i + 1 < Math.min(pairs.length, 50) ? ', ' : ''}`;
    return item;
  });
  if (pairs.length > 50) items.push(document.createTextNode(` and ${pairs.length - 50} more`));
  if (swaps) {
    items.push(document.createTextNode(
      ` (${swaps} other match${swaps === 1 ? '' : 'es'} of sound-alike correct words, such as “is” and “as”, not listed)`,
    ));
  }
  box.replaceChildren(head, ...items);
  return pairs;
}

// The settings, as the printout and the report record them.
function settingRows() {
  const last = state.shown;
  if (!last) return [];
  const o = last.options;
  return [
    ['Words per phrase (shingle size k)', String(o.wordK)],
    ['Minimum match length', o.minWords > 0 ? `${o.minWords} words` : 'none'],
    ['Merge passages up to', `${o.spanGap} words apart`],
    ['Tolerate typos (sound-alike words match)', o.phonetic ? 'on (SoundD)' : 'off'],
    ['Ignore quotes in A', last.quotes ? 'on' : 'off'],
    ['Forgive accents (é as e, ä as ae)', o.foldDiacritics ? 'on' : 'off'],
    ['Text A', last.aName ? `file ${last.aName}` : 'pasted'],
    ...last.sources.map((s) => [`Source ${s.k + 1}`, s.name ? `file ${s.name}` : 'pasted']),
  ];
}

// What a printout shows above the texts: the date and every setting.
export function printInfo() {
  const el = $('print-info');
  if (!state.shown) return el.replaceChildren();
  const date = document.createElement('p');
  date.textContent = `Printed ${new Date().toLocaleString()} · neardup, computed in the browser, nothing uploaded`;
  const list = document.createElement('ul');
  for (const [k, v] of settingRows()) {
    const li = document.createElement('li');
    li.textContent = `${k}: ${v}`;
    list.append(li);
  }
  el.replaceChildren(date, list);
}
window.addEventListener('beforeprint', printInfo);
$('print').addEventListener('click', () => window.print());

$('report').addEventListener('click', () => {
  const last = state.shown;
  if (!last) return;
  const html = reportHtml({
    a: last.a,
    aName: last.aName,
    sources: last.sources,
    reports: last.reports,
    best: last.best,
    headline: $('score').textContent,
    label: last.label,
    reading: last.reading,
    coverage: $('coverage').textContent,
    verdict: last.verdictLine,
    note: $('note').hidden ? '' : $('note').textContent,
    settings: settingRows(),
    misspellings: last.misspellings,
    measures: last.measures.map(([label, value, desc]) => [label, value, desc]),
    passages: last.passages.slice().sort((x, y) => x.a.start - y.a.start),
    ranges: { a: last.rangesA, bySource: last.bySource },
    excluded: last.excluded,
  });
  download(html, 'neardup-report.html', 'text/html');
});

// Previous / next passage: steps through the passages in A's order.
function step(by) {
  const last = state.shown;
  if (!last || !last.passages.length) return;
  const order = last.passages.slice().sort((x, y) => x.a.start - y.a.start || x.src - y.src);
  const at = order.findIndex((p) => p.id === $('pair-note').dataset.passage);
  const next = at < 0 ? (by > 0 ? 0 : order.length - 1) : (at + by + order.length) % order.length;
  activate(order[next].id);
}
$('prev-passage').addEventListener('click', () => step(-1));
$('next-passage').addEventListener('click', () => step(1));
