import type { CompareOptions as BindingCompareOptions, Report, SvmModel, Verdict } from './neardup_compare.js';
export * from './neardup_compare.js';
/** Whether this runtime runs WebAssembly SIMD: `init()` and the Node entry then load `neardup_compare_simd_bg.wasm`, otherwise `neardup_compare_bg.wasm` (the same results, bit for bit). */
export declare const wasmSimd: boolean;
/**
 * Loads and instantiates the comparison's module (in a browser or a Worker;
 * the Node entry does it on import): with no argument the one this runtime
 * runs best, fetched from beside this file; any argument is passed to
 * wasm-bindgen's initialiser as given.
 */
export default function init(input?: { module_or_path: unknown } | unknown): Promise<unknown>;
/** Options of `compare`: every field optional; `model` adds the learned verdict. */
export type CompareOptions = BindingCompareOptions & { model?: SvmModel };
/**
 * Compares suspicious text `a` with source text `b`: every measure, the
 * shared passages (UTF-16 offsets) and, with `options.model`, the verdict.
 * Throws an Error for an empty text, a text over maxBytes or a bad option.
 */
export function compare(a: string, b: string, options: CompareOptions & { model: SvmModel }): Report & { verdict: Verdict };
export function compare(a: string, b: string, options?: CompareOptions): Report & { verdict?: Verdict };
