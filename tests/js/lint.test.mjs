// The hand-written JavaScript checked as a linter would: every module of
// the page (www/), the npm entries (src/wasm/js/) and the edge Worker
// (edge/src/) parses (`node --check`), every relative import names a file
// that exists, and the npm entry type-checks against the package's types
// (`tsc --checkJs`), as the package is built.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { repo } from './helpers.mjs';

function modules(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!['vendor', 'lib', 'node_modules', 'dist'].includes(name)) out.push(...modules(p));
    } else if (/\.(m?js)$/.test(name)) out.push(p);
  }
  return out;
}

const files = [...modules(join(repo, 'www')), ...modules(join(repo, 'src', 'wasm', 'js')), ...modules(join(repo, 'edge', 'src'))];

test('every hand-written module parses', () => {
  assert.ok(files.length > 20, `${files.length} modules`);
  for (const f of files) {
    try {
      execFileSync(process.execPath, ['--check', f], { stdio: 'pipe' });
    } catch (e) {
      assert.fail(`${relative(repo, f)}: ${e.stderr}`);
    }
  }
});

test('every relative import names a file that exists (static and dynamic)', () => {
  const specifier = /(?:^|[^\w.])(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|new URL\(\s*['"](\.{1,2}\/[^'"]+)['"],\s*import\.meta\.url/gm;
  // Generated at build time: the package and the page's bundled libraries.
  const generated = (p) => p.includes('/pkg/') || p.includes('/www/lib/') || /neardup(_simd)?_bg\.wasm/.test(p) || /src\/wasm\/js\/(neardup|model|multiref|dictionary)/.test(p);
  for (const f of files) {
    for (const m of readFileSync(f, 'utf8').matchAll(specifier)) {
      const target = join(dirname(f), m[1] ?? m[2] ?? m[3]);
      if (generated(target)) continue;
      assert.ok(existsSync(target), `${relative(repo, f)} imports ${m[1] ?? m[2] ?? m[3]}, which does not exist`);
    }
  }
});

test('the npm entry type-checks against the package it is built into (tsc --checkJs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'neardup-lint-'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { allowJs: true, checkJs: true, noEmit: true, target: 'es2022', module: 'es2022', moduleResolution: 'bundler', lib: ['es2022', 'dom', 'esnext.disposable'], strict: false },
    files: [join(repo, 'pkg', 'index.js')],
  }));
  try {
    execFileSync(process.execPath, [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')], { stdio: 'pipe' });
  } catch (e) {
    assert.fail(`tsc: ${e.stdout}${e.stderr}`);
  }
  // pkg/ holds the entry as written, not a copy of another text.
  assert.equal(readFileSync(join(repo, 'pkg', 'index.js'), 'utf8'), readFileSync(join(repo, 'src', 'wasm', 'js', 'index.js'), 'utf8'));
});
