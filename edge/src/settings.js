// A collection's settings (checked once, when the collection is created) and
// its sketcher: the core's dedup stage functions (DedupStages) — text →
// sketch bytes, sketch → bucket keys, and the verification of a candidate
// pair: MinHash signatures and their LSH band keys, or SimHash fingerprints
// and their permuted-block table keys (Broder 1997; Indyk & Motwani 1998;
// Charikar 2002; Manku, Jain & Das Sarma 2007).
//
// Every dedup option, its default, its range and every rule between options
// are the core's (`dedupDefaults`, `DedupStages`, through the package): this
// file maps names ("invalid option k" → "invalid setting k") and keeps only
// the edge's own settings and limits — the shards of a collection, the
// bucket keys it stores per document, and what follows from keeping no
// shingle sets (no exact-Jaccard verification: no `verify`, no `exact`
// method; and SimHash's k defaults to 3, Manku et al.'s for unverified
// 64-bit fingerprints, where `neardup dedup` verifies with k 12).
import { DedupStages, dedupDefaults, specVersion } from 'neardup';
import { HttpError } from './http.js';

/** The edge's own defaults: shards of a collection, and SimHash's k (the edge never verifies). */
export const EDGE_DEFAULTS = Object.freeze({ shards: 4, k: 3 });
/** Largest number of index (and of document) shards of a collection. */
export const MAX_SHARDS = 64;
/** Most bucket keys a collection stores per document (SimHash k 9 has 55, k 10 66). */
export const MAX_KEYS = 64;

/** The core's settings a collection records, in this order (so that two equal settings serialise equally). */
const STORED = {
  minhash: ['method', 'shingle', 'threshold', 'numPerm', 'scheme', 'seed', 'spec', 'unmask'],
  simhash: ['method', 'shingle', 'k', 'seed', 'spec', 'unmask'],
};

function bad(message) {
  return new HttpError(400, message);
}

/** A core error about an option, in the edge's words ("setting"). */
function settingError(message) {
  const unknown = message.match(/^invalid options?(?: \w+)?: unknown field `(\w+)`/);
  if (unknown) return bad(`unknown setting ${JSON.stringify(unknown[1])}`);
  return bad(message.replace(/^invalid option (\w+):/, 'invalid setting $1:').replace(/^invalid options:/, 'invalid settings:'));
}

/**
 * Checks a settings object (the optional JSON body of
 * `PUT /v1/collections/{name}`) and fills in the defaults (the core's, and
 * the edge's own above). Returns the complete settings, with their keys in a
 * fixed order. Throws an HttpError(400) naming the setting.
 */
export function checkSettings(input) {
  if (input === undefined || input === null) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw bad('the settings must be a JSON object');
  }
  const { shards = EDGE_DEFAULTS.shards, ...options } = input;
  if (typeof shards !== 'number' || !Number.isInteger(shards) || shards < 1 || shards > MAX_SHARDS) {
    throw bad(`invalid setting shards: must be an integer in 1..=${MAX_SHARDS}, got ${JSON.stringify(shards)}`);
  }
  if ('verify' in options) {
    throw bad('unknown setting "verify": the edge keeps no shingle sets, so candidates are never verified by their exact Jaccard');
  }
  if (options.shingle !== undefined && typeof options.shingle !== 'string') {
    throw bad('invalid setting shingle: must be a string such as "char:5" or "word:3"');
  }
  let full;
  try {
    const { method } = dedupDefaults(options.method === undefined ? {} : { method: options.method });
    if (!STORED[method]) {
      throw bad(`invalid setting method: the edge runs "minhash" or "simhash" (it keeps no shingle sets for "exact" and no reference for "multiref"), got ${JSON.stringify(method)}`);
    }
    const config = { ...options, verify: false };
    if (method === 'simhash' && config.k === undefined) config.k = EDGE_DEFAULTS.k;
    full = dedupDefaults(config);
  } catch (e) {
    throw e instanceof HttpError ? e : settingError(e.message);
  }
  const settings = {};
  for (const key of STORED[full.method]) settings[key] = full[key];
  // Spec version 1 is not written: the settings of the collections created
  // before version 2 existed stay the same settings (read as 1). The
  // default of a new collection is the core's, 2, and is written.
  if (settings.spec === 1) delete settings.spec;
  settings.shards = shards;
  const sketcher = makeSketcher(settings);
  const keys = sketcher.keyCount;
  sketcher.free();
  if (keys > MAX_KEYS) {
    const setting = full.method === 'simhash' ? 'k' : 'numPerm';
    throw bad(`invalid setting ${setting}: ${keys} bucket keys per document, more than the ${MAX_KEYS} the edge stores`);
  }
  return settings;
}

