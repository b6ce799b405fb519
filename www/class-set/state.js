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
  /** The class's files as last given, and what was read of them (kept, so
   * that a change of sources, template or settings re-runs without
   * reading the class again). */
  read: null,
};

/** An element of the page by id. */
export const $ = (id) => document.getElementById(id);

/**
 * The settings of the view's controls (the core's classPairs options). The
 * cut-off left blank is the core's for the class's size (`adaptiveCutOff`).
 */
export function settings() {
  const cut = $('class-cutoff').value.trim();
  return {
    minContainment: cut === '' ? 0.05 : Number(cut) / 100,
    adaptiveCutOff: cut === '',
    stockShare: Number($('class-stock').value) / 100,
    ignoreQuotes: $('class-quotes').checked,
    ignoreReferences: $('class-references').checked,
    foldDiacritics: $('class-accents').checked,
  };
}

/**
 * The cut-off in use, in [0, 1]: the one typed, or (blank) the core's for
 * the class shown (`result.cutOff`: 0.05 up to 20 texts, higher for more).
 */
export function cutOff() {
  const s = settings();
  return s.adaptiveCutOff && state.current ? state.current.result.cutOff : s.minContainment;
}

/** The pairs at or above the cut-off. */
export function above() {
  const cut = cutOff();
  return state.current.result.pairs.filter((p) => p.score >= cut);
}

/**
 * The worker's `compare` request for class text `a` (by position) against
 * `text` with its exclusions `excludeB`: each text's exclusions left out,
 * accents as the class's setting — every full comparison of the view, a
 * pair's or a library match's (`extra`: `{pair}` or `{match}`, whose core
 * row the worker adds).
 */
export function compareRequest(cur, a, text, excludeB, extra) {
  return {
    kind: 'compare',
    a: cur.texts[a].text,
    sources: [{ text, excludeB }],
    options: { foldDiacritics: cur.options.foldDiacritics },
    excludeA: cur.result.texts[a].excluded,
    ...extra,
  };
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
