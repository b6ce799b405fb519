// classPairs from JavaScript: the class-set pairs of the core, with the
// binding's argument checks and UTF-16 excluded ranges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classPairs, compare, evidencePack } from '../../pkg/node.js';
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

// Issue 38: the evidence pack from JavaScript (the page's builder, the
// core's): UTF-16 ranges of a text with characters outside the BMP land
// on the same characters; a pack of the wrong shape is named.
test('evidencePack highlights UTF-16 ranges and names a bad pack', () => {
  const a = '😀 the copied words 😀 own';
  const b = 'x the copied words y';
  const start = a.indexOf('the');
  const end = a.indexOf(' 😀', start);
  const pack = {
    made: 'Made in a test',
    students: 2,
    texts: [
      { name: 'ann', text: a, excluded: [{ start: a.lastIndexOf('own'), end: a.length }], files: [{ path: 'ann.txt', sha256: 'ab'.repeat(32) }] },
      { name: 'bob', text: b, excluded: [], files: [] },
    ],
    pairs: [{ a: 0, b: 1, source: false, containmentAb: 0.5, containmentBa: 0.75, verdict: 'light', review: 'confirmed', passages: [{ a: { start, end }, b: { start: 2, end: 18 } }] }],
    settings: { templateSha256: null, cutOff: 0.05, adaptiveCutOff: false, stockLimit: 4, stockPhrases: 0, quotations: 0, referenceLists: 0, options: {} },
    pseudonyms: false,
  };
  const html = evidencePack(pack);
  assert.ok(html.includes('😀 <mark data-passages="0" data-passage="0" data-source="0" class="src-0">the copied words</mark> 😀 <span class="excluded" title="left out of the comparison">own</span>'), html);
  assert.ok(html.includes('<td>ann</td><td>bob</td><td>50%</td><td>75%</td><td>light revision</td><td>confirmed</td>'));
  assert.ok(html.includes('<td>5 %</td>'));
  assert.throws(() => evidencePack('pack'), TypeError);
  assert.throws(() => evidencePack({ ...pack, students: 'two' }), /invalid option pack: .*students|invalid type/);
  const far = structuredClone(pack);
  far.pairs[0].passages[0].b.end = 99;
  assert.throws(() => evidencePack(far), /pairs\[0\]\.passages \(b\): range 2\.\.99 is not inside its text of 20 UTF-16 units/);
  const missing = structuredClone(pack);
  missing.pairs[0].b = 7;
  assert.throws(() => evidencePack(missing), /pairs\[0\]: texts 0 and 7 of 2/);
});

test('foldDiacritics: German typed with ae/oe/ue and Spanish without accents score ≥ 0.95 against their originals (issue 39)', async () => {
  const { readFileSync } = await import('node:fs');
  const data = JSON.parse(readFileSync(new URL('../data/accents.json', import.meta.url), 'utf8'));
  for (const language of ['german', 'spanish']) {
    const { original, typed } = data[language];
    assert.ok(compare(typed, original, { foldDiacritics: true }).score >= 0.95, language);
    assert.ok(compare(typed, original, {}).score < 0.9, `${language} without it`);
    const r = classPairs([original, typed], [], '', { foldDiacritics: true });
    assert.ok(Math.min(r.pairs[0].containmentAb, r.pairs[0].containmentBa) >= 0.95, language);
    assert.equal(r.options.foldDiacritics, true);
  }
  assert.throws(() => compare('a b c', 'a b c', { foldDiacritics: 'yes' }), /foldDiacritics/);
});

// Issue 51 item 2: a ring of identical essays is one group, found by hash —
// 1,000 copies (their spacing and case varied) in one pair standing for the
// group, and the rows and CSV of the core saying so; a copy revised by one
// word pairs with the group's first only.
test('a ring of 1,000 identical essays is one group, in the pairs, the rows and the CSV', async () => {
  const { classRows, classCsv } = await import('../../pkg/node.js');
  const essay = clough('g0pA_taskb.txt');
  const ring = Array.from({ length: 1000 }, (_, i) => (i % 2 ? essay.toUpperCase() : essay.replace(/ /g, '  ')));
  const revised = essay.replace(/\bPageRank\b/, 'the ranking');
  const r = classPairs([...ring, revised], [], '');
  assert.deepEqual(r.groups, [Array.from({ length: 1000 }, (_, i) => i)]);
  const group = r.pairs.filter((p) => p.identical);
  assert.deepEqual(group.map((p) => [p.a, p.b, p.identical, p.score]), [[0, 1, 1000, 1]]);
  assert.deepEqual(r.pairs.filter((p) => p.b === 1000).map((p) => p.a), [0]);
  assert.ok(r.candidates >= 499500);
  const rows = classRows(r.pairs, r.pairs.map(() => null));
  assert.equal(rows[0].identical, 1000);
  const names = [...ring.map((_, i) => `s${i}`), 'revised'];
  const csv = classCsv({ rows, obfuscation: r.texts.map((t) => t.obfuscation), students: names });
  assert.match(csv.split('\n')[1], /^s0,s1 \(group of 1000 identical texts\),students,1,1,1,/);
});
