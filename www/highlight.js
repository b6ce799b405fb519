// Highlighting shared passages in a text, for the page's views and its
// report. Passages may overlap (in A, passages shared with two sources; in
// a source, two passages of A copying one of its passages): the text is cut
// at every passage boundary into segments, and each segment covered by any
// passage becomes one <mark> that lists every passage covering it, so an
// overlap is marked as such and lights up with each of its passages.
// Pasted text only ever becomes text nodes (never HTML).

/** Colour classes: src-0 … src-4, one per source (style.css). */
export const SOURCE_COLOURS = 5;

/**
 * Cuts a text into segments.
 * @param {number} length the text's length in UTF-16 units
 * @param {Array<{start: number, end: number, id: string, src: number}>} ranges
 *   passages, UTF-16 offsets, any order, may overlap
 * @returns {Array<{start: number, end: number, ids: string[], srcs: number[]}>}
 *   consecutive segments covering [0, length); `ids` empty outside passages
 */
export function segments(length, ranges) {
  const cuts = new Set([0, length]);
  for (const r of ranges) {
    cuts.add(Math.max(0, Math.min(r.start, length)));
    cuts.add(Math.max(0, Math.min(r.end, length)));
  }
  const points = [...cuts].sort((x, y) => x - y);
  const starts = ranges.slice().sort((x, y) => x.start - y.start);
  const out = [];
  const open = [];
  let next = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const [s, e] = [points[i], points[i + 1]];
    while (next < starts.length && starts[next].start <= s) open.push(starts[next++]);
    for (let j = open.length - 1; j >= 0; j--) if (open[j].end <= s) open.splice(j, 1);
    const covering = open.filter((r) => r.start <= s && r.end >= e);
    out.push({
      start: s,
      end: e,
      ids: covering.map((r) => r.id),
      srcs: [...new Set(covering.map((r) => r.src))],
    });
  }
  return out;
}

/**
 * The node for one segment: a text node, or a <mark> with `data-passages`
 * (space-separated ids), `data-passage` (the first), `data-source` and the
 * colour class of its first source; `overlap` when several sources share it.
 * @param {Document} doc
 * @param {string} text
 * @param {{start: number, end: number, ids: string[], srcs: number[]}} seg
 * @returns {Node}
 */
export function segmentNode(doc, text, seg) {
  const t = text.slice(seg.start, seg.end);
  if (!seg.ids.length && seg.excluded) {
    const span = doc.createElement('span');
    span.className = 'excluded';
    span.title = 'left out of the comparison';
    span.textContent = t;
    return span;
  }
  if (!seg.ids.length) return doc.createTextNode(t);
  const mark = doc.createElement('mark');
  mark.dataset.passages = seg.ids.join(' ');
  mark.dataset.passage = seg.ids[0];
  mark.dataset.source = String(seg.srcs[0]);
  mark.className = `src-${seg.srcs[0] % SOURCE_COLOURS}${seg.srcs.length > 1 ? ' overlap' : ''}`;
  if (seg.srcs.length > 1) mark.title = `shared with sources ${seg.srcs.map((s) => s + 1).join(' and ')}`;
  mark.textContent = t;
  return mark;
}

// Segments of `text` with passages `ranges`, and `excluded` ranges marked
// where no passage covers them.
function markedSegments(text, ranges, excluded) {
  if (!excluded.length) return segments(text.length, ranges);
  const segs = segments(text.length, [...ranges, ...excluded.map((r) => ({ ...r, id: '', src: -1 }))]);
  return segs.map((s) => {
    const ids = s.ids.filter((id) => id !== '');
    return { ...s, ids, srcs: s.srcs.filter((x) => x >= 0), excluded: ids.length < s.ids.length };
  });
}

/**
 * Fills `into` with the highlighted text at once (the reports).
 * @param {HTMLElement} into
 * @param {string} text
 * @param {Array<{start: number, end: number, id: string, src: number}>} ranges
 * @param {Array<{start: number, end: number}>} [excluded] ranges left out
 *   of the comparison (quotations, a reference list, a class set's template
 *   and stock phrases): greyed where no passage covers them
 */
export function highlightNow(into, text, ranges, excluded = []) {
  const doc = into.ownerDocument;
  into.replaceChildren(...markedSegments(text, ranges, excluded).map((s) => segmentNode(doc, text, s)));
}

/**
 * Fills `view` progressively, CHUNK segments per task, so the page keeps
 * answering with long texts (a 2 MB paste has tens of thousands of
 * passages). Each task's nodes go into their own block, cut after a line
 * break outside any passage, so the browser lays out (and, off screen,
 * skips) one block at a time. `alive()` false cancels the job.
 * @param {HTMLElement} view
 * @param {string} text
 * @param {Array<{start: number, end: number, id: string, src: number}>} ranges
 * @param {() => boolean} alive
 * @param {Array<{start: number, end: number}>} [excluded] as highlightNow's
 * @returns {Promise<boolean>} true once done, false when cancelled
 */
export function highlightInto(view, text, ranges, alive, excluded = []) {
  const CHUNK = 800;
  const segs = markedSegments(text, ranges, excluded);
  view.replaceChildren();
  view.dataset.done = 'false';
  let next = 0;
  return new Promise((resolve) => {
    const step = () => {
      if (!alive()) return resolve(false);
      const block = document.createElement('div');
      block.className = 'chunk';
      let budget = CHUNK;
      while (next < segs.length) {
        const seg = segs[next];
        if (budget <= 0 && !seg.ids.length && !seg.excluded) {
          const nl = text.indexOf('\n', seg.start);
          if (nl >= 0 && nl < seg.end) {
            // Split this plain segment after its line break.
            block.append(document.createTextNode(text.slice(seg.start, nl + 1)));
            segs[next] = { ...seg, start: nl + 1 };
            if (segs[next].start >= seg.end) next++;
            break;
          }
        }
        block.append(segmentNode(document, text, seg));
        next++;
        budget--;
      }
      view.append(block);
      if (next >= segs.length) {
        view.dataset.done = 'true';
        return resolve(true);
      }
      setTimeout(step, 0);
    };
    step();
  });
}
