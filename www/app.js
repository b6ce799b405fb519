// The plagiarism-checker page. Texts are compared in a Web Worker by the
// neardup WebAssembly module; nothing is sent over the network. Pasted text
// is only ever inserted as text nodes (never as HTML).

const $ = (id) => document.getElementById(id);
const textA = $('text-a');
const textB = $('text-b');
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });

let requestId = 0;
let shown = 0;
let timer = 0;
let pending = null; // the texts of the newest request, to render its answer

const DEBOUNCE_MS = 250;

// Plain-words readings of the score (see EVALUATION.md for the category means
// on the Clough–Stevenson corpus these bands were read from).
function reading(score) {
  if (score >= 0.7) return 'Near copy: most of A’s phrasing comes from B.';
  if (score >= 0.4) return 'Substantial copying: many passages of A come from B, lightly revised.';
  if (score >= 0.1) return 'Some reuse: A shares a number of phrases with B (a heavy revision, or quotes).';
  return 'Little or no copying: A and B share few phrases.';
}

// The graded classes of the Clough–Stevenson corpus, in plain words.
const CLASS_WORDS = {
  cut: 'Near copy',
  light: 'Light revision',
  heavy: 'Heavy revision',
  non: 'Original',
};

// With the learned verdict, the plain-words reading is the verdict's (one
// decision, one story); the score bands above are used only without it.
const CLASS_READING = {
  cut: 'Near copy: most of A’s phrasing comes from B.',
  light: 'Light revision: A reuses B’s passages with small changes.',
  heavy: 'Heavy revision: A reworks material from B; some of its phrasing remains.',
  non: 'Original: A does not appear to be taken from B.',
};

function showReading(report) {
  const el = $('reading');
  const cls = report.verdict?.class;
  if (cls && CLASS_READING[cls]) {
    el.textContent = CLASS_READING[cls];
    el.dataset.from = 'verdict';
    el.dataset.class = cls;
  } else {
    el.textContent = reading(report.score);
    el.dataset.from = 'score';
    delete el.dataset.class;
  }
}

function showVerdict(verdict, modelError) {
  const el = $('verdict');
  if (!verdict) {
    el.textContent = modelError ? `(No learned verdict: ${modelError})` : '';
    return;
  }
  const strong = document.createElement('strong');
  strong.textContent = CLASS_WORDS[verdict.class] ?? verdict.class ?? '';
  const tag = document.createElement('span');
  tag.className = `tag ${verdict.copied ? 'yes' : 'no'}`;
  // The binary machine (copied or not) and the graded class are two
  // decisions; when they disagree the case is borderline, and says so.
  const agree = (verdict.class === 'non') === !verdict.copied;
  tag.textContent = (verdict.copied ? 'reuse detected' : 'no reuse detected') + (agree ? '' : ' (borderline)');
  tag.title = `decision value g(x) = ${verdict.binaryDecision.toFixed(3)}`;
  el.replaceChildren(document.createTextNode('Learned verdict: '), strong, tag);
  el.dataset.class = verdict.class ?? '';
  el.dataset.copied = String(verdict.copied);
}

const MEASURES = [
  ['containment', 'Containment of A in B', 'share of A’s phrases found in B'],
  ['containmentBInA', 'Containment of B in A', 'share of B’s phrases found in A'],
  ['resemblance', 'Resemblance (Jaccard)', 'shared ÷ all distinct phrases'],
  ['dice', 'Dice', '2 × shared ÷ (A + B)'],
  ['charResemblance', 'Character 5-gram resemblance', 'robust to small edits'],
  ['cosine', 'Cosine (word frequencies)', 'same vocabulary, any order'],
  ['coverageA', 'Words of A in shared passages', ''],
  ['sharedShingles', 'Shared phrases', ''],
];

function pct(x) {
  return `${Math.round(x * 100)}%`;
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(run, DEBOUNCE_MS);
  $('count-a').textContent = countLabel(textA);
  $('count-b').textContent = countLabel(textB);
}

function countLabel(area) {
  const s = area.value;
  if (!s) return '';
  const read = area.dataset.encoding && area.dataset.encoding !== 'UTF-8' ? ` · read as ${area.dataset.encoding}` : '';
  return `${s.length.toLocaleString()} characters${read}`;
}

