// The class-set view's graph of who shares passages with whom: plain SVG.
//
// The texts joined by the pairs at or above the cut-off fall into groups
// (connected components). The overview draws the largest groups, each in
// a cell of its own: a group of up to SMALL_GROUP texts as a circle of its
// texts with an edge per pair, coloured by verdict (grey while not
// compared; dashed to a source); a larger group collapsed into one disc
// saying how many texts it holds. Any group can be opened on its own
// (zoom): its texts on a circle large enough that the labels, written
// along the radii, never overlap, in a box that scrolls. Beyond MAX_CELLS
// groups, the rest are counted. So the graph reads the same at 19 texts and
// at 2,000.
import { $, above, state, verdictOf } from './state.js';

const EDGE_CLASS = { cut: 'e-cut', light: 'e-light', heavy: 'e-heavy', non: 'e-non' };
const SVG = 'http://www.w3.org/2000/svg';
/** Groups larger than this are collapsed in the overview. */
const SMALL_GROUP = 10;
/** Groups drawn in the overview; the rest are counted. */
const MAX_CELLS = 12;
/** Labels are cut to this many characters (the whole name in the tooltip). */
const LABEL_CHARS = 14;
/** Arc length between two texts on a circle, in SVG units: more than a
 * label's height (11 units, style.css). */
const SPACING = 15;

/** The group opened (its smallest text index), or null for the overview. */
let zoomed = null;

