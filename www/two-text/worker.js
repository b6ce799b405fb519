// The two-text view's Web Worker (engine.js's `engine` is its client): the
// comparison's own WebAssembly module (`neardup/compare`, pkg/compare.js:
// compare, the verdict's model, the dictionary's sound-alike marks) without
// the class set, dedup, library and multireference code, so that the
// view's first score downloads about 40 % of the whole package's module
// (issue 49). Requests as worker.js's `warm` and `compare` (comparing.js).
import * as pkg from '../../pkg/compare.js';
import { comparer, serve } from '../comparing.js';

const comparison = comparer(pkg);
serve({ warm: comparison.warm, compare: comparison.compare });