/**
 * The spec version of a collection whose settings name none: one created
 * before version 2 was the dedup default, or with `spec: 1` (version 1 is
 * not written). A new collection's settings take the core's default, 2.
 */
export const SPEC_VERSION = specVersion();
/** The spec versions this Worker reads and writes (SPEC.md §3, §3a). */
export const SPEC_VERSIONS = Object.freeze([1, 2]);

/** The spec version of a collection's settings (stored with it: its keys depend on it). */
export const specOf = (settings) => settings.spec ?? SPEC_VERSION;

const hex16 = (k) => k.toString(16).padStart(16, '0');

/**
 * Whether a collection's texts are unmasked before shingling (SPEC.md §1
 * step 0: invisible characters removed, look-alike letters of another
 * script read as the letters they imitate): stored with every collection
 * created since (the core's default, true); a collection created before
 * has no such setting and keeps what it was made with, false.
 */
export const unmaskOf = (settings) => settings.unmask ?? false;

/** The core's dedup configuration of a collection's settings. */
function dedupConfig(settings) {
  const { method, shingle, seed } = settings;
  const spec = specOf(settings);
  const unmask = unmaskOf(settings);
  if (method === 'minhash') {
    // Collections created before MinHash had schemes stored no scheme: their
    // signatures are classic ones.
    const { threshold, numPerm, scheme = 'classic' } = settings;
    return { method, shingle, seed, threshold, numPerm, scheme, spec, unmask };
  }
  // No shingle sets are stored: candidates are kept by Hamming distance.
  return { method, shingle, seed, k: settings.k, verify: false, spec, unmask };
}

/**
 * A stored sketch as the core reads it: the bytes stored (the dedup sketch;
 * a MinHash signature's own bytes in collections written before), or a
 * SimHash fingerprint stored as 16 hex digits before, as its 8 bytes.
 */
function bytesOf(stored) {
  if (typeof stored === 'string') {
    const b = new Uint8Array(8);
    for (let i = 0; i < 8; i++) b[i] = parseInt(stored.slice(2 * i, 2 * i + 2), 16);
    return b;
  }
  return new Uint8Array(stored);
}

/**
 * The sketcher of a collection: `sketch(text)` → `{ sketch, keys }` (sketch:
 * the core's versioned dedup sketch bytes; keys: the bucket keys as 16 hex
 * digits each, none for a text without shingles), `keysOf(stored)`,
 * `compareMany(query, stored)` → for each stored sketch `{ similarity,
 * distance? }`, or null when the pair is not a near-duplicate pair (below the
 * threshold, beyond k), and `keyCount` (bucket keys per document).
 */
export function makeSketcher(settings) {
  let stages;
  try {
    stages = new DedupStages(dedupConfig(settings));
  } catch (e) {
    throw settingError(e.message);
  }
  return {
    keyCount: stages.keyCount,
    sketch(text) {
      const sketch = stages.sketch(text);
      return { sketch, keys: Array.from(stages.keys(sketch), hex16) };
    },
    keysOf(stored) {
      return Array.from(stages.keys(bytesOf(stored)), hex16);
    },
    compareMany(query, stored) {
      const q = bytesOf(query);
      return stored.map((s) => {
        const v = stages.verify(q, bytesOf(s));
        if (v === undefined) return null;
        return v.distance === undefined ? { similarity: v.similarity } : { similarity: v.similarity, distance: v.distance };
      });
    },
    free() {
      stages.free();
    },
  };
}
