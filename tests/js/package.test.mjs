// Tests of the built npm package (pkg/) in Node: the Node entry, the web
// entry with initSync, golden vectors, errors, real data and large input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as nd from '../../pkg/node.js';
import { repo, clough, cloughLabels } from './helpers.mjs';

const golden = JSON.parse(readFileSync(join(repo, 'tests/golden/spec-v1.json'), 'utf8'));

test('package.json names the entries that exist', () => {
  const pkg = JSON.parse(readFileSync(join(repo, 'pkg/package.json'), 'utf8'));
  assert.equal(pkg.name, 'neardup');
  assert.equal(pkg.type, 'module');
  for (const f of pkg.files) readFileSync(join(repo, 'pkg', f)); // throws if missing
  // The licence is declared and both of its texts are shipped.
  assert.equal(pkg.license, 'MIT OR Apache-2.0');
  assert.match(readFileSync(join(repo, 'pkg/LICENSE-MIT'), 'utf8'), /Permission is hereby granted/);
  assert.match(readFileSync(join(repo, 'pkg/LICENSE-APACHE'), 'utf8'), /Apache License\s+Version 2\.0/);
  assert.ok(pkg.files.includes('LICENSE-MIT') && pkg.files.includes('LICENSE-APACHE'));
  const dts = readFileSync(join(repo, 'pkg/neardup.d.ts'), 'utf8');
  // Types generated from the Rust types, with their docs.
  assert.match(dts, /export interface Report extends Measures/);
  assert.match(dts, /Containment of a in b by word k-shingles/);
  assert.match(dts, /export interface CompareConfig \{[^}]*wordK\?: number/s);
  const entry = readFileSync(join(repo, 'pkg/index.d.ts'), 'utf8');
  assert.match(entry, /compare\(a: string, b: string, options\?: CompareOptions\)/);
});

test('the web entry initialises with initSync too', async () => {
  const web = await import('../../pkg/neardup.js?web');
  web.initSync({ module: readFileSync(join(repo, 'pkg/neardup_bg.wasm')) });
  assert.equal(web.compare('one two three four', 'one two three four').score, 1);
});

test('golden vectors hold in the wasm build', () => {
  assert.equal(nd.specVersion(), golden.spec_version);
  for (const c of golden.cases) {
    const seed = BigInt(c.seed);
    const hex = (xs) => Array.from(xs, (x) => x.toString(16).padStart(16, '0'));
    assert.deepEqual(hex(nd.wordShingles(c.input, c.word_k, seed)), c.word_shingles, c.name);
    assert.deepEqual(hex(nd.charShingles(c.input, c.char_q, seed)), c.char_shingles, c.name);
    const n = nd.normalize(c.input);
    assert.equal(n.text, c.normalized, c.name);
    // Golden token ranges are UTF-8 bytes; the JS API gives UTF-16 units.
    const buf = Buffer.from(c.input, 'utf8');
    const u16 = (byte) => buf.subarray(0, byte).toString('utf8').length;
    assert.deepEqual(
      n.tokens.map((t) => [t.orig.start, t.orig.end]),
      c.tokens.map(([s, e]) => [u16(s), u16(e)]),
      c.name,
    );
  }
});

test('compare gives camelCase measures and UTF-16 passage ranges', () => {
  const a = 'Notes 😀: the quick brown fox jumps over the lazy dog, I think.';
  const b = 'The quick brown fox jumps over the lazy dog.';
  const r = nd.compare(a, b);
  assert.equal(r.offsets, 'utf16-units');
  assert.ok(r.score > 0.5 && r.score < 1, `score ${r.score}`);
  for (const key of ['resemblance', 'containment', 'containmentBInA', 'dice', 'charResemblance', 'cosine']) {
    assert.ok(r[key] >= 0 && r[key] <= 1, key);
  }
  assert.equal(r.passages.length, 1);
  const p = r.passages[0];
  assert.equal(a.slice(p.a.start, p.a.end), 'the quick brown fox jumps over the lazy dog');
  assert.equal(b.slice(p.b.start, p.b.end), 'The quick brown fox jumps over the lazy dog');
  assert.deepEqual(r.options, nd.defaultOptions());
  assert.equal(nd.compare(a, b, { wordK: 1 }).options.wordK, 1);
});

