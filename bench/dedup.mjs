// The dedup pipeline from JavaScript against the CLI, CPU time, interleaved
// (BENCHMARKS.md, "Collections everywhere"): `dedup()` of the npm package in
// Node on docs-bench with no options, against `neardup dedup` on one thread
// (RAYON_NUM_THREADS=1) and on every core, same options, same pairs.
//
//   cargo build --release --features cli && bash scripts/build-pkg.sh
//   node bench/dedup.mjs [ROUNDS]          (default 5)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus } from 'node:os';
import { dataDir, repo } from '../tests/js/helpers.mjs';

const rounds = Number(process.argv[2] ?? 5);
const input = join(dataDir, 'docs-bench', 'docs.jsonl');
const cli = join(repo, 'target', 'release', 'neardup');

// One child process per measure, so that each starts cold and alike.
function node() {
  const script = `
    import { readFileSync } from 'node:fs';
    import { dedup } from ${JSON.stringify(join(repo, 'pkg', 'node.js'))};
    const t0 = process.cpuUsage();
    const documents = readFileSync(${JSON.stringify(input)}, 'utf8').trim().split('\\n').map((l) => JSON.parse(l));
    const t1 = process.cpuUsage(t0);
    const r = dedup(documents);
    const t2 = process.cpuUsage(t0);
    const s = (u) => (u.user + u.system) / 1e6;
    console.log(JSON.stringify({ read: s(t1), total: s(t2), pairs: r.pairs.length, rss: process.memoryUsage().rss }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 1 << 26 }));
}

function timed(threads) {
  const r = execFileSync('bash', ['-c', `RAYON_NUM_THREADS=${threads} /usr/bin/time -f '%U %S %M' ${cli} dedup ${input} -o /dev/null 2>&1 >/dev/null | tail -1`], { encoding: 'utf8' });
  const [u, s, kb] = r.trim().split(/\s+/).map(Number);
  return { cpu: u + s, rss: kb * 1024 };
}

const rows = { node: [], nodeRead: [], one: [], all: [] };
let pairs;
for (let i = 0; i < rounds; i++) {
  const n = node();
  rows.node.push(n.total - n.read);
  rows.nodeRead.push(n.total);
  pairs = n.pairs;
  rows.one.push(timed(1).cpu);
  rows.all.push(timed(cpus().length).cpu);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const m = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, median(v)]));
console.log(`docs-bench (5,075 documents, 34 MB), defaults (MinHash LSH, char:5, 0.5): ${pairs} pairs; medians of ${rounds} interleaved rounds, CPU seconds`);
console.log(`  npm dedup() in Node, the call:          ${m.node.toFixed(2)} s  (${(m.node / m.one).toFixed(2)}x the CLI on one thread)`);
console.log(`  npm dedup() in Node, with JSON.parse:   ${m.nodeRead.toFixed(2)} s  (${(m.nodeRead / m.one).toFixed(2)}x)`);
console.log(`  neardup dedup, RAYON_NUM_THREADS=1:     ${m.one.toFixed(2)} s`);
console.log(`  neardup dedup, ${cpus().length} threads:               ${m.all.toFixed(2)} s`);
