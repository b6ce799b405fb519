// classPairs from JavaScript: the class-set pairs of the core, with the
// binding's argument checks and UTF-16 excluded ranges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classPairs, compare } from '../../pkg/node.js';
import { clough, cloughLabels } from './helpers.mjs';

test('a Clough–Stevenson task as a class set: copied answers share the source, independent ones are not flagged', () => {
  const answers = cloughLabels().filter((l) => l.source === 'orig_taskb.txt');
  const r = classPairs(answers.map((l) => clough(l.file)), [clough('orig_taskb.txt')], '');
  const flagged = new Set(r.pairs.filter((p) => p.source).map((p) => p.a));
  // Copied answers (cut, light) from the part of the article this corpus keeps (one,
  // g4pD_taskb, copies a part it left out: its text is not in the source).
  const cut = answers
    .map((l, i) => [l, i])
    .filter(([l]) => l.category !== 'non' && compare(clough(l.file), clough(l.source)).score > 0.3)
    .map(([, i]) => i);
  assert.ok(cut.length >= 3);
  for (const i of cut) assert.ok(flagged.has(i), `cut answer ${answers[i].file} flagged`);
  for (const [i, l] of answers.entries()) {
    if (l.category === 'non') assert.ok(!flagged.has(i), `${l.file} (non) not flagged`);
  }
  for (const p of r.pairs) {
    assert.ok(p.a < answers.length, 'a is a student');
    assert.equal(p.source, p.b === answers.length);
    assert.equal(p.score, Math.max(p.containmentAb, p.containmentBa));
    assert.ok(p.score >= r.options.minContainment && p.shared >= r.options.minShared);
  }
  assert.equal(r.texts.length, answers.length + 1);
});

test('excluded ranges are UTF-16 offsets of the template in each text', () => {
  const template = 'Explain, in your own words, why the sky appears blue on a clear day.';
  const a = `😀😀 ${template} Rayleigh scattering favours short wavelengths of light.`;
  const b = `${template} Because of the air molecules and how they scatter light.`;
  const r = classPairs([a, b], [], template);
  const [ra] = r.texts[0].excluded;
  assert.equal(a.slice(ra.start, ra.end), template.slice(0, -1));
  assert.ok(r.texts[0].templateShingles >= 5, `${r.texts[0].templateShingles}`);
  assert.deepEqual(r.pairs, []);
});

test('bad arguments are named', () => {
  assert.throws(() => classPairs('a b c', [], ''), { name: 'TypeError', message: /students must be an array of strings/ });
  assert.throws(() => classPairs(['a b c', 7], [], ''), { name: 'TypeError', message: /students\[1\] must be a string/ });
  assert.throws(() => classPairs(['a b c'], [], ''), /invalid option students/);
  assert.throws(() => classPairs(['a b', 'c d'], [], '', { stockShare: 0 }), /stockShare/);
  assert.throws(() => classPairs(['a b', 'c d'], [], '', { cutOff: 0.5 }), /unknown field `cutOff`/);
});
