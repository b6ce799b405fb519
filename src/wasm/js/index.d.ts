import type { CompareOptions as BindingCompareOptions, DedupConfig, DedupDocument, DedupOptions, DedupResult, Decoded, MultiRef, Report, Speller, SvmModel, Verdict } from './neardup.js';
import * as binding from './neardup.js';
export * from './neardup.js';
export { default } from './neardup.js';
/** Whether this runtime runs WebAssembly SIMD: `init()` and the Node entry then load `neardup_simd_bg.wasm`, otherwise `neardup_bg.wasm` (the same results, bit for bit). */
export declare const wasmSimd: boolean;
/** What a dedup configuration may need besides its options: a reference (`method: "multiref"`; default: the package's `multiref.json`) and a dictionary (`shingle: "word:K+correct"`; default: the package's English dictionary). */
export type DedupExtras = { reference?: MultiRef; dictionary?: Speller };
/**
 * Finds the near-duplicates of a collection with the core's dedup pipeline
 * (the defaults of `neardup dedup`: MinHash LSH over character 5-grams,
 * estimated Jaccard ≥ 0.5). `documents`: an array or iterable of
 * `{id, text}`, or of strings (ids are then their indexes). Returns
 * `{pairs: [{a, b, similarity}], clusters, keep, summary}`; `a` precedes
 * `b` in input order, each cluster's first member is the one kept. Throws a
 * TypeError naming the document's position for a bad document, an Error for
 * a duplicate id or a bad option. `reference` (a MultiRef, for
 * `method: "multiref"`) and `dictionary` (a Speller, for
 * `"word:K+correct"`) default to the package's own (in Node; elsewhere after
 * `loadReference()` / `loadDictionary()`).
 */
export function dedup(documents: Iterable<DedupDocument>, options?: DedupOptions & DedupExtras): DedupResult;
/** The core's streaming deduplicator; `reference` and `dictionary` as in `dedup()`. */
export class Deduplicator extends binding.Deduplicator {
  constructor(options?: Partial<DedupConfig> & DedupExtras);
  /** Reads `toBytes()` output, with the reference and dictionary it needs (shared, not taken). */
  static fromBytes(bytes: Uint8Array, reference?: MultiRef, dictionary?: Speller): binding.Deduplicator;
}
/** The core's dedup stage functions; `reference` and `dictionary` as in `dedup()`. */
export class DedupStages extends binding.DedupStages {
  constructor(options?: Partial<DedupConfig> & DedupExtras);
}
/**
 * Sets where the bundled assets come from when a configuration needs one and
 * none is given: functions returning the dictionary's bytes and the
 * reference's JSON text (the Node entry sets them).
 */
export function useAssets(sources: { dictionary?: () => Uint8Array; reference?: () => string }): void;
/** Loads the package's English dictionary (or `source`'s), keeps it as the default of `"word:K+correct"`, and returns it. */
export function loadDictionary(source?: Uint8Array | ArrayBuffer | Response | URL | string): Promise<Speller>;
/** Loads the package's multireference reference (or `source`'s), keeps it as the default of `method: "multiref"`, and returns it. */
export function loadReference(source?: Uint8Array | ArrayBuffer | Response | URL | string): Promise<MultiRef>;
/** Options of `compare`: every field optional; `model` adds the learned verdict. */
export type CompareOptions = BindingCompareOptions & { model?: SvmModel };
/**
 * Compares suspicious text `a` with source text `b`: every measure, the
 * shared passages (UTF-16 offsets) and, with `options.model`, the verdict.
 * Throws an Error for an empty text, a text over maxBytes or a bad option.
 */
export function compare(a: string, b: string, options: CompareOptions & { model: SvmModel }): Report & { verdict: Verdict };
export function compare(a: string, b: string, options?: CompareOptions): Report & { verdict?: Verdict };
/** Decodes a text file's bytes as every surface does: byte-order mark (UTF-8, UTF-16 LE/BE), else UTF-8 when valid, else Windows-1252. */
export function decodeText(bytes: Uint8Array): Decoded;
