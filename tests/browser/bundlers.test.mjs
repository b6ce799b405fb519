// The packed package bundled as a web app would bundle it, then loaded in
// Chromium: a Vite build (no configuration: Vite follows the package's
// `new URL('neardup_bg.wasm', import.meta.url)`) and an esbuild bundle
// (`--loader:.wasm=file`, the .wasm imported as a URL and handed to init, as
// the package README says) and a webpack 5 build (no configuration either:
// webpack emits the `new URL` asset) must each initialise the module and
// compare two texts in the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { extname, join, normalize } from 'node:path';
import { build } from 'esbuild';
import { build as viteBuild } from 'vite';
import webpack from 'webpack';
import { chromium } from 'playwright-core';
import { projectWithPackage } from '../js/helpers.mjs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
let browser;
// What each app does once the module is ready: compare two sentences and
// put the score on the page.
const SCORE_IT = `const r = compare('the quick brown fox jumps over the lazy dog', 'the quick brown fox jumps over the lazy cat', { wordK: 3 });
document.body.dataset.score = String(r.score);
`;

before(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
});
after(async () => {
  await browser?.close();
});

/** Serves `dir` on a free port; resolves to [server, origin, requests]. */
function serve(dir) {
  const requests = [];
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^\/+/, '');
    requests.push(path);
    try {
      const body = readFileSync(join(dir, path || 'index.html'));
      res.writeHead(200, { 'content-type': TYPES[extname(path || 'index.html')] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok([server, `http://127.0.0.1:${server.address().port}`, requests])));
}

test('an esbuild bundle of the packed package runs in Chromium', async () => {
  const project = projectWithPackage('esbuild-app');
  writeFileSync(
    join(project, 'main.js'),
    `import init, { compare, wasmSimd } from 'neardup';
import simdUrl from 'neardup/neardup_simd_bg.wasm';
import baselineUrl from 'neardup/neardup_bg.wasm';
await init({ module_or_path: wasmSimd ? simdUrl : baselineUrl });
${SCORE_IT}`,
  );
  await build({
    absWorkingDir: project,
    entryPoints: ['main.js'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    loader: { '.wasm': 'file' },
    outdir: join(project, 'dist'),
    logLevel: 'silent',
  });
  writeFileSync(join(project, 'dist', 'index.html'), '<!doctype html><body><script type="module" src="main.js"></script></body>');
  const score = await scoreIn(join(project, 'dist'));
  assert.ok(score > 0.5 && score < 1, `score ${score}`);
});

/** Loads `dist` in Chromium and returns the score the page computed; the paths it requested are added to `seen`. */
async function scoreIn(dist, wasm = /\.wasm$/, seen = []) {
  const [server, origin, requests] = await serve(dist);
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => document.body.dataset.score !== undefined, null, { timeout: 20_000 });
    const score = Number(await page.evaluate(() => document.body.dataset.score));
    assert.deepEqual(errors, []);
    assert.ok(requests.some((p) => wasm.test(p)), `the .wasm is fetched from the build: ${requests}`);
    await page.close();
    seen.push(...requests);
    return score;
  } finally {
    server.close();
  }
}

test('a Vite build of the packed package runs in Chromium, with no configuration', async () => {
  const project = projectWithPackage('vite-app');
  writeFileSync(join(project, 'index.html'), '<!doctype html><body><script type="module" src="/main.js"></script></body>');
  writeFileSync(
    join(project, 'main.js'),
    `import init, { compare } from 'neardup';
await init();
${SCORE_IT}`,
  );
  await viteBuild({ root: project, logLevel: 'silent', configFile: false, build: { outDir: join(project, 'dist'), target: 'es2022' } });
  // Vite keeps the file's name: the SIMD build is the one Chromium fetches.
  const score = await scoreIn(join(project, 'dist'), /neardup_simd_bg[^/]*\.wasm$/);
  assert.ok(score > 0.5 && score < 1, `score ${score}`);
});

