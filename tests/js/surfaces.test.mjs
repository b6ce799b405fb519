// classPairs, compare and decodeText from npm give the cases of
// tests/surfaces.json: the texts and hand-counted expectations the CLI
// (tests/cli.rs), Python (python/tests/test_surfaces.py) and the page
// (tests/browser/class-set.test.mjs) are held to (issue 34). The texts are
// ASCII, so UTF-16 ranges are the UTF-8 byte ranges written there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classPairs, compare, decodeText } from '../../pkg/node.js';
import { repo } from './helpers.mjs';

const fx = JSON.parse(readFileSync(join(repo, 'tests', 'surfaces.json'), 'utf8'));
const camel = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(/_(\w)/g, (_, c) => c.toUpperCase()), v]));
const ranges = (rs) => (rs ?? []).map((r) => [r.start, r.end]);

for (const c of fx.class_pairs) {
  test(`classPairs: ${c.name}`, () => {
    const r = classPairs(fx.students, fx.sources, c.template ? fx.template : '', camel(c.options));
    assert.deepEqual(r.pairs.map((p) => [p.a, p.b, p.source, p.shared]), c.pairs.map((p) => [p.a, p.b, p.source, p.shared]));
    for (const [i, w] of c.pairs.entries()) {
      if (w.score !== undefined) assert.ok(Math.abs(r.pairs[i].score - w.score) < 1e-12);
    }
    for (const w of c.texts) {
      const t = r.texts[w.i];
      assert.deepEqual([t.quotations, t.referenceList, t.templateShingles], [w.quotations, w.reference_list, w.template_shingles], `text ${w.i}`);
      if (w.excluded) assert.deepEqual(ranges(t.excluded), w.excluded, `text ${w.i}`);
    }
  });
}

for (const c of fx.compare) {
  test(`compare: ${c.name}`, () => {
    const r = compare(fx.students[c.a], fx.students[c.b], camel(c.options));
    assert.equal(r.score, c.score);
    assert.equal(r.sharedShingles, c.shared_shingles);
    assert.deepEqual(r.passages.map((p) => [[p.a.start, p.a.end], [p.b.start, p.b.end]]), c.passages);
    assert.deepEqual(ranges(r.excludedA), c.excluded_a);
  });
}

test('decodeText gives the shared cases', () => {
  for (const c of fx.decode_text) {
    assert.deepEqual(decodeText(Buffer.from(c.hex, 'hex')), { text: c.text, encoding: c.encoding }, c.hex);
  }
});
