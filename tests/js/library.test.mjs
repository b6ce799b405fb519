// ClassLibrary (issue 38): a reference library for class sets from npm —
// built, saved as bytes and read back, a class checked one way against it,
// added to afterwards; the bytes the Rust core wrote for the golden file
// read by the package; bad input named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ClassLibrary } from '../../pkg/node.js';
import { clough, cloughLabels } from './helpers.mjs';

const answers = cloughLabels().filter((l) => l.source === 'orig_taskb.txt');

test('a library of a past class finds this year\'s copies one way, and grows', () => {
  const past = answers.slice(0, 10);
  const lib = new ClassLibrary();
  lib.add(past.map((l) => `2025/${l.file}`), past.map((l) => clough(l.file)));
  lib.add(['2025/again.txt'], [clough(past[2].file)]);
  const back = ClassLibrary.fromBytes(lib.toBytes());
  assert.equal(back.size, 11);
  assert.deepEqual(back.names, lib.names);
  // This year: a copy of a past answer, and an answer of its own.
  const now = [clough(past[2].file), clough(answers[15].file)];
  const found = back.check(now, 0.5);
  const got = found.map((m) => [m.student, back.names[m.text]]);
  assert.deepEqual(got, [[0, `2025/${past[2].file}`], [0, '2025/again.txt']]);
  assert.equal(found[0].containment, 1);
  // Added to afterwards, the library holds this year's texts too.
  back.add(['2026/b.txt'], [now[1]]);
  assert.deepEqual(back.check([now[1]], 0.9).map((m) => back.names[m.text]), ['2026/b.txt']);
});

test('the golden library written by the Rust core reads here, and bad input is named', () => {
  const golden = JSON.parse(readFileSync(new URL('../golden/library-v1.json', import.meta.url), 'utf8'));
  const bytes = Uint8Array.from(golden.bytes.match(/../g).map((h) => parseInt(h, 16)));
  const lib = ClassLibrary.fromBytes(bytes);
  assert.deepEqual(lib.names, ['source.txt', '2025/ann.txt', '2025/bo – café.txt']);
  assert.deepEqual(Buffer.from(lib.toBytes()).toString('hex'), golden.bytes);
  const damaged = bytes.slice();
  damaged[30] ^= 1;
  assert.throws(() => ClassLibrary.fromBytes(damaged), /checksum/);
  assert.throws(() => ClassLibrary.fromBytes(bytes.slice(0, 20)), /library/);
  assert.throws(() => ClassLibrary.fromBytes('not bytes'), TypeError);
  assert.throws(() => lib.add(['a'], ['x', 'y']), /1 names for 2 texts/);
  assert.throws(() => lib.add('a', ['x']), TypeError);
  assert.throws(() => lib.check(['x'], 2), /minContainment/);
  assert.throws(() => lib.check(['x'], 0.1, 0), /minShared/);
  assert.throws(() => lib.check(['x'], 0.1, 'three'), TypeError);
  assert.throws(() => new ClassLibrary({ window: 0 }), /window/);
});

// Issue 48 item 4: a library that keeps its texts gives them back with the
// ranges the class's options leave out (UTF-16, compare's excludeB);
// without, it gives none, and its bytes are format 1 as before.
test('a library keeps its texts when asked, and gives each with its exclusions', () => {
  const past = answers.slice(0, 3);
  const lib = new ClassLibrary();
  lib.add(['before'], [clough(past[0].file)]);
  assert.equal(new DataView(lib.toBytes().buffer).getUint16(4, true), 1, 'format 1 without texts');
  lib.keepTexts(true);
  const quoted = 'An answer. "A quoted sentence of the source, left out." ­Ünïcödé 😀 words after it.';
  lib.add(['q', 'p'], [quoted, clough(past[1].file)]);
  const bytes = lib.toBytes();
  assert.equal(new DataView(bytes.buffer).getUint16(4, true), 2, 'format 2 with texts');
  const back = ClassLibrary.fromBytes(bytes);
  assert.equal(back.text(0), undefined);
  assert.equal(back.text(1), quoted);
  assert.equal(back.text(9), undefined);
  assert.equal(back.kept(0), undefined);
  const k = back.kept(1, { ignoreQuotes: true });
  assert.equal(k.text, quoted);
  // The quotation, in UTF-16 units of the text (found here by indexOf).
  const at = quoted.indexOf('"A quoted');
  assert.equal(k.excluded.length, 1);
  assert.ok(k.excluded[0].start <= at + 1 && k.excluded[0].end >= quoted.indexOf('out."') + 4, JSON.stringify(k.excluded));
  assert.deepEqual(back.kept(1, { ignoreQuotes: false }).excluded, []);
  assert.throws(() => back.keepTexts('yes'), TypeError);
  for (const l of [lib, back]) l.free();
});
