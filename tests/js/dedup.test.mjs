// The npm package's dedup(): the core's pipeline from JavaScript — the
// planted pairs of docs-bench with no options, the same pairs as the CLI,
// the Deduplicator class, progress and abort, and bad documents.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dedup, DedupStages, Deduplicator, dedupDefaults, dedupNeeds, mergeFrequencies, MultiRef, Speller } from '../../pkg/node.js';
import { cliPath, dataDir, docsBench, repo, version1 } from './helpers.mjs';

const key = (a, b) => (a < b ? `${a}\t${b}` : `${b}\t${a}`);

test('dedup() finds docs-bench planted pairs with F1 >= 0.95 and no options, the same pairs as the CLI', () => {
  const { docs, pairs: planted } = docsBench();
  const documents = [...docs].map(([id, text]) => ({ id, text }));
  const result = dedup(documents);
  const found = new Set(result.pairs.map((p) => key(p.a, p.b)));
  const truth = new Set(planted.map((p) => key(p.a, p.b)));
  const tp = [...found].filter((k) => truth.has(k)).length;
  const precision = tp / found.size;
  const recall = tp / truth.size;
  const f1 = (2 * precision * recall) / (precision + recall);
  assert.ok(f1 >= 0.95, `precision ${precision}, recall ${recall}, F1 ${f1}`);
  assert.equal(result.summary.documents, 5075);
  assert.equal(result.summary.pairs, result.pairs.length);
  assert.equal(result.keep.length + result.summary.duplicates, 5075);
  // a precedes b in input order.
  const position = new Map(documents.map((d, i) => [d.id, i]));
  for (const p of result.pairs) assert.ok(position.get(p.a) < position.get(p.b), `${p.a} ${p.b}`);

  // The CLI built by the Rust tests (cargo test --features cli).
  const cli = cliPath();
  assert.ok(cli, 'the neardup CLI is built (cargo test --features cli builds it)');
  const out = execFileSync(cli, ['dedup', join(dataDir, 'docs-bench', 'docs.jsonl')], { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] });
  const cliPairs = out.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(new Set(cliPairs.map((p) => key(p.a, p.b))), found);
  const cliJaccard = new Map(cliPairs.map((p) => [key(p.a, p.b), p.jaccard]));
  for (const p of result.pairs) assert.equal(p.similarity, cliJaccard.get(key(p.a, p.b)));
  const clusters = execFileSync(cli, ['dedup', join(dataDir, 'docs-bench', 'docs.jsonl'), '--clusters'], { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] })
    .trim().split('\n').map((l) => JSON.parse(l).cluster);
  assert.deepEqual(result.clusters, clusters);
});

test('Deduplicator: add answers with the near-duplicates already added; remove, clusters, keep, bytes', () => {
  const base = 'Near-duplicate detection finds documents that are almost the same: copies with small edits, typos, or a changed word here and there.';
  const d = new Deduplicator();
  assert.deepEqual(d.add('a', base), []);
  assert.deepEqual(d.add('b', 'A different text altogether, about the weather in the mountains during a long and cold winter.'), []);
  const found = d.add('c', base.replace('small edits', 'tiny edits'));
  assert.equal(found.length, 1);
  assert.equal(found[0].id, 'a');
  assert.ok(found[0].similarity > 0.5 && found[0].similarity <= 1);
  d.add('d', base);
  assert.deepEqual(d.clusters(), [['a', 'c', 'd']]);
  assert.deepEqual(d.keep(), ['a', 'b']);
  assert.deepEqual(d.duplicates(), ['c', 'd']);
  assert.equal(d.size, 4);
  const back = Deduplicator.fromBytes(d.toBytes());
  assert.deepEqual(back.clusters(), d.clusters());
  assert.deepEqual(back.pairs(), d.pairs());
  assert.equal(d.remove('a'), true);
  assert.equal(d.remove('a'), false);
  assert.equal(d.has('a'), false);
  // Without a, c and d are still near copies; c now leads.
  assert.deepEqual(d.clusters(), [['c', 'd']]);
  assert.deepEqual(d.summary(), { documents: 3, pairs: 1, clusters: 1, duplicates: 1 });
  assert.throws(() => d.add('b', 'again'), /id "b" is already in the index/);
  assert.throws(() => Deduplicator.fromBytes(new Uint8Array([1, 2, 3])), /too short/);
  assert.throws(() => new Deduplicator({ k: 3 }), /invalid option k: does not apply to method minhash/);
  assert.throws(() => new Deduplicator({ treshold: 0.5 }), /unknown field `treshold`/);
});

