// Text → MinHash-128 in the npm package (wasm, Node), spec versions 1 and 2
// side by side (SPEC.md §3a): a MinHash per docs-bench text, word 5-shingles
// and character 5-grams, CPU time of this process, three rounds
// interleaved, the median reported.
//   npm run build && node bench/spec-wasm.mjs
import * as nd from '../pkg/node.js';
import { docsBench } from '../tests/js/helpers.mjs';

const texts = [...docsBench().docs.values()];
const mb = texts.reduce((s, t) => s + Buffer.byteLength(t), 0) / 1e6;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const runs = {};
for (let round = 0; round < 3; round++) {
  for (const shingle of ['word:5', 'char:5']) {
    for (const spec of [1, 2]) {
      const t = cpu();
      for (const text of texts) {
        const m = new nd.MinHash({ shingle, spec });
        m.update(text);
        m.free();
      }
      (runs[`${shingle}, spec ${spec}`] ??= []).push(cpu() - t);
    }
  }
}
console.log(`${texts.length} texts, ${mb.toFixed(1)} MB`);
for (const [k, v] of Object.entries(runs)) {
  v.sort((x, y) => x - y);
  console.log(`${k}: ${v[1].toFixed(3)} s CPU, ${(mb / v[1]).toFixed(1)} MB/s`);
}
