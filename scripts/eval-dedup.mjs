// Precision, recall and F1 over pairs on docs-bench for the dedup methods,
// thresholds and shinglings; prints the Markdown tables of EVALUATION.md.
//   cargo build --release --features cli && node scripts/eval-dedup.mjs [methods...]
// methods: exact minhash simhash (default: all). NEARDUP_DATA overrides ../shared/data.
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const data = process.env.NEARDUP_DATA ?? join(repo, '..', 'shared', 'data');
const bin = join(repo, 'target/release/neardup');
const docs = join(data, 'docs-bench/docs.jsonl');
const truth = join(data, 'docs-bench/pairs.tsv');
const tmp = mkdtempSync(join(tmpdir(), 'neardup-eval-'));
const methods = process.argv.slice(2).length ? process.argv.slice(2) : ['exact', 'minhash', 'simhash'];

const variants = {
  exact: [['exact', ['--method', 'exact']]],
  minhash: [
    ['LSH candidates', ['--method', 'minhash', '--candidates']],
    ['LSH + estimate ≥ t', ['--method', 'minhash']],
    ['LSH + exact ≥ t', ['--method', 'minhash', '--verify']],
  ],
};

function run(args) {
  const summary = join(tmp, 'summary.json');
  execFileSync(bin, ['dedup', docs, '--truth', truth, '--summary', summary, '-o', '/dev/null', ...args], {
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const j = JSON.parse(readFileSync(summary, 'utf8'));
  return { ...j, ...j.truth, pairs_found: j.pairs };
}

const f3 = (x) => x.toFixed(3);
const rateCells = (s) =>
  ['0.01', '0.03', '0.05', '0.1', '0.15'].map((k) => (s.recall_by_edit_rate[k] ? f3(s.recall_by_edit_rate[k][2]) : '–')).join(' / ');

if (methods.includes('simhash')) {
  console.log('\n### SimHash (permuted-block index, exact within k)\n');
  console.log('| features | weights | k | pairs found | precision | recall | F1 | recall at edit rate 1 / 3 / 5 / 10 / 15 % | seconds |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const shingle of ['word:1', 'word:3', 'word:5', 'char:3', 'char:5']) {
    for (const weights of ['tf', 'tfidf']) {
      for (const k of [2, 3, 4, 6, 8, 10]) {
        const s = run(['--method', 'simhash', '--shingle', shingle, '--weights', weights, '-k', String(k), '--no-verify']);
        console.log(
          `| ${shingle} | ${weights} | ${k} | ${s.pairs_found} | ${f3(s.precision)} | ${f3(s.recall)} | ${f3(s.f1)} | ${rateCells(s)} | ${s.seconds.toFixed(1)} |`,
        );
      }
    }
  }
}

for (const shingle of methods.some((m) => m !== 'simhash') ? ['word:5', 'char:5'] : []) {
  console.log(`\n### ${shingle} shingles\n`);
  console.log('| method | t | bands × rows | pairs found | precision | recall | F1 | recall at edit rate 1 / 3 / 5 / 10 / 15 % | seconds |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const t of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8]) {
    for (const m of methods) {
      for (const [name, args] of variants[m] ?? []) {
        const s = run([...args, '--threshold', String(t), '--shingle', shingle]);
        const rates = rateCells(s);
        const shape = s.bands ? `${s.bands} × ${Math.min(...s.rows)}–${Math.max(...s.rows)}` : '–';
        console.log(
          `| ${name} | ${t} | ${shape} | ${s.pairs_found} | ${f3(s.precision)} | ${f3(s.recall)} | ${f3(s.f1)} | ${rates} | ${s.seconds.toFixed(1)} |`,
        );
      }
    }
  }
}
