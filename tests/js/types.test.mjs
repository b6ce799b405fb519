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
  const model = nd.SvmModel.fromJson(readFileSync(join(repo, 'www/model.json'), 'utf8'));
  const ref = nd.MultiRef.fromJson(readFileSync(join(repo, 'www/multiref.json'), 'utf8'));
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
    ],
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
