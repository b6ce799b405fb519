// The class view's reference library: the class checked one way against a
// library file (.ndl: saved here, or by `neardup library build`) in the
// worker pool, what was found shown, and the class (with its sources, added
// to the library given if any) saved as a library — phrase postings, no
// text (the core's ClassLibrary).
import { shownName } from '../names.js';
import { download } from '../report.js';
import { keep, recall } from '../store.js';
import { $, cutOff, settings, state } from './state.js';

/**
 * The library to check against: the file picked, else the one kept on this
 * device; `{name, bytes, picked}` or null. A picked library that reads is
 * kept, so that it need not be picked again after a reload.
 */
export async function givenLibrary() {
  const file = $('class-library').files[0];
  if (file) return { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()), picked: true };
  const kept = await recall('library');
  return kept ? { ...kept, picked: false } : null;
}

/** Checks the current class against the library given or kept, if any. */
export async function checkLibrary(pool, alive) {
  const cur = state.current;
  cur.library = null;
  const given = await givenLibrary();
  if (!given) return;
  const file = { name: given.name, kept: !given.picked };
  const { bytes } = given;
  try {
    const found = await pool.ask({ kind: 'libraryCheck', bytes, students: cur.students.map((s) => s.text), minContainment: cutOff() });
    if (alive()) cur.library = { file: file.name, kept: file.kept, bytes, ...found };
    if (given.picked) await keep('library', { name: given.name, bytes });
  } catch (err) {
    if (alive()) cur.library = { file: file.name, error: err.message };
  }
}

export function renderLibrary() {
  const cur = state.current;
  const box = $('class-library-matches');
  $('class-library-save').disabled = false;
  box.hidden = !cur.library;
  box.querySelector('.problem')?.remove();
  const tbody = box.querySelector('tbody');
  if (!cur.library) return tbody.replaceChildren();
  if (cur.library.error) {
    const p = document.createElement('p');
    p.className = 'problem';
    p.setAttribute('role', 'alert');
    p.textContent = `The library ${shownName(cur.library.file)} could not be read: ${cur.library.error}`;
    box.prepend(p);
    return tbody.replaceChildren();
  }
  const pct = (x) => `${Math.round(x * 100)} %`;
  tbody.replaceChildren(
    ...cur.library.matches.map((m) => {
      const tr = document.createElement('tr');
      tr.dataset.student = cur.students[m.student].id;
      tr.dataset.text = cur.library.names[m.text];
      tr.dataset.containment = String(m.containment);
      for (const t of [shownName(cur.students[m.student].id), shownName(cur.library.names[m.text]), pct(m.containment), pct(m.containmentLibrary)]) {
        const td = document.createElement('td');
        td.textContent = t;
        tr.append(td);
      }
      return tr;
    }),
  );
}

/** Downloads the class (and sources) as a library, added to the one given. */
export async function saveLibrary(pool) {
  const cur = state.current;
  if (!cur) return;
  const texts = [...cur.students, ...cur.sources];
  const { bytes } = await pool.ask({
    kind: 'libraryBuild',
    bytes: cur.library?.bytes,
    names: texts.map((t) => t.id),
    texts: texts.map((t) => t.text),
    options: { ...settings(), ...cur.options },
  });
  download(bytes, cur.library?.file ?? 'class-library.ndl', 'application/octet-stream');
}
