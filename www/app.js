// The page's entry module. Two views, a folder each: two-text/ (a text
// against up to five sources) and class-set/ (a whole class), each split by
// concern (state, inputs, analysis, rendering); engine.js is the one client
// of the Web Workers (worker.js: the neardup WebAssembly module);
// reader.js reads every file given to the page; highlight.js marks the
// shared passages; report.js builds the downloadable reports. Heavy
// libraries (the zip and PDF readers, the CSV writer) are bundled into lib/
// and imported only when needed.
import { openPair } from './two-text/view.js';
import { onOpenPair, showMode } from './class-set/view.js';

// A pair of the class set opens in the two-text view.
onOpenPair((pair) => {
  showMode('two');
  openPair(pair);
});