test('a webpack 5 build of the packed package runs in Chromium, with no configuration', async () => {
  const project = projectWithPackage('webpack-app');
  writeFileSync(
    join(project, 'main.js'),
    `import init, { compare } from 'neardup';
await init();
${SCORE_IT}`,
  );
  // webpack's defaults (production mode, ./src/index.js aside): only where the entry is and where the output goes.
  const compiler = webpack({ mode: 'production', context: project, entry: './main.js', output: { path: join(project, 'dist') }, performance: { hints: false } });
  const stats = await new Promise((ok, fail) => compiler.run((e, s) => (e ? fail(e) : ok(s))));
  await new Promise((ok) => compiler.close(ok));
  assert.ok(!stats.hasErrors(), stats.toString({ all: false, errors: true }));
  writeFileSync(join(project, 'dist', 'index.html'), '<!doctype html><body><script src="main.js"></script></body>');
  const score = await scoreIn(join(project, 'dist'));
  assert.ok(score > 0.5 && score < 1, `score ${score}`);
});

// Issue 49: each npm entry bundled by Vite with no configuration loads only
// its own module — `neardup/compare` the comparison's, not the whole
// package's — and the bytes of each entry's bundle (its JavaScript and the
// WebAssembly Chromium fetches, gzipped at level 9) are reported, as
// bundle-size tools do (`node --test --test-name-pattern=entry
// tests/browser/bundlers.test.mjs`; BENCHMARKS.md "Modules by use").
test('each entry bundled by Vite fetches only its own module; its size is reported', async (t) => {
  const entries = {
    neardup: `import init, { compare } from 'neardup';\nawait init();\n${SCORE_IT}`,
    'neardup/compare': `import init, { compare } from 'neardup/compare';\nawait init();\n${SCORE_IT}`,
  };
  const sizes = {};
  for (const [entry, code] of Object.entries(entries)) {
    const project = projectWithPackage(`vite-${entry.replace('/', '-')}`);
    writeFileSync(join(project, 'index.html'), '<!doctype html><body><script type="module" src="/main.js"></script></body>');
    writeFileSync(join(project, 'main.js'), code);
    const dist = join(project, 'dist');
    await viteBuild({ root: project, logLevel: 'silent', configFile: false, build: { outDir: dist, target: 'es2022' } });
    const requests = [];
    const score = await scoreIn(dist, /\.wasm$/, requests);
    assert.ok(score > 0.5 && score < 1, `${entry}: score ${score}`);
    const wasm = requests.filter((p) => p.endsWith('.wasm'));
    assert.equal(wasm.length, 1, `${entry}: one module fetched, ${wasm}`);
    const isCompare = /neardup_compare_simd_bg[^/]*\.wasm$/.test(wasm[0]);
    assert.equal(isCompare, entry === 'neardup/compare', `${entry} fetched ${wasm[0]}`);
    const files = readdirSync(join(dist, 'assets')).map((f) => join(dist, 'assets', f));
    const gz = (f) => gzipSync(readFileSync(f), { level: 9 }).length;
    sizes[entry] = {
      js: files.filter((f) => f.endsWith('.js')).reduce((n, f) => n + gz(f), 0),
      wasm: gz(join(dist, wasm[0])),
      wasmRaw: statSync(join(dist, wasm[0])).size,
    };
  }
  for (const [entry, s] of Object.entries(sizes)) {
    t.diagnostic(`${entry}: ${(s.js / 1024).toFixed(1)} KiB of JavaScript and ${(s.wasm / 1024).toFixed(1)} KiB of WebAssembly gzipped (${(s.wasmRaw / 1024).toFixed(1)} KiB raw)`);
  }
  // The comparison's module is at most 70 % of the whole package's.
  assert.ok(sizes['neardup/compare'].wasm < 0.7 * sizes.neardup.wasm, JSON.stringify(sizes));
});
