// Highlighting shared passages in a text, for the page's views and its
// report. Passages may overlap (in A, passages shared with two sources; in
// a source, two passages of A copying one of its passages): the text is cut
// at every passage boundary into segments, and each segment covered by any
// passage is painted once, listing every passage covering it, so an overlap
// is marked as such and lights up with each of its passages. The reports
// (static HTML) make each such segment a <mark>; the page's views paint it
// as a range with the CSS Custom Highlight API where the browser has it
// (no DOM node per passage: a 2 MB pair has tens of thousands), as a <mark>
// elsewhere. Pasted text only ever becomes text nodes (never HTML).

/** Colour classes: src-0 … src-4, one per source (style.css). */
export const SOURCE_COLOURS = 5;

/**
 * Cuts a text into segments.
 * @param {number} length the text's length in UTF-16 units
 * @param {Array<{start: number, end: number, id: string, src: number, rank?: number}>} ranges
 *   passages, UTF-16 offsets, any order, may overlap; where several cover a
 *   segment, the sources of those of highest `rank` (default 0) come first
 *   (the colour is the first's)
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
    const covering = open.filter((r) => r.start <= s && r.end >= e).sort((x, y) => (y.rank ?? 0) - (x.rank ?? 0));
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
  if (!seg.ids.length && (seg.excluded || seg.trick)) {
    const span = doc.createElement('span');
    span.className = [seg.excluded && 'excluded', seg.trick && 'trick'].filter(Boolean).join(' ');
    span.title = [seg.excluded && 'left out of the comparison', seg.trick && TRICK_TITLE].filter(Boolean).join('; ');
    span.textContent = t;
    return span;
  }
  if (!seg.ids.length) return doc.createTextNode(t);
  const mark = doc.createElement('mark');
  mark.dataset.passages = seg.ids.join(' ');
  mark.dataset.passage = seg.ids[0];
  mark.dataset.source = String(seg.srcs[0]);
  mark.className = `src-${seg.srcs[0] % SOURCE_COLOURS}${seg.srcs.length > 1 ? ' overlap' : ''}${seg.trick ? ' trick' : ''}`;
  if (seg.srcs.length > 1) mark.title = `shared with sources ${seg.srcs.map((s) => s + 1).join(' and ')}`;
  if (seg.trick) mark.title = [mark.title, TRICK_TITLE].filter(Boolean).join('; ');
  mark.textContent = t;
  return mark;
}

/** What a word marked as a trick says when pointed at. */
const TRICK_TITLE = 'look-alike letters or invisible characters were here (undone for the comparison)';

// Segments of `text` with passages `ranges`, `excluded` ranges marked where
// no passage covers them, and `tricks` (the words where the core undid a
// trick: look-alike letters, invisible characters) marked wherever they are.
function markedSegments(text, ranges, excluded, tricks = []) {
  if (!excluded.length && !tricks.length) return segments(text.length, ranges);
  const extra = [...excluded.map((r) => ({ ...r, id: '', src: -1 })), ...tricks.map((r) => ({ ...r, id: '#', src: -2 }))];
  const segs = segments(text.length, [...ranges, ...extra]);
  return segs.map((s) => {
    const ids = s.ids.filter((id) => id !== '' && id !== '#');
    return { ...s, ids, srcs: s.srcs.filter((x) => x >= 0), excluded: s.ids.includes(''), trick: s.ids.includes('#') };
  });
}

/**
 * The words holding `ranges` (UTF-16 offsets of replaced or removed
 * characters, which may be zero-width): each range widened to the
 * whitespace on either side, at most 40 units each way, so that an
 * invisible character shows as the word it sat in.
 * @param {string} text
 * @param {Array<{start: number, end: number}>} ranges
 * @returns {Array<{start: number, end: number}>}
 */
