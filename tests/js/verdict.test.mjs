// The learned verdict in the built package: the shipped model loads, gives
// the native golden decision values, and bad models or vectors throw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SvmModel, compare } from '../../pkg/node.js';
import { repo, clough } from './helpers.mjs';

// The model as the package ships it (neardup/model.json).
const modelText = readFileSync(join(repo, 'pkg/model.json'), 'utf8');
const golden = JSON.parse(readFileSync(join(repo, 'tests/golden/verdict-v1.json'), 'utf8'));

test('the package ships the default model as an exported asset', () => {
  const pkg = JSON.parse(readFileSync(join(repo, 'pkg/package.json'), 'utf8'));
  assert.equal(pkg.exports['./model.json'], './model.json');
  assert.ok(pkg.files.includes('model.json'));
  assert.equal(modelText, readFileSync(join(repo, 'www/model.json'), 'utf8'));
  assert.match(readFileSync(join(repo, 'pkg/README.md'), 'utf8'), /neardup\/model\.json/);
});

test('the shipped model gives the native golden verdicts', () => {
  const model = SvmModel.fromJson(modelText);
  assert.equal(model.dimension, 13);
  assert.deepEqual(model.classes, ['cut', 'heavy', 'light', 'non']);
  for (const g of golden) {
    assert.deepEqual(Array.from(model.similarityVector(g.a, g.b)), g.vector);
    const d = model.decisionFunction(new Float64Array(g.vector));
    assert.equal(d.length, g.decisions.length);
    assert.equal(g.decisions.length, 5, 'the binary machine and four classes');
    g.decisions.forEach((x, i) => assert.ok(Math.abs(d[i] - x) <= 1e-12, `${d[i]} vs ${x}`));
    const v = model.judge(g.a, g.b);
    assert.equal(v.class, g.class);
    assert.equal(v.copied, g.decisions[0] >= 0);
  }
});

test('model.compare adds the verdict to the report', () => {
  const model = SvmModel.fromJson(modelText);
  const r = model.compare(clough('g0pA_taskb.txt'), clough('orig_taskb.txt'));
  assert.ok(r.score > 0.9);
  assert.equal(r.verdict.copied, true);
  assert.equal(r.verdict.vector.length, 13);
  const n = model.compare(clough('g0pA_taska.txt'), clough('orig_taska.txt'));
  assert.equal(n.verdict.copied, false);
  assert.equal(n.verdict.class, 'non');
});

test('compare(a, b, { model }) gives the same verdict, and bad models are refused', () => {
  const model = SvmModel.fromJson(modelText);
  const a = clough('g0pA_taskb.txt');
  const b = clough('orig_taskb.txt');
  const r = compare(a, b, { model, wordK: 3 });
  assert.deepEqual(r.verdict, model.judge(a, b));
  assert.equal(r.options.wordK, 3);
  assert.equal(compare(a, b).verdict, undefined);
  assert.throws(() => compare(a, b, { model: {} }), (e) => e instanceof TypeError && /model: must be an SvmModel/.test(e.message));
  const gone = SvmModel.fromJson(modelText);
  gone.free();
  assert.throws(() => compare(a, b, { model: gone }), /the model has been freed/);
  assert.throws(() => model.judge('', b), /text a has no words/);
});

test('bad models and vectors throw clear errors', () => {
  const throwsWith = (fn, re) => assert.throws(fn, (e) => e instanceof Error && re.test(e.message));
  const m = JSON.parse(modelText);
  throwsWith(() => SvmModel.fromJson(JSON.stringify({ ...m, format: 2 })), /format version 2/);
  throwsWith(() => SvmModel.fromJson(JSON.stringify({ ...m, kernel: { type: 'sigmoid' } })), /unknown variant `sigmoid`/);
  const shape = structuredClone(m);
  shape.binary.support_vectors[0].push(0);
  throwsWith(() => SvmModel.fromJson(JSON.stringify(shape)), /support vector of length 14/);
  const nan = modelText.replace(/"bias": [-0-9.e]+/, '"bias": NaN');
  throwsWith(() => SvmModel.fromJson(nan), /corrupt verdict model/);
  throwsWith(() => SvmModel.fromJson('[]'), /not a model JSON/);
  const model = SvmModel.fromJson(modelText);
  throwsWith(() => model.decisionFunction(new Float64Array(3)), /incompatible vector: expected 13 values, got 3 values/);
  throwsWith(() => model.predict(new Float64Array(13).fill(NaN)), /^vector\[0\] must be a finite number, got NaN$/);
});
