// The edge Worker (edge/) in the real workerd runtime (npm miniflare 4),
// built from the *packed* package as a site would install it: the package's
// workerd entry, the HTTP API, planted near-duplicates of docs-bench,
// concurrent writers, a restart on the same storage, every bad request.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docsBench, repo, unpackedPackage } from './helpers.mjs';
import { buildWorker } from '../../edge/build.mjs';
import { startWorker } from '../../edge/local.mjs';
import { idHash, keyShard } from '../../edge/src/placement.js';

const TOKEN = 'test-token-0123456789';
const LIMIT = 256 * 1024;
let work, built, persist, worker;

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'neardup-edge-test-'));
  built = await buildWorker({ outdir: join(work, 'dist'), packageDir: unpackedPackage(work) });
  persist = join(work, 'data');
  worker = await startWorker({ dir: built.outdir, persist, token: TOKEN, maxBodyBytes: LIMIT });
});

after(async () => {
  await worker?.mf.dispose();
  if (work) rmSync(work, { recursive: true, force: true });
});

const auth = { authorization: `Bearer ${TOKEN}` };

async function call(method, path, body, headers = auth) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) init.body = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
  const r = await fetch(new URL(path, worker.url), init);
  const text = await r.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: r.status, json, text };
}

/** Runs `tasks` (functions returning promises) with `n` at a time. */
async function pool(n, tasks) {
  const results = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]();
      }
    }),
  );
  return results;
}

test('the packed package runs in workerd unchanged: import, init() and compare', async () => {
  const dir = join(work, 'plain');
  const entry = join(work, 'plain.js');
  writeFileSync(
    entry,
    `import init, { compare, MinHash } from 'neardup';
export default { async fetch() {
  await init(); // harmless: the workerd entry has initialised already
  const r = compare('the cat sat on the mat today', 'the cat sat on the mat', { wordK: 2 });
  const m = new MinHash(); m.update('hello world');
  return Response.json({ score: r.score, numPerm: m.numPerm });
} };`,
  );
  const b = await buildWorker({ outdir: dir, packageDir: join(work, 'package'), entry });
  const w = await startWorker({ dir: b.outdir, persist: join(work, 'plain-data'), objects: false });
  try {
    const r = await fetch(w.url);
    assert.equal(r.status, 200);
    const body = await r.json();
    assert.ok(body.score > 0.5 && body.score <= 1, `score ${body.score}`);
    assert.equal(body.numPerm, 128);
  } finally {
    await w.mf.dispose();
  }
});

test('placement: FNV-1a of the id and the key shard are fixed (stored documents depend on them)', () => {
  // FNV-1a 32 published vectors: "" → 811c9dc5, "a" → e40c292c, "foobar" → bf9cf968.
  assert.equal(idHash(''), 0x811c9dc5);
  assert.equal(idHash('a'), 0xe40c292c);
  assert.equal(idHash('foobar'), 0xbf9cf968);
  assert.equal(keyShard('00000000000000ff', 16), 15);
  assert.equal(keyShard('ffffffff00000010', 16), 0);
});

test('health needs no token; everything else does', async () => {
  const h = await call('GET', '/v1/health', undefined, {});
  assert.equal(h.status, 200);
  assert.equal(h.json.ok, true);
  for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: TOKEN }]) {
    const r = await call('GET', '/v1/collections/any', undefined, headers);
    assert.equal(r.status, 401);
    assert.match(r.json.error, /token/);
  }
});

test('collections: create, same settings again, other settings conflict, count', async () => {
  let r = await call('PUT', '/v1/collections/c1', { threshold: 0.6 });
  assert.equal(r.status, 201);
  assert.deepEqual(r.json.settings, { method: 'minhash', shingle: 'char:5', threshold: 0.6, numPerm: 128, scheme: 'oph', seed: 0, spec: 2, unmask: true, shards: 4 });
  r = await call('PUT', '/v1/collections/c1', { threshold: 0.6, shingle: 'char:5' });
  assert.equal(r.status, 200);
  r = await call('PUT', '/v1/collections/c1', { threshold: 0.7 });
  assert.equal(r.status, 409);
  assert.match(r.json.error, /other settings/);
  r = await call('PUT', '/v1/collections/c1');
  assert.equal(r.status, 409, 'the defaults (threshold 0.5) differ from 0.6');
  r = await call('GET', '/v1/collections/c1');
  assert.equal(r.status, 200);
  assert.equal(r.json.count, 0);
  assert.equal(r.json.settings.threshold, 0.6);
});

