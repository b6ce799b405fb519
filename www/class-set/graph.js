// The class-set view's graph of who shares passages with whom: plain SVG.
import { $, above, state, verdictOf } from './state.js';

// A graph of the texts: an edge per pair at or above the cut-off, coloured
// by its verdict (grey while not compared; dashed to a source). Each
// connected group (a cluster of students who share passages) is drawn on
// its own circle, the largest first: plain SVG.
const EDGE_CLASS = { cut: 'e-cut', light: 'e-light', heavy: 'e-heavy', non: 'e-non' };
export function renderGraph() {
  const svgNS = 'http://www.w3.org/2000/svg';
  const pairs = above();
  const parent = new Map();
  const find = (x) => {
    while (parent.get(x) !== x) x = parent.get(x);
    return x;
  };
  for (const p of pairs) {
    for (const x of [p.a, p.b]) if (!parent.has(x)) parent.set(x, x);
    parent.set(find(p.a), find(p.b));
  }
  const groups = new Map();
  for (const x of parent.keys()) {
    const r = find(x);
    groups.set(r, [...(groups.get(r) ?? []), x]);
  }
  const clusters = [...groups.values()].sort((x, y) => y.length - x.length || x[0] - y[0]);
  const svg = document.createElementNS(svgNS, 'svg');
  const cols = Math.max(1, Math.min(4, clusters.length));
  const cell = 200;
  const rowsN = Math.max(1, Math.ceil(clusters.length / cols));
  svg.setAttribute('viewBox', `0 0 ${cols * cell} ${rowsN * cell}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `${clusters.length} groups of texts sharing passages: ` +
    clusters.map((c) => c.map((i) => state.current.texts[i].id).join(', ')).join('; '));
  const at = new Map();
  clusters.forEach((c, k) => {
    const cx = (k % cols) * cell + cell / 2;
    const cy = Math.floor(k / cols) * cell + cell / 2;
    const r = c.length === 1 ? 0 : Math.min(80, 25 + 8 * c.length);
    c.forEach((x, j) => {
      const t = (2 * Math.PI * j) / c.length;
      at.set(x, [cx + r * Math.cos(t), cy + r * Math.sin(t)]);
    });
  });
  for (const p of pairs) {
    const [x1, y1] = at.get(p.a);
    const [x2, y2] = at.get(p.b);
    const line = document.createElementNS(svgNS, 'line');
    for (const [k, v] of [['x1', x1], ['y1', y1], ['x2', x2], ['y2', y2]]) line.setAttribute(k, v.toFixed(1));
    line.setAttribute('class', `edge ${p.source ? 'e-source' : EDGE_CLASS[verdictOf(p)] ?? 'e-pending'}`);
    line.setAttribute('stroke-width', String(1 + 4 * p.score));
    const title = document.createElementNS(svgNS, 'title');
    title.textContent = `${state.current.texts[p.a].id} – ${state.current.texts[p.b].id}: ${Math.round(p.score * 100)} %`;
    line.append(title);
    svg.append(line);
  }
  for (const [x, [cx, cy]] of at) {
    const g = document.createElementNS(svgNS, 'g');
    const dot = document.createElementNS(svgNS, 'circle');
    dot.setAttribute('cx', cx.toFixed(1));
    dot.setAttribute('cy', cy.toFixed(1));
    dot.setAttribute('r', '6');
    dot.setAttribute('class', x >= state.current.students.length ? 'node source' : 'node');
    const label = document.createElementNS(svgNS, 'text');
    label.setAttribute('x', (cx + 8).toFixed(1));
    label.setAttribute('y', (cy + 4).toFixed(1));
    label.textContent = state.current.texts[x].id;
    g.append(dot, label);
    svg.append(g);
  }
  $('class-graph').replaceChildren(svg);
  $('class-graph').dataset.clusters = String(clusters.length);
}

