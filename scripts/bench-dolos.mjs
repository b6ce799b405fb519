// The class-set mode beside Dolos (issue 38), in Node, on the first N
// documents of docs-bench as one class: CPU time and peak memory of each
// process (GNU time), run in turn, ROUNDS rounds. Dolos is a
// benchmark-only dependency (npm ci --prefix bench/dolos):
//   npm run build && npm ci --prefix bench/dolos && node scripts/bench-dolos.mjs 2000 [ROUNDS]
// (neardup-words: the word 3-shingles and stock share 0.2 of issue 24.)
// A child process runs one tool: node scripts/bench-dolos.mjs --run TOOL N
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dataDir } from '../tests/js/paths.mjs';

const texts = (n) => readFileSync(`${dataDir}/docs-bench/docs.jsonl`, 'utf8').trim().split('\n').slice(0, n).map((l) => JSON.parse(l).text);

if (process.argv[2] === '--run') {
  const [tool, n] = [process.argv[3], Number(process.argv[4])];
  const docs = texts(n);
  if (tool.startsWith('neardup')) {
    const { classPairs } = await import('../pkg/node.js');
    // neardup-words: issue 24's defaults (word 3-shingles, stock share 0.2).
    const words = { charQ: 0, stockShare: 0.2, minContainment: 0.1, adaptiveCutOff: false };
    const r = classPairs(docs, [], '', tool === 'neardup-words' ? words : {});
    console.log(`${r.pairs.filter((p) => p.score >= r.cutOff).length} pairs at or above ${r.cutOff.toFixed(2)}`);
  } else {
    const dolos = await import('../bench/dolos/node_modules/@dodona/dolos-lib/dist/index.js');
    const files = docs.map((t, i) => new dolos.File(`d${i}.txt`, t));
    const report = await new dolos.Dolos({ language: 'char' }).analyze(files);
    console.log(`${report.allPairs().length} pairs`);
  }
} else {
  const n = Number(process.argv[2] ?? 2000);
  const rounds = Number(process.argv[3] ?? 1);
  const self = fileURLToPath(import.meta.url);
  console.log(`| tool | documents | CPU s | peak MB | output |`);
  console.log('|---|---|---|---|---|');
  for (let r = 0; r < rounds; r++) {
    for (const tool of ['neardup', 'neardup-words', 'dolos']) {
      const run = spawnSync('/usr/bin/time', ['-f', '%U %S %M', process.execPath, '--max-old-space-size=16000', self, '--run', tool, String(n)], { encoding: 'utf8', maxBuffer: 1 << 26 });
      if (run.status !== 0) throw new Error(`${tool}: ${run.stderr}`);
      const [user, sys, kb] = run.stderr.trim().split('\n').pop().split(' ').map(Number);
      console.log(`| ${tool} | ${n} | ${(user + sys).toFixed(1)} | ${Math.round(kb / 1024)} | ${run.stdout.trim()} |`);
    }
  }
}
