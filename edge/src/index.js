// neardup at the edge: a Cloudflare Worker that answers "have I seen this
// document, or a near copy of it?" over collections held in Durable Objects
// (SQLite storage). The Worker sketches the text with the neardup package
// (MinHash + LSH band keys, or SimHash + table keys), then fans out in
// parallel: the document to its DocumentShard, the keys to the IndexShards
// that own them (each returns the ids already in those buckets and adds this
// one, atomically), and the candidates' sketches back from their shards to
// verify the similarity. The API is in edge/README.md.
import { SPEC_VERSION, SPEC_VERSIONS, checkSettings, makeSketcher, specOf } from './settings.js';
import { idHash, keyShard } from './placement.js';
import { HttpError, authorised, errorResponse, json, maxBodyBytes, readJson, readText } from './http.js';

export { Collection, DocumentShard, IndexShard } from './shards.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MAX_ID = 256;

// Settings and sketchers of the collections this isolate has seen. Settings
// never change once written, so the cache is never stale.
const collections = new Map();

async function openCollection(env, name) {
  const cached = collections.get(name);
  if (cached) return cached;
  const stub = collectionObject(env, name);
  const stored = await stub.settings();
  if (stored === null) throw new HttpError(404, `no collection ${JSON.stringify(name)}`);
  return remember(name, JSON.parse(stored));
}

function remember(name, record) {
  if (record.spec !== specOf(record.settings) || !SPEC_VERSIONS.includes(record.spec)) {
    throw new HttpError(
      409,
      `collection ${JSON.stringify(name)} was built with neardup spec version ${record.spec}; this Worker reads ${SPEC_VERSIONS.join(' and ')} (rebuild the collection)`,
    );
  }
  const c = { name, settings: record.settings, sketcher: makeSketcher(record.settings) };
  collections.set(name, c);
  return c;
}

const collectionObject = (env, name) => env.COLLECTION.get(env.COLLECTION.idFromName(name));
const documentShard = (env, c, i) => env.DOCUMENTS.get(env.DOCUMENTS.idFromName(`${c.name}/${i}`));
const indexShard = (env, c, j) => env.INDEX.get(env.INDEX.idFromName(`${c.name}/${j}`));
/** The document shard holding `id`. */
const docShard = (env, c, id) => documentShard(env, c, idHash(id) % c.settings.shards);

/** `items` grouped by `shardOf(item)`: Map shard → items. */
function groupBy(items, shardOf) {
  const groups = new Map();
  for (const item of items) {
    const i = shardOf(item);
    if (!groups.has(i)) groups.set(i, []);
    groups.get(i).push(item);
  }
  return groups;
}

/** `f(shard, itsKeys)` on every index shard owning some of `keys`, in parallel: the results. */
function onIndexShards(env, c, keys, f) {
  const groups = groupBy(keys, (key) => keyShard(key, c.settings.shards));
  return Promise.all([...groups].map(([j, ks]) => f(indexShard(env, c, j), ks)));
}

/** The sketch and keys of `text`; the package's refusal (e.g. a text over its 16 MiB limit) is a 400. */
function sketchOf(c, text) {
  try {
    return c.sketcher.sketch(text);
  } catch (e) {
    throw new HttpError(400, `cannot sketch the text: ${e.message}`);
  }
}

/** The candidates' similarities to `sketch`, kept when they pass: best first, then by id. */
async function verify(env, c, sketch, candidates) {
  const groups = groupBy(candidates, (id) => idHash(id) % c.settings.shards);
  const found = await Promise.all([...groups].map(([i, ids]) => documentShard(env, c, i).sketches(ids)));
  const rows = found.flat();
  const scores = c.sketcher.compareMany(
    sketch,
    rows.map(([, s]) => s),
  );
  const out = [];
  rows.forEach(([id], n) => {
    if (scores[n]) out.push({ id, ...scores[n] });
  });
  out.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out;
}

async function putCollection(request, env, name) {
  const body = await readJson(request, maxBodyBytes(env), { optional: true });
  const settings = checkSettings(body);
  const record = JSON.stringify({ settings, spec: specOf(settings) });
  const stub = collectionObject(env, name);
  const r = await stub.create(record);
  const stored = JSON.parse(r.settings);
  // A collection created before `unmask` existed has no such setting (and
  // keeps texts as they are): asked again without naming it, it is the
  // same collection, not one of other settings.
  const asked = { ...settings };
  if (!('unmask' in stored.settings) && !(body && typeof body === 'object' && 'unmask' in body)) delete asked.unmask;
  if (!r.created && JSON.stringify(stored.settings) !== JSON.stringify(asked)) {
    throw new HttpError(
      409,
      `collection ${JSON.stringify(name)} exists with other settings: ${JSON.stringify(stored.settings)}`,
    );
  }
  return json({ name, settings: stored.settings }, r.created ? 201 : 200);
}

async function getCollection(env, name) {
  const c = await openCollection(env, name);
  const counts = await Promise.all(
    Array.from({ length: c.settings.shards }, (_, i) => documentShard(env, c, i).count()),
  );
  return json({ name, count: counts.reduce((a, b) => a + b, 0), settings: c.settings });
}

