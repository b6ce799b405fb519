// The core's class-set result across the worker boundary. A class of
// thousands of texts gives tens of thousands of pairs and hundreds of
// thousands of ranges (5,074 docs-bench texts: 31,142 pairs, 215,599
// shared-passage ranges; 18 MB as JSON); copied as objects into the page
// that took one task of over 300 ms on the page's thread. Packed here into
// typed arrays, they are transferred without a copy; the pairs become
// objects again in a few milliseconds, and each text's ranges are decoded
// only when something reads them (a pair opened, compared or exported).

/** The numeric fields of a pair, in the order packed. */
const PAIR = ['a', 'b', 'shared', 'containmentAb', 'containmentBa', 'resemblance', 'score', 'identical'];

/** Each text's ranges of `key`, `width` numbers each, into two arrays. */
function packRanges(texts, key, width, fields) {
  const offsets = new Uint32Array(texts.length + 1);
  let total = 0;
  texts.forEach((t, i) => {
    offsets[i] = total;
    total += t[key].length;
  });
  offsets[texts.length] = total;
  const data = new Uint32Array(total * width);
  let at = 0;
  for (const t of texts) {
    for (const r of t[key]) {
      for (const f of fields) data[at++] = f(r);
    }
  }
  return { offsets, data };
}

/**
 * Packs the core's `classPairs` result (in the worker): `pairs` and each
 * text's `excluded` and `common` ranges into typed arrays. Returns the
 * packed result and the buffers to transfer.
 */
export function packResult(result) {
  const n = result.pairs.length;
  const numbers = new Float64Array(n * PAIR.length);
  const source = new Uint8Array(n);
  result.pairs.forEach((p, i) => {
    PAIR.forEach((f, j) => {
      numbers[i * PAIR.length + j] = p[f] ?? 0;
    });
    source[i] = p.source ? 1 : 0;
  });
  const excluded = packRanges(result.texts, 'excluded', 2, [(r) => r.start, (r) => r.end]);
  const common = packRanges(result.texts, 'common', 3, [(r) => r.range.start, (r) => r.range.end, (r) => r.texts]);
  const texts = result.texts.map(({ excluded: _e, common: _c, ...rest }) => rest);
  const packed = { ...result, pairs: null, texts, packedPairs: { numbers, source }, packedExcluded: excluded, packedCommon: common };
  const transfer = [numbers.buffer, source.buffer, excluded.offsets.buffer, excluded.data.buffer, common.offsets.buffer, common.data.buffer];
  return { packed, transfer };
}

/** Text `i`'s ranges of a packed pair of arrays, made by `make`. */
function rangesOf({ offsets, data }, i, width, make) {
  const out = [];
  for (let k = offsets[i]; k < offsets[i + 1]; k++) out.push(make(data, k * width));
  return out;
}

/**
 * The result as the core gave it (in the page): pairs as objects, and
 * each text's `excluded` and `common` decoded when first read.
 */
export function unpackResult(packed) {
  const { packedPairs, packedExcluded, packedCommon, ...result } = packed;
  const { numbers, source } = packedPairs;
  const w = PAIR.length;
  result.pairs = Array.from({ length: source.length }, (_, i) => ({
    a: numbers[i * w],
    b: numbers[i * w + 1],
    source: source[i] === 1,
    shared: numbers[i * w + 2],
    containmentAb: numbers[i * w + 3],
    containmentBa: numbers[i * w + 4],
    resemblance: numbers[i * w + 5],
    score: numbers[i * w + 6],
    // A group of identical texts (the core's `groups`): its size, else 0.
    identical: numbers[i * w + 7],
  }));
  result.texts.forEach((t, i) => {
    const lazy = (key, decode) =>
      Object.defineProperty(t, key, {
        enumerable: true,
        configurable: true,
        get() {
          const value = decode();
          Object.defineProperty(t, key, { value, enumerable: true, writable: true });
          return value;
        },
      });
    lazy('excluded', () => rangesOf(packedExcluded, i, 2, (d, k) => ({ start: d[k], end: d[k + 1] })));
    lazy('common', () => rangesOf(packedCommon, i, 3, (d, k) => ({ range: { start: d[k], end: d[k + 1] }, texts: d[k + 2] })));
  });
  return result;
}
