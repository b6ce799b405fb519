// Runs neardup off the main thread, so typing stays responsive with long
// texts. Messages in: {id, a, sources, options}; out: {id, reports, ms} or
// {id, error}. The learned verdict model (model.json, trained by
// `neardup train` on the Clough–Stevenson corpus) is loaded from this page's
// own origin; without it the report has no verdict.
import init, { compare, SvmModel } from '../pkg/index.js';

const ready = (async () => {
  await init();
  try {
    const response = await fetch(new URL('./model.json', import.meta.url));
    if (!response.ok) return { model: null, modelError: `model.json: HTTP ${response.status}` };
    return { model: SvmModel.fromJson(await response.text()), modelError: null };
  } catch (err) {
    return { model: null, modelError: String(err && err.message ? err.message : err) };
  }
})();

// Several sources: A is compared with each ({id, a, sources: [b, …]});
// the answer has one report per source, in order.
self.onmessage = async (event) => {
  const { id, a, sources, options } = event.data;
  try {
    const { model, modelError } = await ready;
    const t0 = performance.now();
    const reports = sources.map((b) => compare(a, b, model ? { ...options, model } : options));
    self.postMessage({ id, reports, ms: performance.now() - t0, modelError });
  } catch (err) {
    self.postMessage({ id, error: err && err.message ? err.message : String(err) });
  }
};