async function putDocument(request, env, name, id) {
  const c = await openCollection(env, name);
  const text = await readText(request, maxBodyBytes(env));
  const { sketch, keys } = sketchOf(c, text);
  // The document first: whoever finds it in a bucket can then read its sketch.
  const put = await docShard(env, c, id).put(id, text, sketch);
  if (put.status === 'replaced') {
    const fresh = new Set(keys);
    const stale = c.sketcher.keysOf(put.previous).filter((k) => !fresh.has(k));
    await onIndexShards(env, c, stale, (shard, ks) => shard.remove(id, ks));
  }
  const found = await onIndexShards(env, c, keys, (shard, ks) => shard.insertAndQuery(id, ks));
  const duplicates = await verify(env, c, sketch, new Set(found.flat()));
  return json({ id, duplicates }, put.status === 'created' ? 201 : 200);
}

async function query(request, env, name) {
  const c = await openCollection(env, name);
  const text = await readText(request, maxBodyBytes(env));
  const { sketch, keys } = sketchOf(c, text);
  const found = await onIndexShards(env, c, keys, (shard, ks) => shard.query(ks));
  return json({ duplicates: await verify(env, c, sketch, new Set(found.flat())) });
}

async function getDocument(env, name, id) {
  const c = await openCollection(env, name);
  const doc = await docShard(env, c, id).get(id);
  if (!doc) throw new HttpError(404, `no document ${JSON.stringify(id)} in collection ${JSON.stringify(name)}`);
  return json(doc);
}

async function deleteDocument(env, name, id) {
  const c = await openCollection(env, name);
  // The document first: a bucket entry left behind by a failure is never
  // reported (it has no sketch to verify against) and is removed on retry.
  const previous = await docShard(env, c, id).remove(id);
  if (previous === null) {
    throw new HttpError(404, `no document ${JSON.stringify(id)} in collection ${JSON.stringify(name)}`);
  }
  const keys = c.sketcher.keysOf(previous);
  await onIndexShards(env, c, keys, (shard, ks) => shard.remove(id, ks));
  return new Response(null, { status: 204 });
}

function segment(raw, what) {
  let s;
  try {
    s = decodeURIComponent(raw);
  } catch {
    throw new HttpError(400, `invalid ${what} in the path: bad percent-encoding`);
  }
  return s;
}

function checkName(name) {
  if (!NAME.test(name)) {
    throw new HttpError(
      400,
      `invalid collection name ${JSON.stringify(name)}: 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  }
  return name;
}

function checkId(id) {
  if (id.length === 0 || id.length > MAX_ID) {
    throw new HttpError(400, `invalid document id: must be 1-${MAX_ID} characters`);
  }
  return id;
}

function allow(method, methods) {
  if (!methods.includes(method)) {
    throw new HttpError(405, `method ${method} not allowed here (allowed: ${methods.join(', ')})`, {
      allow: methods.join(', '),
    });
  }
}

async function route(request, env) {
  const url = new URL(request.url);
  const parts = url.pathname.split('/').filter((p, i) => i > 0);
  const method = request.method;
  if (parts[0] !== 'v1') throw new HttpError(404, `no route ${url.pathname}`);
  if (parts.length === 2 && parts[1] === 'health') {
    allow(method, ['GET', 'HEAD']);
    return json({ ok: true, spec: SPEC_VERSION });
  }
  if (typeof env.NEARDUP_TOKEN !== 'string' || env.NEARDUP_TOKEN === '') {
    throw new HttpError(503, 'the Worker has no NEARDUP_TOKEN secret (wrangler secret put NEARDUP_TOKEN)');
  }
  if (!authorised(request, env.NEARDUP_TOKEN)) {
    throw new HttpError(401, 'missing or wrong token: send Authorization: Bearer <NEARDUP_TOKEN>', {
      'www-authenticate': 'Bearer',
    });
  }
  if (parts[1] !== 'collections' || parts.length < 3) throw new HttpError(404, `no route ${url.pathname}`);
  const name = checkName(segment(parts[2], 'collection name'));
  if (parts.length === 3) {
    allow(method, ['GET', 'PUT']);
    return method === 'PUT' ? putCollection(request, env, name) : getCollection(env, name);
  }
  if (parts.length === 4 && parts[3] === 'query') {
    allow(method, ['POST']);
    return query(request, env, name);
  }
  if (parts.length === 5 && parts[3] === 'documents') {
    const id = checkId(segment(parts[4], 'document id'));
    allow(method, ['GET', 'PUT', 'DELETE']);
    if (method === 'PUT') return putDocument(request, env, name, id);
    if (method === 'GET') return getDocument(env, name, id);
    return deleteDocument(env, name, id);
  }
  throw new HttpError(404, `no route ${url.pathname}`);
}

export default {
  async fetch(request, env) {
    try {
      return await route(request, env);
    } catch (e) {
      if (e instanceof HttpError) return errorResponse(e);
      console.error(e);
      return json({ error: `internal error: ${e?.message ?? e}` }, 500);
    }
  },
};
