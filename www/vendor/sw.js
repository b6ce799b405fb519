// The page's service worker (issue 49), bundled by scripts/build-page.mjs
// into www/sw.js with Workbox: the page, its modules, the WebAssembly this
// browser runs (the SIMD builds or the baseline ones, as pkg/simd.js decides
// for the page: the two-text view's comparison module and the class set's
// whole one), the reader's module, the PDF reader, the verdict's model and
// the spelling dictionary are precached when the page is first visited, so
// that after one visit both views, files included, work with the network
// gone. Each file is keyed by a hash of its bytes: a new release is fetched
// in the background and taken on the next visit (no skipWaiting: a run in
// progress never switches version). Nothing here sends anything anywhere:
// it only answers the page's own requests from the cache.
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { simd } from '../../pkg/simd.js';

/** `[{url, revision}]`, URLs relative to this file; set by the build. */
const files = PRECACHE;
const unused = simd ? ['neardup_bg.wasm', 'neardup_compare_bg.wasm'] : ['neardup_simd_bg.wasm', 'neardup_compare_simd_bg.wasm'];
precacheAndRoute(
  files
    .filter((f) => !unused.some((name) => f.url.endsWith(`/${name}`)))
    .map((f) => ({ url: new URL(f.url, self.location).href, revision: f.revision })),
  // The reader's worker asks again with `?attempt=N` after a failed load.
  { ignoreURLParametersMatching: [/^utm_/, /^attempt$/] },
);
cleanupOutdatedCaches();
// The first visit's page is controlled at once (there is no older version
// to replace); later versions wait for every tab of the old one to close.
clientsClaim();
