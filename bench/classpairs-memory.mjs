// The WebAssembly memory the core's classPairs takes for a class of n
// docs-bench texts, in Node (the page runs the same call in one worker of
// its pool, whose memory never shrinks afterwards).
//   npm run build && node bench/classpairs-memory.mjs 2000
// Prints the time, the pairs listed at a 5 % cut-off, and how much the
// process's resident set and its external memory (the module's memory)
// grew during the call.
import * as nd from '../pkg/node.js';
import { docsBench } from '../tests/js/helpers.mjs';

const n = Number(process.argv[2] ?? 2000);
const { docs } = docsBench();
const texts = [...docs.keys()].slice(0, n).map((id) => docs.get(id));
const before = process.memoryUsage();
const t = performance.now();
const report = nd.classPairs(texts, [], '', { minContainment: 0.05 });
const after = process.memoryUsage();
console.log(`classPairs, ${n} texts: ${(performance.now() - t).toFixed(0)} ms, ${report.pairs.length} pairs at 5 % or more`);
for (const k of ['rss', 'external']) {
  const grew = after[k] - before[k];
  console.log(`${k}: ${(grew / 1e6).toFixed(0)} MB more (${(grew / n / 1e3).toFixed(0)} KB a text), ${(after[k] / 1e6).toFixed(0)} MB in all`);
}
