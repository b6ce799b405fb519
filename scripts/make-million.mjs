// Writes target/million/docs.jsonl for the 1 M-document dedup benchmark
// (BENCHMARKS.md): node scripts/make-million.mjs [N] [DIR] [WORDS] (default
// 1,000,000 documents of 50 words into target/million).
// N documents of WORDS words each, drawn at random from docs-bench's
// distinct words (so that no two are near-duplicates), and every 1,000th
// followed by a copy with two words changed (a planted pair).
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir, repo } from '../tests/js/paths.mjs';
const words = [...new Set(readFileSync(join(dataDir, 'docs-bench', 'docs.jsonl'), 'utf8').trim().split('\n').flatMap((l) => JSON.parse(l).text.toLowerCase().split(/[^a-z]+/)).filter((w) => w.length > 2))];
const n = Number(process.argv[2] ?? 1_000_000);
const dir = process.argv[3] ?? join(repo, 'target', 'million');
const length = Number(process.argv[4] ?? 50);
mkdirSync(dir, { recursive: true });
const out = createWriteStream(join(dir, 'docs.jsonl'));
let a = 12345;
// mulberry32
const r = () => { a = (a + 0x6d2b79f5) | 0; let t = Math.imul(a ^ (a >>> 15), 1 | a); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return (t ^ (t >>> 14)) >>> 0; };
let prev = null;
for (let i = 0; i < n; i++) {
  let doc;
  if (i % 1000 === 1) { doc = prev.slice(); doc[r() % length] = 'changed'; doc[r() % length] = 'edited'; }
  else doc = Array.from({ length }, () => words[r() % words.length]);
  prev = doc;
  const line = JSON.stringify({ id: `m${i}`, text: doc.join(' ') }) + '\n';
  if (!out.write(line)) await new Promise((res) => out.once('drain', res));
}
out.end();
console.log(words.length, 'distinct words');