test('dedup() takes strings and iterables, reports progress, and stops on abort', () => {
  // 300 texts of random words, each twice.
  let state = 7;
  const word = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return `w${state % 5000}`;
  };
  const unique = Array.from({ length: 300 }, () => Array.from({ length: 30 }, word).join(' '));
  const texts = [...unique, ...unique];
  const calls = [];
  const r = dedup(texts, { onProgress: (done, total) => calls.push([done, total]) });
  assert.deepEqual(calls, [[256, 600], [512, 600], [600, 600]]);
  assert.equal(r.summary.duplicates, 300);
  assert.deepEqual(r.clusters[0], ['0', '300']);
  function* generate() {
    for (let i = 0; i < 10; i++) yield { id: `g${i}`, text: texts[i % 5] };
  }
  const g = dedup(generate(), { onProgress: (done, total) => assert.equal(total, undefined) });
  assert.equal(g.keep.length, 5);
  const controller = new AbortController();
  const reason = new Error('stopped by the user');
  assert.throws(() => dedup(texts, { signal: controller.signal, onProgress: () => controller.abort(reason) }), (e) => e === reason);
  controller.abort();
  assert.throws(() => dedup(texts, { signal: AbortSignal.abort() }), { name: 'AbortError' });
});

test('dedup() refuses bad documents by position, never a trap', () => {
  assert.throws(() => dedup([{ id: 'a', text: 'x' }, { text: 'no id' }]), { name: 'TypeError', message: /documents\[1\]\.id must be a string, got undefined/ });
  assert.throws(() => dedup([{ id: 'a', text: 42 }]), { name: 'TypeError', message: /documents\[0\]\.text must be a string, got number/ });
  assert.throws(() => dedup([{ id: 'a', text: 'x' }, { id: 'b', text: 'y' }, { id: 'a', text: 'z' }]), /documents\[2\]: id "a" is already in the index/);
  assert.throws(() => dedup([null]), { name: 'TypeError', message: /documents\[0\]/ });
  assert.throws(() => dedup(42), { name: 'TypeError', message: /documents must be an array or an iterable/ });
  assert.throws(() => dedup('text'), { name: 'TypeError', message: /documents must be an array or an iterable, got string/ });
  assert.throws(() => dedup({}), { name: 'TypeError', message: /documents must be an array or an iterable, got object/ });
  // A reference where the method takes none is the core's refusal, by name.
  const reference = MultiRef.fromJson(readFileSync(join(repo, 'assets', 'multiref.json'), 'utf8'));
  assert.throws(() => dedup(['x'], { reference }), /invalid option reference: does not apply to method minhash/);
  assert.throws(() => dedup(['x'], { onProgress: 'yes' }), { name: 'TypeError', message: /onProgress/ });
  assert.throws(() => dedup(['x'], { reference: {} }), { name: 'TypeError', message: /MultiRef/ });
  // The module still works.
  assert.equal(dedup(['same text here', 'same text here']).summary.duplicates, 1);
});

test('dedup() with method multiref and the shipped reference finds a near copy', () => {
  const reference = MultiRef.fromJson(readFileSync(join(repo, 'assets', 'multiref.json'), 'utf8'));
  const { docs, pairs } = docsBench();
  const p = pairs.find((x) => x.rate === 0.01);
  const others = [...docs.keys()].filter((id) => id.startsWith('s0')).slice(0, 40);
  const documents = [p.a, p.b, ...others.filter((id) => id !== p.a)].map((id) => ({ id, text: docs.get(id) }));
  const r = dedup(documents, { method: 'multiref', reference });
  assert.ok(r.pairs.some((x) => key(x.a, x.b) === key(p.a, p.b)), JSON.stringify(r.pairs));
  assert.ok(r.summary.pairs < 5, JSON.stringify(r.summary));
});

