// A reference library at scale (issue 38): N essays of about 1,000 words
// (words drawn at random from docs-bench's vocabulary, so that their
// phrases are distinct, as a school's essays mostly are) built into a
// library with the CLI, then a class of 200 checked against it one way —
// 50 of them copying a quarter to all of a library essay. Prints the
// library's size per essay and the CPU time and peak memory of each step
// (GNU time), and checks that the 50 copies are found.
//   cargo build --release --features cli && node scripts/bench-library.mjs [N] [ROUNDS]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataDir, repo } from '../tests/js/paths.mjs';
import { ClassLibrary } from '../pkg/node.js';

const n = Number(process.argv[2] ?? 50000);
const rounds = Number(process.argv[3] ?? 1);
const cli = join(repo, 'target/release/neardup');
const words = [...new Set(readFileSync(`${dataDir}/docs-bench/docs.jsonl`, 'utf8').match(/[A-Za-z]{2,}/g))];
let seed = 7n;
const rand = () => {
  seed = (seed * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
  return Number(seed >> 33n);
};
const essay = (len) => Array.from({ length: len }, () => words[rand() % words.length]).join(' ');
const dir = mkdtempSync(join(tmpdir(), 'neardup-library-'));
const [lib, cls] = [join(dir, 'library'), join(dir, 'class')];
mkdirSync(lib);
mkdirSync(cls);
const kept = [];
for (let i = 0; i < n; i++) {
  const t = essay(1000);
  if (i % Math.floor(n / 50) === 0 && kept.length < 50) kept.push([i, t]);
  writeFileSync(join(lib, `e${String(i).padStart(6, '0')}.txt`), t);
}
for (let i = 0; i < 200; i++) {
  let t = essay(600);
  if (i < 50) {
    const [, src] = kept[i];
    const part = src.split(' ').slice(0, 250 + ((i * 15) % 750)).join(' ');
    t = `${essay(100)} ${part} ${essay(100)}`;
  }
  writeFileSync(join(cls, `s${String(i).padStart(3, '0')}.txt`), t);
}
const time = (args) => {
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S %M', cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(r.stderr);
  const [u, s, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { cpu: u + s, mb: Math.round(kb / 1024), out: r.stdout };
};
const file = join(dir, 'lib.ndl');
const built = time(['library', 'build', '-o', file, lib]);
const size = statSync(file).size;
console.log(`| step | essays | CPU s | peak MB |`);
console.log('|---|---|---|---|');
console.log(`| library build | ${n} | ${built.cpu.toFixed(1)} | ${built.mb} |`);
for (let r = 0; r < rounds; r++) {
  const checked = time(['class', cls, '--library', file]);
  const found = new Set(checked.out.split('\n').filter((l) => l.includes('\tlibrary\t')).map((l) => l.split('\t').slice(-2).join(' ')));
  const hits = kept.filter(([i], k) => found.has(`s${String(k).padStart(3, '0')}.txt e${String(i).padStart(6, '0')}.txt`)).length;
  console.log(`| class of 200 checked against it (${hits} of the 50 copies found, ${found.size} library matches) | ${n} | ${checked.cpu.toFixed(1)} | ${checked.mb} |`);
}
// The page's path: the same check by the WebAssembly module (what the
// page's worker runs), in this process: reading the file's bytes, then
// the class.
const classTexts = Array.from({ length: 200 }, (_, i) => readFileSync(join(cls, `s${String(i).padStart(3, '0')}.txt`), 'utf8'));
for (let r = 0; r < rounds; r++) {
  const t0 = process.cpuUsage();
  const w0 = performance.now();
  const lib = ClassLibrary.fromBytes(readFileSync(file));
  const found = lib.check(classTexts, 0.05);
  const cpu = process.cpuUsage(t0);
  lib.free();
  console.log(`| the same in WebAssembly (npm, as the page's worker): read the library, check the class (${found.length} matches) | ${n} | ${((cpu.user + cpu.system) / 1e6).toFixed(1)} (wall ${((performance.now() - w0) / 1e3).toFixed(1)} s) | ${Math.round(process.memoryUsage().rss / 1048576)} (this process) |`);
}
console.log(`\nlibrary file: ${(size / 1e6).toFixed(1)} MB, ${Math.round(size / n)} bytes an essay`);
rmSync(dir, { recursive: true, force: true });
