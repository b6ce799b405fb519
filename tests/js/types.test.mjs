// Wrongly typed arguments throw a TypeError naming the parameter, and the
// module keeps working afterwards (no trap, no corrupted state).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as nd from '../../pkg/node.js';
import { repo } from './helpers.mjs';

const BAD = [123, {}, undefined, null, 10n, ['a']];
const kind = (v) => (v === null ? 'null' : typeof v);

test('every string parameter refuses other types with a TypeError naming it', () => {
  const model = nd.SvmModel.fromJson(readFileSync(join(repo, 'assets/model.json'), 'utf8'));
  const ref = nd.MultiRef.fromJson(readFileSync(join(repo, 'assets/multiref.json'), 'utf8'));
  const m = new nd.MinHash();
  const lsh = new nd.MinHashLsh(0.5);
  const index = new nd.SimHashIndex(3);
  const fp = nd.SimHash.fingerprint('some text here');
  const calls = {
    a: [(x) => nd.compare(x, 'b'), (x) => model.judge(x, 'b'), (x) => model.compare(x, 'b'), (x) => model.similarityVector(x, 'b'), (x) => ref.compareTexts(x, 'b')],
    b: [(x) => nd.compare('a', x), (x) => model.judge('a', x), (x) => ref.compareTexts('a', x)],
    text: [
      (x) => nd.normalize(x), (x) => nd.wordShingles(x, 3), (x) => nd.charShingles(x, 5), (x) => m.update(x),
      (x) => nd.SimHash.fingerprint(x), (x) => nd.SimHash.fingerprintHex(x), (x) => ref.signature(x),
      (x) => ref.signatureBytes(x), (x) => nd.MultiRef.fromJson(x), (x) => nd.SvmModel.fromJson(x),
      (x) => nd.shingles(x, 'word:3'),
    ],
    word: [(x) => nd.phonetic(x, 'soundex')],
    algorithm: [(x) => nd.phonetic('word', x)],
    shingle: [(x) => nd.shingles('a b', x)],
    id: [(x) => lsh.insert(x, m), (x) => lsh.remove(x), (x) => lsh.has(x), (x) => index.insert(x, fp), (x) => index.remove(x), (x) => index.has(x), (x) => index.get(x)],
  };
  let n = 0;
  for (const [name, fns] of Object.entries(calls)) {
    for (const fn of fns) {
      for (const bad of BAD) {
        assert.throws(
          () => fn(bad),
          (e) => e instanceof TypeError && e.message === `${name} must be a string, got ${kind(bad)}`,
          `${fn} with ${String(bad)}`,
        );
        n++;
      }
    }
  }
  assert.ok(n >= 100);
  // Still working.
  assert.equal(nd.compare('one two three', 'one two three').score, 1);
  m.update('the quick brown fox jumps');
  lsh.insert('x', m);
  assert.equal(lsh.has('x'), true);
});