function options() {
  return {
    wordK: Number($('word-k').value),
    spanGap: Number($('span-gap').value),
    // "Tolerate typos": word shingles over phonetic codes (SoundD, the best
    // encoder on real misspellings; EVALUATION.md).
    phonetic: $('typos').checked ? 'soundd' : undefined,
  };
}

// "Ignore quotes in A": quoted spans ("…", “…”, «…», on one paragraph) are
// blanked with spaces of the same length before comparing, so the offsets of
// the passages still point into the text as typed.
const QUOTED = /"[^"\n]{1,2000}"|“[^”\n]{1,2000}”|«[^»\n]{1,2000}»/g;
function withoutQuotes(text) {
  return text.replace(QUOTED, (q) => ' '.repeat(q.length));
}

// The source text areas: B, then those added with "+ Add a source".
function sourceAreas() {
  return [textB, ...document.querySelectorAll('#more-sources textarea')];
}

function run() {
  const a = textA.value;
  const b = textB.value;
  if (!a.trim() || !b.trim()) {
    showIdle();
    return;
  }
  // Added sources left empty are skipped; their numbers stay those shown.
  const numbered = sourceAreas().map((t, k) => ({ k, text: t.value })).filter((s) => s.k === 0 || s.text.trim());
  const id = ++requestId;
  pending = { id, a, sources: numbered };
  $('status').textContent = 'Comparing…';
  const compared = $('quotes').checked ? withoutQuotes(a) : a;
  worker.postMessage({ id, a: compared, sources: numbered.map((s) => s.text), options: options() });
}

worker.onmessage = (event) => {
  const { id, reports, ms, error, modelError } = event.data;
  if (id < shown || !pending || id !== pending.id) return; // a stale answer
  shown = id;
  if (error) {
    showError(error);
    return;
  }
  render(reports, pending.a, pending.sources, ms);
  showVerdict(reports[0].verdict, modelError);
};

worker.onerror = (event) => {
  showError(`The comparison engine failed to load (${event.message || 'unknown error'}).`);
};

function showIdle() {
  requestId++;
  highlightJob++;
  last = null;
  $('sources').hidden = true;
  $('show-source').hidden = true;
  $('report').disabled = true;
  pending = null;
  $('score').textContent = '–';
  $('score').classList.remove('error');
  $('reading').textContent = 'Paste two texts to compare them.';
  $('coverage').textContent = '';
  $('verdict').replaceChildren();
  $('status').textContent = '';
  $('typos-found').hidden = true;
  $('measures').tBodies[0].replaceChildren();
  $('passages').replaceChildren();
  $('passages-head').textContent = 'Shared passages';
  $('view-a').replaceChildren(document.createTextNode(textA.value));
  $('view-b').replaceChildren(document.createTextNode(textB.value));
}

function showError(message) {
  highlightJob++;
  last = null;
  $('sources').hidden = true;
  $('show-source').hidden = true;
  $('report').disabled = true;
  $('score').textContent = 'No score';
  $('score').classList.add('error');
  $('reading').textContent = message;
  $('coverage').textContent = '';
  $('passages').replaceChildren();
  $('verdict').replaceChildren();
  $('status').textContent = '';
  $('measures').tBodies[0].replaceChildren();
}

// The sources' colours are the classes src-0 … src-4 (style.css).
const SOURCE_COLOURS = 5;
let last = null; // the shown result, for re-showing another source in the B view

