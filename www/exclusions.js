// What a grader leaves out of a comparison, found in a text as ranges
// (UTF-16 offsets) and blanked with spaces of the same length, so that
// every offset of a comparison still points into the text as read:
// quotations (quoting with attribution is not copying) and a trailing
// reference list (students cite the same sources in the same style).

// A quotation ("…", “…”, «…») may run over a line break (hard-wrapped
// text), not over a blank line (a new paragraph), and is at most 2,000
// characters long.
const QUOTED = /"(?:[^"\n]|\n(?![ \t]*\n)){1,2000}"|“(?:[^”\n]|\n(?![ \t]*\n)){1,2000}”|«(?:[^»\n]|\n(?![ \t]*\n)){1,2000}»/g;

/**
 * The quotations of a text.
 * @param {string} text
 * @returns {Array<{start: number, end: number}>} in order, not overlapping
 */
export function quotedRanges(text) {
  return [...text.matchAll(QUOTED)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

// A heading on a line of its own that starts a reference list.
const REFERENCES = /^[ \t]*(?:#+[ \t]*)?(?:references|reference list|bibliography|works cited|sources|literature cited)[ \t]*:?[ \t]*$/gim;

/**
 * A trailing reference list: from a "References" (or "Bibliography",
 * "Works cited", "Sources", …) heading on its own line, in the last half
 * of the text, to the end.
 * @param {string} text
 * @returns {Array<{start: number, end: number}>} none or one range
 */
export function referenceListRanges(text) {
  let last = null;
  for (const m of text.matchAll(REFERENCES)) last = m;
  if (!last || last.index < text.length / 2) return [];
  return [{ start: last.index, end: text.length }];
}

/**
 * Merges ranges into a sorted list of disjoint ranges.
 * @param {Array<{start: number, end: number}>} ranges
 * @returns {Array<{start: number, end: number}>}
 */
export function merge(ranges) {
  const out = [];
  for (const r of ranges.slice().sort((x, y) => x.start - y.start)) {
    const prev = out[out.length - 1];
    if (prev && r.start <= prev.end) prev.end = Math.max(prev.end, r.end);
    else out.push({ start: r.start, end: r.end });
  }
  return out;
}

/**
 * The text with `ranges` blanked: every character but line breaks becomes
 * a space, so lengths and offsets are kept.
 * @param {string} text
 * @param {Array<{start: number, end: number}>} ranges
 * @returns {string}
 */
export function blank(text, ranges) {
  if (!ranges.length) return text;
  let out = '';
  let at = 0;
  for (const r of merge(ranges)) {
    if (r.start > at) out += text.slice(at, r.start);
    const start = Math.max(r.start, at);
    out += text.slice(start, r.end).replace(/[^\n]/g, ' ');
    at = Math.max(at, r.end);
  }
  return out + text.slice(at);
}