// Numbers are checked, never coerced: NaN, fractions, values out of range and
// bigints beyond u64 are refused with a RangeError, other types with a
// TypeError, both naming the parameter.
test('every numeric parameter refuses NaN, fractions, out-of-range values and other types', () => {
  const ref = nd.MultiRef.fromJson(readFileSync(join(repo, 'assets/multiref.json'), 'utf8'));
  const m = new nd.MinHash();
  m.update('the quick brown fox jumps over the lazy dog');
  const lsh = new nd.MinHashLsh(0.5);
  const index = new nd.SimHashIndex(3);
  const fp = nd.SimHash.fingerprint('some text here');
  const integer = {
    k: [(x) => nd.wordShingles('a b c', x), (x) => index.query(fp, x), (x) => index.allPairs(x), (x) => index.clusters(x)],
    q: [(x) => nd.charShingles('abcdef', x)],
    maxK: [(x) => new nd.SimHashIndex(x)],
    blocks: [(x) => new nd.SimHashIndex(3, x)],
    numPerm: [(x) => new nd.MinHashLsh(0.5, x)],
    distance: [(x) => nd.SimHash.cosineEstimate(x)],
  };
  const real = {
    threshold: [(x) => new nd.MinHashLsh(x)],
  };
  // Similarities and probabilities: [0, 1], as the CLI's --min-jaccard.
  const unit = {
    minJaccard: [(x) => lsh.query(m, x), (x) => lsh.allPairs(x), (x) => lsh.clusters(x)],
    s: [(x) => lsh.probability(x), (x) => lsh.expectedRecall(x)],
    similarity: [(x) => ref.decide(x)],
  };
  const u64 = {
    seed: [(x) => nd.wordShingles('a b c', 2, x), (x) => nd.charShingles('abcdef', 3, x), (x) => nd.shingles('a b c', 'phonetic:2', x)],
    value: [(x) => nd.Fingerprint.fromValue(x)],
    a: [(x) => nd.SimHash.hammingDistance(x, 0n)],
    b: [(x) => nd.SimHash.hammingDistance(0n, x)],
  };
  const cases = [
    [integer, [NaN, 2.5, -1, Infinity, 2 ** 40], ['3', {}, 3n, true]],
    [real, [NaN], ['0.5', {}, 1n, [0.5]]],
    [unit, [NaN, -1, 2, -0.001, Infinity, -Infinity], ['0.5', {}, 1n, [0.5]]],
    [u64, [2n ** 64n, 2n ** 70n + 3n, -1n, 1.5, -1, NaN, 2 ** 60], ['3', {}, true]],
  ];
  let n = 0;
  for (const [table, ranges, types] of cases) {
    for (const [name, fns] of Object.entries(table)) {
      for (const fn of fns) {
        for (const bad of ranges) {
          assert.throws(() => fn(bad), (e) => e instanceof RangeError && e.message.startsWith(`${name} must be`), `${fn} with ${String(bad)}`);
          n++;
        }
        for (const bad of types) {
          assert.throws(() => fn(bad), (e) => e instanceof TypeError && e.message.startsWith(`${name} must be`), `${fn} with ${String(bad)}`);
          n++;
        }
      }
    }
  }
  assert.ok(n >= 100);
  // The good values still work, and so does the module.
  assert.equal(nd.wordShingles('a b c', 2, 7n).length, 2);
  assert.deepEqual(nd.wordShingles('a b c', 2, 7), nd.wordShingles('a b c', 2, 7n));
  assert.equal(nd.SimHash.hammingDistance(2n ** 64n - 1n, 0n), 64);
  assert.equal(new nd.SimHashIndex(4, 6).maxK, 4);
  assert.equal(lsh.probability(0), 0);
  assert.equal(lsh.probability(1), 1);
  assert.equal(nd.compare('one two three', 'one two three').score, 1);
});

// Issue 26: array and byte parameters are checked before anything is read
// or allocated — an array-like with a bogus length, a number, an object, a
// Symbol or a boolean is a TypeError (never an empty list, never a trap);
// an element out of range is a RangeError naming its index (never wrapped).
test('array and byte parameters refuse array-likes, bad elements and bogus lengths without a trap', () => {
  const model = nd.SvmModel.fromJson(readFileSync(join(repo, 'assets/model.json'), 'utf8'));
  const ref = nd.MultiRef.fromJson(readFileSync(join(repo, 'assets/multiref.json'), 'utf8'));
  const stages = new nd.DedupStages();
  const sketch = stages.sketch('the quick brown fox jumps over the lazy dog');
  const m = new nd.MinHash();
  const sig = ref.signature('the quick brown fox');
  const NOT_ARRAYS = [{ length: -1 }, { length: 1e9 }, { length: 3, 0: 1, 1: 2, 2: 3 }, 42, NaN, {}, Symbol('s'), true, 'abc', null, undefined];
  const calls = {
    bytes: {
      fns: [(x) => nd.MinHash.fromBytes(x), (x) => nd.MinHashLsh.fromBytes(x), (x) => nd.SimHashIndex.fromBytes(x), (x) => nd.Speller.fromBytes(x), (x) => nd.Deduplicator.fromBytes(x)],
      range: [[300], [-1], [NaN], [1.5], [Infinity]],
      type: [['a'], [1n], [null]],
    },
    sketch: { fns: [(x) => stages.keys(x)], range: [[256]], type: [['1']] },
    a: { fns: [(x) => stages.verify(x, sketch), (x) => ref.similarity(x, sig)], range: [[NaN]], type: [['1']] },
    b: { fns: [(x) => stages.verify(sketch, x), (x) => ref.similarity(sig, x)], range: [[Infinity]], type: [[{}]] },
    hashes: {
      fns: [(x) => m.updateShingles(x), (x) => nd.SimHash.fromShingles(x)],
      range: [[-1n], [2n ** 64n], [1.5], [-1], [NaN]],
      type: [['1'], [{}], [null]],
    },
    vector: {
      fns: [(x) => model.predict(x), (x) => model.decisionFunction(x)],
      range: [[NaN], [Infinity], [-Infinity]],
      type: [['0.5'], [1n]],
    },
  };
  let n = 0;
  for (const [name, { fns, range, type }] of Object.entries(calls)) {
    for (const fn of fns) {
      for (const bad of NOT_ARRAYS) {
        assert.throws(() => fn(bad), (e) => e instanceof TypeError && e.message.startsWith(`${name} must be a`), `${fn} with ${String(bad?.toString?.() ?? bad)}`);
        n++;
      }
      for (const bad of range) {
        assert.throws(() => fn(bad), (e) => e instanceof RangeError && e.message.startsWith(`${name}[0] must be`), `${fn} with [${String(bad[0])}]`);
        n++;
      }
      for (const bad of type) {
        assert.throws(() => fn(bad), (e) => e instanceof TypeError && e.message.startsWith(`${name}[0] must be`), `${fn} with [${String(bad[0])}]`);
        n++;
      }
      // A real array longer than the limit: refused from its length.
      assert.throws(() => fn(new Array(2 ** 30 + 1)), (e) => e instanceof RangeError && /more than the limit/.test(e.message));
      n++;
    }
  }
  assert.ok(n >= 180, `${n} cases`);
  // Arrays of good values work as the typed arrays do, and the module too.
  const hashes = nd.wordShingles('the quick brown fox jumps', 2);
  const a = new nd.MinHash();
  a.updateShingles(hashes);
  const b = new nd.MinHash();
  b.updateShingles([...hashes]);
  assert.equal(a.jaccard(b), 1);
  assert.deepEqual(nd.MinHash.fromBytes([...a.toBytes()]).values(), a.values());
  assert.equal(nd.SimHash.fromShingles([...hashes]).hex, nd.SimHash.fromShingles(hashes).hex);
  assert.deepEqual(stages.keys([...sketch]), stages.keys(sketch));
  assert.equal(nd.compare('one two three', 'one two three').score, 1);
});

