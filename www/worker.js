// Runs neardup's compare() off the main thread, so typing stays responsive
// with long texts. Messages in: {id, a, b, options}; out: {id, report, ms}
// or {id, error}.
import init, { compare } from '../pkg/neardup.js';

const ready = init();

self.onmessage = async (event) => {
  const { id, a, b, options } = event.data;
  try {
    await ready;
    const t0 = performance.now();
    const report = compare(a, b, options);
    self.postMessage({ id, report, ms: performance.now() - t0 });
  } catch (err) {
    self.postMessage({ id, error: err && err.message ? err.message : String(err) });
  }
};
