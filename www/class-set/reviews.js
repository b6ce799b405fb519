// The class-set view's review marks ("confirmed", "dismissed"), kept in
// this browser's IndexedDB (store.js), never uploaded. A mark belongs to a pair of
// texts, keyed by the SHA-256 of each text: it survives any change of the
// class that keeps both texts (a student added or removed, a source given,
// a setting changed), and a mark whose pair is no longer listed is shown
// as such rather than dropped.
import { allMarks, onForgotten, putMark } from '../store.js';
import { $, pairKey, state } from './state.js';

/**
 * A pair's mark key: its two texts' hashes, "a:b" (A the student); a text's
 * hash is the first 32 hex digits of the SHA-256 of its UTF-8, given by the
 * reader's worker (files.js).
 */
export function markKey(cur, p) {
  return `${cur.texts[p.a].hash}:${cur.texts[p.b].hash}`;
}

/** Marks made in this session when storage is unavailable. */
const session = new Map();
onForgotten((what) => {
  if (what === 'marks') session.clear();
});

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
    await putMark(key, value ? mark : null);
    $('class-saved').textContent = 'Review marks saved in this browser.';
  } catch (err) {
    $('class-saved').textContent = `Review marks not saved: ${err?.message ?? err}`;
  }
}
