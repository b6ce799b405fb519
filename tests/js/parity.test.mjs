// One parity test over every surface (issue 36): the same collection gives
// the same clusters from the CLI (native), the npm package (wasm32),
// neardup.dedup, Polars and DuckDB, and the same sketch bytes from npm,
// Python, Polars and DuckDB. Spark and Ray are held to neardup.dedup by
// python/tests/test_engines.py (docs-bench, 1/4/7 partitions, groups of 1,
// 2, 3, 50 and 1,000 copies) on the session and runtime those tests start
// once (here, starting both again took 53 s, mostly waiting). The
// collection: 600 docs-bench documents (planted pairs among them) with 1,000
// copies of one and 3 near-copies of another interleaved — groups of 1, 2, 3
// and 1,001.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { dedup, DedupStages } from '../../pkg/node.js';
import { cliPath, docsBench, repo } from './helpers.mjs';

function collection() {
  const docs = [...docsBench().docs].slice(0, 600).map(([id, text]) => ({ id, text }));
  const extra = [];
  for (let k = 0; k < 1000; k++) extra.push({ id: `copyA${k}`, text: docs[10].text });
  for (let k = 0; k < 3; k++) extra.push({ id: `copyB${k}`, text: `${docs[20].text} (copy)` });
  const out = [];
  docs.forEach((d, i) => {
    out.push(d);
    if (i % 2 === 0 && extra.length) out.push(extra.pop());
  });
  return out.concat(extra);
}

test('every surface gives the same clusters and the same sketches of one collection', { timeout: 600_000 }, () => {
  const docs = collection();
  const file = join(mkdtempSync(join(tmpdir(), 'neardup-parity-')), 'docs.jsonl');
  writeFileSync(file, docs.map((d) => JSON.stringify(d)).join('\n') + '\n');

  const npm = dedup(docs).clusters;
  const sizes = npm.map((c) => c.length).sort((a, b) => b - a);
  assert.equal(sizes[0], 1001, 'the 1,000 copies and their original');
  assert.ok(sizes.includes(2) && npm.length >= 5, `planted pairs and the near-copies: ${sizes}`);

  const cli = cliPath();
  assert.ok(cli, 'the neardup CLI is built (cargo test --features cli builds it)');
  const native = execFileSync(cli, ['dedup', file, '--clusters'], { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] })
    .trim().split('\n').map((l) => JSON.parse(l).cluster);
  assert.deepEqual(native, npm, 'CLI (native) = npm (wasm32)');

  const python = join(repo, '.venv', 'bin', 'python');
  assert.ok(existsSync(python), 'the Python package is installed in .venv (npm test installs it first)');
  const out = JSON.parse(execFileSync(python, [join(repo, 'tests', 'parity.py'), file], {
    encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'],
  }));
  for (const surface of ['python', 'polars', 'duckdb', 'duckdb_sql']) {
    assert.deepEqual(out[surface].clusters, npm, `${surface} = npm = CLI`);
  }

  const stages = new DedupStages();
  const sketches = docs.slice(0, 50).map((d) => Buffer.from(stages.sketch(d.text)).toString('hex'));
  for (const surface of ['python', 'polars', 'duckdb']) {
    assert.deepEqual(out.sketches[surface], sketches, `${surface} sketches = npm's`);
  }
});