test('bad requests get their status and a message, never a 500', async () => {
  await call('PUT', '/v1/collections/bad');
  const cases = [
    ['PUT', '/v1/collections/bad/documents/x', '{"text": ', 400, /invalid JSON/],
    ['PUT', '/v1/collections/bad/documents/x', {}, 400, /missing field text/],
    ['PUT', '/v1/collections/bad/documents/x', { text: 42 }, 400, /must be a string, got number/],
    ['PUT', '/v1/collections/bad/documents/x', { text: null }, 400, /must be a string, got null/],
    ['PUT', '/v1/collections/bad/documents/x', { text: ['a'] }, 400, /must be a string/],
    ['PUT', '/v1/collections/bad/documents/x', { text: '' }, 400, /must not be empty/],
    ['PUT', '/v1/collections/bad/documents/x', '[1, 2]', 400, /JSON object/],
    ['PUT', '/v1/collections/bad/documents/x', new Uint8Array([0x7b, 0x22, 0xff, 0xfe]), 400, /UTF-8/],
    ['PUT', '/v1/collections/bad/documents/x', '', 400, /JSON object/],
    ['POST', '/v1/collections/bad/query', { txt: 'a' }, 400, /missing field text/],
    ['POST', '/v1/collections/bad/query', { text: 'x'.repeat(LIMIT) }, 413, /limit/],
    ['PUT', '/v1/collections/bad/documents/x', { text: 'y'.repeat(LIMIT + 10) }, 413, /limit/],
    ['POST', '/v1/collections/nope/query', { text: 'a b c' }, 404, /no collection "nope"/],
    ['PUT', '/v1/collections/nope/documents/x', { text: 'a b c' }, 404, /no collection/],
    ['GET', '/v1/collections/nope', undefined, 404, /no collection/],
    ['GET', '/v1/collections/bad/documents/absent', undefined, 404, /no document "absent"/],
    ['DELETE', '/v1/collections/bad/documents/absent', undefined, 404, /no document/],
    ['GET', '/v1/collections/bad%2Fx', undefined, 400, /invalid collection name/],
    ['GET', '/v1/collections/-x', undefined, 400, /invalid collection name/],
    ['GET', '/v1/collections/bad/documents/%E0%A4%A', undefined, 400, /percent-encoding/],
    ['GET', `/v1/collections/bad/documents/${'i'.repeat(300)}`, undefined, 400, /document id/],
    ['PUT', '/v1/collections/s1', { method: 'lsh' }, 400, /invalid setting method/],
    ['PUT', '/v1/collections/s1', { threshold: 1.5 }, 400, /invalid setting threshold/],
    ['PUT', '/v1/collections/s1', { numPerm: 0 }, 400, /invalid setting numPerm/],
    ['PUT', '/v1/collections/s1', { scheme: 'fast' }, 400, /invalid setting scheme: must be classic or oph, got "fast"$/],
    ['PUT', '/v1/collections/s1', { method: 'simhash', k: 12 }, 400, /invalid setting k/],
    ['PUT', '/v1/collections/s1', { method: 'simhash', threshold: 0.5 }, 400, /invalid setting threshold: does not apply to method simhash without verify/],
    ['PUT', '/v1/collections/s1', { verify: true }, 400, /unknown setting "verify"/],
    ['PUT', '/v1/collections/s1', { method: 'exact' }, 400, /invalid setting method: the edge runs/],
    ['PUT', '/v1/collections/s1', { bands: 4 }, 400, /invalid setting rows: give rows with bands/],
    ['PUT', '/v1/collections/s1', { colour: 'red' }, 400, /unknown setting "colour"/],
    ['PUT', '/v1/collections/s1', { shingle: 'foo:3' }, 400, /invalid setting shingle: .*word:K/],
    ['PUT', '/v1/collections/s1', { shingle: 3 }, 400, /invalid setting shingle: must be a string/],
    ['PUT', '/v1/collections/s1', { shards: 1000 }, 400, /invalid setting shards/],
    ['PUT', '/v1/collections/s1', '"simhash"', 400, /JSON object/],
    ['DELETE', '/v1/collections/bad', undefined, 405, /not allowed/],
    ['PATCH', '/v1/collections/bad/documents/x', undefined, 405, /not allowed/],
    ['GET', '/v1/collections/bad/query', undefined, 405, /not allowed/],
    ['GET', '/v2/anything', undefined, 404, /no route/],
    ['GET', '/v1/collections/bad/documents', undefined, 404, /no route/],
  ];
  for (const [method, path, body, status, message] of cases) {
    const r = await call(method, path, body);
    assert.equal(r.status, status, `${method} ${path.slice(0, 60)}: ${r.text.slice(0, 200)}`);
    assert.match(r.json.error, message, `${method} ${path.slice(0, 60)}`);
  }
  // A streamed body (no content-length) over the limit is cut off too.
  const big = new TextEncoder().encode(JSON.stringify({ text: 'z'.repeat(LIMIT) }));
  const stream = new ReadableStream({
    start(c) {
      for (let i = 0; i < big.length; i += 16384) c.enqueue(big.subarray(i, i + 16384));
      c.close();
    },
  });
  const r = await fetch(new URL('/v1/collections/bad/query', worker.url), { method: 'POST', headers: auth, body: stream, duplex: 'half' });
  assert.equal(r.status, 413);
  // Nothing was stored by the bad requests.
  assert.equal((await call('GET', '/v1/collections/bad')).json.count, 0);
});

