// Shared by the page's Web Workers (worker.js, read/worker.js): the requests
// the worker made (its modules, the WebAssembly, the model, the dictionary,
// pdf.js), sent with each answer as `resources: [{url, at}]` (`at` in ms
// since the epoch), so that the page's network-proof line (privacy.js)
// counts them with its own: a worker's requests are in its own performance
// timeline, not the page's. Sent with answers, never on their own, so that a
// worker ended once it has answered has reported everything it fetched.

let reported = 0;

/** The requests made since the last call. */
export function newResources() {
  if (typeof performance === 'undefined' || !performance.getEntriesByType) return [];
  const entries = performance.getEntriesByType('resource');
  const out = entries.slice(reported).map((e) => ({ url: e.name, at: performance.timeOrigin + e.startTime }));
  reported = entries.length;
  return out;
}
