// The class-set view's table of pairs at or above the cut-off: sortable,
// filterable by name and kind, each row with its containments, the words of
// A in shared passages, the verdict (once compared), a review mark and a way
// to open the pair in the two-text view.
import { verdictWords } from '../report.js';
import { saveReview } from './reviews.js';
import { $, above, pairKey, state, verdictOf } from './state.js';

/** Set by the view: what "Open" does with a pair. */
export const handlers = { openPair: () => {} };

export function renderTable() {
  const rows = sortedRows(above());
  const tbody = $('class-pairs').tBodies[0];
  tbody.replaceChildren(...rows.map(rowOf));
  $('class-export-csv').disabled = false;
  $('class-export-pack').disabled = false;
  $('class-count').textContent = `${rows.length} pair${rows.length === 1 ? '' : 's'}`;
}

let sortKey = 'score';

/** Sorts the table by `key` (a pair's field, or 'a'/'b' by name). */
export function sortBy(key) {
  sortKey = key;
  renderTable();
}
function sortedRows(pairs) {
  const filter = $('class-filter').value.trim().toLowerCase();
  const kind = $('class-kind').value;
  const name = (i) => state.current.texts[i].id.toLowerCase();
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
  const cur = state.current;
  const tr = document.createElement('tr');
  tr.dataset.pair = pairKey(p);
  tr.dataset.source = String(p.source);
  tr.dataset.a = cur.texts[p.a].id;
  tr.dataset.b = cur.texts[p.b].id;
  tr.dataset.score = String(p.score);
  const r = cur.compared.get(pairKey(p));
  const words = r && !r.error ? Math.round(r.coverageA * r.tokensA) : '';
  const cells = [
    cur.texts[p.a].id,
    cur.texts[p.b].id,
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
  td.append(review);
  tr.append(td);
  const open = document.createElement('button');
  open.type = 'button';
  open.textContent = 'Open';
  open.setAttribute('aria-label', `Open ${cur.texts[p.a].id} and ${cur.texts[p.b].id} side by side`);
  open.addEventListener('click', () => handlers.openPair({
    a: cur.texts[p.a].text,
    aName: cur.texts[p.a].id,
    b: cur.texts[p.b].text,
    bName: cur.texts[p.b].id,
    excludedA: cur.result.texts[p.a].excluded,
    excludedB: cur.result.texts[p.b].excluded,
    commonA: cur.result.texts[p.a].common,
  }));
  const td2 = document.createElement('td');
  td2.append(open);
  tr.append(td2);
  return tr;
}

export function updateRow(p) {
  const old = $('class-pairs').querySelector(`tr[data-pair="${pairKey(p)}"]`);
  if (old) old.replaceWith(rowOf(p));
}

