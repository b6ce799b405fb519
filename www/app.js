// The page's entry module. Two views, a folder each: two-text/ (a text
// against up to five sources) and class-set/ (a whole class), each split by
// concern (state, inputs, analysis, rendering); engine.js is the one client
// of the Web Workers (worker.js: the neardup WebAssembly module);
// reader.js reads every file given to the page; highlight.js marks the
// shared passages; report.js builds the downloadable reports; offline.js
// registers the service worker that keeps the page for offline use;
// privacy.js counts the requests made since the texts were given;
// store.js keeps the marks, the library and the settings on this device. Heavy
// libraries (the zip and PDF readers, the CSV writer) are bundled into lib/
// and imported only when needed.
import { openPair } from './two-text/view.js';
import { onOpenPair, showMode } from './class-set/view.js';
import { focusPair } from './class-set/table.js';
import { registerOfflineSoon } from './offline.js';
import './privacy.js';
import './store.js';

const $ = (id) => document.getElementById(id);
/** The class set's pair shown in the two-text view, for the way back. */
let fromClass = null;

// A pair of the class set opens in the two-text view, with a way back to
// the class at the same place (its row shown and focused).
onOpenPair((pair) => {
  fromClass = pair.key;
  $('back-pair').textContent = `${pair.aName} and ${pair.bName}, opened from the class set.`;
  $('back-row').hidden = false;
  showMode('two');
  openPair(pair);
});
$('back-to-class').addEventListener('click', () => {
  $('back-row').hidden = true;
  showMode('class');
  if (fromClass) focusPair(fromClass);
});

registerOfflineSoon();