test('an over-limit body gets its 413, not a reset connection, however far over', async () => {
  // The Worker answers 413 before the client has finished writing; unless the
  // rest of the body is drained, the client sees "fetch failed" (EPIPE or
  // ECONNRESET) instead of the answer. Repeated, as the race is timing-bound.
  await call('PUT', '/v1/collections/over');
  for (const size of [LIMIT + 1, 2 * LIMIT, 4 << 20]) {
    for (let i = 0; i < 8; i++) {
      const body = JSON.stringify({ text: 'w'.repeat(size) });
      let r;
      try {
        r = await call(i % 2 ? 'POST' : 'PUT', i % 2 ? '/v1/collections/over/query' : `/v1/collections/over/documents/d${i}`, body);
      } catch (e) {
        assert.fail(`${size} bytes, try ${i}: ${e.message} (${e.cause?.code ?? e.cause?.message ?? 'no cause'})`);
      }
      assert.equal(r.status, 413, r.text.slice(0, 200));
      assert.match(r.json.error, /limit/);
    }
  }
  assert.equal((await call('GET', '/v1/collections/over')).json.count, 0);
});

test('documents: idempotent put, get, query, delete then query', async () => {
  await call('PUT', '/v1/collections/d1');
  const text = 'Durable Objects give each object its own SQLite database, and a Worker may call many of them in parallel for one request.';
  const copy = text.replace('many', 'several');
  let r = await call('PUT', '/v1/collections/d1/documents/orig', { text });
  assert.equal(r.status, 201);
  assert.deepEqual(r.json, { id: 'orig', duplicates: [] });
  r = await call('PUT', '/v1/collections/d1/documents/copy%2F1', { text: copy });
  assert.equal(r.status, 201);
  assert.equal(r.json.id, 'copy/1');
  assert.equal(r.json.duplicates.length, 1);
  assert.equal(r.json.duplicates[0].id, 'orig');
  assert.ok(r.json.duplicates[0].similarity >= 0.5 && r.json.duplicates[0].similarity < 1);
  // The same id and text again: same answer, nothing added, never itself.
  const again = await call('PUT', '/v1/collections/d1/documents/copy%2F1', { text: copy });
  assert.equal(again.status, 200);
  assert.deepEqual(again.json, r.json);
  assert.equal((await call('GET', '/v1/collections/d1')).json.count, 2);
  r = await call('GET', '/v1/collections/d1/documents/copy%2F1');
  assert.deepEqual(r.json, { id: 'copy/1', text: copy });
  r = await call('POST', '/v1/collections/d1/query', { text });
  assert.deepEqual(r.json.duplicates.map((d) => d.id), ['orig', 'copy/1']);
  assert.equal(r.json.duplicates[0].similarity, 1);
  assert.equal((await call('GET', '/v1/collections/d1')).json.count, 2, 'a query stores nothing');
  // A new text under an existing id replaces it (and its buckets).
  r = await call('PUT', '/v1/collections/d1/documents/copy%2F1', { text: 'Something else entirely, with no words in common with the rest here.' });
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.duplicates, []);
  r = await call('POST', '/v1/collections/d1/query', { text });
  assert.deepEqual(r.json.duplicates.map((d) => d.id), ['orig']);
  assert.equal((await call('DELETE', '/v1/collections/d1/documents/orig')).status, 204);
  assert.deepEqual((await call('POST', '/v1/collections/d1/query', { text })).json.duplicates, []);
  assert.equal((await call('GET', '/v1/collections/d1/documents/orig')).status, 404);
  assert.equal((await call('GET', '/v1/collections/d1')).json.count, 1);
  // A text without shingles (punctuation only) is stored and matches nothing.
  r = await call('PUT', '/v1/collections/d1/documents/tiny', { text: '!!!' });
  assert.equal(r.status, 201);
  assert.deepEqual((await call('PUT', '/v1/collections/d1/documents/tiny2', { text: '...' })).json.duplicates, []);
  assert.deepEqual((await call('POST', '/v1/collections/d1/query', { text: '!!!' })).json.duplicates, []);
  // Settings written differently but equal once canonical are the same settings.
  assert.equal((await call('PUT', '/v1/collections/canon', { shingle: 'words:3' })).json.settings.shingle, 'word:3');
  assert.equal((await call('PUT', '/v1/collections/canon', { shingle: 'word:3' })).status, 200);
});

