// The class-set view's table of pairs at or above the cut-off: sortable,
// filterable by name and kind, each row with its containments, the words of
// A in shared passages, the verdict (once compared), a review mark and a way
// to open the pair in the two-text view.
import { verdictWords } from '../report.js';
import { saveReview } from './reviews.js';
import { $, above, pairKey, state, verdictOf } from './state.js';

/** The columns' names, for a phone's stacked rows. */
const LABELS = ['Student A', 'Student B or source', "A's phrases in B", "B's phrases in A", 'Words of A in shared passages', 'Verdict'];

/** Set by the view: what "Open" does with a pair. */
export const handlers = { openPair: () => {} };

/**
 * Above this many pairs the table is virtual: it renders only the rows in
 * view (and OVERSCAN more each side) in a scrolling box of its own, so that
 * a class of thousands of pairs costs the page a few dozen rows of layout.
 */
export const VIRTUAL_ABOVE = 200;
const OVERSCAN = 12;

/** The pairs of the table, sorted and filtered, as last rendered. */
let shown = [];
/** A row's height in pixels in the virtual table (measured). */
let rowHeight = 0;

export function renderTable() {
  shown = sortedRows(above());
  rowHeight = 0; // measured again: the layout may have changed
  const table = $('class-pairs');
  const virtual = shown.length > VIRTUAL_ABOVE;
  $('class-pairs-scroll').classList.toggle('virtual', virtual);
  table.setAttribute('aria-rowcount', String(shown.length + 1));
  if (virtual) renderWindow();
  else table.tBodies[0].replaceChildren(...shown.map(rowOf));
  $('class-export-csv').disabled = false;
  $('class-export-pack').disabled = false;
  $('class-count').textContent = `${shown.length} pair${shown.length === 1 ? '' : 's'}`;
}

/** A spacer row standing for `n` rows not rendered. */
function spacer(n) {
  const tr = document.createElement('tr');
  tr.className = 'spacer';
  tr.setAttribute('aria-hidden', 'true');
  const td = document.createElement('td');
  td.colSpan = 8;
  td.style.height = `${n * rowHeight}px`;
  tr.append(td);
  return tr;
}

/** The virtual table: the rows in view of its box, spacers for the rest. */
function renderWindow() {
  const box = $('class-pairs-scroll');
  const tbody = $('class-pairs').tBodies[0];
  if (!rowHeight && shown.length) {
    tbody.replaceChildren(rowOf(shown[0]));
    rowHeight = tbody.rows[0].getBoundingClientRect().height || 30;
  }
  const top = Math.max(0, box.scrollTop - tbody.offsetTop);
  const start = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
  const end = Math.min(shown.length, start + Math.ceil(box.clientHeight / rowHeight) + 2 * OVERSCAN);
  const rows = shown.slice(start, end).map((p, i) => {
    const tr = rowOf(p);
    tr.setAttribute('aria-rowindex', String(start + i + 2));
    return tr;
  });
  // Focus stays where it was when its row is drawn again (keyboard users,
  // and the way back from a pair).
  const focused = document.activeElement?.closest?.('#class-pairs tbody tr');
  const column = focused ? [...focused.cells].findIndex((td) => td.contains(document.activeElement)) : -1;
  tbody.replaceChildren(...(start ? [spacer(start)] : []), ...rows, ...(end < shown.length ? [spacer(shown.length - end)] : []));
  if (focused && column >= 0) {
    const again = tbody.querySelector(`tr[data-pair="${focused.dataset.pair}"]`);
    again?.cells[column].querySelector('button, select')?.focus({ preventScroll: true });
  }
}

let frame = 0;
/** Re-renders the virtual table's window once per frame while it scrolls. */
$('class-pairs-scroll').addEventListener('scroll', () => {
  if (!$('class-pairs-scroll').classList.contains('virtual') || frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    renderWindow();
  });
}, { passive: true });

let sortKey = 'score';
let descending = true;

