// SimHash and SimHashIndex in the built package: golden fingerprints and
// snapshot bytes equal the native ones, the index equals brute force, and
// bad input throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Fingerprint, SimHash, SimHashIndex } from '../../pkg/node.js';
import { repo } from './helpers.mjs';

const golden = JSON.parse(readFileSync(join(repo, 'tests/golden/sketches-v1.json'), 'utf8'));
const hex = (u8) => Buffer.from(u8).toString('hex');

test('fingerprints equal the native golden vectors', () => {
  let checked = 0;
  for (const c of golden.simhash) {
    if (BigInt(c.seed) > BigInt(Number.MAX_SAFE_INTEGER)) continue; // not expressible as a JS number
    const opts = { shingle: c.shingle, weights: c.weights, seed: Number(c.seed) };
    assert.equal(SimHash.fingerprintHex(c.text, opts), c.fingerprint, c.text);
    const f = SimHash.fingerprint(c.text, opts);
    assert.equal(f.value, BigInt('0x' + c.fingerprint));
    assert.equal(f.hex, c.fingerprint);
    assert.equal(f.config.shingle, c.shingle);
    checked++;
  }
  assert.ok(checked >= 4);
});

test('table keys (what the edge Worker stores) equal the native golden ones; near pairs share one', () => {
  const g = golden.simhash_index;
  const index = new SimHashIndex(g.max_k);
  g.fingerprints.forEach(([, fp], i) => {
    const keys = Array.from(index.tableKeys(Fingerprint.fromValue(BigInt(`0x${fp}`))), (k) => k.toString(16).padStart(16, '0'));
    assert.deepEqual(keys, g.table_keys[i]);
  });
  // Pigeonhole: any two fingerprints within maxK bits share a key.
  let x = 0x9e3779b97f4a7c15n;
  for (let t = 0; t < 200; t++) {
    x = (x * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    let y = x;
    for (let f = 0; f < g.max_k; f++) y ^= 1n << BigInt(Number((x >> BigInt(8 * f)) & 63n));
    const a = new Set(index.tableKeys(Fingerprint.fromValue(x)));
    assert.ok(Array.from(index.tableKeys(Fingerprint.fromValue(y))).some((k) => a.has(k)));
  }
  assert.equal(index.tableKeys(SimHash.fingerprint('...')).length, 0, 'an empty fingerprint has no keys');
});

test('an index snapshot equals the native bytes and round-trips', () => {
  const g = golden.simhash_index;
  const index = new SimHashIndex(g.max_k);
  for (const [id, fp] of g.fingerprints) index.insert(id, Fingerprint.fromValue(BigInt('0x' + fp)));
  assert.equal(index.remove(g.removed), true);
  assert.equal(hex(index.toBytes()), g.snapshot);
  const back = SimHashIndex.fromBytes(index.toBytes());
  assert.equal(back.size, g.fingerprints.length - 1);
  assert.deepEqual(back.allPairs(), index.allPairs());
});

test('query and allPairs equal brute force', () => {
  let x = 0x9e3779b97f4a7c15n;
  const rand = () => {
    x ^= (x << 13n) & 0xffffffffffffffffn;
    x ^= x >> 7n;
    x ^= (x << 17n) & 0xffffffffffffffffn;
    return x;
  };
  const fps = [];
  for (let i = 0; i < 600; i++) {
    let fp = rand();
    if (i % 3 === 2) {
      fp = fps[i - 1][1];
      for (let f = 0; f < Number(rand() % 6n); f++) fp ^= 1n << (rand() % 64n);
    }
    fps.push([`d${String(i).padStart(4, '0')}`, fp]);
  }
  const index = new SimHashIndex(4);
  for (const [id, fp] of fps) index.insert(id, Fingerprint.fromValue(fp));
  const dist = (a, b) => SimHash.hammingDistance(a, b);
  for (const [, q] of fps.slice(0, 60)) {
    const want = fps
      .map(([id, fp]) => ({ id, distance: dist(q, fp) }))
      .filter((m) => m.distance <= 4)
      .sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : 1));
    assert.deepEqual(index.query(Fingerprint.fromValue(q), 4), want);
  }
  const want = [];
  for (let i = 0; i < fps.length; i++)
    for (let j = i + 1; j < fps.length; j++) {
      const d = dist(fps[i][1], fps[j][1]);
      if (d <= 3) want.push({ a: fps[i][0], b: fps[j][0], distance: d });
    }
  assert.ok(want.length > 50);
  assert.deepEqual(index.allPairs(3), want);
});

test('bad input throws clear errors', () => {
  const throwsWith = (fn, re) => assert.throws(fn, (e) => e instanceof Error && re.test(e.message));
  throwsWith(() => new SimHashIndex(17), /invalid option maxK: must be in 0..=16/);
  throwsWith(() => new SimHashIndex(16, 64), /more than 1000/);
  throwsWith(() => new SimHashIndex(3, 3), /invalid option blocks: must be more than the largest distance k = 3/);
  throwsWith(() => SimHash.fingerprint('x', { weights: 'idf' }), /unknown variant `idf`, expected `tf` or `binary`/);
  throwsWith(() => SimHash.fingerprint('x', { shingle: 'custom' }), /not custom/);
  throwsWith(() => SimHash.fingerprint('x', { features: 'word' }), /unknown field `features`/);
  const index = new SimHashIndex(3);
  index.insert('a', Fingerprint.fromValue(1n));
  throwsWith(() => index.insert('a', Fingerprint.fromValue(2n)), /already in the index/);
  throwsWith(() => index.query(Fingerprint.fromValue(1n), 5), /more than the index's largest distance 3/);
  throwsWith(() => index.insert('b', SimHash.fingerprint('some text')), /incompatible fingerprint/);
  throwsWith(() => Fingerprint.fromValue(2n ** 70n + 3n), /must be a bigint in 0..2\^64/);
  throwsWith(() => Fingerprint.fromValue(-1n), /must be a bigint in 0..2\^64/);
  const words = SimHash.fingerprint('some text here', { shingle: 'word:1' });
  throwsWith(() => words.distance(SimHash.fingerprint('some text here')), /incompatible fingerprint/);
  const texts = new SimHashIndex(3);
  for (let i = 0; i < 20; i++) texts.insert(`empty${i}`, SimHash.fingerprint('...'));
  assert.deepEqual(texts.allPairs(), [], 'empty texts are never near-duplicates of each other');
  const bytes = index.toBytes();
  throwsWith(() => SimHashIndex.fromBytes(bytes.subarray(0, bytes.length - 1)), /corrupt SimHash index snapshot/);
});