test('a collection under spec version 2 records it, finds copies, and keeps apart from version 1', async () => {
  let r = await call('PUT', '/v1/collections/v2', { spec: 2 });
  assert.equal(r.status, 201);
  assert.deepEqual(r.json.settings, { method: 'minhash', shingle: 'char:5', threshold: 0.5, numPerm: 128, scheme: 'oph', seed: 0, spec: 2, unmask: true, shards: 4 });
  // Version 2 is the default of a new collection (issue 50); version 1 is
  // not written, so that the settings of collections created before
  // version 2 stay the same settings (read as version 1).
  r = await call('PUT', '/v1/collections/v1', { spec: 1 });
  assert.equal(r.json.settings.spec, undefined);
  assert.equal((await call('PUT', '/v1/collections/v1', { spec: 1 })).status, 200);
  assert.equal((await call('PUT', '/v1/collections/v2')).status, 200, 'the default is version 2');
  assert.equal((await call('PUT', '/v1/collections/v1')).status, 409, 'version 1 settings differ from the default, 2');
  assert.equal((await call('PUT', '/v1/collections/v3', { spec: 3 })).status, 400);
  const text = 'Spec version 2 hashes tokens with XXH3 and combines word shingles by a rolling polynomial, which is faster.';
  const copy = text.replace('faster', 'quicker');
  for (const c of ['v1', 'v2']) {
    assert.equal((await call('PUT', `/v1/collections/${c}/documents/orig`, { text })).status, 201);
    r = await call('PUT', `/v1/collections/${c}/documents/copy`, { text: copy });
    assert.deepEqual(r.json.duplicates.map((d) => d.id), ['orig'], c);
  }
});

