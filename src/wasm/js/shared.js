// What the package's entries share (index.js for the whole binding,
// compare.js for the comparison's own module): loading the module this
// runtime runs best, checking a handle given as an option, and `compare`
// with `{ model }` routed to the model. Each entry passes its own binding.
import { simd } from './simd.js';

/**
 * Instantiates a binding (`initBinding`, wasm-bindgen's initialiser): with
 * `input` given, as given; else from `urls()`, which returns the SIMD or the
 * baseline module's URL as `simd` says (two literal `new URL(…,
 * import.meta.url)` in the entry, so that bundlers emit both). Where the
 * entry has no URL (bundled for workerd, initialised already), the
 * binding's own default applies.
 */
export function initModule(initBinding, input, urls) {
  const given = input !== undefined && !(Object.getPrototypeOf(input) === Object.prototype && input.module_or_path === undefined);
  if (given) return initBinding(input);
  let url;
  try {
    url = urls(simd);
  } catch {
    return initBinding();
  }
  return initBinding({ module_or_path: url });
}

/** `value` when it is a live instance of `type` (`what`: "a MultiRef"), else a TypeError or Error naming the option. */
export function instance(value, type, what, name, from) {
  if (!(value instanceof type)) throw new TypeError(`invalid option ${name}: must be ${what} (from ${from})`);
  if (value.__wbg_ptr === 0) throw new Error(`invalid option ${name}: the ${name} has been freed`);
  return value;
}

/**
 * The entry's `compare(a, b, options)`: with `options.model` (an SvmModel
 * of the same binding) `model.compare(a, b, rest)`, whose report has a
 * verdict; else the binding's `compare`.
 */
export function routedCompare(compareTexts, SvmModel) {
  return function compare(a, b, options) {
    if (options !== null && typeof options === 'object' && options.model != null) {
      const { model, ...rest } = options;
      return instance(model, SvmModel, 'an SvmModel', 'model', 'SvmModel.fromJson').compare(a, b, rest);
    }
    return compareTexts(a, b, options);
  };
}
