// The class-set view's review marks ("confirmed", "dismissed"), kept in
// this browser's IndexedDB, never uploaded. A mark belongs to a pair of
// texts, keyed by the SHA-256 of each text: it survives any change of the
// class that keeps both texts (a student added or removed, a source given,
// a setting changed), and a mark whose pair is no longer listed is shown
// as such rather than dropped.
import { $, pairKey, state } from './state.js';

/**
 * A pair's mark key: its two texts' hashes, "a:b" (A the student); a text's
 * hash is the first 32 hex digits of the SHA-256 of its UTF-8, given by the
 * reader's worker (files.js).
 */
export function markKey(cur, p) {
  return `${cur.texts[p.a].hash}:${cur.texts[p.b].hash}`;
}

const STORE = 'marks';

function db() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open('neardup-class-sets', 2);
    req.onupgradeneeded = () => {
      const d = req.result;
      if (!d.objectStoreNames.contains(STORE)) d.createObjectStore(STORE);
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Every mark kept: Map of mark key → {value, a, b} (a, b: the names when marked). */
async function allMarks() {
  try {
    const d = await db();
    return await new Promise((resolve) => {
      const out = new Map();
      const req = d.transaction(STORE).objectStore(STORE).openCursor();
      req.onsuccess = () => {
        const c = req.result;
        if (!c) return resolve(out);
        out.set(c.key, c.value);
        c.continue();
      };
      req.onerror = () => resolve(out);
    });
  } catch {
    return new Map(); // private browsing without storage: marks last the session
  }
}

/** Marks made in this session when storage is unavailable. */
const session = new Map();

/**
 * Loads the marks of the class `cur` (its texts hashed): `cur.marks`, every
 * mark kept, by mark key; `cur.reviews`, the marks of the core's pairs
 * (any score), by the pairs' "a:b" index keys.
 */
export async function loadReviews(cur) {
  cur.marks = new Map([...(await allMarks()), ...session]);
  cur.reviews = new Map();
  for (const p of cur.result.pairs) {
    const m = cur.marks.get(markKey(cur, p));
    if (m?.value) cur.reviews.set(pairKey(p), m.value);
  }
}

/**
 * Lists the marks of pairs of this class's texts (either text still in it)
 * that are not among the pairs `listed` now — a text changed, a student
 * left, the pair fell below the cut-off — so that no mark is lost unseen.
 */
export function renderOrphans(cur, listed) {
  const shown = new Set(listed.map((p) => markKey(cur, p)));
  const hashes = new Set(cur.texts.map((t) => t.hash));
  const orphans = [...cur.marks]
    .filter(([k, m]) => m?.value && !shown.has(k) && k.split(':').some((h) => hashes.has(h)))
    .map(([, m]) => m);
  const box = $('class-orphan-marks');
  box.hidden = !orphans.length;
  if (!orphans.length) return box.replaceChildren();
  const head = document.createElement('strong');
  head.textContent = `${orphans.length} review mark${orphans.length === 1 ? '' : 's'} of pairs not listed now (a text changed or left the class, or the pair is below the cut-off), kept in this browser:`;
  const list = document.createElement('ul');
  for (const m of orphans.slice(0, 50)) {
    const li = document.createElement('li');
    li.textContent = `${m.a} and ${m.b}: ${m.value}`;
    list.append(li);
  }
  box.replaceChildren(head, list);
}

export async function saveReview(p, value) {
  const cur = state.current;
  const key = markKey(cur, p);
  const mark = { value, a: cur.texts[p.a].id, b: cur.texts[p.b].id };
  if (value) cur.reviews.set(pairKey(p), value);
  else cur.reviews.delete(pairKey(p));
  session.set(key, value ? mark : null);
  cur.marks.set(key, value ? mark : null);
  try {
    const d = await db();
    const tx = d.transaction(STORE, 'readwrite');
    if (value) tx.objectStore(STORE).put(mark, key);
    else tx.objectStore(STORE).delete(key);
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    $('class-saved').textContent = 'Review marks saved in this browser.';
  } catch (err) {
    $('class-saved').textContent = `Review marks not saved: ${err?.message ?? err}`;
  }
}