test('a new collection undoes the tricks that hide a copy (issue 47); unmask: false keeps them', async () => {
  const text = 'Inheritance lets a class reuse the code of another class, and a derived class can add attributes and behaviour of its own.';
  // Latin letters typed as their Cyrillic look-alikes, and zero-width spaces.
  const tricked = text.replace(/[aeocpxyi]/g, (c) => 'аеосрхуі'['aeocpxyi'.indexOf(c)]).replace(/(\w\w)(?=\w)/g, '$1\u200b');
  for (const [name, unmask, found] of [['tricks', undefined, ['orig']], ['tricks-kept', false, []]]) {
    const r = await call('PUT', `/v1/collections/${name}`, unmask === undefined ? {} : { unmask });
    assert.equal(r.status, 201);
    assert.equal(r.json.settings.unmask, unmask ?? true);
    assert.equal((await call('PUT', `/v1/collections/${name}/documents/orig`, { text })).status, 201);
    const q = await call('POST', `/v1/collections/${name}/query`, { text: tricked });
    assert.deepEqual(q.json.duplicates.map((d) => d.id), found, name);
  }
});

test('simhash collections find copies within k bits', async () => {
  assert.equal((await call('PUT', '/v1/collections/sh', { method: 'simhash', k: 3, shingle: 'word:1' })).status, 201);
  const { docs, pairs } = docsBench();
  const light = pairs.filter((p) => p.rate === 0.01).slice(0, 10);
  for (const p of light) await call('PUT', `/v1/collections/sh/documents/${p.a}`, { text: docs.get(p.a) });
  let found = 0;
  for (const p of light) {
    const r = await call('POST', '/v1/collections/sh/query', { text: docs.get(p.b) });
    const hit = r.json.duplicates.find((d) => d.id === p.a);
    if (hit) {
      found++;
      assert.ok(hit.distance <= 3 && hit.similarity === 1 - hit.distance / 64);
    }
    const same = await call('POST', '/v1/collections/sh/query', { text: docs.get(p.a) });
    assert.deepEqual(same.json.duplicates[0], { id: p.a, similarity: 1, distance: 0 });
  }
  assert.ok(found >= 7, `found ${found} of 10 copies edited at 1 %`);
});

test('planted near-duplicates of docs-bench are found through HTTP', async () => {
  const { docs, pairs } = docsBench();
  await call('PUT', '/v1/collections/bench');
  const planted = pairs.filter((p) => p.c5 >= 0.7).slice(0, 60);
  const inPair = new Set(planted.flatMap((p) => [p.a, p.b]));
  const others = [...docs.keys()].filter((id) => id.startsWith('s') && !id.startsWith('sv') && !inPair.has(id)).slice(0, 240);
  // Originals and the others first, then the copies, 8 at a time.
  const first = [...planted.map((p) => p.a), ...others];
  const put = (id) => async () => {
    const r = await call('PUT', `/v1/collections/bench/documents/${id}`, { text: docs.get(id) });
    assert.equal(r.status, 201, r.text);
    return r.json;
  };
  const firstAnswers = await pool(8, first.map(put));
  const copyAnswers = await pool(8, planted.map((p) => put(p.b)));
  const want = new Set(planted.map((p) => `${p.a} ${p.b}`));
  let tp = 0;
  let fp = 0;
  for (const a of [...firstAnswers, ...copyAnswers]) {
    for (const d of a.duplicates) {
      assert.notEqual(d.id, a.id, 'a document is never its own duplicate');
      if (want.has(`${d.id} ${a.id}`) || want.has(`${a.id} ${d.id}`)) tp++;
      else fp++;
    }
  }
  const recall = tp / planted.length;
  assert.ok(recall >= 0.95, `recall ${recall} (${tp} of ${planted.length})`);
  assert.ok(fp <= 2, `${fp} false duplicates`);
  assert.equal((await call('GET', '/v1/collections/bench')).json.count, first.length + planted.length);
});

