// Benchmark of the wasm build (pkg/) in Node, on docs-bench prose.
//   npm run bench:wasm          (after `npm run build`)
// Prints MB/s of normalise + shingle and the latency of compare() for a
// 10 KB edited copy against its 10 KB source, the median of repeated runs.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as nd from '../pkg/node.js';
import { docsBench, docsBenchChunk, docsBenchSample } from '../tests/js/helpers.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const data = process.env.NEARDUP_DATA ?? join(repo, '..', 'shared', 'data');
const { docs } = docsBench();
// The same 1 MiB chunk as the criterion bench: whole docs in id order.
const text = docsBenchChunk();
const mb = Buffer.byteLength(text) / 1e6;

function median(f, runs) {
  f(); // warm-up
  const t = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    t.push(performance.now() - t0);
  }
  t.sort((x, y) => x - y);
  return t[Math.floor(t.length / 2)];
}

const rows = [];
for (const [name, f] of [
  ['normalize', () => nd.normalize(text)],
  ['normalize+word3', () => nd.wordShingles(text, 3)],
  ['normalize+word5', () => nd.wordShingles(text, 5)],
  ['normalize+char5', () => nd.charShingles(text, 5)],
]) {
  const ms = median(f, 15);
  rows.push([name, `${(mb / (ms / 1000)).toFixed(1)} MB/s`, `${ms.toFixed(1)} ms per ${mb.toFixed(2)} MB`]);
}

// MinHash: text -> signature (word 5-shingles, 128 values), and from
// pre-computed shingle hashes; throughput per byte of the original text.
{
  const ms = median(() => {
    const m = new nd.MinHash({ numPerm: 128, shingle: 'word:5' });
    m.update(text);
    m.free();
  }, 10);
  rows.push(['MinHash text -> signature (word:5, 128)', `${(mb / (ms / 1000)).toFixed(1)} MB/s`, `${ms.toFixed(1)} ms`]);
  const shingles = nd.wordShingles(text, 5);
  const ms2 = median(() => {
    const m = new nd.MinHash({ numPerm: 128, shingle: 'custom' });
    m.updateShingles(shingles);
    m.free();
  }, 10);
  rows.push(['MinHash shingles -> signature (128)', `${(mb / (ms2 / 1000)).toFixed(1)} MB/s`, `${ms2.toFixed(1)} ms`]);
}

// One document at a time over the documents of the 1 MiB sample, as the
// criterion group `docs/` does natively: text -> MinHash-128 in both schemes
// and text -> SimHash-64.
{
  const { sample, bytes } = docsBenchSample();
  const smb = bytes / 1e6;
  for (const shingle of ['word:5', 'char:5']) {
    for (const scheme of ['oph', 'classic']) {
      const ms = median(() => {
        for (const d of sample) {
          const m = new nd.MinHash({ numPerm: 128, shingle, scheme });
          m.update(d);
          m.free();
        }
      }, 7);
      rows.push([`docs: MinHash ${shingle} ${scheme}`, `${(smb / (ms / 1000)).toFixed(1)} MB/s`, `${ms.toFixed(1)} ms per ${sample.length} documents`]);
    }
    // Spec version 2, the dedup pipeline's default (its token hashes are
    // XXH3-64, which the core computes differently on wasm32).
    {
      const ms = median(() => {
        for (const d of sample) {
          const m = new nd.MinHash({ numPerm: 128, shingle, scheme: 'oph', spec: 2 });
          m.update(d);
          m.free();
        }
      }, 7);
      rows.push([`docs: MinHash ${shingle} oph spec 2`, `${(smb / (ms / 1000)).toFixed(1)} MB/s`, `${ms.toFixed(1)} ms per ${sample.length} documents`]);
      // One object for every document (`clear()` between them), as the
      // native bench reuses one hasher: the text → sketch work alone.
      const m = new nd.MinHash({ numPerm: 128, shingle, scheme: 'oph', spec: 2 });
      const reused = median(() => {
        for (const d of sample) {
          m.clear();
          m.update(d);
        }
      }, 7);
      m.free();
      rows.push([`docs: MinHash ${shingle} oph spec 2, one object cleared`, `${(smb / (reused / 1000)).toFixed(1)} MB/s`, `${reused.toFixed(1)} ms per ${sample.length} documents`]);
    }
    // What the JavaScript objects alone cost (made and freed, no text),
    // which the native figures do not include.
    const objects = median(() => {
      for (let i = 0; i < sample.length; i++) new nd.MinHash({ numPerm: 128, shingle, scheme: 'oph' }).free();
    }, 7);
    rows.push([`docs: MinHash ${shingle} objects alone`, `${objects.toFixed(2)} ms`, `new MinHash + free, ${sample.length} times`]);
    const ms = median(() => {
      for (const d of sample) nd.SimHash.fingerprint(d, { shingle }).free();
    }, 7);
    rows.push([`docs: SimHash ${shingle}`, `${(smb / (ms / 1000)).toFixed(1)} MB/s`, `${ms.toFixed(1)} ms per ${sample.length} documents`]);
  }
}

// SimHash: text -> fingerprint (tf weights).
for (const shingle of ['word:1', 'word:5', 'char:5']) {
  const ms = median(() => nd.SimHash.fingerprint(text, { shingle }), 10);
  rows.push([`SimHash text -> fingerprint (${shingle})`, `${(mb / (ms / 1000)).toFixed(1)} MB/s`, `${ms.toFixed(1)} ms`]);
}

// 10 KB pair: planted copies with 5 % edits, as in the criterion bench.
let a = '';
let b = '';
for (const line of readFileSync(join(data, 'docs-bench/pairs.tsv'), 'utf8').trim().split('\n').slice(1)) {
  const [src, copy, rate] = line.split('\t');
  if (rate !== '0.05') continue;
  b += docs.get(src) + '\n\n';
  a += docs.get(copy) + '\n\n';
  if (Buffer.byteLength(a) >= 10000 && Buffer.byteLength(b) >= 10000) break;
}
const cut = (s) => Buffer.from(s).subarray(0, 10000).toString('utf8').replace(/\uFFFD$/, '');
a = cut(a);
b = cut(b);
const ms = median(() => nd.compare(a, b), 200);
rows.push(['compare 10 KB vs 10 KB', `${ms.toFixed(3)} ms`, `score ${nd.compare(a, b).score.toFixed(3)}`]);

const wasm = readFileSync(join(repo, 'pkg/neardup_bg.wasm'));
rows.push(['neardup_bg.wasm size', `${wasm.length} bytes`, `${gzipSync(wasm, { level: 9 }).length} bytes gzipped`]);
console.log(`node ${process.version}`);
for (const r of rows) console.log(r.join(' | '));
