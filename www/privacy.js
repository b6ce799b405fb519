// Private by proof (issue 49 item 3): a plain line in the page counting the
// requests made since the user first gave a text (typed or pasted into a
// text area, a file or a folder picked or dropped) — the page's own, from
// the Resource Timing entries (PerformanceObserver), and its workers', which
// they report (resources.js through engine.js). The Content-Security-Policy
// already keeps every request on the page's own origin (connect-src
// 'self'); the line lets anyone see it, and README's "airplane test" shows
// how to check it with the network off.
import { onWorkerResource } from './engine.js';

const line = document.getElementById('network-proof');
/** When texts were first given (ms since the epoch), or null. */
let since = null;
/** Every request seen: `{url, at}`. */
const seen = [];

function given() {
  if (since !== null) return;
  since = performance.timeOrigin + performance.now();
  render();
}

/** Worker scripts the engine said it requested, not yet in the page's timeline. */
const scripts = new Map();

function note(url, at, { script = false, timeline = false } = {}) {
  if (!/^https?:/.test(url)) return; // data: and blob: URLs are not requests
  if (script) scripts.set(url, (scripts.get(url) ?? 0) + 1);
  else if (timeline && scripts.get(url) > 0) {
    scripts.set(url, scripts.get(url) - 1); // counted when the worker started
    return;
  }
  seen.push({ url, at });
  if (since !== null && at >= since) render();
}

/** The line: how many requests since the texts were given, and for what. */
function render() {
  const after = seen.filter((r) => r.at >= since);
  const foreign = after.filter((r) => new URL(r.url).origin !== location.origin);
  const n = after.length;
  const files = [...new Set(after.map((r) => new URL(r.url).pathname.split('/').pop()))];
  line.dataset.requests = String(n);
  line.dataset.foreign = String(foreign.length);
  line.classList.toggle('problem', foreign.length > 0);
  line.textContent = n === 0
    ? 'Nothing has left this computer: 0 requests since you opened your texts.'
    : foreign.length === 0
      ? `Nothing has left this computer: ${n} request${n === 1 ? '' : 's'} since you opened your texts, each a download of this page's own files (${files.slice(0, 4).join(', ')}${files.length > 4 ? ', …' : ''}); none carries your texts.`
      : `${foreign.length} of ${n} requests since you opened your texts went to another site: ${[...new Set(foreign.map((r) => new URL(r.url).origin))].join(', ')}.`;
  line.hidden = false;
}

document.addEventListener('input', (e) => {
  if (e.target instanceof HTMLTextAreaElement) given();
}, true);
document.addEventListener('change', (e) => {
  if (e.target instanceof HTMLInputElement && e.target.type === 'file' && e.target.files.length) given();
}, true);
document.addEventListener('drop', (e) => {
  if (e.dataTransfer?.files.length) given();
}, true);

if (typeof PerformanceObserver !== 'undefined') {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) note(e.name, performance.timeOrigin + e.startTime, { timeline: true });
  }).observe({ type: 'resource', buffered: true });
}
onWorkerResource(({ url, at, script }) => note(url, at, { script }));