function render(reports, a, sources, ms) {
  const report = reports[0];
  const score = $('score');
  score.classList.remove('error');
  score.textContent = pct(report.score);
  score.dataset.value = String(report.score);
  showReading(report);
  $('report').disabled = false;
  const coverage = $('coverage');
  coverage.textContent = `${pct(report.coverageA)} of A’s words are in passages shared with B`;
  coverage.dataset.value = String(report.coverageA);
  const n = report.passages.length;
  $('status').textContent =
    `${n} shared passage${n === 1 ? '' : 's'} · computed in ${ms.toFixed(1)} ms in your browser · nothing uploaded`;
  $('k-shown').textContent = String(report.options.wordK);
  $('phonetic-shown').textContent = report.options.phonetic ? 'sound-alike ' : '';
  for (const el of document.querySelectorAll('.k-word')) el.textContent = String(report.options.wordK);

  const rows = MEASURES.map(([key, label, desc]) => {
    const tr = document.createElement('tr');
    const v = report[key];
    const cells = [label, key === 'sharedShingles' ? `${v} of ${report.shinglesA}` : pct(v), desc];
    cells.forEach((text, i) => {
      const td = document.createElement('td');
      td.className = ['k', 'v', 'd'][i];
      td.textContent = text;
      tr.append(td);
    });
    tr.dataset.measure = key;
    return tr;
  });
  $('measures').tBodies[0].replaceChildren(...rows);

  // Matches shorter than the minimum (in words of A) are stock phrases to
  // the grader: hidden from the highlights, the list and the figures.
  const minWords = Number($('min-words').value);
  const shownBySource = reports.map((r, s) =>
    r.passages
      .map((p, i) => ({ p, id: `${sources[s].k}:${i}`, src: sources[s].k, words: wordCount(a.slice(p.a.start, p.a.end)) }))
      .filter((x) => x.words >= minWords),
  );
  const all = shownBySource.flat();
  const total = wordCount(a);
  if (minWords > 0 || reports.length > 1) {
    const share = total ? wordsInside(a, all.map((x) => x.p.a)) / total : 0;
    const of = reports.length > 1 ? 'passages shared with any source' : 'shared passages';
    coverage.textContent = `${pct(share)} of A’s words are in ${of}${minWords > 0 ? ` of ${minWords} words or more` : ''}`;
    coverage.dataset.value = String(share);
  }
  const job = ++highlightJob;
  highlightInto($('view-a'), a, all.map((x) => [x.p.a, x.id, x.src]), job);
  last = { a, sources, shownBySource, job };
  showSource(0);
  showSources(reports, sources, shownBySource, a, total);
  const hidden = reports.reduce((n, r) => n + r.passages.length, 0) - all.length;
  showPassages(all, a, hidden, minWords, reports.length > 1);
  showTypos(report, a, sources[0].text);
}

// Words of `a` inside the union of `ranges`.
function wordsInside(a, ranges) {
  const sorted = ranges.slice().sort((x, y) => x.start - y.start);
  let n = 0;
  let at = 0;
  for (const r of sorted) {
    const start = Math.max(r.start, at);
    if (r.end > start) {
      n += wordCount(a.slice(start, r.end));
      at = r.end;
    }
  }
  return n;
}

// The B view shows one source at a time (the select when there are several).
function showSource(s) {
  if (!last) return;
  const { sources, shownBySource, job } = last;
  const k = sources[s].k;
  highlightInto($('view-b'), sources[s].text, shownBySource[s].map((x) => [x.p.b, x.id, k]), job);
  const select = $('show-source');
  select.hidden = sources.length < 2;
  select.replaceChildren(
    ...sources.map((src, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = `source ${src.k + 1}`;
      o.selected = i === s;
      return o;
    }),
  );
}
$('show-source').addEventListener('change', () => showSource(Number($('show-source').value)));

// Several sources: each with its colour, its score (containment of A in it)
// and the share of A's words in passages shared with it.
function showSources(reports, sources, shownBySource, a, total) {
  const table = $('sources');
  table.hidden = reports.length < 2;
  if (table.hidden) return table.tBodies[0].replaceChildren();
  const rows = reports.map((r, s) => {
    const tr = document.createElement('tr');
    tr.dataset.source = String(sources[s].k);
    tr.dataset.score = String(r.score);
    const swatch = document.createElement('span');
    swatch.className = `swatch src-${sources[s].k % SOURCE_COLOURS}`;
    const words = total ? wordsInside(a, shownBySource[s].map((x) => x.p.a)) / total : 0;
    const cells = [`Source ${sources[s].k + 1}`, pct(r.score), `${pct(words)} of A’s words`];
    const first = document.createElement('td');
    first.append(swatch, document.createTextNode(cells[0]));
    tr.append(first);
    for (const text of cells.slice(1)) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  });
  table.tBodies[0].replaceChildren(...rows);
}

// Words as a reader counts them: runs of letters and digits.
function wordCount(s) {
  return (s.match(/[\p{L}\p{N}]+/gu) ?? []).length;
}

