// The page's entry module. Views, one module each: two-text.js (a text
// against up to five sources), class-set.js (a whole class); report.js builds the downloadable report;
// reader.js reads every file given to the page; highlight.js marks the
// shared passages. Heavy libraries (the zip and PDF readers) are bundled
// into lib/ and imported only when a file needs them.
import { openPair } from './two-text.js';
import { onOpenPair, showMode } from './class-set.js';

// A pair of the class set opens in the two-text view.
onOpenPair((pair) => {
  showMode('two');
  openPair(pair);
});
