// The class-set view's histogram of the pairs' scores: plain SVG.
import { $, cutOff, state } from './state.js';

// A histogram of the pairs' scores (the larger containment) from 2 %, in
// bins of 5 points, with the cut-off marked: plain SVG. Heights are on a
// log scale (log(1 + n)) and every bar carries its count, so that a handful
// of near copies beside thousands of low-scoring pairs stays visible: one
// pair is a fifth as tall as 10,000.
export function renderHistogram() {
  const svgNS = 'http://www.w3.org/2000/svg';
  const bins = new Array(20).fill(0);
  for (const p of state.current.result.pairs) bins[Math.min(19, Math.floor(p.score * 20))]++;
  const max = Math.max(1, ...bins);
  const scale = (n) => Math.log1p(n) / Math.log1p(max);
  const svg = document.createElementNS(svgNS, 'svg');
  svg.setAttribute('viewBox', '0 0 400 120');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `Pairs by score: ${bins.map((n, i) => `${i * 5}–${i * 5 + 5} %: ${n}`).join(', ')}`);
  bins.forEach((n, i) => {
    const h = n ? Math.max(8, scale(n) * 90) : 0;
    const rect = document.createElementNS(svgNS, 'rect');
    rect.setAttribute('x', String(i * 20 + 1));
    rect.setAttribute('y', String(105 - h));
    rect.setAttribute('width', '18');
    rect.setAttribute('height', String(h));
    rect.setAttribute('class', 'bar');
    const title = document.createElementNS(svgNS, 'title');
    title.textContent = `${i * 5}–${i * 5 + 5} %: ${n} pairs`;
    rect.append(title);
    svg.append(rect);
    if (n) {
      const count = document.createElementNS(svgNS, 'text');
      count.setAttribute('x', String(i * 20 + 10));
      count.setAttribute('y', String(103 - h));
      count.setAttribute('class', 'count');
      count.setAttribute('text-anchor', 'middle');
      count.textContent = n >= 10000 ? `${Math.round(n / 1000)}k` : String(n);
      svg.append(count);
    }
  });
  const x = cutOff() * 400;
  const line = document.createElementNS(svgNS, 'line');
  for (const [k, v] of [['x1', x], ['x2', x], ['y1', 0], ['y2', 108]]) line.setAttribute(k, String(v));
  line.setAttribute('class', 'cutoff');
  svg.append(line);
  for (const [t, at] of [['0 %', 0], ['50 %', 200], ['100 %', 370]]) {
    const label = document.createElementNS(svgNS, 'text');
    label.setAttribute('x', String(at));
    label.setAttribute('y', '119');
    label.textContent = t;
    svg.append(label);
  }
  $('class-histogram').replaceChildren(svg);
}

