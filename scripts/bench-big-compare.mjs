// Time and peak memory of `neardup compare` on large texts: similar and
// unrelated, ASCII prose and CJK, 1 MB to 60 MB, and the worst case for
// memory (one-letter words). Writes the texts under target/big/ and prints a
// Markdown table for BENCHMARKS.md (CPU = user + sys, from GNU time).
//   node scripts/bench-big-compare.mjs [DATA_DIR]     (needs a release build:
//   cargo build --release --features cli)
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const data = process.argv[2] ?? process.env.NEARDUP_DATA ?? '../shared/data';
const out = 'target/big';
const bin = 'target/release/neardup';
mkdirSync(out, { recursive: true });

let state = 12345n; // SplitMix64, so the texts are the same on every run
const next = () => {
  state = (state + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
  return Number((z ^ (z >> 31n)) >> 11n) / 2 ** 53;
};
const cut = (s, mb) => s.slice(0, mb * 1e6);

const docs = readFileSync(join(data, 'docs-bench/docs.jsonl'), 'utf8')
  .trim().split('\n').map((l) => JSON.parse(l).text);
for (let i = docs.length - 1; i > 0; i--) {
  const j = Math.floor(next() * (i + 1));
  [docs[i], docs[j]] = [docs[j], docs[i]];
}
const half = docs.length >> 1;
const enA = docs.slice(0, half).join('\n\n');
const enB = docs.slice(half).join('\n\n');
const edited = (s) => s.split(' ').map((w) => (next() < 0.05 ? `zq${Math.floor(next() * 1e4)}` : w)).join(' ');
// CJK: 3,500 ideographs with Zipf weights, a full stop every 40.
const cjk = (mb) => {
  const n = Math.floor((mb * 1e6) / 3);
  const cum = [];
  let t = 0;
  for (let i = 0; i < 3500; i++) cum.push((t += 1 / (i + 1)));
  const pick = () => {
    const x = next() * t;
    let lo = 0, hi = cum.length - 1;
    while (lo < hi) { const m = (lo + hi) >> 1; if (cum[m] < x) lo = m + 1; else hi = m; }
    return lo;
  };
  const a = [];
  for (let i = 0; i < n; i++) a.push(i % 40 === 0 ? '。' : String.fromCharCode(0x4e00 + pick()));
  return a.join('');
};
const letters = (mb) => Array.from({ length: (mb * 1e6) / 2 }, () => String.fromCharCode(97 + Math.floor(next() * 26))).join(' ');

const file = (name, make) => {
  const p = join(out, `${name}.txt`);
  if (!existsSync(p)) writeFileSync(p, make());
  return p;
};
const cases = [];
for (const mb of [1, 10, 16]) {
  const a = file(`en-a-${mb}`, () => cut(enA, mb));
  cases.push([`English prose, unrelated`, mb, a, file(`en-b-${mb}`, () => cut(enB, mb))]);
  cases.push([`English prose, 5 % of words edited`, mb, a, file(`en-e-${mb}`, () => edited(cut(enA, mb)))]);
}
for (const mb of [1, 10, 60]) {
  const a = file(`cjk-a-${mb}`, () => cjk(mb));
  cases.push([`CJK, unrelated`, mb, a, file(`cjk-b-${mb}`, () => cjk(mb))]);
  cases.push([`CJK, identical`, mb, a, a]);
}
cases.push([`one-letter words, unrelated (worst case for memory)`, 10, file('letters-a-10', () => letters(10)), file('letters-b-10', () => letters(10))]);

console.log('| texts | MB each | CPU s | s per MB of input | peak RSS MB | bytes of RSS per input byte |');
console.log('|---|---|---|---|---|---|');
for (const [what, mb, a, b] of cases) {
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S %M', bin, 'compare', a, b, '--json'], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`${what} ${mb}: ${r.stderr}`);
  const [u, s, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  const cpu = u + s;
  const rss = kb / 1024;
  console.log(`| ${what} | ${mb} | ${cpu.toFixed(2)} | ${(cpu / (2 * mb)).toFixed(3)} | ${rss.toFixed(0)} | ${((kb * 1024) / (2 * mb * 1e6)).toFixed(0)} |`);
}