test('the fingerprint of no shingles is empty and matches nothing', () => {
  const empty = nd.SimHash.fromShingles([]);
  assert.equal(empty.isEmpty, true);
  assert.equal(nd.SimHash.fromShingles(new BigUint64Array(0)).isEmpty, true);
  assert.equal(nd.SimHash.fromShingles([1n, 2n]).isEmpty, false);
  const index = new nd.SimHashIndex(3);
  index.insert('e1', empty);
  index.insert('e2', nd.SimHash.fromShingles([]));
  assert.deepEqual(index.query(empty), []);
  assert.deepEqual(index.allPairs(), []);
});

test('texts over the module limit are refused before work, and the module survives', () => {
  const big = 'word '.repeat((16 << 20) / 5 + 1); // 16 MiB + a few bytes, UTF-16 length too
  assert.throws(() => nd.compare(big, 'b'), /a is \d+ bytes long or more, more than the limit of 16777216 bytes/);
  // UTF-16 length under the limit, UTF-8 length over it (3 bytes per '€').
  const euros = '€ '.repeat(7 << 20);
  assert.throws(() => nd.SimHash.fingerprint(euros), /text is \d+ bytes long or more/);
  assert.equal(nd.compare('one two three', 'one two three').score, 1);
});

// Issue 26: ids are compared exactly. A lone surrogate would become U+FFFD
// on its way into the module, so '\ud800' and '\udbff' would be one id:
// such ids are refused; a well-formed pair (an emoji) is kept.
test('ids with a lone surrogate are refused, never merged with another id', () => {
  const m = new nd.MinHash();
  m.update('the quick brown fox jumps over the lazy dog');
  const lsh = new nd.MinHashLsh(0.5);
  const index = new nd.SimHashIndex(3);
  const fp = nd.SimHash.fingerprint('some text here');
  const d = new nd.Deduplicator();
  const calls = [
    (x) => lsh.insert(x, m), (x) => lsh.has(x), (x) => lsh.remove(x),
    (x) => index.insert(x, fp), (x) => index.has(x), (x) => index.remove(x), (x) => index.get(x),
    (x) => d.add(x, 'a text of a few words'), (x) => d.has(x), (x) => d.remove(x),
  ];
  let n = 0;
  for (const fn of calls) {
    for (const [bad, unit, at] of [['\ud800', 'D800', 0], ['a\udbff', 'DBFF', 1], ['\udc00b', 'DC00', 0], ['x\ud83d', 'D83D', 1]]) {
      assert.throws(() => fn(bad), (e) => e instanceof RangeError && e.message === `id must be well-formed UTF-16, got a lone surrogate U+${unit} at ${at}`, `${fn} with ${JSON.stringify(bad)}`);
      n++;
    }
  }
  assert.equal(n, 40);
  assert.throws(() => nd.dedup([{ id: '\ud800', text: 'x y z' }]), (e) => e instanceof RangeError && e.message.startsWith('documents[0].id must be well-formed UTF-16'));
  // Emoji ids (surrogate pairs) are distinct and kept exactly.
  lsh.insert('😀', m);
  assert.equal(lsh.has('😀'), true);
  assert.equal(lsh.has('😁'), false);
  assert.equal(lsh.has('\ufffd'), false);
  index.insert('a😀b', fp);
  assert.deepEqual(index.query(fp), [{ id: 'a😀b', distance: 0 }]);
  assert.equal(index.has('a😀b'), true);
});
