// MultiRef in the built package: golden signature bytes equal the native
// ones, the shipped reference loads and separates a copy from an unrelated
// text, and bad input throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MultiRef } from '../../pkg/node.js';
import { repo, clough } from './helpers.mjs';

const golden = JSON.parse(readFileSync(join(repo, 'tests/golden/multiref-v1.json'), 'utf8'));
const hex = (u8) => Buffer.from(u8).toString('hex');

test('signatures are byte-identical to the native golden vectors', () => {
  const m = MultiRef.fromJson(JSON.stringify(golden.reference));
  assert.equal(m.partitions, golden.reference.partitions);
  for (const c of golden.cases) assert.equal(hex(m.signatureBytes(c.text)), c.bytes, c.text);
  const [a, b] = golden.cases.map((c) => m.signature(c.text));
  const bits = Buffer.alloc(8);
  bits.writeDoubleBE(m.similarity(a, b));
  assert.equal(bits.toString('hex'), golden.similarity_bits);
});

test('the shipped reference separates a copied answer from an unrelated one', () => {
  const m = MultiRef.fromJson(readFileSync(join(repo, 'pkg/multiref.json'), 'utf8'));
  const src = clough('orig_taskb.txt');
  const copy = m.compareTexts(clough('g0pA_taskb.txt'), src);
  const other = m.compareTexts(clough('g0pA_taska.txt'), src);
  assert.ok(copy > other, `copy ${copy} vs unrelated ${other}`);
  assert.equal(m.decide(1), 'duplicate');
  assert.equal(m.decide(0), 'different');
  const s = m.signature(src);
  assert.equal(s.length, m.partitions);
  assert.ok(s.every((x) => x >= 0 && x <= 1));
});

test('bad references and signatures throw clear errors', () => {
  const throwsWith = (fn, re) => assert.throws(fn, (e) => e instanceof Error && re.test(e.message));
  throwsWith(() => MultiRef.fromJson('{}'), /not a reference JSON/);
  throwsWith(() => MultiRef.fromJson(JSON.stringify({ ...golden.reference, format: 2 })), /format version 2/);
  throwsWith(() => MultiRef.fromJson(JSON.stringify({ ...golden.reference, partitions: 0 })), /partitions/);
  const m = MultiRef.fromJson(JSON.stringify(golden.reference));
  throwsWith(() => m.similarity(new Float32Array(3), new Float32Array(3)), /expected 8 values in \[0, 1\], got 3 values/);
  throwsWith(() => m.similarity(new Float32Array(8).fill(2), new Float32Array(8)), /multireference signature/);
});
