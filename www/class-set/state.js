// The class-set view's state, shared by its modules: the analysis shown
// (`state.current`: students, sources, texts, template, the core's result,
// the full comparisons of the pairs, the review marks) and which run is the
// current one (a newer run or Cancel stops the older). Nothing here
// computes or draws.
export const state = {
  /** The analysis shown, or null. */
  current: null,
  /** The current run's number. */
  run: 0,
};

/** An element of the page by id. */
export const $ = (id) => document.getElementById(id);

/** The settings of the view's controls (the core's classPairs options). */
export function settings() {
  return {
    minContainment: Number($('class-cutoff').value) / 100,
    stockShare: Number($('class-stock').value) / 100,
    ignoreQuotes: $('class-quotes').checked,
    ignoreReferences: $('class-references').checked,
  };
}

/** The pairs at or above the cut-off. */
export function above() {
  const cut = settings().minContainment;
  return state.current.result.pairs.filter((p) => p.score >= cut);
}

/** A pair's key in maps: "a:b". */
export const pairKey = (p) => `${p.a}:${p.b}`;

/** A pair's full comparison's class ('' until compared, 'error'). */
export function verdictOf(p) {
  const r = state.current.compared.get(pairKey(p));
  if (!r) return '';
  if (r.error) return 'error';
  return r.verdict?.class ?? '';
}
