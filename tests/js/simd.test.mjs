// The two WebAssembly modules of the package: the SIMD build
// (neardup_simd_bg.wasm, where normalisation classifies 64 bytes at a time)
// and the baseline build (neardup_bg.wasm, eight bytes at a time), each
// instantiated on its own copy of the wasm-bindgen glue, give the same
// normalisation, shingle hashes, MinHash signatures and comparisons, bit for
// bit, on real prose (docs-bench, Clough–Stevenson), on texts mixing
// scripts, and on long texts built to reach the SIMD path's corners.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as nd from '../../pkg/node.js';
import { clough, docsBench, repo } from './helpers.mjs';

async function instance(file) {
  const m = await import(`../../pkg/neardup.js?${file}`);
  m.initSync({ module: readFileSync(join(repo, 'pkg', file)) });
  return m;
}

test('Node runs WebAssembly SIMD, and the Node entry loads the SIMD build', () => {
  // Every Node the package supports (>= 20.19) has WebAssembly SIMD.
  assert.equal(nd.wasmSimd, true);
  const node = readFileSync(join(repo, 'pkg/node.js'), 'utf8');
  assert.match(node, /simd \? '\.\/neardup_simd_bg\.wasm' : '\.\/neardup_bg\.wasm'/);
});

test('the two modules are two builds behind one glue: the same imports and exports', () => {
  const [simd, base] = ['neardup_simd_bg.wasm', 'neardup_bg.wasm'].map((f) => new WebAssembly.Module(readFileSync(join(repo, 'pkg', f))));
  const names = (list) => list.map((x) => `${x.module ?? ''}.${x.name}:${x.kind}`).sort();
  assert.deepEqual(names(WebAssembly.Module.imports(simd)), names(WebAssembly.Module.imports(base)));
  assert.deepEqual(names(WebAssembly.Module.exports(simd)), names(WebAssembly.Module.exports(base)));
  const pkg = JSON.parse(readFileSync(join(repo, 'pkg/package.json'), 'utf8'));
  assert.ok(pkg.files.includes('neardup_simd_bg.wasm') && pkg.exports['./neardup_simd_bg.wasm']);
});

test('the SIMD and baseline modules give the same results, bit for bit', async () => {
  const [simd, base] = [await instance('neardup_simd_bg.wasm'), await instance('neardup_bg.wasm')];
  const texts = [...docsBench().docs.values()].slice(0, 150);
  texts.push(clough('g0pA_taskb.txt'), clough('orig_taskb.txt'));
  // Long texts that reach the 64-byte path's corners: joins (can't, e.g.,
  // 3.14, 1,000) at every offset, runs of spaces across blocks, non-ASCII
  // words after ASCII ones in the same block.
  const pieces = ['word', 'Words', "can't", 'e.g.', '3.14', '1,000', 'x_1', 'a:b', ' ', '  ', '\n', '\t', 'café', 'naïve', '日本', '—', '"quoted"', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  for (let t = 0; t < 40; t++) {
    let s = '';
    while (s.length < 2000) s += pieces[next() % pieces.length] + (next() % 3 ? ' ' : '');
    texts.push(s);
  }
  for (const text of texts) {
    assert.deepEqual(simd.normalize(text), base.normalize(text));
    for (const spec of [1, 2]) {
      assert.deepEqual(simd.wordShingles(text, 5, undefined, spec), base.wordShingles(text, 5, undefined, spec));
      assert.deepEqual(simd.charShingles(text, 5, undefined, spec), base.charShingles(text, 5, undefined, spec));
      const [a, b] = [new simd.MinHash({ spec }), new base.MinHash({ spec })];
      a.update(text);
      b.update(text);
      assert.deepEqual(a.toBytes(), b.toBytes());
    }
  }
  const [a, b] = [clough('g0pB_taskb.txt'), clough('orig_taskb.txt')];
  assert.deepEqual(simd.compare(a, b), base.compare(a, b));
});

test("character q-grams folded two windows a vector (the SIMD module's fold) give the baseline module's signatures", async () => {
  // The SIMD module folds an ASCII run's q-grams of 4 to 8 bytes at spec 2
  // eight windows a 16-byte load (src/minhash/simd128.rs); the baseline
  // folds each window's XXH3-64 one at a time. Runs of every length 0 to
  // 99 (the kernel's groups and the windows left after them), q 4 to 8,
  // three seeds, and a run between non-ASCII words (its own piece).
  const [simd, base] = [await instance('neardup_simd_bg.wasm'), await instance('neardup_bg.wasm')];
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let compared = 0;
  for (let len = 0; len < 100; len++) {
    let run = '';
    for (let i = 0; i < len; i++) run += letters[next() % letters.length];
    for (const text of [run, `été ${run} 日本`]) {
      for (let q = 4; q <= 8; q++) {
        for (const s of [0, 1, 2 ** 40 + 3]) {
          const options = { spec: 2, shingle: `char:${q}`, seed: s };
          const [a, b] = [new simd.MinHash(options), new base.MinHash(options)];
          a.update(text);
          b.update(text);
          assert.deepEqual(a.toBytes(), b.toBytes(), `${JSON.stringify(text)}, q ${q}, seed ${s}`);
          a.free();
          b.free();
          compared++;
        }
      }
    }
  }
  assert.equal(compared, 100 * 2 * 5 * 3);
});
