// The class view's reference library: the class checked one way against a
// library file (.ndl: saved here, or by `neardup library build`) in the
// worker pool, each match whose text the library keeps compared in full
// (verdict, passages, Open) as `neardup class` compares it, what was found
// shown, and the class (with its sources, added to the library given if
// any) saved as a library — phrase postings and, when "keep the texts" is
// ticked, the texts (the core's ClassLibrary).
import { shownName } from '../names.js';
import { download, verdictWords } from '../report.js';
import { keep, recall } from '../store.js';
import { $, compareRequest, cutOff, settings, state } from './state.js';
import { handlers } from './table.js';

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

/** The library given, as the status line names it ("NAME (kept on this device)" for the kept one), or null. */
export async function libraryLabel() {
  const given = await givenLibrary();
  return given && (given.picked ? given.name : `${given.name} (kept on this device)`);
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
    const found = await pool.ask({ kind: 'libraryCheck', bytes, students: cur.students.map((s) => s.text), minContainment: cutOff(), options: cur.result.options });
    // found.kept (the texts) is by library position; cur.library.kept says
    // whether the library file is the one kept on this device.
    if (alive()) cur.library = { file: file.name, kept: file.kept, bytes, names: found.names, matches: found.matches, texts: found.kept, compared: [] };
    if (given.picked) await keep('library', { name: given.name, bytes });
  } catch (err) {
    if (alive()) cur.library = { file: file.name, error: err.message };
  }
}

/**
 * Compares in full each library match whose text the library keeps (the
 * student's class exclusions and the library text's own left out, as
 * `neardup class` does): its row (the core's) then has the comparison's
 * containments, verdict and passages.
 */
export async function compareLibrary(pool, alive) {
  const cur = state.current;
  const lib = cur.library;
  if (!lib?.matches) return;
  await Promise.all(lib.matches.map(async (m, i) => {
    const kept = lib.texts[m.text];
    if (!kept) return;
    try {
      const { reports, row } = await pool.ask(compareRequest(cur, m.student, kept.text, kept.excluded, { match: m }));
      reports[0].row = row;
      if (alive()) lib.compared[i] = reports[0];
    } catch (err) {
      if (alive()) lib.compared[i] = { error: err.message };
    }
  }));
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
  const lib = cur.library;
  tbody.replaceChildren(
    ...lib.matches.map((m, i) => {
      const tr = document.createElement('tr');
      const name = lib.names[m.text];
      const kept = lib.texts[m.text];
      const r = lib.compared[i];
      // The core's row once compared in full; the library's figures before.
      const row = r?.row ?? { containmentAb: m.containment, containmentBa: m.containmentLibrary };
      tr.dataset.student = cur.students[m.student].id;
      tr.dataset.text = name;
      tr.dataset.containment = String(row.containmentAb);
      tr.dataset.compared = String(Boolean(r?.row));
      const verdict = !kept ? 'not compared (the library keeps no text)' : r?.error ? `could not be compared: ${r.error}` : r ? verdictWords(r.verdict) : '…';
      for (const t of [shownName(cur.students[m.student].id), shownName(name), pct(row.containmentAb), pct(row.containmentBa), verdict]) {
        const td = document.createElement('td');
        td.textContent = t;
        tr.append(td);
      }
      const td = document.createElement('td');
      if (kept) {
        const open = document.createElement('button');
        open.type = 'button';
        open.textContent = 'Open';
        open.dataset.testid = 'class-library-open';
        open.setAttribute('aria-label', `Open ${cur.students[m.student].id} and the library's ${name} side by side`);
        open.addEventListener('click', () => handlers.openPair({
          key: `library:${i}`,
          a: cur.texts[m.student].text,
          aName: cur.students[m.student].id,
          b: kept.text,
          bName: `library: ${name}`,
          excludedA: cur.result.texts[m.student].excluded,
          excludedB: kept.excluded,
          commonA: cur.result.texts[m.student].common,
          sources: cur.sources.map((t) => ({ text: t.text, name: t.id })),
        }));
        td.append(open);
      }
      tr.append(td);
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
    keepTexts: $('class-library-keep').checked,
  });
  download(bytes, cur.library?.file ?? 'class-library.ndl', 'application/octet-stream');
}
