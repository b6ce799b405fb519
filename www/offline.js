// Installable and offline (issue 49): registers the service worker
// (sw.js, built by scripts/build-page.mjs with Workbox) after the first
// score (registerOfflineSoon), which precaches the page, its modules and
// the WebAssembly on the first visit, so that after
// it both views, files included, work with the network gone. The footer
// says when this copy of the page is kept on this device. A new version is
// taken on the next visit, never during a run (the worker does not skip
// waiting). Nothing is registered where service workers are unavailable
// (a file:// page, a private window that refuses them).

const status = document.getElementById('offline-status');

/**
 * Registers sw.js once the page has done its first work — the two-text
 * view's first score, or the class set opened — or after `delayMs` (10 s)
 * if neither comes: the service worker precaches every module (the whole
 * package's and the reader's too, so that both views work offline after a
 * visit), and that download then comes after the first score, never before
 * it, where the comparison's module alone is fetched (issue 49). Later
 * visits are controlled by the registration from the first one from the
 * start; registering again only checks for a new version.
 */
export function registerOfflineSoon(delayMs = 10_000) {
  let started = false;
  const score = document.getElementById('score');
  const observer = new MutationObserver(() => {
    if (score.dataset.value !== undefined) start();
  });
  const timer = setTimeout(() => start(), delayMs);
  function start() {
    if (started) return;
    started = true;
    observer.disconnect();
    clearTimeout(timer);
    registerOffline();
  }
  observer.observe(score, { attributes: true, attributeFilter: ['data-value'] });
  document.getElementById('mode-class-set').addEventListener('click', start, { once: true });
}

/** Registers sw.js; resolves once the page can work offline (or never). */
export async function registerOffline() {
  if (!('serviceWorker' in navigator) || !/^https?:$/.test(location.protocol)) return;
  try {
    await navigator.serviceWorker.register('./sw.js');
    await navigator.serviceWorker.ready;
    status.textContent = 'This page is kept on this device: it works offline, and can be installed as an app.';
    status.dataset.ready = 'true';
  } catch {
    // No service worker (refused, or sw.js not built): the page works online as before.
  }
}
