// A collection's settings (checked once, when the collection is created) and
// its sketcher: text → (sketch bytes, bucket keys), and the similarity of two
// sketches. Every algorithm is the package's (neardup's Rust core in wasm):
// MinHash signatures and their LSH band keys, SimHash fingerprints and their
// permuted-block table keys (Broder 1997; Indyk & Motwani 1998; Charikar 2002;
// Manku, Jain & Das Sarma 2007). This file only chooses and wires them.
import {
  Fingerprint,
  MinHash,
  MinHashLsh,
  SimHash,
  SimHashIndex,
  specVersion,
} from 'neardup';
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

/**
 * The sketcher of a collection: `sketch(text)` → `{ sketch, keys }` (sketch:
 * the versioned bytes of a MinHash signature, or the fingerprint as 16 hex
 * digits; keys: the bucket keys as 16 hex digits each, none for a text
 * without shingles), `keysOf(sketch)`, and `similarity(query, stored)` →
 * `{ similarity, distance? }` or null when below the threshold / beyond k.
 */
export function makeSketcher(settings) {
  return settings.method === 'minhash' ? minhashSketcher(settings) : simhashSketcher(settings);
}

// Collections created before MinHash had schemes stored no scheme: their
// signatures are classic ones.
function minhashSketcher({ threshold, numPerm, seed, shingle, scheme = 'classic' }) {
  const lsh = new MinHashLsh(threshold, numPerm);
  const options = { numPerm, seed, shingle, scheme };
  return {
    sketch(text) {
      const m = new MinHash(options);
      try {
        m.update(text);
        return { sketch: m.toBytes(), keys: Array.from(lsh.bandKeys(m), hex16) };
      } finally {
        m.free();
      }
    },
    keysOf(bytes) {
      const m = MinHash.fromBytes(new Uint8Array(bytes));
      try {
        return Array.from(lsh.bandKeys(m), hex16);
      } finally {
        m.free();
      }
    },
    /** Compares one query with many stored sketches: [{similarity}|null]. */
    compareMany(query, stored) {
      const q = MinHash.fromBytes(new Uint8Array(query));
      try {
        return stored.map((bytes) => {
          const m = MinHash.fromBytes(new Uint8Array(bytes));
          try {
            const j = q.jaccard(m);
            return j >= threshold ? { similarity: j } : null;
          } finally {
            m.free();
          }
        });
      } finally {
        q.free();
      }
    },
    free() {
      lsh.free();
    },
  };
}

function simhashSketcher({ k, seed, shingle }) {
  const index = new SimHashIndex(k);
  const options = { shingle, seed };
  const keysOfValue = (value) => {
    const fp = Fingerprint.fromValue(value);
    try {
      return Array.from(index.tableKeys(fp), hex16);
    } finally {
      fp.free();
    }
  };
  return {
    sketch(text) {
      const fp = SimHash.fingerprint(text, options);
      try {
        // A text without shingles matches nothing: no keys.
        return { sketch: fp.hex, keys: fp.isEmpty ? [] : Array.from(index.tableKeys(fp), hex16) };
      } finally {
        fp.free();
      }
    },
    keysOf(hex) {
      return keysOfValue(BigInt(`0x${hex}`));
    },
    compareMany(query, stored) {
      const q = BigInt(`0x${query}`);
      return stored.map((hex) => {
        const d = SimHash.hammingDistance(q, BigInt(`0x${hex}`));
        return d <= k ? { similarity: 1 - d / 64, distance: d } : null;
      });
    },
    free() {
      index.free();
    },
  };
}