test('dedup golden vectors hold in the wasm build: sketches, keys, verification, snapshots (SPEC.md §14)', async () => {
  const { DedupStages } = await import('../../pkg/node.js');
  const golden = JSON.parse(readFileSync(join(repo, 'tests', 'golden', 'dedup-v1.json'), 'utf8'));
  const hex = (b) => Buffer.from(b).toString('hex');
  assert.ok(golden.cases.length >= 5);
  for (const g of golden.cases) {
    // The file is version 1's: a case naming no spec was made under it
    // (a new configuration's default is 2, issue 50) where the option applies.
    const c = { ...g, config: version1(g.config) };
    const stages = new DedupStages(c.config);
    const sketches = golden.texts.map((t) => stages.sketch(t));
    assert.deepEqual(sketches.map(hex), c.sketches, JSON.stringify(c.config));
    assert.deepEqual(sketches.map((s) => Array.from(stages.keys(s), (k) => k.toString(16).padStart(16, '0'))), c.keys);
    const verify = [];
    for (let i = 0; i < sketches.length; i++) {
      for (let j = i + 1; j < sketches.length; j++) {
        const v = stages.verify(sketches[i], sketches[j]);
        const bits = v === undefined ? 'none' : Buffer.from(new Float64Array([v.similarity]).buffer).reverse().toString('hex');
        verify.push(`${i} ${j} ${bits}`);
      }
    }
    assert.deepEqual(verify, c.verify);
    const d = new Deduplicator(c.config);
    golden.texts.forEach((t, i) => d.add(`t${i}`, t));
    assert.equal(hex(d.toBytes()), c.snapshot);
  }
});

test('dedup() refuses the option sets every binding refuses, with the core\'s words (tests/refusals.json)', () => {
  const { sets } = JSON.parse(readFileSync(join(repo, 'tests', 'refusals.json'), 'utf8'));
  const camel = (s) => s.replace(/_(\w)/g, (_, c) => c.toUpperCase());
  assert.ok(sets.length >= 20);
  for (const set of sets) {
    const options = Object.fromEntries(Object.entries(set.options).map(([k, v]) => [camel(k), v]));
    const want = `invalid option ${camel(set.option)}: ${set.reason}`;
    for (const call of [() => dedup(['one text'], options), () => new Deduplicator(options)]) {
      assert.throws(call, (e) => e instanceof Error && e.message.includes(want), `${JSON.stringify(options)} → ${want}`);
    }
  }
});

test('word:K+correct works with the bundled dictionary, or one given, and a copy with typos is found', () => {
  const original = 'The government should recognise that the environment needs protection from pollution and waste.';
  const typos = 'The goverment should recognize that the enviroment needs protecion from polution and waste.';
  const plain = dedup([original, typos], { shingle: 'word:3', threshold: 0.3 });
  const corrected = dedup([original, typos], { shingle: 'word:3+correct', threshold: 0.3 });
  assert.equal(plain.pairs.length, 0, 'the typos break the plain word shingles');
  assert.deepEqual(corrected.clusters, [['0', '1']]);
  const speller = Speller.fromBytes(readFileSync(join(repo, 'pkg', 'dictionary-en.bin')));
  const given = dedup([original, typos], { shingle: 'word:3+correct', threshold: 0.3, dictionary: speller });
  assert.deepEqual(given.clusters, corrected.clusters);
  assert.ok(speller.has('government'), 'the speller given stays usable');
  assert.throws(() => dedup([original], { dictionary: speller }), /invalid option dictionary: applies to word:K\+correct shingles only/);
  const d = new Deduplicator({ shingle: 'word:3+correct', threshold: 0.3 });
  d.add('a', original);
  assert.deepEqual(d.add('b', typos).map((m) => m.id), ['a']);
});

