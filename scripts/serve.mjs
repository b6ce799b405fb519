// Serves the page (www/ at /) and the package (pkg/ at /pkg/) on 127.0.0.1.
//   node scripts/serve.mjs [--port N]     (default 8080, or $PORT; 0 = any free port)
// Prints the URL. Only files under www/ and pkg/ are served, each with the
// page's Content-Security-Policy as a header: the `<meta>` tag of index.html
// covers the page only, and a Web Worker runs under the policy delivered with
// its own script, so the header is what keeps the worker from contacting any
// other origin (`connect-src 'self'`).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const defaultMounts = [
  ['/pkg/', join(root, 'pkg')],
  ['/', join(root, 'www')],
];
/** The policy of www/index.html's `<meta>` tag, sent with every response. */
export const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; " +
  "style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'";
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.ts': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

function resolvePath(mounts, urlPath) {
  for (const [prefix, dir] of mounts) {
    if (!urlPath.startsWith(prefix)) continue;
    const rel = normalize(decodeURIComponent(urlPath.slice(prefix.length)));
    const full = resolve(dir, '.' + sep + rel);
    if (full !== dir && !full.startsWith(dir + sep)) return null;
    return full;
  }
  return null;
}

/**
 * Starts the server on 127.0.0.1:`port` (0 = any free port).
 * `options.mounts`: extra `[urlPrefix, folder]` pairs tried first (tests);
 * `options.csp: false` leaves the policy header out (tests' control case).
 */
export function startServer(port = 8080, options = {}) {
  const mounts = [...(options.mounts ?? []), ...defaultMounts];
  const csp = options.csp ?? true;
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://localhost');
      let file = resolvePath(mounts, url.pathname);
      if (file && (await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      const body = file ? await readFile(file).catch(() => null) : null;
      if (!body) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      res.writeHead(200, {
        'content-type': types[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        ...(csp ? { 'content-security-policy': CSP } : {}),
      });
      res.end(body);
    } catch (err) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok(server));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  const port = Number(i > 0 ? process.argv[i + 1] : process.env.PORT ?? 8080);
  const server = await startServer(port);
  console.log(`neardup page: http://127.0.0.1:${server.address().port}/  (Ctrl-C to stop)`);
}
