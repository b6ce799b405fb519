// A collection's settings (checked once, when the collection is created) and
// its sketcher: the core's dedup stage functions (DedupStages) — text →
// sketch bytes, sketch → bucket keys, and the verification of a candidate
// pair: MinHash signatures and their LSH band keys, or SimHash fingerprints
// and their permuted-block table keys (Broder 1997; Indyk & Motwani 1998;
// Charikar 2002; Manku, Jain & Das Sarma 2007). No candidate logic is here:
// this file only maps the settings to the core's configuration.
import { DedupStages, SimHash, specVersion } from 'neardup';
import { HttpError } from './http.js';

/** Defaults: those of `neardup dedup` (MinHash LSH, char:5, threshold 0.5, 128 one-permutation values). */
export const DEFAULTS = Object.freeze({
  method: 'minhash',
  shingle: 'char:5',
  threshold: 0.5,
  numPerm: 128,
  scheme: 'oph',
  k: 3,
  seed: 0,
  shards: 4,
});

/** Largest Hamming distance a simhash collection accepts (45 table keys at 8). */
export const MAX_K = 8;
/** Largest number of index (and of document) shards of a collection. */
export const MAX_SHARDS = 64;

const FIELDS = {
  minhash: ['method', 'shingle', 'threshold', 'numPerm', 'scheme', 'seed', 'shards'],
  simhash: ['method', 'shingle', 'k', 'seed', 'shards'],
};

function bad(message) {
  return new HttpError(400, message);
}

function integer(value, name, lo, hi) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < lo || value > hi) {
    throw bad(`invalid setting ${name}: must be an integer in ${lo}..=${hi}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * Checks a settings object (the optional JSON body of
 * `PUT /v1/collections/{name}`) and fills in the defaults. Returns the
 * complete settings, with their keys in a fixed order (so that two equal
 * settings serialise equally). Throws an HttpError(400) naming the setting.
 */
export function checkSettings(input) {
  if (input === undefined || input === null) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw bad('the settings must be a JSON object');
  }
  const method = input.method ?? DEFAULTS.method;
  if (method !== 'minhash' && method !== 'simhash') {
    throw bad(`invalid setting method: must be "minhash" or "simhash", got ${JSON.stringify(method)}`);
  }
  for (const key of Object.keys(input)) {
    if (!FIELDS[method].includes(key)) {
      throw bad(`unknown setting ${JSON.stringify(key)} for method ${method} (known: ${FIELDS[method].join(', ')})`);
    }
  }
  let shingle = input.shingle ?? DEFAULTS.shingle;
  if (typeof shingle !== 'string') throw bad('invalid setting shingle: must be a string such as "char:5" or "word:3"');
  // The package parses the spec and writes it canonically ("words:3" → "word:3").
  try {
    const probe = SimHash.fingerprint('probe', { shingle });
    shingle = probe.config.shingle;
    probe.free();
  } catch (e) {
    throw bad(`invalid setting shingle: ${e.message}`);
  }
  const seed = integer(input.seed ?? DEFAULTS.seed, 'seed', 0, Number.MAX_SAFE_INTEGER);
  const shards = integer(input.shards ?? DEFAULTS.shards, 'shards', 1, MAX_SHARDS);
  let settings;
  if (method === 'minhash') {
    const threshold = input.threshold ?? DEFAULTS.threshold;
    if (typeof threshold !== 'number' || !(threshold > 0 && threshold < 1)) {
      throw bad(`invalid setting threshold: must be a number in (0, 1), got ${JSON.stringify(threshold)}`);
    }
    const numPerm = integer(input.numPerm ?? DEFAULTS.numPerm, 'numPerm', 1, 1024);
    const scheme = input.scheme ?? DEFAULTS.scheme;
    if (scheme !== 'oph' && scheme !== 'classic') {
      throw bad(`invalid setting scheme: must be "oph" or "classic", got ${JSON.stringify(scheme)}`);
    }
    settings = { method, shingle, threshold, numPerm, scheme, seed, shards };
  } else {
    const k = integer(input.k ?? DEFAULTS.k, 'k', 0, MAX_K);
    settings = { method, shingle, k, seed, shards };
  }
  // The package checks the rest (the banding, the tables) and names it.
  try {
    makeSketcher(settings).free();
  } catch (e) {
    if (e instanceof HttpError) throw e;
    throw bad(`invalid settings: ${e.message}`);
  }
  return settings;
}

/** The spec version of the package: stored with a collection, whose keys depend on it. */
export const SPEC_VERSION = specVersion();

const hex16 = (k) => k.toString(16).padStart(16, '0');

/** The core's dedup configuration of a collection's settings. */
function dedupConfig(settings) {
  const { method, shingle, seed } = settings;
  if (method === 'minhash') {
    // Collections created before MinHash had schemes stored no scheme: their
    // signatures are classic ones.
    const { threshold, numPerm, scheme = 'classic' } = settings;
    return { method, shingle, seed, threshold, numPerm, scheme };
  }
  // No shingle sets are stored: candidates are kept by Hamming distance.
  return { method, shingle, seed, k: settings.k, verify: false };
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
 * digits each, none for a text without shingles), `keysOf(stored)`, and
 * `compareMany(query, stored)` → for each stored sketch `{ similarity,
 * distance? }`, or null when the pair is not a near-duplicate pair (below the
 * threshold, beyond k).
 */
export function makeSketcher(settings) {
  const stages = new DedupStages(dedupConfig(settings));
  return {
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
