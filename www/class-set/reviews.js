// The class-set view's review marks ("confirmed", "dismissed"), kept in
// this browser's IndexedDB per class set, never uploaded.
import { sha256 } from './files.js';
import { $, pairKey, state } from './state.js';

export async function classKey(texts, template) {
  const data = new TextEncoder().encode(JSON.stringify([texts.map((t) => [t.id, t.text]), template]));
  return (await sha256(data)).slice(0, 32);
}

function db() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open('neardup-class-sets', 1);
    req.onupgradeneeded = () => req.result.createObjectStore('reviews');
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

export async function loadReviews(key) {
  try {
    const d = await db();
    return await new Promise((resolve) => {
      const req = d.transaction('reviews').objectStore('reviews').get(key);
      req.onsuccess = () => resolve(new Map(Object.entries(req.result ?? {})));
      req.onerror = () => resolve(new Map());
    });
  } catch {
    return new Map(); // private browsing without storage: marks last the session
  }
}

export async function saveReview(p, value) {
  const cur = state.current;
  if (value) cur.reviews.set(pairKey(p), value);
  else cur.reviews.delete(pairKey(p));
  try {
    const d = await db();
    const tx = d.transaction('reviews', 'readwrite');
    tx.objectStore('reviews').put(Object.fromEntries(cur.reviews), cur.key);
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    $('class-saved').textContent = 'Review marks saved in this browser.';
  } catch (err) {
    $('class-saved').textContent = `Review marks not saved: ${err?.message ?? err}`;
  }
}

