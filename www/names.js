// Names from files, as the page shows them (both views and the exports).

/**
 * A name as shown everywhere (table, graph, exports, messages): the
 * bidirectional controls that would reorder what follows them (U+061C,
 * U+200E/F, U+202A–E, U+2066–9) written as ⟨U+202E⟩, so a file named
 * "essay\u202Etxt.exe" cannot pass for another.
 * @param {string} name
 */
export function shownName(name) {
  return name.replace(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `⟨U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}
