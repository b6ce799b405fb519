// The two-text view: a suspicious text A against one to five sources,
// compared by the neardup WebAssembly module in a Web Worker (engine.js);
// nothing is sent over the network. This module decides what to compare
// and when (typing is debounced; only the newest comparison is shown);
// inputs.js holds the texts, render.js draws the answer. Every exclusion —
// A's quotations, a pair's class-set exclusions — is the core's
// (`ignoreQuotes`, `excludeA`, `excludeB`).
import { engine, STALE } from '../engine.js';
import { addSource, countLabel, fill, sourceAreas, textA, textB, wireInputs } from './inputs.js';
import { render, showError, showIdle } from './render.js';
import { $, state } from './state.js';

const DEBOUNCE_MS = 250;
let timer = 0;

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(run, DEBOUNCE_MS);
  $('count-a').textContent = countLabel(textA);
  $('count-b').textContent = countLabel(textB);
}

function settings() {
  return {
    wordK: Number($('word-k').value),
    spanGap: Number($('span-gap').value),
    minWords: Number($('min-words').value),
    // "Tolerate typos": word shingles over phonetic codes (SoundD, the best
    // encoder on real misspellings; EVALUATION.md).
    phonetic: $('typos').checked ? 'soundd' : undefined,
    // "Ignore quotes in A": the core leaves A's quotations out.
    ignoreQuotes: $('quotes').checked,
    // "Forgive accents": the core folds diacritics (é as e, ä as ae).
    foldDiacritics: $('accents').checked,
  };
}

async function run() {
  const a = textA.value;
  if (!a.trim() || !textB.value.trim()) {
    showIdle(a, textB.value);
    return;
  }
  // Added sources left empty are skipped; their numbers stay those shown.
  const sources = sourceAreas()
    .map((t, k) => ({ k, text: t.value, name: t.dataset.file ?? '', hidden: Number(t.dataset.hidden ?? 0) }))
    .filter((s) => s.k === 0 || s.text.trim());
  const options = settings();
  // A pair opened from the class set: the class's exclusions of A and B.
  const pair = state.pair;
  const pending = { a, aName: textA.dataset.file ?? '', sources, options, quotes: options.ignoreQuotes, common: pair?.commonA ?? [] };
  state.pending = pending;
  $('status').textContent = 'Comparing…';
  let answer;
  try {
    answer = await engine.latest('two-text', {
      kind: 'compare',
      a,
      sources: sources.map((s) => ({ text: s.text, excludeB: s.k === 0 ? pair?.b : undefined, hiddenB: s.hidden })),
      options,
      excludeA: pair?.a,
      hiddenA: Number(textA.dataset.hidden ?? 0),
    });
  } catch (err) {
    if (state.pending === pending) showError(err.message);
    return;
  }
  if (answer === STALE || state.pending !== pending) return;
  render({ ...pending, ...answer });
}

/**
 * Shows a pair (from the class set) in this view: A and B filled, the
 * class's other sources added after B (issue 48: a passage the pair shares
 * that is also in a source given is shown as that source's, in its colour,
 * as the class counted it), the class set's exclusions of A and B left out
 * and greyed, compared at once.
 * @param {{a: string, aName: string, b: string, bName: string,
 *   excludedA?: Array<{start: number, end: number}>,
 *   excludedB?: Array<{start: number, end: number}>,
 *   commonA?: Array<{range: {start: number, end: number}, texts: number}>,
 *   sources?: Array<{text: string, name: string}>}} pair
 *   `commonA`: A's passages found in more than two of the class's texts;
 *   `sources`: the class's sources other than B, at most four shown (the
 *   view's five colours)
 */
export function openPair({ a, aName, b, bName, excludedA = [], excludedB = [], commonA = [], sources = [] }) {
  state.pair = { a: excludedA, b: excludedB, commonA, classSources: sources.length > 0 };
  fill([[textA, a, aName], [textB, b, bName]]);
  for (const s of sources) {
    const area = addSource();
    if (!area) break;
    area.value = s.text;
    area.dataset.file = s.name;
  }
  schedule();
  window.scrollTo(0, 0);
}

wireInputs(schedule);
for (const id of ['word-k', 'span-gap', 'min-words', 'quotes', 'typos', 'accents']) $(id).addEventListener('change', schedule);
schedule();

// The engine and the verdict's model loaded at once, before any text is
// given: the first score is sooner, and the network-proof line counts no
// request of the page's own files after the texts (a failed load is tried
// again by the first comparison). `data-engine=ready` on the body says it is loaded.
engine.ask({ kind: 'warm' }).then(() => (document.body.dataset.engine = 'ready'), () => {});
