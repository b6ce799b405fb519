// The class-set view's per-student table: each student's strongest match
// (the text holding the most of theirs, from the core's `students`), how
// much of their text it covers, and how much of their text any other text
// of the class or a source holds (`texts[i].shared`). Most covered first.
import { shownName } from '../names.js';
import { $, state } from './state.js';

const pct = (x) => `${Math.round(x * 100)} %`;

export function renderStudents() {
  const cur = state.current;
  const make = (s) => {
    const tr = document.createElement('tr');
    tr.dataset.student = cur.texts[s.i].id;
    tr.dataset.best = s.best == null ? '' : cur.texts[s.best].id;
    tr.dataset.covered = String(s.covered);
    const best = s.best == null ? 'none' : `${shownName(cur.texts[s.best].id)}${s.source ? ' (a source)' : ''}`;
    for (const text of [shownName(cur.texts[s.i].id), best, s.best == null ? '' : pct(s.covered), pct(s.shared)]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  };
  const order = cur.result.students
    .map((s, i) => ({ ...s, i, shared: cur.result.texts[i].shared }))
    .sort((x, y) => y.covered - x.covered || x.i - y.i);
  appendInSlices($('class-student-summary').tBodies[0], order, make);
}

let slicing = 0;
/**
 * Puts a row made by `make` of each of `items` in `tbody`, 250 at a time,
 * one slice per task, so that a class of thousands of students never holds
 * the page's thread for long (a newer render stops an older one).
 */
function appendInSlices(tbody, items, make) {
  const mine = ++slicing;
  tbody.replaceChildren(...items.slice(0, 250).map(make));
  let at = 250;
  const next = () => {
    if (mine !== slicing || at >= items.length) return;
    tbody.append(...items.slice(at, at + 250).map(make));
    at += 250;
    setTimeout(next, 0);
  };
  setTimeout(next, 0);
}
