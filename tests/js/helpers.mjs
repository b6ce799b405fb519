// Shared helpers for the JS tests: where things are, and text decoding.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

import { decodeText, dedupDefaults } from '../../pkg/node.js';
import { dataDir, repo } from './paths.mjs';

export { dataDir, repo };

// Packs pkg/ as npm would publish it and unpacks it into `dir`: returns the
// package's folder (`dir/package`), what a user's node_modules/neardup holds.
export function unpackedPackage(dir) {
  const out = JSON.parse(execFileSync('npm', ['pack', join(repo, 'pkg'), '--pack-destination', dir, '--json'], { encoding: 'utf8' }));
  execFileSync('tar', ['-xzf', join(dir, out[0].filename), '-C', dir]);
  return join(dir, 'package');
}

// A fresh project with the packed package installed as a user's would be
// (node_modules/neardup) and this package.json: returns its folder.
export function projectWithPackage(name, packageJson = { type: 'module' }) {
  const work = mkdtempSync(join(tmpdir(), `neardup-${name}-`));
  const project = join(work, name);
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  cpSync(unpackedPackage(work), join(project, 'node_modules', 'neardup'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name, private: true, ...packageJson }));
  return project;
}

// A text file, decoded by the core's one rule (decodeText: byte-order
// mark, else UTF-8 when valid, else Windows-1252), as the CLI and the page.
export function readText(path) {
  return decodeText(readFileSync(path)).text;
}

export function clough(file) {
  return readText(join(dataDir, 'clough-abc', 'texts', file));
}

// The labelled pairs of clough-abc: [{file, source, category}].
export function cloughLabels() {
  const [header, ...rows] = readFileSync(join(dataDir, 'clough-abc', 'labels.csv'), 'utf8').trim().split(/\r?\n/);
  const cols = header.split(',');
  return rows.map((r) => {
    const f = r.split(',');
    const get = (name) => f[cols.indexOf(name)];
    return { file: get('file'), source: get('source_file'), category: get('category') };
  });
}

let bench;
/**
 * docs-bench, read once: `docs` (Map id → text, in file order) and the
 * planted `pairs` [{a, b, rate, w5, c5}] (rate: the edit rate, w5/c5: the
 * exact Jaccard of word 5-shingles / character 5-grams).
 */
export function docsBench() {
  if (bench) return bench;
  const docs = new Map();
  for (const line of readFileSync(join(dataDir, 'docs-bench', 'docs.jsonl'), 'utf8').split('\n')) {
    if (!line) continue;
    const d = JSON.parse(line);
    docs.set(d.id, d.text);
  }
  const pairs = readFileSync(join(dataDir, 'docs-bench', 'pairs.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => {
      const [a, b, rate, , w5, c5] = l.split('\t');
      return { a, b, rate: Number(rate), w5: Number(w5), c5: Number(c5) };
    });
  bench = { docs, pairs };
  return bench;
}

/** The neardup CLI built by the Rust tests (cargo test --features cli): the newer of the release and debug builds. */
export function cliPath() {
  const built = [join(repo, 'target', 'release', 'neardup'), join(repo, 'target', 'debug', 'neardup')].filter(existsSync);
  built.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return built[0];
}

/**
 * The benchmarks' text: whole docs-bench documents in id order, joined by
 * blank lines, cut to `bytes` bytes of UTF-8 (default 1 MiB) at a
 * character boundary — the same chunk as the criterion benches'.
 * @param {number} [bytes]
 * @returns {string}
 */
export function docsBenchChunk(bytes = 1 << 20) {
  const { docs } = docsBench();
  let text = '';
  for (const id of [...docs.keys()].sort()) {
    if (Buffer.byteLength(text) >= bytes) break;
    text += docs.get(id) + '\n\n';
  }
  return Buffer.from(text).subarray(0, bytes).toString('utf8').replace(/\uFFFD$/, '');
}

/**
 * The documents of the benchmarks' 1 MiB sample: whole docs-bench
 * documents in id order until they hold at least `bytes` bytes of UTF-8 —
 * the criterion benches' `docs/` sample.
 * @param {number} [bytes]
 * @returns {{ sample: string[], bytes: number }} the texts and their UTF-8 bytes
 */
export function docsBenchSample(bytes = 1 << 20) {
  const { docs } = docsBench();
  const sample = [];
  let total = 0;
  for (const id of [...docs.keys()].sort()) {
    if (total >= bytes) break;
    sample.push(docs.get(id));
    total += Buffer.byteLength(docs.get(id));
  }
  return { sample, bytes: total };
}

/**
 * A golden dedup configuration at spec version 1 where it names none and
 * the option applies (the core's defaults say): the golden files are
 * version 1's, the default of a new configuration is 2 (issue 50).
 */
export function version1(config) {
  return config.spec === undefined && dedupDefaults(config).spec !== undefined ? { ...config, spec: 1 } : config;
}
