// The class-set view's exports, both written by the core in a worker from
// its rows of the pairs and the library's matches (their full comparisons'
// figures): the CSV, and the evidence pack (settings, every file's SHA-256,
// each pair with both texts highlighted).
import { download } from '../report.js';
import { $, above, cutOff, pairKey, settings, state } from './state.js';

/**
 * What the core's rows are made from: the pairs at or above the cut-off,
 * each one's full comparison (or null), the library's matches, each row's
 * review mark.
 */
function rowsInput(cur) {
  const pairs = above();
  const library = cur.library?.matches ?? [];
  return {
    pairs,
    // The pairs' full comparisons, then the library matches' (those whose
    // text the library keeps).
    compared: [...pairs.map((p) => cur.compared.get(pairKey(p))), ...library.map((_, i) => cur.library.compared[i])].map((r) => (r ? (r.error ? { error: r.error } : r) : null)),
    library,
    reviews: [...pairs.map((p) => cur.reviews.get(pairKey(p)) ?? ''), ...library.map(() => '')],
    libraryNames: cur.library?.names ?? [],
    libraryTexts: cur.library?.texts?.map((k) => k?.text ?? null) ?? [],
  };
}

// The CSV: written by the core (classCsv in a worker, the one writer of the
// page, `neardup class --csv` and Python's ClassSet.to_csv()) from its rows
// of the pairs and library matches.
export async function exportCsv(pool) {
  const cur = state.current;
  if (!cur) return;
  const { csv } = await pool.ask({
    kind: 'classCsv',
    ...rowsInput(cur),
    obfuscation: cur.result.texts.map((t) => t.obfuscation),
    students: cur.students.map((s) => s.id),
    sources: cur.sources.map((s) => s.name),
    pseudonyms: $('class-pseudonyms').checked,
  });
  download(csv, 'neardup-pairs.csv', 'text/csv');
}

// The evidence pack: built by the core (evidencePack in a worker, the one
// builder of the page and `neardup class --evidence`) from what the view
// holds: the texts with their exclusions, the core's rows of the pairs at
// or above the cut-off and of the library's matches, the review marks, the
// settings.
export async function exportPack(pool) {
  const cur = state.current;
  if (!cur) return;
  const o = settings();
  const pack = {
    made: `Made ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC in the browser by neardup; nothing was uploaded.`,
    students: cur.students.length,
    texts: cur.texts.map((t, i) => ({ name: t.id, text: t.text, excluded: cur.result.texts[i].excluded, files: t.files, obfuscation: cur.result.texts[i].obfuscation })),
    pairs: [],
    settings: {
      templateSha256: cur.template.trim() ? cur.templateSha : null,
      cutOff: cutOff(),
      adaptiveCutOff: o.adaptiveCutOff,
      stockLimit: cur.result.stockLimit,
      stockPhrases: cur.result.stockPhrases,
      quotations: cur.counted.quotes,
      referenceLists: cur.counted.refs,
      options: cur.result.options,
    },
    pseudonyms: $('class-pseudonyms').checked,
  };
  const { html } = await pool.ask({ kind: 'evidencePack', pack, ...rowsInput(cur) });
  download(html, 'neardup-evidence.html', 'text/html');
}
