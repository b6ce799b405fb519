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
  tag.textContent = verdict.copied ? 'reuse detected' : 'no reuse detected';
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
  $('count-a').textContent = countLabel(textA.value);
  $('count-b').textContent = countLabel(textB.value);
}

function countLabel(s) {
  if (!s) return '';
  return `${s.length.toLocaleString()} characters`;
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

function run() {
  const a = textA.value;
  const b = textB.value;
  if (!a.trim() || !b.trim()) {
    showIdle();
    return;
  }
  const id = ++requestId;
  pending = { id, a, b };
  $('status').textContent = 'Comparing…';
  worker.postMessage({ id, a, b, options: options() });
}

worker.onmessage = (event) => {
  const { id, report, ms, error, modelError } = event.data;
  if (id < shown || !pending || id !== pending.id) return; // a stale answer
  shown = id;
  if (error) {
    showError(error);
    return;
  }
  render(report, pending.a, pending.b, ms);
  showVerdict(report.verdict, modelError);
};

worker.onerror = (event) => {
  showError(`The comparison engine failed to load (${event.message || 'unknown error'}).`);
};

function showIdle() {
  requestId++;
  pending = null;
  $('score').textContent = '–';
  $('score').classList.remove('error');
  $('reading').textContent = 'Paste two texts to compare them.';
  $('verdict').replaceChildren();
  $('status').textContent = '';
  $('typos-found').hidden = true;
  $('measures').tBodies[0].replaceChildren();
  $('view-a').replaceChildren(document.createTextNode(textA.value));
  $('view-b').replaceChildren(document.createTextNode(textB.value));
}

function showError(message) {
  $('score').textContent = 'No score';
  $('score').classList.add('error');
  $('reading').textContent = message;
  $('verdict').replaceChildren();
  $('status').textContent = '';
  $('measures').tBodies[0].replaceChildren();
}

function render(report, a, b, ms) {
  const score = $('score');
  score.classList.remove('error');
  score.textContent = pct(report.score);
  score.dataset.value = String(report.score);
  $('reading').textContent = reading(report.score);
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

  $('view-a').replaceChildren(highlighted(a, report.passages.map((p, i) => [p.a, i])));
  $('view-b').replaceChildren(highlighted(b, report.passages.map((p, i) => [p.b, i])));
  showTypos(report, a, b);
}

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

// Builds a fragment of text nodes and <mark>s; ranges are UTF-16 offsets.
// Ranges may overlap in B (two passages of A copying one of B): overlapping
// parts go to the earlier passage.
function highlighted(text, ranges) {
  const sorted = ranges.slice().sort((x, y) => x[0].start - y[0].start);
  const frag = document.createDocumentFragment();
  let at = 0;
  for (const [r, i] of sorted) {
    const start = Math.max(r.start, at);
    if (r.end <= start) continue;
    if (start > at) frag.append(document.createTextNode(text.slice(at, start)));
    const mark = document.createElement('mark');
    mark.dataset.passage = String(i);
    mark.textContent = text.slice(start, r.end);
    frag.append(mark);
    at = r.end;
  }
  if (at < text.length) frag.append(document.createTextNode(text.slice(at)));
  return frag;
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
function readFileInto(file, area) {
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => {
    area.value = String(reader.result);
    schedule();
  };
  reader.readAsText(file);
}
for (const [area, input] of [[textA, $('file-a')], [textB, $('file-b')]]) {
  area.addEventListener('input', schedule);
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
$('typos').addEventListener('change', schedule);

$('swap').addEventListener('click', () => {
  [textA.value, textB.value] = [textB.value, textA.value];
  schedule();
});
$('clear').addEventListener('click', () => {
  textA.value = '';
  textB.value = '';
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
