// Runs neardup off the main thread, so typing stays responsive with long
// texts. Messages in: {id, a, sources: [b, …], options}; out:
// {id, reports, ms, modelError} (one report per source, in order) or
// {id, error}. The class-set mode also sends {id, kind: 'classPairs',
// students, sources, template, options} (answered {id, result, ms}). The learned verdict model (model.json, trained by
// `neardup train` on the Clough–Stevenson corpus) is loaded from this page's
// own origin; without it the reports have no verdict. With `options.phonetic`
// the English dictionary (dictionary-en.bin) is loaded too, once, and each
// listed misspelling gets `known: true` when A's word is itself a dictionary
// word (a sound-alike swap such as "is → as", not a misspelling).
import init, { classPairs, compare, SvmModel, Speller } from '../pkg/index.js';

const ready = (async () => {
  await init();
  try {
    const response = await fetch(new URL('./model.json', import.meta.url));
    if (!response.ok) return { model: null, modelError: `model.json: HTTP ${response.status}` };
    return { model: SvmModel.fromJson(await response.text()), modelError: null };
  } catch (err) {
    return { model: null, modelError: String(err && err.message ? err.message : err) };
  }
})();

let speller = null;
async function dictionary() {
  if (!speller) {
    speller = (async () => {
      const response = await fetch(new URL('./dictionary-en.bin', import.meta.url));
      if (!response.ok) throw new Error(`dictionary-en.bin: HTTP ${response.status}`);
      return Speller.fromBytes(new Uint8Array(await response.arrayBuffer()));
    })();
  }
  return speller;
}

// UTF-16 offsets of the words: slice A's text.
function markKnown(report, a, dict) {
  for (const m of report.misspellings ?? []) m.known = dict.has(a.slice(m.a.start, m.a.end).toLowerCase());
}

self.onmessage = async (event) => {
  const { id, a, sources, options } = event.data;
  try {
    const { model, modelError } = await ready;
    if (event.data.kind === 'classPairs') {
      const t0 = performance.now();
      const { students, template } = event.data;
      const result = classPairs(students, sources, template, options);
      self.postMessage({ id, result, ms: performance.now() - t0 });
      return;
    }
    const t0 = performance.now();
    const reports = sources.map((b) => compare(a, b, model ? { ...options, model } : options));
    if (options.phonetic) {
      const dict = await dictionary();
      for (const r of reports) markKnown(r, a, dict);
    }
    self.postMessage({ id, reports, ms: performance.now() - t0, modelError });
  } catch (err) {
    self.postMessage({ id, error: err && err.message ? err.message : String(err) });
  }
};