/** The verdicts from the most to the least copying, for sorting. */
const VERDICT_RANK = { cut: 5, light: 4, heavy: 3, 'shared-source': 2, non: 1, error: 0, '': -1 };

/**
 * Sorts the table by `key`: 'a'/'b' by name, 'words' (words of A in shared
 * passages), 'verdict' (near copy first), 'review' (confirmed, to review,
 * dismissed), or a pair's field; names A to Z, the rest highest first. The
 * same key again reverses the order.
 */
export function sortBy(key) {
  descending = key === sortKey ? !descending : key !== 'a' && key !== 'b';
  sortKey = key;
  for (const th of document.querySelectorAll('#class-pairs th[data-sort]')) {
    if (th.dataset.sort === key) th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
    else th.removeAttribute('aria-sort');
  }
  renderTable();
}

/** A pair's value in the sorting column (higher first when descending). */
function sortValue(p) {
  const cur = state.current;
  switch (sortKey) {
    case 'words': {
      const r = cur.compared.get(pairKey(p));
      return r && !r.error ? Math.round(r.coverageA * r.tokensA) : -1;
    }
    case 'verdict':
      return VERDICT_RANK[p.source ? 'shared-source' : verdictOf(p)] ?? -1;
    case 'review':
      return { confirmed: 2, '': 1, dismissed: 0 }[cur.reviews.get(pairKey(p)) ?? ''];
    case 'containmentAb':
    case 'containmentBa':
      return figures(p)[sortKey];
    default:
      return p[sortKey];
  }
}

/**
 * A pair's figures as the core's row of it gives them: once compared in
 * full, its full comparison's containments (what the opened pair, the CSV
 * and the pack show); until then the class measure's.
 */
function figures(p) {
  return state.current.compared.get(pairKey(p))?.row ?? p;
}
function sortedRows(pairs) {
  const filter = $('class-filter').value.trim().toLowerCase();
  const kind = $('class-kind').value;
  const name = (i) => state.current.texts[i].id.toLowerCase();
  return pairs
    .filter((p) => !filter || name(p.a).includes(filter) || name(p.b).includes(filter))
    .filter((p) => kind === 'all' || (kind === 'source') === p.source)
    .sort((x, y) => {
      const sign = descending ? 1 : -1;
      if (sortKey === 'a' || sortKey === 'b') return -sign * name(x[sortKey]).localeCompare(name(y[sortKey]));
      return sign * (sortValue(y) - sortValue(x)) || y.score - x.score || x.a - y.a || x.b - y.b;
    });
}