test('weights tfidf: dedup() counts the collection first, as the CLI does (the same pairs)', () => {
  // 200 documents and the planted pairs of the first 60 copies.
  const bench = docsBench();
  const ids = new Set([...bench.docs.keys()].slice(0, 200));
  for (const p of bench.pairs.slice(0, 60)) ids.add(p.a).add(p.b);
  const docs = [...ids].map((id) => ({ id, text: bench.docs.get(id) }));
  const r = dedup(docs, { method: 'simhash', weights: 'tfidf' });
  const input = docs.map((d) => JSON.stringify(d)).join('\n') + '\n';
  const cli = execFileSync(cliPath(), ['dedup', '-', '--method', 'simhash', '--weights', 'tfidf'], { input, stdio: ['pipe', 'pipe', 'ignore'] }).toString();
  const key = (a, b) => (a < b ? `${a} ${b}` : `${b} ${a}`);
  const fromCli = cli.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)).map((p) => key(p.a, p.b)).sort();
  assert.ok(fromCli.length > 5, 'the sample has pairs');
  assert.deepEqual(r.pairs.map((p) => key(p.a, p.b)).sort(), fromCli);
  assert.throws(() => new Deduplicator({ method: 'simhash', weights: 'tfidf' }), /tfidf needs the collection's document frequencies/);
  // In pieces: counted per piece, merged, then sketched as one collection.
  const stages = new DedupStages({ method: 'simhash', weights: 'tfidf' });
  const merged = mergeFrequencies([stages.count(docs.slice(0, 150).map((d) => d.text)), stages.count(docs.slice(150).map((d) => d.text))]);
  const weighted = stages.withFrequencies(merged);
  const whole = new DedupStages({ method: 'simhash', weights: 'tfidf' }).withFrequencies(stages.count(docs.map((d) => d.text)));
  assert.deepEqual(weighted.sketch(docs[3].text), whole.sketch(docs[3].text));
  assert.throws(() => stages.sketch('text'), /tfidf/);
});

test('Deduplicator.query finds near copies without adding them; dedupDefaults shows what a run uses', () => {
  const d = new Deduplicator();
  const text = 'Near-duplicate detection finds documents that are almost the same, copies with small edits here and there.';
  d.add('a', text);
  assert.deepEqual(d.query(text.replace('small', 'tiny')).map((m) => m.id), ['a']);
  assert.equal(d.size, 1);
  const full = dedupDefaults({ method: 'simhash' });
  assert.equal(full.k, 10, 'SimHash\'s default distance since issue 50');
  assert.equal(full.verify, true);
  assert.equal(full.threshold, 0.5);
  assert.equal(dedupDefaults().numPerm, 128);
  assert.equal(dedupDefaults({ method: 'simhash', verify: false }).threshold, undefined, 'unverified SimHash has no threshold');
  assert.deepEqual(dedupNeeds({ method: 'multiref', verify: true, shingle: 'word:3+correct' }), { reference: true, dictionary: true, frequencies: false });
});

test('issue 35: 10,000 copies of a text are one cluster of 9,999 pairs (was a wasm trap), and groups of 1, 2, 3, 50 and 1,000 pair each copy with the first', () => {
  const line = 'Home | About | Contact | Terms of service | Privacy policy | Careers';
  const r = dedup(Array.from({ length: 10_000 }, (_, i) => ({ id: `c${i}`, text: line })));
  assert.deepEqual(r.summary, { documents: 10_000, pairs: 9_999, clusters: 1, duplicates: 9_999 });
  assert.ok(r.pairs.every((p) => p.a === 'c0'));
  const { docs } = docsBench();
  const texts = [...docs.values()].slice(0, 5);
  const sizes = [1, 2, 3, 50, 1000];
  const d = new Deduplicator();
  for (let c = 0; c < 1000; c++) {
    for (const [g, n] of sizes.entries()) {
      if (c >= n) continue;
      const found = d.add(`g${g}c${c}`, texts[g]).map((m) => m.id);
      assert.deepEqual(found, c === 0 ? [] : [`g${g}c0`]);
    }
  }
  assert.equal(d.pairs().length, 1 + 2 + 49 + 999);
  assert.deepEqual(d.query(texts[4]).map((m) => m.id), ['g4c0']);
  assert.throws(() => d.allPairs(100_000), /invalid option maxPairs: the clusters hold 500729 pairs/);
  assert.throws(() => d.allPairs(-1), { name: 'TypeError', message: /maxPairs must be a whole number/ });
  assert.equal(d.allPairs(500_729).length, 500_729);
  d.free();
});