function el(name, attrs = {}, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, typeof v === 'number' ? v.toFixed(1) : v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The groups of the pairs: arrays of text indices, largest first. */
function groupsOf(pairs) {
  const parent = new Map();
  const find = (x) => {
    while (parent.get(x) !== x) {
      parent.set(x, parent.get(parent.get(x)));
      x = parent.get(x);
    }
    return x;
  };
  for (const p of pairs) {
    for (const x of [p.a, p.b]) if (!parent.has(x)) parent.set(x, x);
    parent.set(find(p.a), find(p.b));
  }
  const groups = new Map();
  for (const x of parent.keys()) {
    const r = find(x);
    if (!groups.has(r)) groups.set(r, []);
    groups.get(r).push(x);
  }
  return [...groups.values()].map((g) => g.sort((x, y) => x - y)).sort((x, y) => y.length - x.length || x[0] - y[0]);
}

const name = (i) => state.current.texts[i].id;
const cut = (s) => (s.length > LABEL_CHARS ? `${s.slice(0, LABEL_CHARS - 1)}…` : s);

/**
 * Draws `group` on a circle centred at (cx, cy) into `svg`: its edges, its
 * texts, and each label along its radius, outwards (so labels never overlap
 * when neighbours are SPACING apart on the circle). Returns the radius.
 */
function drawCircle(svg, group, pairs, cx, cy, minRadius) {
  const n = group.length;
  const r = n === 1 ? 0 : Math.max(minRadius, (n * SPACING) / (2 * Math.PI));
  const at = new Map();
  group.forEach((x, j) => {
    const t = (2 * Math.PI * j) / n;
    at.set(x, [cx + r * Math.cos(t), cy + r * Math.sin(t), t]);
  });
  for (const p of pairs) {
    if (!at.has(p.a) || !at.has(p.b)) continue;
    const [x1, y1] = at.get(p.a);
    const [x2, y2] = at.get(p.b);
    const line = el('line', {
      x1, y1, x2, y2,
      class: `edge ${p.source ? 'e-source' : EDGE_CLASS[verdictOf(p)] ?? 'e-pending'}`,
      'stroke-width': 1 + 4 * p.score,
    });
    line.append(el('title', {}, `${name(p.a)} – ${name(p.b)}: ${Math.round(p.score * 100)} %`));
    svg.append(line);
  }
  for (const [x, [px, py, t]] of at) {
    const g = el('g', { class: 'text-node' });
    g.append(el('circle', { cx: px, cy: py, r: 5, class: x >= state.current.students.length ? 'node source' : 'node' }));
    // Along the radius, outwards: on the left half the text is turned
    // round so that it reads left to right, ending at the node.
    const left = Math.cos(t) < 0;
    const deg = (t * 180) / Math.PI + (left ? 180 : 0);
    const lx = px + 8 * Math.cos(t);
    const ly = py + 8 * Math.sin(t);
    const label = el('text', {
      x: lx, y: ly,
      'text-anchor': left ? 'end' : 'start',
      'dominant-baseline': 'central',
      transform: `rotate(${deg.toFixed(1)} ${lx.toFixed(1)} ${ly.toFixed(1)})`,
      class: 'label',
    }, cut(name(x)));
    g.append(el('title', {}, name(x)), label);
    svg.append(g);
  }
  return r;
}

export function renderGraph() {
  // A group of identical texts is one listed pair (its first two): its
  // other members joined to its first, so that the group is drawn whole.
  const listed = above();
  const identical = state.current.result.groups ?? [];
  const pairs = [...listed, ...listed.filter((p) => p.identical).flatMap((p) => {
    const g = identical.find((m) => m[0] === p.a) ?? [];
    return g.slice(2).map((m) => ({ ...p, b: m }));
  })];
  const groups = groupsOf(pairs);
  const box = $('class-graph');
  box.dataset.clusters = String(groups.length);
  const open = zoomed === null ? null : groups.find((g) => g[0] === zoomed);
  if (open) return renderZoom(box, open, pairs, groups.length);
  zoomed = null;
  const shown = groups.slice(0, MAX_CELLS);
  // Two columns: the figure is narrow, and a label must stay legible.
  const cols = Math.max(1, Math.min(2, shown.length));
  const cell = 280;
  const rows = Math.max(1, Math.ceil(shown.length / cols));
  const svg = el('svg', { viewBox: `0 0 ${cols * cell} ${rows * cell}`, role: 'img' });
  svg.setAttribute('aria-label', `${groups.length} group${groups.length === 1 ? '' : 's'} of texts sharing passages: ` +
    groups.slice(0, 50).map((g) => (g.length > SMALL_GROUP ? `a group of ${g.length} texts` : g.map(name).join(', '))).join('; ') +
    (groups.length > 50 ? '; …' : ''));
  const buttons = [];
  shown.forEach((g, k) => {
    const cx = (k % cols) * cell + cell / 2;
    const cy = Math.floor(k / cols) * cell + cell / 2;
    if (g.length <= SMALL_GROUP) {
      drawCircle(svg, g, pairs, cx, cy, 12 + 3 * g.length);
    } else {
      // Collapsed: one disc, its size by the group's, and how many.
      const disc = el('g', { class: 'group' });
      disc.append(el('circle', { cx, cy, r: Math.min(90, 20 + 4 * Math.sqrt(g.length)), class: 'group-disc' }));
      disc.append(el('text', { x: cx, y: cy - 6, 'text-anchor': 'middle', class: 'group-count' }, `${g.length} texts`));
      disc.append(el('text', { x: cx, y: cy + 10, 'text-anchor': 'middle', class: 'group-hint' }, 'open below'));
      disc.append(el('title', {}, `A group of ${g.length} texts, joined by pairs at or above the cut-off`));
      svg.append(disc);
    }
    if (g.length > 2) buttons.push(g);
  });
  const tools = document.createElement('div');
  tools.className = 'graph-tools';
  for (const g of buttons.slice(0, 6)) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.testid = 'class-graph-open';
    b.textContent = `Open the group of ${g.length} (${cut(name(g[0]))}, …)`;
    b.addEventListener('click', () => {
      zoomed = g[0];
      renderGraph();
    });
    tools.append(b);
  }
  const rest = groups.length - shown.length;
  if (rest > 0) {
    const sizes = groups.slice(MAX_CELLS).map((g) => g.length);
    const more = document.createElement('span');
    more.className = 'help';
    more.textContent = `and ${rest} more group${rest === 1 ? '' : 's'} of ${Math.min(...sizes)}–${Math.max(...sizes)} texts (in the table)`;
    tools.append(more);
  }
  box.dataset.zoomed = '';
  box.replaceChildren(svg, tools);
}

/** One group on its own, large enough for every label, in a box that scrolls. */
function renderZoom(box, group, pairs, total) {
  const inner = pairs.filter((p) => group.includes(p.a));
  const r = Math.max(80, (group.length * SPACING) / (2 * Math.PI));
  const margin = 16 + LABEL_CHARS * 7;
  const side = 2 * (r + margin);
  const svg = el('svg', { viewBox: `0 0 ${side} ${side}`, role: 'img', class: 'zoomed' });
  svg.setAttribute('aria-label', `A group of ${group.length} texts: ${group.slice(0, 100).map(name).join(', ')}${group.length > 100 ? ', …' : ''}`);
  svg.style.width = `${Math.max(320, side)}px`;
  drawCircle(svg, group, inner, side / 2, side / 2, r);
  const back = document.createElement('button');
  back.type = 'button';
  back.dataset.testid = 'class-graph-back';
  back.textContent = `← All ${total} groups`;
  back.addEventListener('click', () => {
    zoomed = null;
    renderGraph();
  });
  const scroll = document.createElement('div');
  scroll.className = 'graph-zoom';
  scroll.append(svg);
  box.dataset.zoomed = String(group.length);
  box.replaceChildren(back, scroll);
}

/** A new class: back to the overview. */
export function resetGraph() {
  zoomed = null;
}
