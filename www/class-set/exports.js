// The class-set view's exports: the pairs as CSV (Papa Parse), and the
// evidence pack (the core's, in a worker): settings, every file's SHA-256,
// each pair with both texts highlighted.
import { download } from '../report.js';
import { $, above, cutOff, pairKey, settings, state, verdictOf } from './state.js';

/** A text's count of what was undone to read it (0 when nothing was). */
function obfuscationCount(t) {
  const o = t?.obfuscation;
  return o ? o.lookalikes + o.invisible + o.hidden : 0;
}

export async function exportCsv() {
  const cur = state.current;
  if (!cur) return;
  const { unparse } = await import('../lib/csv.js');
  // With pseudonyms, students are named "Student 1", … by their order in
  // the class, as in the evidence pack; sources keep their names.
  const pseudo = $('class-pseudonyms').checked;
  const name = (i) => (pseudo && i < cur.students.length ? `Student ${i + 1}` : cur.texts[i].id);
  const rows = above().map((p) => ({
    a: name(p.a),
    b: name(p.b),
    containment_ab: p.containmentAb,
    containment_ba: p.containmentBa,
    similarity: p.score,
    verdict: p.source ? 'shared source' : verdictOf(p),
    review: cur.reviews.get(pairKey(p)) ?? '',
    // What was undone to read each text (look-alike letters, invisible
    // characters, hidden runs): the core's counts, as in `neardup class --csv`.
    obfuscation_a: obfuscationCount(cur.result.texts[p.a]),
    obfuscation_b: obfuscationCount(cur.result.texts[p.b]),
  }));
  // A cell that begins with =, +, -, @, a tab or a carriage return is
  // written after a ' (OWASP's rule against formula injection: names come
  // from file names).
  const csv = unparse(rows, {
    columns: ['a', 'b', 'containment_ab', 'containment_ba', 'similarity', 'verdict', 'review', 'obfuscation_a', 'obfuscation_b'],
    newline: '\n',
    escapeFormulae: true,
  });
  download(`${rows.length ? csv : 'a,b,containment_ab,containment_ba,similarity,verdict,review,obfuscation_a,obfuscation_b'}\n`, 'neardup-pairs.csv', 'text/csv');
}

// The evidence pack: built by the core (evidencePack in a worker, the one
// builder of the page and `neardup class --evidence`) from what the view
// holds: the texts with their exclusions, the pairs at or above the cut-off
// with their full comparisons and review marks, the settings.
export async function exportPack(pool) {
  const cur = state.current;
  if (!cur) return;
  const o = settings();
  const compared = (p) => {
    const r = cur.compared.get(pairKey(p));
    return r && !r.error ? r : null;
  };
  const pack = {
    made: `Made ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC in the browser by neardup; nothing was uploaded.`,
    students: cur.students.length,
    texts: cur.texts.map((t, i) => ({ name: t.id, text: t.text, excluded: cur.result.texts[i].excluded, files: t.files, obfuscation: cur.result.texts[i].obfuscation })),
    pairs: above().map((p) => ({
      a: p.a,
      b: p.b,
      source: p.source,
      containmentAb: p.containmentAb,
      containmentBa: p.containmentBa,
      verdict: compared(p)?.verdict?.class ?? '',
      review: cur.reviews.get(pairKey(p)) ?? '',
      passages: (compared(p)?.passages ?? []).map((x) => ({ a: x.a, b: x.b })),
    })),
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
  const { html } = await pool.ask({ kind: 'evidencePack', pack });
  download(html, 'neardup-evidence.html', 'text/html');
}
