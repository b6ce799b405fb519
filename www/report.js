// The two-text view's report to keep (the class set's evidence pack is the
// core's: evidencePack, class-set/exports.js).
//
// The two-text report: one self-contained HTML file with no script, made
// from the comparison's data (not from the page's nodes): the date and
// every setting, the headline and its label, the verdict, every source
// with its figures, the measures, every passage, A with every source's
// passages highlighted and each source with its own. Texts only ever
// become text nodes, escaped when serialised. A print stylesheet keeps the
// highlights on paper (print-color-adjust).
import { highlightNow } from './highlight.js';

const REPORT_CSS = `body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#1d2330}
.score{font-size:3rem;font-weight:700;color:#2457c5;margin:.2rem 0 0}.muted{color:#5b6475;font-size:.9rem}
table{border-collapse:collapse}td,th{padding:.15rem .5rem;border-bottom:1px solid #eef0f4;text-align:left;vertical-align:top}
.view{white-space:pre-wrap;overflow-wrap:anywhere;border:1px solid #d9dde5;border-radius:6px;padding:.6rem}
mark{print-color-adjust:exact;-webkit-print-color-adjust:exact}
mark,.src-0{background:#ffe58a}.src-1{background:#a8d8ff}.src-2{background:#c3f0c2}.src-3{background:#ffc9e3}.src-4{background:#e0ccff}
mark.overlap{outline:2px dashed #5b6475}.excluded{color:#8a8f99;text-decoration:line-through}
@media print{body{max-width:none;margin:0}.view{break-inside:auto}h2{break-after:avoid}}`;

// A document to build a report in: `add(tag, text, class, parent)` appends
// an element holding `text` as a text node; `table(rows, head)` a table.
function builder(title) {
  const doc = document.implementation.createHTMLDocument(title);
  const body = doc.body;
  const add = (tag, text, cls, parent = body) => {
    const el = doc.createElement(tag);
    if (text !== undefined) el.textContent = text;
    if (cls) el.className = cls;
    parent.append(el);
    return el;
  };
  const table = (rows, head) => {
    const t = add('table');
    if (head) {
      const tr = add('tr', undefined, undefined, add('thead', undefined, undefined, t));
      for (const h of head) add('th', h, undefined, tr);
    }
    const tb = add('tbody', undefined, undefined, t);
    for (const row of rows) {
      const tr = add('tr', undefined, undefined, tb);
      for (const cell of row) add('td', String(cell), undefined, tr);
    }
    return t;
  };
  return { doc, body, add, table };
}

/**
 * Offers `text` as a file to download (a blob URL, revoked after a while).
 * @param {string} text
 * @param {string} name the file name
 * @param {string} type its MIME type
 */
// The learned verdict's grades in plain words, lower case.
export const GRADE_WORDS = { cut: 'near copy', light: 'light revision', heavy: 'heavy revision', non: 'original' };

/**
 * A verdict's grade in plain words, lower case: "light revision (62 %
 * likely)", or "between light and heavy revision" when the verdict names
 * two grades (`verdict.between`, SPEC.md §11); '' without a verdict.
 * @param {{class?: string, confidence?: number, between?: [string, string]} | undefined} verdict
 * @returns {string}
 */
export function verdictWords(verdict) {
  if (!verdict?.class) return '';
  const w = (c) => GRADE_WORDS[c] ?? c;
  if (verdict.between) {
    const [a, b] = verdict.between.map(w);
    return a.endsWith(' revision') && b.endsWith(' revision')
      ? `between ${a.replace(/ revision$/, '')} and ${b}`
      : `between ${a} and ${b}`;
  }
  return w(verdict.class) + (verdict.confidence != null ? ` (${pct(verdict.confidence)} likely)` : '');
}

export function download(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The report's HTML.
 * @param {object} r what the page shows: `{a, aName, sources: [{k, text,
 *   name}], reports, best, headline, label, reading, coverage, verdict,
 *   settings: [[name, value]], misspellings: [[word, source word]],
 *   passages: [{id, src, words, a: {start, end}}], ranges: {a: [...],
 *   bySource: [[...]]}}`
 * @returns {string} a complete HTML document
 */
export function reportHtml(r) {
  const { body, add, table } = builder('neardup report');
  add('h1', 'neardup report');
  add('p', `Made ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC in the browser by neardup; the texts were not uploaded.`, 'muted');
  add('p', r.headline, 'score');
  add('p', r.label);
  for (const line of [r.reading, r.coverage, r.verdict, r.note]) if (line) add('p', line);

  add('h2', 'Settings');
  table(r.settings);
  if (r.misspellings) {
    add('h3', `Words treated as misspellings (${r.misspellings.length})`);
    add('p', r.misspellings.length ? r.misspellings.map(([x, y]) => `${x} → ${y}`).join(', ') : 'none');
  }

  add('h2', 'Sources');
  table(
    r.sources.map((s, i) => [
      `Source ${s.k + 1}${s.name ? ` (${s.name})` : ''}${i === r.best ? ' — the closest' : ''}`,
      pct(r.reports[i].score),
      pct(r.reports[i].coverageA),
      String(r.reports[i].passages.length),
    ]),
    ['Source', 'Share of A’s phrases found in it', 'Words of A in passages shared with it', 'Passages'],
  );

  add('h2', `Measures (A against source ${r.sources[r.best].k + 1})`);
  table(r.measures);

  add('h2', `Shared passages (${r.passages.length})`);
  const ol = add('ol');
  for (const p of r.passages) {
    add('li', `${p.words} words · source ${p.src + 1}: ${r.a.slice(p.a.start, p.a.end)}`, undefined, ol);
  }

  add('h2', `A — the suspicious text${r.aName ? ` (${r.aName})` : ''}, every source’s passages highlighted`);
  highlightNow(add('div', undefined, 'view'), r.a, r.ranges.a, r.excluded?.a ?? []);
  r.sources.forEach((s, i) => {
    add('h2', `Source ${s.k + 1}${s.name ? ` (${s.name})` : ''}, passages shared with A highlighted`);
    highlightNow(add('div', undefined, 'view'), s.text, r.ranges.bySource[i], r.excluded?.b[i] ?? []);
  });
  // The style is written into the string, not into `doc`: a document made
  // here shares the page's Content Security Policy, which refuses inline
  // styles (and says so in the console).
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>neardup report</title><style>${REPORT_CSS}</style></head>\n${body.outerHTML}\n</html>\n`;
}

function pct(x) {
  return `${Math.round(x * 100)}%`;
}
