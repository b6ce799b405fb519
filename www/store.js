// What the page keeps on this device (issue 49 item 4), in IndexedDB through
// idb-keyval, never uploaded: the class set's review marks (by the SHA-256
// of each pair's texts, reviews.js), the last reference library given (its
// bytes, so that it need not be picked again after a reload), the class
// set's settings and the last class's result (class-set/kept.js). The "Kept on this device" list (data-testid=stored-data)
// shows each with its size and a Forget button. Where storage is refused
// (a private window), nothing is kept and the page works for the session.
import { createStore, del, entries, get, set } from './lib/idb.js';

/** Review marks: mark key → {value, a, b} (the database the marks always had). */
const marks = createStore('neardup-class-sets', 'marks');
/** Everything else, by name: 'library' {name, bytes}, 'settings' {id: value}, 'class' (kept.js). */
const kept = createStore('neardup', 'kept');

const list = document.getElementById('stored-data-list');

/** The value kept under `key`, or undefined (also where storage is refused). */
export async function recall(key) {
  try {
    return await get(key, kept);
  } catch {
    return undefined;
  }
}

/** Keeps `value` under `key` (quietly nothing where storage is refused). */
export async function keep(key, value) {
  try {
    await set(key, value, kept);
  } catch {
    // Storage refused: kept for this session only, by the caller.
  }
  await showStored();
}

/** Every review mark kept: Map of mark key → mark (empty where storage is refused). */
export async function allMarks() {
  try {
    return new Map(await entries(marks));
  } catch {
    return new Map();
  }
}

/**
 * Keeps a review mark (`mark` null: removes it). Throws where storage is
 * refused, so that the page can say the mark was not saved.
 */
export async function putMark(key, mark) {
  if (mark) await set(key, mark, marks);
  else await del(key, marks);
  await showStored();
}

/** The size of a kept value in bytes: its bytes, the count it carries, or its JSON's. */
function size(v) {
  if (v instanceof Uint8Array) return v.byteLength;
  if (typeof v?.bytes === 'number') return v.bytes;
  if (v?.bytes instanceof Uint8Array) return v.bytes.byteLength + JSON.stringify({ ...v, bytes: 0 }).length;
  return JSON.stringify(v ?? null).length;
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** Each thing kept: `[{what, label, bytes, forget()}]`. */
export async function storedData() {
  const out = [];
  try {
    const m = (await entries(marks)).filter(([, v]) => v?.value);
    if (m.length) {
      out.push({
        what: 'marks',
        label: `Review marks: ${m.length}`,
        bytes: m.reduce((n, [k, v]) => n + String(k).length + size(v), 0),
        forget: async () => {
          for (const [k] of await entries(marks)) await del(k, marks);
        },
      });
    }
    const library = await get('library', kept);
    if (library) {
      out.push({ what: 'library', label: `The reference library ${library.name}`, bytes: size(library), forget: () => del('library', kept) });
    }
    const last = await get('class', kept);
    if (last) {
      const n = last.students?.length ?? 0;
      out.push({ what: 'class', label: `The last class set (${n} student${n === 1 ? '' : 's'})`, bytes: size(last), forget: () => del('class', kept) });
    }
    const settings = await get('settings', kept);
    if (settings) out.push({ what: 'settings', label: 'The class set\'s settings', bytes: size(settings), forget: () => del('settings', kept) });
  } catch {
    // Storage refused: nothing is kept.
  }
  return out;
}

/** Fills the "Kept on this device" list, each item with its size and a Forget button. */
export async function showStored() {
  if (!list) return;
  const items = await storedData();
  list.replaceChildren(
    ...items.map((item) => {
      const li = document.createElement('li');
      li.dataset.kept = item.what;
      li.dataset.bytes = String(item.bytes);
      const forget = document.createElement('button');
      forget.type = 'button';
      forget.textContent = 'Forget';
      forget.setAttribute('aria-label', `Forget ${item.label.toLowerCase()}`);
      forget.addEventListener('click', async () => {
        await item.forget();
        await showStored();
        list.dispatchEvent(new CustomEvent('forgotten', { detail: item.what }));
      });
      li.append(`${item.label} (${kb(item.bytes)}) `, forget);
      return li;
    }),
  );
  if (!items.length) {
    const li = document.createElement('li');
    li.textContent = 'Nothing.';
    list.append(li);
  }
}

/** Calls `f(what)` after something kept was forgotten ('marks', 'library', 'settings', 'class'). */
export function onForgotten(f) {
  list?.addEventListener('forgotten', (e) => f(e.detail));
}

showStored();
