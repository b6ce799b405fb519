// MinHash and MinHashLsh in the built package: golden bytes equal the native
// ones, snapshots round-trip, bad input throws, and planted near-duplicates
// of docs-bench are found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MinHash, MinHashLsh } from '../../pkg/node.js';
import { repo, docsBench } from './helpers.mjs';

const golden = JSON.parse(readFileSync(join(repo, 'tests/golden/sketches-v1.json'), 'utf8'));
const hex = (u8) => Buffer.from(u8).toString('hex');
const unhex = (s) => new Uint8Array(Buffer.from(s, 'hex'));

test('MinHash signatures are byte-identical to the native golden vectors', () => {
  for (const c of golden.minhash) {
    const m = new MinHash({ numPerm: c.num_perm, seed: Number(c.seed) <= Number.MAX_SAFE_INTEGER ? Number(c.seed) : undefined, shingle: c.shingle, scheme: c.scheme });
    if (BigInt(c.seed) > BigInt(Number.MAX_SAFE_INTEGER)) {
      // Seeds beyond 2^53 cannot be given as a JS number; read the bytes instead.
      assert.equal(hex(MinHash.fromBytes(unhex(c.bytes)).toBytes()), c.bytes);
      continue;
    }
    m.update(c.text);
    assert.equal(hex(m.toBytes()), c.bytes, c.text);
    assert.equal(m.numPerm, c.num_perm);
    assert.equal(m.scheme, c.scheme);
    assert.equal(MinHash.fromBytes(unhex(c.bytes)).scheme, c.scheme);
  }
  assert.deepEqual(new Set(golden.minhash.map((c) => c.scheme)), new Set(['classic', 'oph']));
  assert.equal(new MinHash().scheme, 'oph', 'one-permutation is the default');
});

for (const name of ['lsh', 'lsh_oph']) {
  const g = golden[name];
  const sig = (text) => {
    const m = new MinHash({ numPerm: g.num_perm, shingle: 'word:3', scheme: g.scheme });
    if (text !== undefined) m.update(text);
    return m;
  };

  test(`LSH band keys (what the edge Worker stores) equal the native golden ones (${g.scheme})`, () => {
    const lsh = new MinHashLsh(g.threshold, g.num_perm);
    assert.equal(g.band_keys.length, g.docs.length);
    g.docs.forEach(([, text], i) => {
      const keys = Array.from(lsh.bandKeys(sig(text)), (k) => k.toString(16).padStart(16, '0'));
      assert.deepEqual(keys, g.band_keys[i]);
    });
    assert.equal(lsh.bandKeys(sig()).length, 0, 'an empty signature has no keys');
    assert.throws(() => lsh.bandKeys(new MinHash({ numPerm: 8 })), /num_perm|numPerm|signature/);
  });

  test(`an LSH snapshot is byte-identical to the native one and round-trips (${g.scheme})`, () => {
    const lsh = new MinHashLsh(g.threshold, g.num_perm);
    assert.equal(lsh.bands, g.bands);
    for (const [id, text] of g.docs) lsh.insert(id, sig(text));
    assert.equal(lsh.remove(g.removed), true);
    assert.equal(lsh.remove(g.removed), false);
    assert.equal(hex(lsh.toBytes()), g.snapshot);
    const back = MinHashLsh.fromBytes(unhex(g.snapshot));
    assert.equal(back.size, g.docs.length - 1);
    assert.equal(hex(back.toBytes()), g.snapshot);
  });
}

