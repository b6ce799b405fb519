// The package README's examples, run as a user would: every ```js block of
// pkg/README.md is written to a fresh project that has the packed package
// installed, and run by Node; each must finish without an error (several
// assert what they print).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectWithPackage, repo } from './helpers.mjs';

const readme = readFileSync(join(repo, 'pkg/README.md'), 'utf8');
const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

test('the package README has an example for every class and environment note', () => {
  assert.ok(blocks.length >= 8, `${blocks.length} examples`);
  for (const name of ['compare', 'SvmModel', 'MinHash', 'MinHashLsh', 'SimHash', 'SimHashIndex', 'MultiRef', 'Speller', 'phonetic', 'normalize']) {
    assert.ok(blocks.some((b) => b.includes(name)), `no example uses ${name}`);
  }
  for (const env of ['Node', 'Vite', 'esbuild', 'webpack', 'Workers', 'CommonJS', 'TypeError']) {
    assert.ok(readme.includes(env), `the README does not mention ${env}`);
  }
});

test("every js example of the package README runs against the packed package, printing what it promises", () => {
  const project = projectWithPackage('readme-examples');
  let printed = 0;
  blocks.forEach((code, i) => {
    const file = join(project, `example-${i}.mjs`);
    writeFileSync(file, code);
    let out;
    try {
      out = execFileSync(process.execPath, [file], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      assert.fail(`README example ${i} failed:\n${code}\n${e.stderr}`);
    }
    // What a `// prints: …` comment promises is what the example prints.
    const promised = [...code.matchAll(/\/\/ prints: (.*)$/gm)].map((m) => m[1].trim());
    if (promised.length) assert.deepEqual(out.trim().split('\n'), promised, `package README example ${i}`);
    printed += promised.length;
  });
  assert.ok(printed >= 2, 'examples promise what they print');
});

// The documented CommonJS stance: ESM only, loaded by Node's require() of
// ES modules (Node ≥ 20.19, which the package's engines field allows).
test('CommonJS code requires the package through require(esm)', () => {
  const project = projectWithPackage('cjs-user', {});
  writeFileSync(
    join(project, 'main.js'),
    "const { compare } = require('neardup');\nconsole.log(compare('one two three', 'one two three').score);\n",
  );
  const out = execFileSync(process.execPath, [join(project, 'main.js')], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
  assert.equal(out.trim(), '1');
  const engines = JSON.parse(readFileSync(join(project, 'node_modules', 'neardup', 'package.json'), 'utf8')).engines.node;
  assert.equal(engines, '>=20.19');
});

// The repository README's JavaScript examples run too, from the repository
// (they read assets/model.json and assets/multiref.json), against pkg/.
test("every js example of the repository README runs", () => {
  const top = readFileSync(join(repo, 'README.md'), 'utf8');
  const examples = [...top.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(examples.length >= 3, `${examples.length} examples`);
  const dir = mkdtempSync(join(tmpdir(), 'neardup-top-readme-'));
  let printed = 0;
  examples.forEach((code, i) => {
    // Resolve 'neardup' to the built package, as `npm link` would.
    const file = join(dir, `example-${i}.mjs`);
    writeFileSync(file, code.replaceAll("from 'neardup'", `from '${join(repo, 'pkg', 'node.js')}'`));
    let out;
    try {
      out = execFileSync(process.execPath, [file], { cwd: repo, encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      assert.fail(`README example ${i} failed:\n${code}\n${e.stderr}`);
    }
    // What a `// prints: …` comment promises is what the example prints.
    const promised = [...code.matchAll(/\/\/ prints: (.*)$/gm)].map((m) => m[1].trim());
    if (promised.length) assert.deepEqual(out.trim().split('\n'), promised, `README example ${i}`);
    printed += promised.length;
  });
  assert.ok(printed >= 2, 'examples promise what they print');
});
