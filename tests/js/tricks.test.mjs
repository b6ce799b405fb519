// Issue 47 through the npm package: the tricks that hide a copy — Latin
// letters typed as their Cyrillic look-alikes, a zero-width space after every
// second letter, soft hyphens inside words, Greek omicron with zero-width
// joiners — are undone by `compare` by default and said (`obfuscationA`,
// UTF-16 ranges); texts written in Russian or Greek report nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SvmModel, compare, classPairs } from '../../pkg/node.js';
import { repo, clough, cloughLabels } from './helpers.mjs';
import { TRICKS, cyrillic } from './tricks.mjs';

const model = SvmModel.fromJson(readFileSync(join(repo, 'pkg/model.json'), 'utf8'));


test('each trick on the copied answers keeps the score (within 0.02) and the verdict, and is said', () => {
  const copied = cloughLabels().filter((l) => l.category === 'cut' || l.category === 'light');
  assert.ok(copied.length >= 10);
  let checked = 0;
  for (const l of copied) {
    const [text, source] = [clough(l.file), clough(l.source)];
    const plain = compare(text, source, { model });
    assert.deepEqual([plain.obfuscationA.lookalikes, plain.obfuscationA.invisible], [0, 0]);
    if (!plain.verdict.copied) continue;
    for (const [name, trick] of Object.entries(TRICKS)) {
      const t = trick(text);
      const r = compare(t, source, { model });
      assert.ok(r.score >= plain.score - 0.02, `${l.file} ${name}: ${r.score} < ${plain.score}`);
      assert.equal(r.verdict.copied, true, `${l.file} ${name}`);
      const o = r.obfuscationA;
      assert.ok(o.lookalikes + o.invisible > 0, `${l.file} ${name}: ${JSON.stringify(o)}`);
      assert.match(o.warning, /known way to hide copying/);
      // Ranges are UTF-16 offsets into the tricked text, on what changed.
      for (const g of o.ranges) assert.ok([...t.slice(g.start, g.end)].every((c) => c.charCodeAt(0) > 127), `${name} ${JSON.stringify(g)}`);
      // Switched off, the trick works.
      const off = compare(t, source, { unmask: false });
      assert.equal(off.obfuscationA.lookalikes + off.obfuscationA.invisible, 0);
      checked++;
    }
  }
  assert.ok(checked >= 40, `${checked}`);
});

test('texts in Russian, Greek and Serbian (both alphabets), and a formula with Greek letters, report nothing', () => {
  for (const text of [
    'Наследование — это механизм, позволяющий создавать новые классы на основе уже существующих.',
    'Η κληρονομικότητα είναι ένας μηχανισμός με τον οποίο δημιουργούνται νέες κλάσεις.',
    'Let α be the angle and β the slope; the area of a circle is π r².',
    'Наслеђивање је механизам објектно оријентисаног програмирања којим се нове класе граде од постојећих.',
    'Nasleđivanje je mehanizam objektno orijentisanog programiranja kojim se nove klase grade od postojećih.',
  ]) {
    const r = compare(text, text);
    assert.equal(r.score, 1);
    assert.deepEqual([r.obfuscationA.lookalikes, r.obfuscationA.invisible], [0, 0], text);
    assert.equal(r.obfuscationA.warning, undefined);
  }
});

test('classPairs pairs a tricked copy with its source and flags the text', () => {
  const l = cloughLabels().find((x) => x.category === 'cut');
  const tricked = cyrillic(clough(l.file));
  const r = classPairs([tricked, clough('g0pA_taskb.txt')], [clough(l.source)], '');
  assert.ok(r.pairs.some((p) => p.a === 0 && p.b === 2 && p.score >= r.cutOff), JSON.stringify(r.pairs));
  assert.ok(r.texts[0].obfuscation.lookalikes > 0);
  assert.equal(r.texts[1].obfuscation.lookalikes, 0);
});

test('the unmask golden vectors hold through the package; sketches made with and without it never mix', async () => {
  const nd = await import('../../pkg/node.js');
  const golden = JSON.parse(readFileSync(join(repo, 'tests/golden/unmask-v1.json'), 'utf8'));
  // A new deduplicator and a new library unmask by default: the bytes the
  // Rust core wrote natively (the deduplicator's at spec version 1, the
  // default when the golden was made; now 2, issue 50).
  const d = new nd.Deduplicator({ spec: 1 });
  golden.cases.forEach((c, i) => d.add(`t${i}`, c.input));
  assert.equal(Buffer.from(d.toBytes()).toString('hex'), golden.dedup_snapshot);
  const lib = new nd.ClassLibrary();
  lib.add(['t0', 't1', 't2'], golden.cases.slice(0, 3).map((c) => c.input));
  assert.equal(Buffer.from(lib.toBytes()).toString('hex'), golden.library);
  // Each case's tokens, in UTF-16 offsets here, are the golden UTF-8 ones.
  for (const c of golden.cases) {
    const r = compare(c.input, c.input);
    assert.equal(r.obfuscationA.lookalikes, c.lookalikes, c.name);
    assert.equal(r.obfuscationA.invisible, c.invisible, c.name);
  }
  // A snapshot made before unmasking (dedup-v1.json's default case) reads
  // back as it was, and keeps texts as they are.
  const old = JSON.parse(readFileSync(join(repo, 'tests/golden/dedup-v1.json'), 'utf8')).cases[0];
  const back = nd.Deduplicator.fromBytes(Uint8Array.from(Buffer.from(old.snapshot, 'hex')));
  assert.equal(Buffer.from(back.toBytes()).toString('hex'), old.snapshot);
  // Sketches of the two normalisations are refused together.
  const on = new nd.DedupStages({});
  const off = new nd.DedupStages({ unmask: false });
  assert.throws(() => on.keys(off.sketch('a copy of a text')), /incompatible/);
  assert.throws(() => off.keys(on.sketch('a copy of a text')), /incompatible/);
  assert.equal(nd.dedupDefaults({}).unmask, true);
  assert.equal(nd.dedupDefaults({}).spec, 2);
});
