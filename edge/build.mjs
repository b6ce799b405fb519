// Bundles the Worker (edge/src/index.js + the neardup package) for workerd,
// as wrangler would: esbuild with the `workerd` export condition, the .wasm
// kept as its own module (workerd compiles it; the package's workerd entry
// imports it). Used by `npm run edge:dev`, the tests and the benchmark;
// `wrangler deploy` does the same by itself.
//   node edge/build.mjs [outdir]     (default edge/dist)
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '..');

/**
 * Builds `entry` (default: the Worker) into `outdir/worker.js` and
 * `outdir/neardup_bg.wasm`. `neardup` is the
 * package in `packageDir` (default: the repository's pkg/, as built by
 * scripts/build-pkg.sh). Returns the paths and sizes.
 */
export async function buildWorker({
  outdir = join(here, 'dist'),
  packageDir = join(repo, 'pkg'),
  entry = join(here, 'src/index.js'),
} = {}) {
  statSync(join(packageDir, 'package.json')); // a clear error when pkg/ is not built
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  // Resolve the bare specifier `neardup` to packageDir through a node_modules
  // folder of our own, so that its package.json `exports` (and the workerd
  // condition) are used as they would be in an installed copy.
  const modules = mkdtempSync(join(tmpdir(), 'neardup-edge-'));
  symlinkSync(resolve(packageDir), join(modules, 'neardup'), 'dir');
  const wasm = {
    name: 'wasm-module',
    setup(b) {
      b.onResolve({ filter: /\.wasm$/ }, (args) => {
        copyFileSync(join(args.resolveDir, args.path), join(outdir, 'neardup_bg.wasm'));
        return { path: './neardup_bg.wasm', external: true };
      });
    },
  };
  try {
    await build({
      entryPoints: [entry],
      outfile: join(outdir, 'worker.js'),
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['module', 'main'],
      nodePaths: [modules],
      external: ['cloudflare:*'],
      plugins: [wasm],
      minify: true,
      logLevel: 'warning',
    });
  } finally {
    rmSync(modules, { recursive: true, force: true });
  }
  const script = join(outdir, 'worker.js');
  const wasmPath = join(outdir, 'neardup_bg.wasm');
  return { outdir, script, wasm: wasmPath, bytes: { script: statSync(script).size, wasm: statSync(wasmPath).size } };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await buildWorker(process.argv[2] ? { outdir: resolve(process.argv[2]) } : {});
  console.log(`[edge] ${r.script} (${r.bytes.script} bytes) + ${r.wasm} (${r.bytes.wasm} bytes)`);
}