test('8 concurrent writers lose nothing; simultaneous near-duplicates see each other', async () => {
  await call('PUT', '/v1/collections/conc', { shingle: 'word:2' });
  const writers = 8;
  const each = 150;
  const tasks = [];
  for (let w = 0; w < writers; w++) {
    tasks.push(async () => {
      const answers = [];
      for (let i = 0; i < each; i++) {
        const id = `w${w}-${i}`;
        const text = `writer ${w} document ${i}: ${Array.from({ length: 12 }, (_, j) => `token${(w * 7919 + i * 104729 + j * 1299709) % 1000003}`).join(' ')}`;
        const r = await call('PUT', `/v1/collections/conc/documents/${id}`, { text });
        assert.equal(r.status, 201, r.text);
        answers.push(r.json);
      }
      return answers;
    });
  }
  const all = (await Promise.all(tasks.map((t) => t()))).flat();
  for (const a of all) assert.ok(!a.duplicates.some((d) => d.id === a.id));
  assert.equal((await call('GET', '/v1/collections/conc')).json.count, writers * each);
  const missing = await pool(8, all.map((a) => async () => (await call('GET', `/v1/collections/conc/documents/${a.id}`)).status));
  assert.ok(missing.every((s) => s === 200));
  // Pairs of near-duplicates, both halves sent at the same moment.
  const pairs = Array.from({ length: 40 }, (_, i) => {
    const words = Array.from({ length: 30 }, (_, j) => `pair${i}word${j}`);
    const b = [...words];
    b[15] = 'changed';
    return [words.join(' '), b.join(' ')];
  });
  const results = await pool(
    4,
    pairs.map(([x, y], i) => () =>
      Promise.all([
        call('PUT', `/v1/collections/conc/documents/p${i}a`, { text: x }),
        call('PUT', `/v1/collections/conc/documents/p${i}b`, { text: y }),
      ]),
    ),
  );
  results.forEach(([ra, rb], i) => {
    const seen = ra.json.duplicates.some((d) => d.id === `p${i}b`) || rb.json.duplicates.some((d) => d.id === `p${i}a`);
    assert.ok(seen, `pair ${i}: neither reported the other`);
  });
  assert.equal((await call('GET', '/v1/collections/conc')).json.count, writers * each + 80);
});

// Builds its own collections (it does not depend on what earlier tests
// stored): MinHash and SimHash collections with documents and a near copy,
// then a restart of the Worker on the same storage.
test('a restart on the same storage keeps everything', async () => {
  const { docs, pairs } = docsBench();
  const planted = pairs.filter((x) => x.c5 >= 0.7).slice(0, 5);
  const text = 'Durable Objects give each object its own SQLite database, and a Worker may call many of them in parallel.';
  assert.equal((await call('PUT', '/v1/collections/restart-m')).status, 201);
  assert.equal((await call('PUT', '/v1/collections/restart-s', { method: 'simhash' })).status, 201);
  for (const name of ['restart-m', 'restart-s']) {
    for (const p of planted) {
      assert.ok((await call('PUT', `/v1/collections/${name}/documents/${encodeURIComponent(p.a)}`, { text: docs.get(p.a) })).status < 300);
    }
    assert.ok((await call('PUT', `/v1/collections/${name}/documents/orig`, { text })).status < 300);
    assert.ok((await call('PUT', `/v1/collections/${name}/documents/tiny`, { text: '!!!' })).status < 300);
  }
  const state = async () => {
    const out = {};
    for (const name of ['restart-m', 'restart-s']) {
      out[name] = {
        info: (await call('GET', `/v1/collections/${name}`)).json,
        query: (await call('POST', `/v1/collections/${name}/query`, { text: text.replace('many', 'several') })).json,
        tiny: (await call('GET', `/v1/collections/${name}/documents/tiny`)).json,
        planted: await Promise.all(planted.map(async (p) => (await call('POST', `/v1/collections/${name}/query`, { text: docs.get(p.b) })).json)),
      };
    }
    return out;
  };
  const before = await state();
  assert.equal(before['restart-m'].info.count, planted.length + 2);
  assert.deepEqual(before['restart-m'].query.duplicates.map((d) => d.id), ['orig']);
  assert.equal(before['restart-s'].tiny.text, '!!!');
  for (const [i, p] of planted.entries()) {
    assert.ok(before['restart-m'].planted[i].duplicates.some((d) => d.id === p.a), `planted pair ${i} found before the restart`);
  }
  await worker.mf.dispose();
  worker = await startWorker({ dir: built.outdir, persist, token: TOKEN, maxBodyBytes: LIMIT });
  assert.deepEqual(await state(), before);
});

