// The class-set view's per-student table: each student's strongest match
// (the text holding the most of theirs, from the core's `students`), how
// much of their text it covers, and how much of their text any other text
// of the class or a source holds (`texts[i].shared`). Most covered first.
import { shownName } from '../names.js';
import { $, state } from './state.js';

const pct = (x) => `${Math.round(x * 100)} %`;

export function renderStudents() {
  const cur = state.current;
  const rows = cur.result.students
    .map((s, i) => ({ ...s, i, shared: cur.result.texts[i].shared }))
    .sort((x, y) => y.covered - x.covered || x.i - y.i)
    .map((s) => {
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
    });
  $('class-student-summary').tBodies[0].replaceChildren(...rows);
}
