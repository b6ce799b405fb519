// The class-set view's per-student table: each student's strongest match
// (the text holding the most of theirs, from the core's `students`), how
// much of their text it covers, and how much of their text any other text
// of the class or a source holds (`texts[i].shared`). Most covered first,
// 200 at a time.
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
  shownStudents = 0;
  showMore(order, make);
}

/** Students shown at first, and added by each "Show more". */
const PAGE = 200;
let shownStudents = 0;

/**
 * Shows PAGE more students (the most covered first), with a button for the
 * next PAGE while any are left: a class of thousands is never laid out at
 * once (5,074 rows took one 150 ms layout when scrolled into view).
 */
function showMore(order, make) {
  const tbody = $('class-student-summary').tBodies[0];
  const rows = order.slice(shownStudents, shownStudents + PAGE).map(make);
  if (shownStudents === 0) tbody.replaceChildren(...rows);
  else tbody.append(...rows);
  shownStudents += rows.length;
  const more = $('class-students-more');
  const left = order.length - shownStudents;
  more.hidden = left <= 0;
  more.textContent = `Show ${Math.min(PAGE, left)} more of ${left} students`;
  more.onclick = () => showMore(order, make);
}
