// Installable and offline (issue 49): registers the service worker
// (sw.js, built by scripts/build-page.mjs with Workbox), which precaches the
// page, its modules and the WebAssembly on the first visit, so that after
// it both views, files included, work with the network gone. The footer
// says when this copy of the page is kept on this device. A new version is
// taken on the next visit, never during a run (the worker does not skip
// waiting). Nothing is registered where service workers are unavailable
// (a file:// page, a private window that refuses them).

const status = document.getElementById('offline-status');

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
