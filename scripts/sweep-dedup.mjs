// The sweep behind dedup's defaults (EVALUATION.md, "Choosing dedup's
// defaults"): precision, recall and F1 of `neardup dedup` on docs-bench and
// on its typo copies, for each method and setting, with the CPU time and
// peak memory of each run.
//
//   cargo build --release --features cli
//   node scripts/make-typo-bench.mjs
//   node scripts/sweep-dedup.mjs [--quick] > sweep.md      (about 15 minutes)
//
// Needs /usr/bin/time (GNU time) for CPU and memory.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataDir, repo } from '../tests/js/helpers.mjs';

const bin = join(repo, 'target/release/neardup');
const tmp = mkdtempSync(join(tmpdir(), 'neardup-sweep-'));
const benches = {
  'docs-bench': join(dataDir, 'docs-bench'),
  typo: join(repo, 'target/typo-bench'),
};
const quick = process.argv.includes('--quick');

const configs = [];
for (const shingle of quick ? ['word:5', 'char:5'] : ['word:3', 'word:5', 'char:3', 'char:4', 'char:5', 'char:7']) {
  for (const t of quick ? [0.5] : [0.3, 0.4, 0.5, 0.6]) {
    configs.push({ method: 'minhash', args: ['--shingle', shingle, '--threshold', String(t)], label: `minhash ${shingle} t=${t}` });
  }
}
for (const shingle of ['char:5', 'word:3']) {
  for (const k of quick ? [12] : [3, 6, 8, 10, 12, 14]) {
    configs.push({ method: 'simhash', args: ['--method', 'simhash', '--shingle', shingle, '-k', String(k)], label: `simhash ${shingle} k=${k} verified t=0.5` });
  }
}
for (const k of quick ? [] : [3, 6]) {
  configs.push({ method: 'simhash', args: ['--method', 'simhash', '--shingle', 'char:5', '-k', String(k), '--no-verify'], label: `simhash char:5 k=${k} unverified` });
}
configs.push({ method: 'simhash', args: ['--method', 'simhash', '--shingle', 'char:5', '-k', '12', '--weights', 'binary'], label: 'simhash char:5 k=12 binary verified t=0.5' });

console.log('| setting | bench | P | R | F1 | recall by edit rate | CPU s | peak RSS MB |');
console.log('|---|---|---|---|---|---|---|---|');
for (const c of configs) {
  for (const [name, dir] of Object.entries(benches)) {
    const summary = join(tmp, 'summary.json');
    const run = spawnSync(
      '/usr/bin/time',
      ['-f', 'TIME %U %S %M', bin, 'dedup', join(dir, 'docs.jsonl'), ...c.args, '--truth', join(dir, 'pairs.tsv'), '--summary', summary, '-o', '/dev/null'],
      { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26, encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`${c.label} on ${name}: ${run.stderr}`);
    const stderr = run.stderr;
    const s = JSON.parse(readFileSync(summary, 'utf8'));
    const time = (stderr || '').match(/TIME ([\d.]+) ([\d.]+) (\d+)/);
    const t = s.truth;
    const rates = Object.entries(t.recall_by_edit_rate)
      .map(([r, [, , x]]) => `${r.replace('typo-', 't')}: ${x.toFixed(2)}`)
      .join(', ');
    const cpu = time ? (Number(time[1]) + Number(time[2])).toFixed(1) : '?';
    const rss = time ? (Number(time[3]) / 1024).toFixed(0) : '?';
    console.log(`| ${c.label} | ${name} | ${t.precision.toFixed(3)} | ${t.recall.toFixed(3)} | **${t.f1.toFixed(3)}** | ${rates} | ${cpu} | ${rss} |`);
  }
}
