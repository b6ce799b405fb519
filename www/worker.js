// The page's Web Worker (engine.js is its one client): the neardup
// WebAssembly module off the main thread, so typing and scrolling stay
// responsive. Requests in: {id, kind, …}; answers out: {id, result} or
// {id, error}.
//
//   compare     {a, sources: [{text, excludeB?, hiddenB?}], options, excludeA?, hiddenA?,
//               pair?, match?} → {reports, row, ms, modelError}: one report
//               per source (row: the core's class row of `pair`, a class
//               pair, or `match`, a library match, from the first), with the
//               learned verdict when model.json loaded (from the page's own
//               origin); with options.phonetic each listed misspelling gets
//               `known: true` when A's word is itself an English dictionary
//               word (a sound-alike swap such as "is → as")
//   classPairs  {students, sources, template, options, hidden} → {result, ms}: the
//               result packed into typed arrays and transferred
//               (class-set/result.js; the page unpacks it)
//   warm        {} → {}: the module and the model loaded (the two-text view
//               asks at once, so that nothing is fetched once texts are given)
//   decode      {bytes} → {text, encoding} (the core's decodeText)
//   libraryCheck {bytes, students, minContainment, options} → {names,
//               matches, kept}: kept[i] {text, excluded} for a matched
//               library text the library keeps, else null
//   libraryBuild {bytes?, names, texts, options, keepTexts?} → {bytes, size}
//   evidencePack {pack, pairs?, compared?, library?, reviews?, libraryNames?,
//               libraryTexts?}
//               → {html}: the class set's evidence pack (the core's), its
//               pairs and library matches the core's rows of them
//   classCsv    {pairs, compared, library, …ClassCsvInput} → {csv}: the
//               class set's CSV (the core's), from the core's rows
import init, { ClassLibrary, classCsv, classPairs, classRows, compare, decodeText, evidencePack, SvmModel, Speller, withHiddenText } from '../pkg/index.js';
import { newResources } from './resources.js';
import { packResult } from './class-set/result.js';

/** An answer's buffers to transfer rather than copy (a symbol: never cloned). */
const TRANSFER = Symbol('transfer');

// What loads once and is kept once loaded. A load that failed (the server
// away, a redeploy) is not kept: the next request tries again (issue 49).
function once(load) {
  let loading = null;
  return () => (loading ??= load().catch((err) => {
    loading = null;
    throw err;
  }));
}

const engine = once(() => init());
const model = once(async () => {
  const response = await fetch(new URL('../pkg/model.json', import.meta.url));
  if (!response.ok) throw new Error(`model.json: HTTP ${response.status}`);
  return SvmModel.fromJson(await response.text());
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

const dictionary = once(async () => {
  const response = await fetch(new URL('../pkg/dictionary-en.bin', import.meta.url));
  if (!response.ok) throw new Error(`dictionary-en.bin: HTTP ${response.status}`);
  return Speller.fromBytes(new Uint8Array(await response.arrayBuffer()));
});

// UTF-16 offsets of the words: slice A's text.
function markKnown(report, a, dict) {
  for (const m of report.misspellings ?? []) m.known = dict.has(a.slice(m.a.start, m.a.end).toLowerCase());
}

const kinds = {
  async warm() {
    await ready();
    return {};
  },
  async compare({ a, sources, options, excludeA, hiddenA = 0, pair, match }) {
    const { model, modelError } = await ready();
    const t0 = performance.now();
    const reports = sources.map(({ text, excludeB, hiddenB = 0 }) => {
      const r = compare(a, text, { ...options, ...(excludeA?.length ? { excludeA } : {}), ...(excludeB?.length ? { excludeB } : {}), ...(model ? { model } : {}) });
      // Hidden text the reader left out of a file counts with the tricks
      // the core undid (its sentence, said again by the core).
      if (hiddenA) r.obfuscationA = withHiddenText(r.obfuscationA, hiddenA);
      if (hiddenB) r.obfuscationB = withHiddenText(r.obfuscationB, hiddenB);
      return r;
    });
    if (options.phonetic) {
      const dict = await dictionary();
      for (const r of reports) markKnown(r, a, dict);
    }
    // A class pair's row (the core's): the figures the table, the CSV and
    // the pack show once it is compared.
    // A library match's row likewise, once compared with the kept text.
    const row = pair ? classRows([pair], [reports[0]])[0] : match ? classRows([], [reports[0]], [match])[0] : undefined;
    return { reports, row, ms: performance.now() - t0, modelError };
  },
  async classPairs({ students, sources, template, options, hidden }) {
    await ready();
    const t0 = performance.now();
    const { packed, transfer } = packResult(classPairs(students, sources, template, options, hidden));
    return { result: packed, ms: performance.now() - t0, [TRANSFER]: transfer };
  },
  async decode({ bytes }) {
    await ready();
    return decodeText(bytes);
  },
  // A class checked one way against a reference library's bytes.
  // With each matched library text the library keeps, that text and the
  // ranges the class's options leave out of it (UTF-16): what the match is
  // compared in full with.
  async libraryCheck({ bytes, students, minContainment, options }) {
    await ready();
    const lib = ClassLibrary.fromBytes(bytes);
    try {
      const matches = lib.check(students, minContainment);
      const kept = new Array(lib.size).fill(null);
      for (const m of matches) kept[m.text] ??= lib.kept(m.text, options) ?? null;
      return { names: lib.names, matches, kept };
    } finally {
      lib.free();
    }
  },
  // A library with these texts added (to the one given as bytes, or a new
  // one fingerprinting as `options` say): its bytes.
  async libraryBuild({ bytes, names, texts, options, keepTexts = false }) {
    await ready();
    const lib = bytes ? ClassLibrary.fromBytes(bytes) : new ClassLibrary(options);
    try {
      if (keepTexts) lib.keepTexts(true);
      lib.add(names, texts);
      return { bytes: lib.toBytes(), size: lib.size };
    } finally {
      lib.free();
    }
  },
  async evidencePack({ pack, pairs, compared, library, reviews, libraryNames, libraryTexts }) {
    await ready();
    if (!pairs) return { html: evidencePack(pack) };
    return { html: evidencePack(pack, classRows(pairs, compared, library), reviews, libraryNames, libraryTexts) };
  },
  async classCsv({ pairs, compared, library, ...input }) {
    await ready();
    return { csv: classCsv({ ...input, rows: classRows(pairs, compared, library) }) };
  },
};

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