export function trickWords(text, ranges) {
  const space = (i) => /\s/.test(text[i] ?? ' ');
  return ranges.map(({ start, end }) => {
    let [s, e] = [Math.max(0, Math.min(start, text.length)), Math.max(0, Math.min(end, text.length))];
    for (let n = 0; n < 40 && s > 0 && !space(s - 1); n++) s--;
    for (let n = 0; n < 40 && e < text.length && !space(e); n++) e++;
    return { start: s, end: Math.max(e, s) };
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
export function highlightNow(into, text, ranges, excluded = [], tricks = []) {
  const doc = into.ownerDocument;
  into.replaceChildren(...markedSegments(text, ranges, excluded, tricks).map((s) => segmentNode(doc, text, s)));
}

// ---------------------------------------------------------------------------
// The two-text view's painter. Where the browser has the CSS Custom Highlight
// API (`CSS.highlights`, every current browser since 2026), a view holds
// plain text only — one text node per block — and each passage segment is a
// StaticRange in a named highlight (`nd-src-0` … `nd-src-4` by colour,
// `nd-overlap` where sources share a segment, `nd-hot` for the passage lit
// up), painted by style.css's `::highlight()` rules without a DOM node per
// passage. Only the blocks in or near the view's visible part have their
// ranges registered (an IntersectionObserver adds and removes them; all of
// them for printing): Chromium's cost for each frame after any change grows
// with every range registered (BENCHMARKS.md, issue 37). Elsewhere
// (`paintsRanges()` false) each segment is a <mark>, as in the reports. Either way the view's callers use the same four functions:
// lightPassage, clearLit, revealPassage, segmentAt.

/** Highlight names (style.css paints them). */
const HOT = 'nd-hot';
const OVERLAP = 'nd-overlap';
const TRICK = 'nd-trick';
const srcName = (k) => `nd-src-${k % SOURCE_COLOURS}`;

/**
 * Whether views are painted with the Custom Highlight API (else with <mark>).
 * @returns {boolean}
 */
export function paintsRanges() {
  return typeof CSS !== 'undefined' && !!CSS.highlights && typeof Highlight === 'function' && typeof StaticRange === 'function';
}

// Per painted view: its passage segments in text order, each with its range
// ({start, end, ids, srcs, range, names}), the ranges of each passage id, and
// each text node's offset in the text.
const painted = new Map();

function highlightNamed(name) {
  let h = CSS.highlights.get(name);
  if (!h) {
    h = new Highlight();
    h.priority = name === HOT ? 2 : name === OVERLAP || name === TRICK ? 1 : 0;
    CSS.highlights.set(name, h);
  }
  return h;
}

// Takes a view's ranges out of every highlight.
function forget(view) {
  const p = painted.get(view);
  if (!p) return;
  p.observer.disconnect();
  for (const s of p.segs) {
    for (const n of s.names) CSS.highlights.get(n)?.delete(s.range);
    CSS.highlights.get(HOT)?.delete(s.range);
  }
  painted.delete(view);
}

/**
 * Lights passage `id` up (or down) in every view that shows it.
 * @param {string} id a passage id, as given to highlightInto
 * @param {boolean} on
 */
export function lightPassage(id, on) {
  if (!paintsRanges()) {
    for (const m of document.querySelectorAll(`mark[data-passages~="${CSS.escape(id)}"]`)) m.classList.toggle('hot', on);
    return;
  }
  const hot = highlightNamed(HOT);
  for (const p of painted.values()) {
    for (const r of p.byPassage.get(id) ?? []) on ? hot.add(r) : hot.delete(r);
  }
}

/** Lights every passage down. */
export function clearLit() {
  if (!paintsRanges()) {
    for (const m of document.querySelectorAll('mark.hot')) m.classList.remove('hot');
    return;
  }
  CSS.highlights.get(HOT)?.clear();
}

/**
 * Scrolls `view` (and the page, as little as needed) to the first segment of
 * passage `id` shown in it; nothing when the view does not show it.
 * @param {HTMLElement} view
 * @param {string} id
 */
export function revealPassage(view, id) {
  if (!paintsRanges()) {
    view.querySelector(`mark[data-passages~="${CSS.escape(id)}"]`)?.scrollIntoView({ block: 'nearest' });
    return;
  }
  const range = painted.get(view)?.byPassage.get(id)?.[0];
  if (!range) return;
  // Its block laid out first if it was skipped (content-visibility).
  const live = liveRange(range);
  let rect = live.getBoundingClientRect();
  if (!rect.height) {
    range.startContainer.parentElement?.scrollIntoView({ block: 'nearest' });
    rect = live.getBoundingClientRect();
  }
  const box = view.getBoundingClientRect();
  if (view.scrollHeight > view.clientHeight) {
    if (rect.top < box.top) view.scrollTop -= box.top - rect.top + 8;
    else if (rect.bottom > box.bottom) view.scrollTop += Math.min(rect.bottom - box.bottom + 8, rect.top - box.top);
    rect = live.getBoundingClientRect();
  }
  if (rect.top < 0) window.scrollBy(0, rect.top - 8);
  else if (rect.bottom > window.innerHeight) window.scrollBy(0, Math.min(rect.bottom - window.innerHeight + 8, rect.top));
}

/**
 * The passage segment under a pointer event in `view`, or null.
 * @param {HTMLElement} view
 * @param {MouseEvent} e
 * @returns {{ids: string[], srcs: number[]} | null} the passage ids covering
 *   the point (first: the one a click activates) and their sources
 */
export function segmentAt(view, e) {
  if (!paintsRanges()) {
    const m = e.target instanceof Element ? e.target.closest('mark') : null;
    if (!m || !view.contains(m)) return null;
    return { ids: m.dataset.passages.split(' '), srcs: [Number(m.dataset.source)] };
  }
  const p = painted.get(view);
  if (!p || !p.segs.length) return null;
  let node;
  let offset;
  if (document.caretPositionFromPoint) {
    const c = document.caretPositionFromPoint(e.clientX, e.clientY);
    [node, offset] = [c?.offsetNode, c?.offset];
  } else if (document.caretRangeFromPoint) {
    const c = document.caretRangeFromPoint(e.clientX, e.clientY);
    [node, offset] = [c?.startContainer, c?.startOffset];
  }
  const base = node && p.nodeStart.get(node);
  if (base === undefined) return null;
  const at = base + offset;
  // The caret falls before or after the character under the pointer: try
  // the segments holding the characters on both sides, and keep the one
  // whose boxes contain the point.
  for (const x of [at, at - 1]) {
    const s = segmentHolding(p.segs, x);
    if (!s) continue;
    for (const r of liveRange(s.range).getClientRects()) {
      if (e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom) return s;
    }
  }
  return null;
}

// A live Range over a StaticRange, for its geometry (a StaticRange has none).
function liveRange(r) {
  const live = document.createRange();
  live.setStart(r.startContainer, r.startOffset);
  live.setEnd(r.endContainer, r.endOffset);
  return live;
}

// The passage segment holding character `x`, by binary search; undefined
// when none does.
function segmentHolding(segs, x) {
  let [lo, hi] = [0, segs.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (segs[mid].end <= x) lo = mid + 1;
    else hi = mid;
  }
  const s = segs[lo];
  return s && s.start <= x && x < s.end ? s : undefined;
}

// Adds (or removes) the ranges of a block's segments to (from) their
// highlights.
function register(segs, on) {
  for (const s of segs) {
    for (const n of s.names) {
      const h = highlightNamed(n);
      on ? h.add(s.range) : h.delete(s.range);
    }
  }
}

// For printing, every block of every view is registered (the printout has
// every passage), and only those near the view again afterwards.
let printing = false;
function printAll(on) {
  printing = on;
  for (const p of painted.values()) {
    for (const [block, segs] of p.blocks) register(segs, on || p.near.has(block));
  }
}
// (The media query list is kept: its listener lives as long as it does.)
const PRINT = typeof window !== 'undefined' ? window.matchMedia?.('print') : undefined;
if (PRINT) {
  window.addEventListener('beforeprint', () => printAll(true));
  window.addEventListener('afterprint', () => printAll(PRINT.matches));
  PRINT.addEventListener('change', (e) => printAll(e.matches));
}

/**
 * Fills `view` progressively, CHUNK segments per task, so the page keeps
 * answering with long texts (a 2 MB paste has tens of thousands of
 * passages). Each task's nodes go into their own block, cut after a line
 * break outside any passage, so the browser lays out (and, off screen,
 * skips) one block at a time. Passages are painted as ranges where the
 * browser can (`paintsRanges()`), as <mark> elements elsewhere. `alive()`
 * false cancels the job.
 * @param {HTMLElement} view
 * @param {string} text
 * @param {Array<{start: number, end: number, id: string, src: number}>} ranges
 *   passages, UTF-16 offsets
 * @param {() => boolean} alive
 * @param {Array<{start: number, end: number}>} [excluded] as highlightNow's
 * @param {Array<{start: number, end: number}>} [tricks] words to mark as
 *   holding a trick the core undid (trickWords), UTF-16 offsets
 * @returns {Promise<boolean>} true once done, false when cancelled
 */
export function highlightInto(view, text, ranges, alive, excluded = [], tricks = []) {
  const CHUNK = 800;
  const segs = markedSegments(text, ranges, excluded, tricks);
  const asRanges = paintsRanges();
  if (asRanges) forget(view);
  const state = { segs: [], byPassage: new Map(), nodeStart: new WeakMap(), blocks: new Map(), near: new Set() };
  if (asRanges) {
    // Blocks within two view heights of what is shown have their ranges registered.
    state.observer = new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (e.isIntersecting) state.near.add(e.target);
        else state.near.delete(e.target);
        if (!printing) register(state.blocks.get(e.target) ?? [], e.isIntersecting);
      }
    }, { root: view, rootMargin: '200% 0px' });
    painted.set(view, state);
  }
  view.replaceChildren();
  view.dataset.done = 'false';
  view.dataset.painter = asRanges ? 'ranges' : 'marks';
  let next = 0;
  return new Promise((resolve) => {
    const step = () => {
      if (!alive()) return resolve(false);
      const block = document.createElement('div');
      block.className = 'chunk';
      const blockSegs = [];
      // With ranges: the block's plain and passage text as one text node
      // (a run), the segments to paint in it (offsets within the run).
      let run = '';
      let runStart = 0;
      let pending = [];
      const flush = () => {
        if (!run) return;
        const node = document.createTextNode(run);
        block.append(node);
        state.nodeStart.set(node, runStart);
        for (const seg of pending) {
          const range = new StaticRange({
            startContainer: node,
            startOffset: seg.start - runStart,
            endContainer: node,
            endOffset: seg.end - runStart,
          });
          const names = [srcName(seg.srcs[0])];
          if (seg.srcs.length > 1) names.push(OVERLAP);
          if (seg.trick) names.push(TRICK);
          for (const id of seg.ids) {
            const list = state.byPassage.get(id);
            list ? list.push(range) : state.byPassage.set(id, [range]);
          }
          const painted = { start: seg.start, end: seg.end, ids: seg.ids, srcs: seg.srcs, range, names };
          state.segs.push(painted);
          blockSegs.push(painted);
        }
        run = '';
        pending = [];
      };
      const put = (seg, start, end) => {
        if (!asRanges || (!seg.ids.length && (seg.excluded || seg.trick))) {
          flush();
          block.append(start === seg.start && end === seg.end ? segmentNode(document, text, seg) : document.createTextNode(text.slice(start, end)));
          return;
        }
        if (!run) runStart = start;
        run += text.slice(start, end);
        if (seg.ids.length) pending.push(seg);
      };
      let budget = CHUNK;
      while (next < segs.length) {
        const seg = segs[next];
        if (budget <= 0 && !seg.ids.length && !seg.excluded && !seg.trick) {
          const nl = text.indexOf('\n', seg.start);
          if (nl >= 0 && nl < seg.end) {
            // Split this plain segment after its line break.
            put(seg, seg.start, nl + 1);
            segs[next] = { ...seg, start: nl + 1 };
            if (segs[next].start >= seg.end) next++;
            break;
          }
        }
        put(seg, seg.start, seg.end);
        next++;
        budget--;
      }
      flush();
      view.append(block);
      if (asRanges) {
        // The first blocks are registered at once (painted with the text);
        // the others when the observer finds them near view.
        state.blocks.set(block, blockSegs);
        if (printing || state.blocks.size <= 3) register(blockSegs, true);
        state.observer.observe(block);
      }
      if (next >= segs.length) {
        view.dataset.done = 'true';
        return resolve(true);
      }
      setTimeout(step, 0);
    };
    step();
  });
}

/**
 * Shows `text` in `view` without highlights (and lets go of its ranges).
 * @param {HTMLElement} view
 * @param {string} text
 */
export function plainInto(view, text) {
  if (paintsRanges()) forget(view);
  view.replaceChildren(document.createTextNode(text));
}
