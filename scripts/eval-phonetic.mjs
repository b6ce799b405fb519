// Typo-robust matching on real misspellings (issue 10; seed 003's experiment):
//   1. the share of the original's k-shingles (k = 3, 4, 5) that its typo
//      copy still has, for word shingles and phonetic shingles of each
//      encoder, by misspelling rate;
//   2. `neardup dedup` precision / recall / F1 on the typo bench for word:3,
//      word:3+correct, phonetic:3 with each encoder, and char:5 (MinHash LSH, threshold 0.5,
//      and exact Jaccard at 0.5).
// Needs `node scripts/make-typo-bench.mjs` (target/typo-bench), the built
// package (pkg/) and a release CLI (cargo build --release --features cli).
//   node scripts/eval-phonetic.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import * as nd from '../pkg/node.js';
import { repo } from '../tests/js/helpers.mjs';

const bench = join(repo, 'target', 'typo-bench');
const docs = new Map();
for (const line of readFileSync(join(bench, 'docs.jsonl'), 'utf8').trim().split('\n')) {
  const d = JSON.parse(line);
  docs.set(d.id, d.text);
}
const pairs = readFileSync(join(bench, 'pairs.tsv'), 'utf8').trim().split('\n')
  .map((l) => l.split('\t')).filter((p) => p[2].startsWith('typo-'));
const ENCODERS = ['soundex', 'phonex', 'dsound', 'soundd', 'phonix', 'metaphone'];
const speller = nd.Speller.fromBytes(readFileSync(join(repo, 'pkg', 'dictionary-en.bin')));
const corrected = new Map();
const correctedText = (id) => {
  if (!corrected.has(id)) corrected.set(id, speller.correctText(docs.get(id)));
  return corrected.get(id);
};
const rates = [...new Set(pairs.map((p) => p[2]))];

console.log('## Shingles of the original kept by its typo copy (mean over copies)\n');
console.log(`| k | shingles | ${rates.map((r) => `${Math.round(Number(r.slice(5)) * 100)} % misspelt`).join(' | ')} |`);
console.log(`|---|---|${rates.map(() => '---').join('|')}|`);
for (const k of [3, 4, 5]) {
  for (const kind of ['word', 'word+correct', ...ENCODERS.map((e) => `phonetic:${e}`)]) {
    const correct = kind === 'word+correct';
    const spec = correct ? `word:${k}` : `${kind}:${k}`;
    const text = (id) => (correct ? correctedText(id) : docs.get(id));
    const cells = rates.map((rate) => {
      let sum = 0, n = 0;
      for (const [a, b, r] of pairs) {
        if (r !== rate) continue;
        const sa = new Set(nd.shingles(text(a), spec));
        const sb = new Set(nd.shingles(text(b), spec));
        let common = 0;
        for (const h of sa) if (sb.has(h)) common++;
        sum += common / sa.size;
        n++;
      }
      return (sum / n).toFixed(3);
    });
    console.log(`| ${k} | ${kind} | ${cells.join(' | ')} |`);
  }
}

console.log('\n## dedup on the typo bench (docs-bench + 600 typo copies)\n');
console.log('| shingles | method | precision | recall | F1 | recall 5 % | recall 10 % | recall 20 % | wall s |');
console.log('|---|---|---|---|---|---|---|---|---|');
const specs = ['word:3', 'word:3+correct', ...ENCODERS.map((e) => `phonetic:${e}:3`), 'char:5'];
for (const method of ['minhash', 'exact']) {
  for (const spec of specs) {
    const summary = join(bench, `summary-${method}-${spec.replaceAll(':', '-')}.json`);
    const r = spawnSync(join(repo, 'target/release/neardup'), [
      'dedup', join(bench, 'docs.jsonl'), '--method', method, '--threshold', '0.5', '--shingle', spec,
      '--truth', join(bench, 'pairs.tsv'), '--summary', summary, '-o', '/dev/null',
    ], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0) throw new Error(`${method} ${spec}: ${r.stderr}`);
    const s = JSON.parse(readFileSync(summary, 'utf8'));
    const tr = s.truth;
    const byRate = (rate) => tr.recall_by_edit_rate[rate]?.[2]?.toFixed(3) ?? '–';
    console.log(`| ${spec} | ${method} | ${tr.precision.toFixed(3)} | ${tr.recall.toFixed(3)} | ${tr.f1.toFixed(3)} | ${byRate('typo-0.05')} | ${byRate('typo-0.1')} | ${byRate('typo-0.2')} | ${s.seconds.toFixed(1)} |`);
  }
}
