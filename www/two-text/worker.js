// The two-text view's Web Worker (engine.js's `engine` is its client): the
// comparison's own WebAssembly module (`neardup/compare`, pkg/compare.js:
// compare and the verdict's model) without the class set, dedup, library,
// multireference and dictionary code, so that the view's first score
// downloads about half of the whole package's module (issue 49). The
// dictionary behind the sound-alike marks ("Tolerate typos") is the whole
// package's `Speller`: its module is loaded the first time they are asked
// for. Requests as worker.js's `warm` and `compare` (comparing.js).
import * as pkg from '../../pkg/compare.js';
import { comparer, serve } from '../comparing.js';

async function speller() {
  const whole = await import('../../pkg/index.js');
  await whole.default();
  return whole.Speller;
}

const comparison = comparer(pkg, undefined, speller);
serve({ warm: comparison.warm, compare: comparison.compare });
