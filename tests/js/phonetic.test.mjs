// Phonetic codes and phonetic shingles in the built package equal the native
// golden vectors (tests/golden/phonetic-v1.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as nd from '../../pkg/node.js';
import { repo } from './helpers.mjs';

const golden = JSON.parse(readFileSync(join(repo, 'tests/golden/phonetic-v1.json'), 'utf8'));
const ALGORITHMS = ['soundex', 'phonex', 'dsound', 'soundd', 'phonix', 'metaphone'];

test('phonetic codes equal the native golden vectors', () => {
  assert.ok(golden.codes.length >= 20);
  for (const c of golden.codes) {
    for (const a of ALGORITHMS) assert.equal(nd.phonetic(c.word, a), c[a], `${c.word} ${a}`);
  }
});

test('Double Metaphone gives both codes, full length or cut', () => {
  for (const c of golden.codes) {
    if (!('metaphone_alternate' in c)) continue;
    assert.deepEqual(nd.doubleMetaphone(c.word), [c.metaphone, c.metaphone_alternate], c.word);
  }
  assert.deepEqual(nd.doubleMetaphone('Schmidt', 2), ['XM', 'SM']);
  assert.deepEqual(nd.doubleMetaphone('東京'), ['東京', '東京']);
  assert.throws(() => nd.doubleMetaphone('a', 0), RangeError);
  assert.throws(() => nd.doubleMetaphone(5), TypeError);
});

test('phonetic shingles equal the native golden vectors', () => {
  for (const c of golden.shingles) {
    const got = Array.from(nd.shingles(c.text, c.shingle, BigInt(c.seed)), (h) => h.toString(16).padStart(16, '0'));
    assert.deepEqual(got, c.hashes, `${c.shingle} ${c.text}`);
  }
});

test('a misspelt copy shares more phonetic shingles than word shingles', () => {
  const a = 'the committee received a separate report about the government budget';
  const b = 'the comittee recieved a seperate report about the goverment budget';
  const shared = (spec) => {
    const sa = new Set(nd.shingles(a, spec));
    return nd.shingles(b, spec).filter((h) => sa.has(h)).length;
  };
  assert.ok(shared('phonetic:soundex:2') > shared('word:2'), `${shared('phonetic:soundex:2')} vs ${shared('word:2')}`);
});

test('bad algorithms and specs are clear errors', () => {
  assert.throws(() => nd.phonetic('word', 'nysiis'), /invalid option algorithm: must be one of soundex, phonex, dsound, soundd, phonix, metaphone, got "nysiis"/);
  assert.throws(() => nd.shingles('a b', 'phonetic:nysiis:3'), /invalid option shingle/);
  assert.throws(() => nd.shingles('a b', 'phonetic:0'), /invalid option shingle/);
  assert.throws(() => nd.phonetic(3, 'soundex'), TypeError);
});
