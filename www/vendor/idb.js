// idb-keyval (a small, well-kept IndexedDB wrapper), bundled into
// www/lib/idb.js by scripts/build-page.mjs for the page's store.js.
export { createStore, del, entries, get, set } from 'idb-keyval';