test('the wrangler config deploys what the local run serves', async () => {
  const cfg = JSON.parse(readFileSync(join(repo, 'edge/wrangler.json'), 'utf8'));
  const { COMPATIBILITY_DATE } = await import('../../edge/local.mjs');
  assert.equal(cfg.compatibility_date, COMPATIBILITY_DATE);
  const workerd = JSON.parse(readFileSync(join(repo, 'node_modules/workerd/package.json'), 'utf8')).version;
  // workerd 1.YYYYMMDD.N supports compatibility dates up to YYYY-MM-DD.
  const supported = workerd.split('.')[1].replace(/(\d{4})(\d{2})(\d{2})/, '$1-$2-$3');
  assert.ok(COMPATIBILITY_DATE <= supported, `${COMPATIBILITY_DATE} is newer than workerd ${workerd}`);
  const bindings = Object.fromEntries(cfg.durable_objects.bindings.map((b) => [b.name, b.class_name]));
  assert.deepEqual(bindings, { COLLECTION: 'Collection', DOCUMENTS: 'DocumentShard', INDEX: 'IndexShard' });
  assert.deepEqual(cfg.migrations[0].new_sqlite_classes.sort(), Object.values(bindings).sort());
  const src = readFileSync(join(repo, 'edge', cfg.main), 'utf8');
  for (const cls of Object.values(bindings)) assert.match(src, new RegExp(`\\b${cls}\\b`));
  assert.equal(JSON.parse(readFileSync(join(repo, 'edge/package.json'), 'utf8')).dependencies.neardup, 'file:../pkg');
});

test('npm run edge:dev serves on PORT with storage in EDGE_PERSIST', async () => {
  const { spawn } = await import('node:child_process');
  const port = 18787 + Math.floor(Math.random() * 1000);
  const child = spawn(process.execPath, [join(repo, 'edge/dev.mjs')], {
    env: { ...process.env, PORT: String(port), EDGE_PERSIST: join(work, 'dev-data'), NEARDUP_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let out = '';
    await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`edge:dev did not start: ${out}`)), 60000);
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('serving')) {
          clearTimeout(t);
          resolve();
        }
      });
      child.on('exit', (code) => reject(new Error(`edge:dev exited ${code}: ${out}`)));
    });
    assert.match(out, /development token "neardup-dev-token"/);
    const base = `http://127.0.0.1:${port}`;
    assert.equal((await fetch(`${base}/v1/health`)).status, 200);
    const h = { authorization: 'Bearer neardup-dev-token' };
    assert.equal((await fetch(`${base}/v1/collections/dev`, { method: 'PUT', headers: h })).status, 201);
  } finally {
    child.kill('SIGINT');
    await new Promise((r) => child.on('exit', r));
  }
});

test('a text the package refuses (over its 16 MiB limit) is a 400 when the body limit allows it', async () => {
  const w = await startWorker({ dir: built.outdir, persist: join(work, 'big-data'), token: TOKEN, maxBodyBytes: 20 << 20 });
  try {
    const h = { authorization: `Bearer ${TOKEN}` };
    assert.equal((await fetch(new URL('/v1/collections/big', w.url), { method: 'PUT', headers: h })).status, 201);
    const r = await fetch(new URL('/v1/collections/big/query', w.url), {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ text: 'word '.repeat((17 << 20) / 5) }),
    });
    assert.equal(r.status, 400);
    assert.match((await r.json()).error, /cannot sketch the text: .*16/);
  } finally {
    await w.mf.dispose();
  }
});