// The list of shared passages, longest first (the first MAX_LISTED); a click
// shows the passage in both texts.
const MAX_LISTED = 300;
function showPassages(shown, a, hidden, minWords, several) {
  const sorted = shown.slice().sort((x, y) => y.words - x.words || x.p.a.start - y.p.a.start);
  const items = sorted.slice(0, MAX_LISTED).map(({ p, id, src, words }) => {
    const li = document.createElement('li');
    li.dataset.passage = id;
    li.dataset.source = String(src);
    li.dataset.words = String(words);
    const n = document.createElement('span');
    n.className = 'n';
    n.textContent = `${words} word${words === 1 ? '' : 's'}${several ? ` · source ${src + 1}` : ''}`;
    const quote = a.slice(p.a.start, p.a.end);
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
  const head = `Shared passages (${shown.length})`;
  $('passages-head').textContent = hidden ? `${head} · ${hidden} shorter than ${minWords} words hidden` : head;
}

$('passages').addEventListener('click', (e) => {
  const li = e.target instanceof Element ? e.target.closest('li[data-passage]') : null;
  if (!li) return;
  for (const m of document.querySelectorAll('mark.hot')) m.classList.remove('hot');
  const s = last ? last.sources.findIndex((src) => String(src.k) === li.dataset.source) : -1;
  if (s >= 0 && $('show-source').value !== String(s) && last.sources.length > 1) showSource(s);
  hot(li.dataset.passage, true);
  for (const view of [$('view-a'), $('view-b')]) {
    view.querySelector(`mark[data-passage="${li.dataset.passage}"]`)?.scrollIntoView({ block: 'center' });
  }
});

// With "Tolerate typos": the words of A matched with a differently spelt,
// same-sounding word of B.
function showTypos(report, a, b) {
  const box = $('typos-found');
  const list = report.misspellings ?? [];
  box.hidden = !report.options.phonetic;
  if (box.hidden) return box.replaceChildren();
  const head = document.createElement('span');
  head.textContent = list.length
    ? `Treated as misspellings (${list.length}): `
    : 'No misspelt word matched.';
  const items = list.slice(0, 50).map((m, i) => {
    const item = document.createElement('span');
    item.className = 'typo';
    item.textContent = `${a.slice(m.a.start, m.a.end)} → ${b.slice(m.b.start, m.b.end)}${i + 1 < Math.min(list.length, 50) ? ', ' : ''}`;
    return item;
  });
  if (list.length > 50) items.push(document.createTextNode(` and ${list.length - 50} more`));
  box.replaceChildren(head, ...items);
}

// Fills `view` with text nodes and <mark>s; ranges are UTF-16 offsets.
// Ranges may overlap in B (two passages of A copying one of B): overlapping
// parts go to the earlier passage. Long texts are highlighted progressively,
// about CHUNK passages per task, so the page keeps answering (a 2 MB paste
// has tens of thousands of passages); a newer result cancels an older job.
// Each task's nodes go into their own block, cut just after a line break
// that no passage crosses, so the text reads exactly as typed while the
// browser lays out (and, off screen, skips) one block at a time.
const CHUNK = 400;
let highlightJob = 0;
function highlightInto(view, text, ranges, job) {
  const sorted = ranges.slice().sort((x, y) => x[0].start - y[0].start);
  view.replaceChildren();
  view.dataset.done = 'false';
  let at = 0;
  let next = 0;
  const step = () => {
    if (job !== highlightJob) return; // superseded
    const block = document.createElement('div');
    block.className = 'chunk';
    let budget = CHUNK;
    for (;;) {
      if (next >= sorted.length) {
        if (at < text.length) block.append(document.createTextNode(text.slice(at)));
        at = text.length;
        break;
      }
      if (budget <= 0) {
        // End the block after a line break before the next passage.
        const nl = text.indexOf('\n', at);
        if (nl >= 0 && nl < sorted[next][0].start) {
          block.append(document.createTextNode(text.slice(at, nl + 1)));
          at = nl + 1;
          break;
        }
      }
      const [r, i, src] = sorted[next++];
      budget--;
      const start = Math.max(r.start, at);
      if (r.end <= start) continue;
      if (start > at) block.append(document.createTextNode(text.slice(at, start)));
      const mark = document.createElement('mark');
      mark.dataset.passage = String(i);
      if (src !== undefined) {
        mark.dataset.source = String(src);
        mark.className = `src-${src % SOURCE_COLOURS}`;
      }
      mark.textContent = text.slice(start, r.end);
      block.append(mark);
      at = r.end;
    }
    view.append(block);
    if (at >= text.length) {
      view.dataset.done = 'true';
      return;
    }
    setTimeout(step, 0);
  };
  step();
}

// Hovering a passage lights it up in both texts; clicking scrolls to its twin.
function hot(passage, on) {
  for (const m of document.querySelectorAll(`mark[data-passage="${passage}"]`)) {
    m.classList.toggle('hot', on);
  }
}
for (const [view, other] of [[$('view-a'), $('view-b')], [$('view-b'), $('view-a')]]) {
  view.addEventListener('mouseover', (e) => {
    if (e.target instanceof HTMLElement && e.target.dataset.passage) hot(e.target.dataset.passage, true);
  });
  view.addEventListener('mouseout', (e) => {
    if (e.target instanceof HTMLElement && e.target.dataset.passage) hot(e.target.dataset.passage, false);
  });
  view.addEventListener('click', (e) => {
    const p = e.target instanceof HTMLElement ? e.target.dataset.passage : undefined;
    if (p === undefined) return;
    const twin = other.querySelector(`mark[data-passage="${p}"]`);
    if (twin) twin.scrollIntoView({ block: 'center', behavior: 'smooth' });
  });
}

// Files: an "Open .txt" button per text, or drop a file on the text area.
// Decoded as the command line decodes them: by byte-order mark (UTF-8,
// UTF-16 LE/BE), else UTF-8 when valid, else Windows-1252 (the encoding of
// most older Windows text files), never with replacement characters.
function decodeText(bytes) {
  const b = new Uint8Array(bytes);
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { text: new TextDecoder('utf-8').decode(b.subarray(3)), encoding: 'UTF-8' };
  if (b[0] === 0xff && b[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(b.subarray(2)), encoding: 'UTF-16' };
  if (b[0] === 0xfe && b[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(b.subarray(2)), encoding: 'UTF-16' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(b), encoding: 'UTF-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(b), encoding: 'Windows-1252' };
  }
}

async function readFileInto(file, area) {
  if (!file) return;
  const { text, encoding } = decodeText(await file.arrayBuffer());
  area.value = text;
  area.dataset.encoding = encoding;
  schedule();
}
for (const [area, input] of [[textA, $('file-a')], [textB, $('file-b')]]) {
  area.addEventListener('input', () => {
    delete area.dataset.encoding; // typed or pasted: no longer the file's
    schedule();
  });
  input.addEventListener('change', () => readFileInto(input.files[0], area));
  area.addEventListener('dragover', (e) => {
    e.preventDefault();
    area.classList.add('drop');
  });
  area.addEventListener('dragleave', () => area.classList.remove('drop'));
  area.addEventListener('drop', (e) => {
    e.preventDefault();
    area.classList.remove('drop');
    readFileInto(e.dataTransfer.files[0], area);
  });
}
$('word-k').addEventListener('change', schedule);
$('span-gap').addEventListener('change', schedule);
$('min-words').addEventListener('change', schedule);
$('quotes').addEventListener('change', schedule);
$('typos').addEventListener('change', schedule);

// Sources are numbered by position: after a removal the later ones move up.
function relabelSources() {
  document.querySelectorAll('#more-sources .source-head').forEach((head, j) => {
    const k = j + 1;
    const label = head.querySelector('label');
    label.htmlFor = `text-b${k + 1}`;
    label.querySelector('.swatch').className = `swatch src-${k}`;
    label.lastChild.textContent = `Source ${k + 1}`;
    head.nextElementSibling.id = `text-b${k + 1}`;
  });
}

// "+ Add a source": up to five sources, each compared with A.
$('add-source').addEventListener('click', () => {
  const k = sourceAreas().length;
  if (k >= SOURCE_COLOURS) return;
  const head = document.createElement('div');
  head.className = 'source-head';
  const label = document.createElement('label');
  label.htmlFor = `text-b${k + 1}`;
  const swatch = document.createElement('span');
  swatch.className = `swatch src-${k}`;
  label.append(swatch, document.createTextNode(`Source ${k + 1}`));
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.textContent = 'Remove';
  const area = document.createElement('textarea');
  area.id = `text-b${k + 1}`;
  area.spellcheck = false;
  area.placeholder = 'Paste another possible source';
  area.addEventListener('input', schedule);
  remove.addEventListener('click', () => {
    head.remove();
    area.remove();
    $('add-source').disabled = false;
    relabelSources();
    schedule();
  });
  head.append(label, remove);
  $('more-sources').append(head, area);
  $('add-source').disabled = sourceAreas().length >= SOURCE_COLOURS;
  area.focus();
});

$('swap').addEventListener('click', () => {
  [textA.value, textB.value] = [textB.value, textA.value];
  [textA.dataset.encoding, textB.dataset.encoding] = [textB.dataset.encoding ?? '', textA.dataset.encoding ?? ''];
  schedule();
});
$('clear').addEventListener('click', () => {
  textA.value = '';
  textB.value = '';
  delete textA.dataset.encoding;
  delete textB.dataset.encoding;
  schedule();
});

const EXAMPLE_B =
  'A hash table stores values in an array of buckets. A hash function turns each key into an index, ' +
  'so that a lookup only has to inspect one bucket instead of the whole collection. When two keys map ' +
  'to the same bucket the table must resolve the collision, for example by keeping a short list in ' +
  'every bucket or by probing the next free slot. As the table fills up, collisions become more ' +
  'frequent, so most implementations grow the array and rehash every key once a load factor is reached.';
const EXAMPLE_A =
  'Hash tables are a common data structure. A hash function turns each key into an index, so that ' +
  'a lookup only needs to look at one bucket rather than the whole collection. If two different keys ' +
  'land in the same bucket, the table has to resolve the collision, for example by keeping a short ' +
  'list in every bucket. I think this is why they are fast in practice.';
$('example').addEventListener('click', () => {
  textA.value = EXAMPLE_A;
  textB.value = EXAMPLE_B;
  schedule();
});

schedule();

// The report to keep: a self-contained HTML file built from the page's own
// nodes (cloned, so every text stays a text node and is escaped when
// serialised), with its styles inline and no script.
const REPORT_CSS = `body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#1d2330}
.score{font-size:3rem;font-weight:700;color:#2457c5;margin:.2rem 0}.muted{color:#5b6475;font-size:.9rem}
table{border-collapse:collapse}td{padding:.15rem .5rem;border-bottom:1px solid #eef0f4}
.view{white-space:pre-wrap;border:1px solid #d9dde5;border-radius:6px;padding:.6rem}
mark,.src-0{background:#ffe58a}.src-1{background:#a8d8ff}.src-2{background:#c3f0c2}.src-3{background:#ffc9e3}.src-4{background:#e0ccff}@media print{.view{break-inside:auto}}`;

function reportHtml() {
  const doc = document.implementation.createHTMLDocument('neardup report');
  const meta = doc.createElement('meta');
  meta.setAttribute('charset', 'utf-8');
  const style = doc.createElement('style');
  style.textContent = REPORT_CSS;
  doc.head.prepend(meta);
  doc.head.append(style);
  const add = (tag, text, cls) => {
    const el = doc.createElement(tag);
    el.textContent = text;
    if (cls) el.className = cls;
    doc.body.append(el);
    return el;
  };
  add('h1', 'neardup report');
  add('p', `Made ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC in the browser by neardup; the texts were not uploaded.`, 'muted');
  add('p', $('score').textContent, 'score');
  for (const id of ['reading', 'coverage', 'verdict']) if ($(id).textContent) add('p', $(id).textContent);
  add('h2', 'Measures');
  doc.body.append(doc.importNode($('measures'), true));
  add('h2', $('passages-head').textContent);
  doc.body.append(doc.importNode($('passages'), true));
  add('h2', 'A — suspicious text, shared passages highlighted');
  doc.body.append(doc.importNode($('view-a'), true));
  add('h2', 'B — source text, shared passages highlighted');
  doc.body.append(doc.importNode($('view-b'), true));
  return `<!doctype html>\n${doc.documentElement.outerHTML}\n`;
}

$('report').addEventListener('click', () => {
  const url = URL.createObjectURL(new Blob([reportHtml()], { type: 'text/html' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'neardup-report.html';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
});