test('bad input throws Errors with messages', () => {
  const throwsWith = (fn, re) => assert.throws(fn, (e) => e instanceof Error && re.test(e.message));
  throwsWith(() => nd.compare('', 'text'), /text a has no words/);
  throwsWith(() => nd.compare('text', ' \n\t '), /text b has no words/);
  throwsWith(() => nd.compare('a b', 'a b', { wordk: 3 }), /unknown field `wordk`/);
  throwsWith(() => nd.compare('a b', 'a b', { wordK: 0 }), /^invalid option wordK: must be in 1..=32, got 0$/);
  throwsWith(() => nd.compare('a b', 'a b', { spanGap: 65 }), /invalid option spanGap/);
  throwsWith(() => nd.compare('a b', 'a b', { wordK: 'three' }), /invalid option wordK: invalid type/);
  throwsWith(() => nd.compare('a b', 'a b', 42), /invalid options/);
  assert.equal(nd.compare('a b c', 'a b c', { wordK: undefined }).options.wordK, 3);
  throwsWith(() => nd.compare('a b', 'a b', { seed: 2 ** 60 }), /^invalid option seed: invalid type: floating point/);
  throwsWith(() => nd.compare('a b', 'a b', { seed: 2n ** 60n }), /seed: must be at most 2\^53 - 1/);
  throwsWith(() => nd.compare('word '.repeat(100), 'word', { maxBytes: 10 }), /more than the limit/);
  throwsWith(() => nd.wordShingles('a', 0), /^k must be an integer in 1..=32, got 0$/);
  // Lone surrogates are replaced, not a crash.
  assert.equal(nd.compare('abc \uD800 def', 'abc def').tokensA, 2);
});

// Texts of 256 UTF-16 units or more enter the module by the platform's
// TextEncoder.encodeInto (src/wasm/mod.rs, encode_utf8), shorter ones by
// wasm-bindgen's copy: both must give the text as written, whatever its
// characters, where they fall and however long it is.
test('a text reads the same whichever way it enters the module', () => {
  const pad = (n) => 'ab '.repeat(n); // ASCII first, so the first buffer (a byte a unit) fills up
  for (const n of [1, 84, 85, 86, 200, 3000]) {
    const text = pad(n) + 'Éclair ÉTÉ 日本 Straße \u{1F600} \uD800x ' + 'zz '.repeat(n % 7);
    const got = nd.normalize(text);
    const words = [...Array(n).fill('ab'), 'éclair', 'été', '日', '本', 'strasse', 'x', ...Array(n % 7).fill('zz')];
    assert.deepEqual(got.tokens.map((t) => got.text.slice(t.norm.start, t.norm.end)), words, `n ${n}`);
    // The ranges in the original are UTF-16 offsets of the text as given.
    const orig = got.tokens.map((t) => text.slice(t.orig.start, t.orig.end));
    assert.equal(orig[n], 'Éclair', `n ${n}`);
    assert.equal(orig[n + 4], 'Straße', `n ${n}`);
    assert.equal(orig[n + 5], 'x', `n ${n}`); // after the emoji's pair and the lone surrogate
    assert.equal(got.tokens[n + 5].orig.start, text.indexOf('\uD800x') + 1, `n ${n}`);
  }
  // All non-ASCII: three bytes a unit, past the first buffer at once.
  const cjk = '語'.repeat(1000);
  assert.equal(nd.normalize(cjk).tokens.length, 1000);
  assert.equal(nd.normalize(cjk).text, Array(1000).fill('語').join(' '));
});

test('a cut answer of the Clough-Stevenson corpus scores high; a non answer low', () => {
  const labels = cloughLabels();
  const cut = labels.find((l) => l.file === 'g0pA_taskb.txt');
  const non = labels.find((l) => l.file === 'g0pA_taska.txt');
  assert.equal(cut.category, 'cut');
  assert.equal(non.category, 'non');
  const rc = nd.compare(clough(cut.file), clough(cut.source));
  const rn = nd.compare(clough(non.file), clough(non.source));
  assert.ok(rc.score > 0.9, `cut ${rc.score}`);
  assert.ok(rn.score < 0.1, `non ${rn.score}`);
  assert.ok(rc.coverageA > 0.9);
});

test('a 10 MB text is compared without error', () => {
  const words = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor'.split(' ');
  let x = 12345;
  const parts = [];
  let len = 0;
  while (len < 10 * 1024 * 1024) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const w = words[x % words.length];
    parts.push(w);
    len += w.length + 1;
  }
  const big = parts.join(' ');
  const r = nd.compare(parts.slice(5000, 5400).join(' '), big);
  assert.equal(r.score, 1);
  assert.ok(r.tokensB > 1_000_000);
});
