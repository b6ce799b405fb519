// Speller in the built package, with the shipped English dictionary asset.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import * as nd from '../../pkg/node.js';
import { repo } from './helpers.mjs';

const speller = nd.Speller.fromBytes(readFileSync(join(repo, 'pkg/dictionary-en.bin')));

test('the shipped dictionary corrects real misspellings as the CLI does', () => {
  assert.ok(speller.size > 80000);
  const pairs = [['recieve', 'receive'], ['seperate', 'separate'], ['goverment', 'government'], ['teh', 'the'], ['definately', 'definitely'], ['house', 'house']];
  for (const [typo, fixed] of pairs) {
    assert.equal(speller.correct(typo), fixed, typo);
  }
  // The CLI (built by `cargo test --features cli`), with its built-in copy
  // of the same dictionary, gives the same corrections.
  const cli = ['release', 'debug'].map((p) => join(repo, 'target', p, 'neardup')).find((p) => existsSync(p));
  assert.ok(cli, 'the neardup CLI is built');
  const out = execFileSync(cli, ['spell', ...pairs.map(([typo]) => typo)], { encoding: 'utf8' });
  assert.deepEqual(out.trim().split('\n'), pairs.map(([typo]) => `${typo}\t${speller.correct(typo)}`));
  assert.equal(speller.correct('house'), 'house');
  assert.equal(speller.correct('東京'), '東京');
  assert.equal(speller.has('House'), true);
  const c = speller.candidates('wich', 3);
  assert.equal(c.length, 3);
  assert.deepEqual([c[0].word, c[0].distance], ['which', 1]);
  assert.ok(c[0].cost <= c[1].cost && c[1].cost <= c[2].cost);
});

test('correctText mends a misspelt copy so that its word shingles meet the original', () => {
  const a = 'The committee received a separate report about the government budget.';
  const b = 'The comittee recieved a seperate report about the goverment budget.';
  const fixed = speller.correctText(b);
  assert.equal(fixed, a);
  assert.equal(speller.correctText('Tokyo 東京, 1984 — fine.'), 'Tokyo 東京, 1984 — fine.');
  const before = nd.compare(a, b).resemblance;
  const after = nd.compare(a, fixed).resemblance;
  assert.ok(before < 0.5 && after === 1, `${before} → ${after}`);
  assert.throws(() => speller.correctText(undefined), (e) => e instanceof TypeError && /text must be a string/.test(e.message));
});

test('bad dictionaries and arguments are clear errors', () => {
  assert.throws(() => nd.Speller.fromBytes(new Uint8Array([1, 2, 3])), /dictionary/);
  const bytes = readFileSync(join(repo, 'pkg/dictionary-en.bin'));
  const flipped = Uint8Array.from(bytes);
  flipped[100] ^= 1;
  assert.throws(() => nd.Speller.fromBytes(flipped), /dictionary/);
  assert.throws(() => speller.correct(3), (e) => e instanceof TypeError && /word must be a string/.test(e.message));
  assert.throws(() => speller.candidates('wich', 0), (e) => e instanceof RangeError && /max must be an integer in 1..=100/.test(e.message));
  assert.throws(() => speller.candidates('wich', 2.5), RangeError);
  assert.equal(speller.correct('recieve'), 'receive');
});
