// What the page's two comparison workers share — the two-text view's
// (two-text/worker.js, on the comparison's own module, `neardup/compare`)
// and the class set's (worker.js, on the whole package's): the module, the
// verdict's model and the dictionary loaded once each, a failed load tried
// again by the next request (issue 49), the `compare` request, and the
// message loop. Each worker passes the binding it loaded.
import { newResources } from './resources.js';

/** An answer's buffers to transfer rather than copy (a symbol: never cloned). */
export const TRANSFER = Symbol('transfer');

// What loads once and is kept once loaded. A load that failed (the server
// away, a redeploy) is not kept: the next request tries again.
function once(load) {
  let loading = null;
  return () => (loading ??= load().catch((err) => {
    loading = null;
    throw err;
  }));
}

/**
 * The comparison over `pkg` (a binding: its default `init`, `compare`,
 * `SvmModel`, `withHiddenText`): `ready()` (the module, and the model if it
 * can be had), and the `warm` and `compare` requests. `rowOf` (optional)
 * gives the class row of a compared pair from its first report; `speller`
 * (optional) resolves to the `Speller` class of a binding ready to use, by
 * default `pkg.Speller` — the comparison's own module has none, and its
 * worker loads the whole package's module for it only when sound-alike
 * swaps are marked.
 */
export function comparer(pkg, rowOf = () => undefined, speller = async () => pkg.Speller) {
  const engine = once(() => pkg.default());
  const model = once(async () => {
    const response = await fetch(new URL('../pkg/model.json', import.meta.url));
    if (!response.ok) throw new Error(`model.json: HTTP ${response.status}`);
    return pkg.SvmModel.fromJson(await response.text());
  });
  const dictionary = once(async () => {
    const response = await fetch(new URL('../pkg/dictionary-en.bin', import.meta.url));
    if (!response.ok) throw new Error(`dictionary-en.bin: HTTP ${response.status}`);
    const Speller = await speller();
    return Speller.fromBytes(new Uint8Array(await response.arrayBuffer()));
  });
  // The engine (a failure rejects the request), and the verdict's model if it
  // can be had (a failure is said beside the score, and tried again next time).
  async function ready() {
    await engine();
    try {
      return { model: await model(), modelError: null };
    } catch (err) {
      return { model: null, modelError: String(err && err.message ? err.message : err) };
    }
  }
  // UTF-16 offsets of the words: slice A's text.
  function markKnown(report, a, dict) {
    for (const m of report.misspellings ?? []) m.known = dict.has(a.slice(m.a.start, m.a.end).toLowerCase());
  }
  return {
    ready,
    async warm() {
      await ready();
      return {};
    },
    async compare(request) {
      const { a, sources, options, excludeA, hiddenA = 0 } = request;
      const { model: m, modelError } = await ready();
      const t0 = performance.now();
      const reports = sources.map(({ text, excludeB, hiddenB = 0 }) => {
        const r = pkg.compare(a, text, { ...options, ...(excludeA?.length ? { excludeA } : {}), ...(excludeB?.length ? { excludeB } : {}), ...(m ? { model: m } : {}) });
        // Hidden text the reader left out of a file counts with the tricks
        // the core undid (its sentence, said again by the core).
        if (hiddenA) r.obfuscationA = pkg.withHiddenText(r.obfuscationA, hiddenA);
        if (hiddenB) r.obfuscationB = pkg.withHiddenText(r.obfuscationB, hiddenB);
        return r;
      });
      if (options.phonetic) {
        const dict = await dictionary();
        for (const r of reports) markKnown(r, a, dict);
      }
      return { reports, row: rowOf(request, reports[0]), ms: performance.now() - t0, modelError };
    },
  };
}

/** Answers each request `{id, kind, …}` by `kinds[kind]`: `{id, result}` or `{id, error}`, with the requests made since. */
export function serve(kinds) {
  self.onmessage = async (event) => {
    const { id, kind } = event.data;
    try {
      if (!Object.hasOwn(kinds, kind)) throw new Error(`unknown request ${JSON.stringify(kind)}`);
      const result = await kinds[kind](event.data);
      self.postMessage({ id, result, resources: newResources() }, result?.[TRANSFER] ?? []);
    } catch (err) {
      self.postMessage({ id, error: err && err.message ? err.message : String(err), resources: newResources() });
    }
  };
}
