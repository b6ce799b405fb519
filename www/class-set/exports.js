// The class-set view's exports: the pairs as CSV (Papa Parse), and the
// evidence pack (report.js): settings, every file's SHA-256, each pair with
// both texts highlighted.
import { download, evidenceHtml, GRADE_WORDS } from '../report.js';
import { $, above, cutOff, pairKey, settings, state, verdictOf } from './state.js';

export async function exportCsv() {
  const cur = state.current;
  if (!cur) return;
  const { unparse } = await import('../lib/csv.js');
  const rows = above().map((p) => ({
    a: cur.texts[p.a].id,
    b: cur.texts[p.b].id,
    containment_ab: p.containmentAb,
    containment_ba: p.containmentBa,
    similarity: p.score,
    verdict: p.source ? 'shared source' : verdictOf(p),
    review: cur.reviews.get(pairKey(p)) ?? '',
  }));
  // A cell that begins with =, +, -, @, a tab or a carriage return is
  // written after a ' (OWASP's rule against formula injection: names come
  // from file names).
  const csv = unparse(rows, {
    columns: ['a', 'b', 'containment_ab', 'containment_ba', 'similarity', 'verdict', 'review'],
    newline: '\n',
    escapeFormulae: true,
  });
  download(`${rows.length ? csv : 'a,b,containment_ab,containment_ba,similarity,verdict,review'}\n`, 'neardup-pairs.csv', 'text/csv');
}

// The evidence pack: settings, every file's SHA-256, and each pair at or
// above the cut-off with both texts highlighted (report.js).
export function exportPack() {
  const cur = state.current;
  if (!cur) return;
  const pseudo = $('class-pseudonyms').checked;
  const names = new Map();
  cur.texts.forEach((t, i) => {
    const isSource = i >= cur.students.length;
    names.set(i, pseudo && !isSource ? `Student ${i + 1}` : t.id);
  });
  const o = settings();
  const sha = cur.templateSha;
  const pairs = above().map((p) => {
    const r = cur.compared.get(pairKey(p));
    return {
      a: names.get(p.a),
      b: names.get(p.b),
      source: p.source,
      containmentAb: p.containmentAb,
      containmentBa: p.containmentBa,
      verdict: GRADE_WORDS[verdictOf(p)] ?? '',
      review: cur.reviews.get(pairKey(p)) ?? '',
      textA: cur.texts[p.a].text,
      textB: cur.texts[p.b].text,
      passages: r && !r.error ? r.passages : [],
      excludedA: cur.result.texts[p.a].excluded,
      excludedB: cur.result.texts[p.b].excluded,
    };
  });
  const files = cur.texts.flatMap((t, i) =>
    t.files.map((f, j) => ({ student: names.get(i), path: pseudo && i < cur.students.length ? `${names.get(i)}, file ${j + 1}` : f.path, sha256: f.sha256 })),
  );
  const html = evidenceHtml({
    settings: [
      ['Students', String(cur.students.length)],
      ['Sources (compared one way)', cur.sources.map((s) => s.id).join(', ') || 'none'],
      ['Template', cur.template.trim() ? `given (SHA-256 of its text ${sha})` : 'none'],
      ['Cut-off (larger containment)', `${Math.round(cutOff() * 100)} %${o.adaptiveCutOff ? ' (for a class of this size)' : ''}`],
      ['Stock phrases', `in more than ${Math.round(o.stockShare * 100)} % of the students' texts (${cur.result.stockLimit}) and in no source: ${cur.result.stockPhrases}`],
      ['Phrases', cur.result.options.charQ ? `character ${cur.result.options.charQ}-grams of the words, winnowed (window ${cur.result.options.window})` : `${cur.result.options.wordK} words`],
      ['Quotations', cur.options.ignoreQuotes ? `left out (${cur.counted.quotes})` : 'counted'],
      ['Trailing reference lists', cur.options.ignoreReferences ? `left out (${cur.counted.refs})` : 'counted'],
      ['Names', pseudo ? 'replaced by pseudonyms' : 'as given'],
    ],
    files,
    pairs,
  });
  download(html, 'neardup-evidence.html', 'text/html');
}


