// The two-text view's state, shared by its modules: what is being compared
// (`pending`), what is shown (`shown`: the last answer rendered, read by
// the passage list, the B view's source, print and the report), and the
// class set's exclusions of an opened pair (`pair`), kept until either text
// is edited. Nothing here computes or draws.
export const state = {
  /** The request being compared: {a, aName, sources, options, quotes}. */
  pending: null,
  /** The answer shown, with what rendering derived from it. */
  shown: null,
  /** A pair opened from the class set: {a, b, commonA} (UTF-16 ranges),
   * classSources when the class's sources were added after B. */
  pair: null,
  /** Bumped whenever the highlights are redrawn: older jobs stop. */
  highlightJob: 0,
  /** Whether the views mark the words where the core undid a trick. */
  showTricks: false,
};

/** An element of the page by id. */
export const $ = (id) => document.getElementById(id);
