// The learned verdict in the built package: the shipped model loads, gives
// the native golden decision values, and bad models or vectors throw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SvmModel, compare } from '../../pkg/node.js';
import { repo, clough, docsBench } from './helpers.mjs';

// The model as the package ships it (neardup/model.json).
const modelText = readFileSync(join(repo, 'pkg/model.json'), 'utf8');
const golden = JSON.parse(readFileSync(join(repo, 'tests/golden/verdict-v3.json'), 'utf8'));

test('the package ships the default model as an exported asset', () => {
  const pkg = JSON.parse(readFileSync(join(repo, 'pkg/package.json'), 'utf8'));
  assert.equal(pkg.exports['./model.json'], './model.json');
  assert.ok(pkg.files.includes('model.json'));
  assert.equal(modelText, readFileSync(join(repo, 'assets/model.json'), 'utf8'));
  assert.match(readFileSync(join(repo, 'pkg/README.md'), 'utf8'), /neardup\/model\.json/);
});

test('the shipped model gives the native golden verdicts', () => {
  const model = SvmModel.fromJson(modelText);
  assert.equal(model.dimension, 27);
  assert.deepEqual(model.classes, ['heavy', 'light', 'cut']);
  assert.deepEqual(model.grades, ['non', 'heavy', 'light', 'cut']);
  const close = (x, y) => Math.abs(x - y) <= 1e-12 * Math.max(1, Math.abs(y));
  for (const g of golden) {
    const vector = Array.from(model.similarityVector(g.a, g.b));
    assert.equal(vector.length, g.vector.length);
    vector.forEach((x, i) => assert.ok(close(x, g.vector[i]), `${x} vs ${g.vector[i]}`));
    const d = model.decisionFunction(new Float64Array(g.vector));
    assert.equal(d.length, g.decisions.length);
    assert.equal(g.decisions.length, 4, 'the binary machine and three "at least" machines');
    g.decisions.forEach((x, i) => assert.ok(close(d[i], x), `${d[i]} vs ${x}`));
    const v = model.judge(g.a, g.b);
    assert.equal(v.class, g.class);
    assert.equal(v.copied, g.decisions[0] >= 0);
    assert.ok(close(v.copiedProbability, g.copied_probability));
    assert.equal(v.probabilities.length, g.probabilities.length);
    v.probabilities.forEach(([c, p], i) => {
      assert.equal(c, g.probabilities[i][0]);
      assert.ok(close(p, g.probabilities[i][1]), `${c}: ${p} vs ${g.probabilities[i][1]}`);
    });
    assert.equal(v.confidence, v.probabilities.find(([c]) => c === v.class)[1]);
    assert.deepEqual(v.between ?? null, g.between ?? null);
  }
});

test('a format 2 model (calibrated, without ends) still loads and decides as it did', () => {
  const model = SvmModel.fromJson(readFileSync(join(repo, 'tests/golden/model-format2.json'), 'utf8'));
  const old = JSON.parse(readFileSync(join(repo, 'tests/golden/verdict-v2.json'), 'utf8'));
  for (const g of old) {
    const v = model.judge(g.a, g.b);
    assert.equal(v.class, g.class);
    v.probabilities.forEach(([c, p], i) => {
      assert.equal(c, g.probabilities[i][0]);
      assert.ok(Math.abs(p - g.probabilities[i][1]) <= 1e-12, `${c}: ${p} vs ${g.probabilities[i][1]}`);
    });
  }
});

// Issue 47 item 5, on prose the model never saw (docs-bench originals): a
// text against itself or a copy changed only in case and spacing is a near
// copy with probability ≥ 0.95; against a text sharing no word 3-shingle,
// original with ≥ 0.95.
test('the verdict is sure at the ends, through compare(a, b, { model })', () => {
  const model = SvmModel.fromJson(modelText);
  const texts = [...docsBench().docs]
    .filter(([id, t]) => id.startsWith('s') && t.split(/\s+/).length >= 40)
    .slice(0, 20)
    .map(([, t]) => t);
  let unrelated = 0;
  const sure = (a, b, cls) => {
    const v = compare(a, b, { model }).verdict;
    assert.equal(v.class, cls, `${a.slice(0, 50)} / ${b.slice(0, 50)}`);
    assert.ok(v.confidence >= 0.95, `${cls} at ${v.confidence}`);
  };
  texts.forEach((t, i) => {
    sure(t, t, 'cut');
    sure(t.toUpperCase().replaceAll('\n', '   '), t, 'cut');
    const other = texts.slice(i + 1).find((o) => compare(t, o).sharedShingles === 0);
    if (other) {
      sure(t, other, 'non');
      unrelated += 1;
    }
  });
  assert.ok(unrelated >= 10, `${unrelated}`);
});

test('a format 1 model (one-vs-rest, uncalibrated) still loads and decides as it did', () => {
  const model = SvmModel.fromJson(readFileSync(join(repo, 'tests/golden/model-format1.json'), 'utf8'));
  const old = JSON.parse(readFileSync(join(repo, 'tests/golden/verdict-v1.json'), 'utf8'));
  assert.deepEqual(model.classes, ['cut', 'heavy', 'light', 'non']);
  assert.deepEqual(model.grades, model.classes);
  for (const g of old) {
    const d = model.decisionFunction(new Float64Array(g.vector));
    assert.equal(d.length, 5);
    g.decisions.forEach((x, i) => assert.ok(Math.abs(d[i] - x) <= 1e-12, `${d[i]} vs ${x}`));
    const v = model.judge(g.a, g.b);
    assert.equal(v.class, g.class);
    assert.deepEqual(v.probabilities, []);
    assert.equal(v.confidence, undefined);
  }
});

test('model.compare adds the verdict to the report', () => {
  const model = SvmModel.fromJson(modelText);
  const r = model.compare(clough('g0pA_taskb.txt'), clough('orig_taskb.txt'));
  assert.ok(r.score > 0.9);
  assert.equal(r.verdict.copied, true);
  assert.equal(r.verdict.vector.length, 27);
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
  throwsWith(() => SvmModel.fromJson(JSON.stringify({ ...m, format: 4 })), /format version 4/);
  throwsWith(() => SvmModel.fromJson(JSON.stringify({ ...m, ends: { ...m.ends, score: 99 } })), /ends: .* reading component 99/);
  throwsWith(() => SvmModel.fromJson(JSON.stringify({ ...m, kernel: { type: 'sigmoid' } })), /unknown variant `sigmoid`/);
  const shape = structuredClone(m);
  shape.binary.support_vectors[0].push(0);
  throwsWith(() => SvmModel.fromJson(JSON.stringify(shape)), /support vector of length 28/);
  const nan = modelText.replace(/"bias": [-0-9.e]+/, '"bias": NaN');
  throwsWith(() => SvmModel.fromJson(nan), /corrupt verdict model/);
  throwsWith(() => SvmModel.fromJson('[]'), /not a model JSON/);
  const model = SvmModel.fromJson(modelText);
  throwsWith(() => model.decisionFunction(new Float64Array(3)), /incompatible vector: expected 27 values, got 3 values/);
  throwsWith(() => model.predict(new Float64Array(27).fill(NaN)), /^vector\[0\] must be a finite number, got NaN$/);
  const ordinal = structuredClone(m);
  ordinal.calibration = [];
  throwsWith(() => SvmModel.fromJson(JSON.stringify(ordinal)), /an ordinal model needs its Platt sigmoids/);
});