test('a cleared MinHash sketches the next text as a new one would, golden vectors included', () => {
  // Each golden text sketched by one object after every other text, at both
  // specs: a leftover value of the text before would change the bytes.
  for (const spec of [1, 2]) {
    const cases = golden.minhash.filter((c) => BigInt(c.seed) <= BigInt(Number.MAX_SAFE_INTEGER));
    const byOptions = new Map();
    for (const c of cases) {
      const key = `${c.num_perm} ${c.seed} ${c.shingle} ${c.scheme}`;
      const options = { numPerm: c.num_perm, seed: Number(c.seed), shingle: c.shingle, scheme: c.scheme, spec };
      if (!byOptions.has(key)) byOptions.set(key, { m: new MinHash(options), options });
      const { m } = byOptions.get(key);
      m.update('a text sketched before, whose shingles must not survive clear()');
      m.clear();
      assert.equal(m.isEmpty(), true);
      m.update(c.text);
      const fresh = new MinHash(options);
      fresh.update(c.text);
      if (spec === 1) assert.equal(hex(m.toBytes()), c.bytes, c.text);
      assert.equal(hex(m.toBytes()), hex(fresh.toBytes()), `${c.text} (spec ${spec})`);
      assert.equal(m.spec, spec);
      fresh.free();
    }
    for (const { m } of byOptions.values()) m.free();
  }
});

test('bad input throws clear errors', () => {
  const throwsWith = (fn, re) => assert.throws(fn, (e) => e instanceof Error && re.test(e.message));
  throwsWith(() => new MinHash({ numPerm: 0 }), /invalid option numPerm: must be in 1..=4096, got 0/);
  throwsWith(() => new MinHash({ shingle: 'word:0' }), /must be word:K, char:Q/);
  throwsWith(() => new MinHash({ numperm: 5 }), /unknown field `numperm`/);
  throwsWith(() => new MinHashLsh(1.5), /invalid option threshold: must be in \(0, 1\)/);
  throwsWith(() => new MinHashLsh(0.5, 128, { bands: 3 }), /give rows with bands/);
  const a = new MinHash({ numPerm: 64 });
  const b = new MinHash({ numPerm: 128 });
  throwsWith(() => a.jaccard(b), /incompatible signature: expected num_perm 64/);
  const bytes = a.toBytes();
  bytes[10] ^= 1;
  throwsWith(() => MinHash.fromBytes(bytes), /corrupt MinHash signature: checksum mismatch/);
  throwsWith(() => MinHash.fromBytes(new Uint8Array([1, 2, 3])), /too short/);
  throwsWith(() => MinHashLsh.fromBytes(a.toBytes()), /wrong magic/);
  const lsh = new MinHashLsh(0.5, 128);
  lsh.insert('x', b);
  throwsWith(() => lsh.insert('x', b), /already in the index/);
  throwsWith(() => lsh.insert('y', a), /incompatible signature: expected num_perm 128, seed 0, word:5, scheme oph, got num_perm 64/);
  throwsWith(() => lsh.insert('z', new MinHash({ scheme: 'classic' })), /expected num_perm 128, seed 0, word:5, scheme oph, got num_perm 128, seed 0, word:5, scheme classic/);
  throwsWith(() => new MinHash({ scheme: 'fast' }), /scheme/);
});

test('planted near-duplicates of docs-bench are found by query and allPairs', () => {
  const bench = docsBench();
  const docs = new Map([...bench.docs].slice(0, 1500));
  const pairs = bench.pairs.filter((p) => docs.has(p.a) && docs.has(p.b) && p.rate === 0.01).map((p) => [p.a, p.b]);
  assert.ok(pairs.length >= 5, `only ${pairs.length} 1 % pairs in the sample`);
  const lsh = new MinHashLsh(0.5, 128);
  const sigs = new Map();
  for (const [id, text] of docs) {
    const m = new MinHash();
    m.update(text);
    sigs.set(id, m);
    lsh.insert(id, m);
  }
  for (const [a, b] of pairs) {
    const hits = lsh.query(sigs.get(a));
    assert.equal(hits[0].id, a, 'the document itself comes first');
    assert.ok(hits.some((h) => h.id === b && h.jaccard >= 0.5), `${b} is found for ${a}`);
    assert.ok(lsh.query(sigs.get(a), 0).length >= hits.length, 'minJaccard 0 keeps every candidate');
    assert.ok(sigs.get(a).jaccard(sigs.get(b)) > 0.6);
  }
  const found = new Set(lsh.allPairs().map((p) => `${p.a} ${p.b}`));
  for (const [a, b] of pairs) assert.ok(found.has([a, b].sort().join(' ')));
});