function rowOf(p) {
  const cur = state.current;
  const tr = document.createElement('tr');
  tr.dataset.pair = pairKey(p);
  tr.dataset.source = String(p.source);
  tr.dataset.a = cur.texts[p.a].id;
  tr.dataset.b = cur.texts[p.b].id;
  tr.dataset.score = String(p.score);
  if (p.identical) tr.dataset.identical = String(p.identical);
  const r = cur.compared.get(pairKey(p));
  const words = r && !r.error ? Math.round(r.coverageA * r.tokensA) : '';
  const cells = [
    cur.texts[p.a].id,
    // A group of identical texts is one row: its first two, and how many.
    p.identical ? `${cur.texts[p.b].id} (group of ${p.identical} identical texts)` : cur.texts[p.b].id,
    `${Math.round(figures(p).containmentAb * 100)}%`,
    `${Math.round(figures(p).containmentBa * 100)}%`,
    String(words),
    p.source ? 'shared source' : r?.verdict ? verdictWords(r.verdict) : r ? '' : '…',
  ];
  cells.forEach((text, i) => {
    const td = document.createElement('td');
    td.textContent = text;
    td.dataset.label = LABELS[i]; // the column's name, shown above the value on a phone
    tr.append(td);
  });
  if (p.source && r?.verdict) tr.cells[5].textContent = `shared source (${verdictWords(r.verdict)})`;
  // A student whose text was tricked to hide a copy (look-alike letters,
  // invisible characters: undone by the core before comparing) is flagged
  // by name, with the core's sentence.
  [p.a, p.b].forEach((t, i) => {
    const o = cur.result.texts[t]?.obfuscation;
    if (!o?.warning) return;
    const flag = document.createElement('span');
    flag.className = 'obfuscation-flag';
    flag.dataset.testid = 'class-obfuscation';
    flag.dataset.text = cur.texts[t].id;
    flag.textContent = ' ⚠ tricks undone';
    flag.title = o.warning;
    flag.setAttribute('aria-label', `${cur.texts[t].id}: ${o.warning}`);
    tr.cells[i].append(flag);
  });
  tr.dataset.verdict = p.source ? 'shared-source' : verdictOf(p);
  const review = document.createElement('select');
  review.setAttribute('aria-label', `Review of ${cur.texts[p.a].id} and ${cur.texts[p.b].id}`);
  for (const [v, label] of [['', 'to review'], ['confirmed', 'confirmed'], ['dismissed', 'dismissed']]) {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = label;
    review.append(o);
  }
  review.value = cur.reviews.get(pairKey(p)) ?? '';
  review.dataset.testid = 'class-review';
  review.addEventListener('change', () => saveReview(p, review.value));
  const td = document.createElement('td');
  td.dataset.label = 'Review';
  td.append(review);
  tr.append(td);
  const open = document.createElement('button');
  open.type = 'button';
  open.textContent = 'Open';
  open.setAttribute('aria-label', `Open ${cur.texts[p.a].id} and ${cur.texts[p.b].id} side by side`);
  open.addEventListener('click', () => handlers.openPair({
    key: pairKey(p),
    a: cur.texts[p.a].text,
    aName: cur.texts[p.a].id,
    b: cur.texts[p.b].text,
    bName: cur.texts[p.b].id,
    excludedA: cur.result.texts[p.a].excluded,
    excludedB: cur.result.texts[p.b].excluded,
    commonA: cur.result.texts[p.a].common,
    // The class's sources besides B: what the pair shares from them is shown as theirs.
    sources: cur.texts.slice(cur.students.length).filter((_, k) => cur.students.length + k !== p.b).map((t) => ({ text: t.text, name: t.id })),
  }));
  const td2 = document.createElement('td');
  td2.append(open);
  tr.append(td2);
  return tr;
}

/** Pairs whose full comparison arrived since the last frame. */
const dirty = new Set();
let flush = 0;

/**
 * A pair's full comparison arrived: its row is redrawn at the next frame,
 * with every other that arrived meanwhile (one layout per frame, however
 * fast the workers answer); in the virtual table, only if it is in view.
 */
export function updateRow(p) {
  dirty.add(pairKey(p));
  if (flush) return;
  flush = requestAnimationFrame(() => {
    flush = 0;
    const keys = [...dirty];
    dirty.clear();
    if (!state.current) return;
    if ($('class-pairs-scroll').classList.contains('virtual')) {
      const inView = new Set([...$('class-pairs').tBodies[0].rows].map((r) => r.dataset.pair));
      if (keys.some((k) => inView.has(k))) renderWindow();
      return;
    }
    const byKey = new Map(shown.map((q) => [pairKey(q), q]));
    for (const k of keys) {
      const old = $('class-pairs').querySelector(`tr[data-pair="${k}"]`);
      if (old && byKey.has(k)) old.replaceWith(rowOf(byKey.get(k)));
    }
  });
}

/** Shows pair `key`'s row (coming back from the pair) and focuses its Open button. */
export function focusPair(key) {
  const box = $('class-pairs-scroll');
  if (box.classList.contains('virtual')) {
    const at = shown.findIndex((p) => pairKey(p) === key);
    if (at < 0) return;
    box.scrollTop = $('class-pairs').tBodies[0].offsetTop + at * rowHeight - box.clientHeight / 2;
    renderWindow();
  }
  const row = $('class-pairs').querySelector(`tr[data-pair="${key}"]`);
  if (!row) return;
  row.scrollIntoView({ block: 'center' });
  row.querySelector('td:last-child button')?.focus({ preventScroll: true });
}
