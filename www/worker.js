// The class set's Web Worker (its pool in class-set/view.js; engine.js is
// the client): the whole package's WebAssembly module off the main thread,
// so typing and scrolling stay responsive. The two-text view has its own,
// smaller worker (two-text/worker.js); both share comparing.js. Requests
// in: {id, kind, …}; answers out: {id, result} or {id, error}.
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
import * as pkg from '../pkg/index.js';
import { comparer, serve, TRANSFER } from './comparing.js';
import { packResult } from './class-set/result.js';

const { ClassLibrary, classCsv, classPairs, classRows, decodeText, evidencePack } = pkg;

// The core's class row of a compared class pair or library match.
const comparison = comparer(pkg, ({ pair, match }, report) => {
  if (pair) return classRows([pair], [report])[0];
  if (match) return classRows([], [report], [match])[0];
  return undefined;
});
const { ready } = comparison;

const kinds = {
  warm: comparison.warm,
  compare: comparison.compare,
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

serve(kinds);
