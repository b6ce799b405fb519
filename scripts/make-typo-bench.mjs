// Makes "typo copies" of docs-bench: copies of real documents in which a
// share of the words is misspelled the ways people and machines misspell —
// real human misspellings (Mitton's Birkbeck, Holbrook and Aspell lists in
// ../shared/data/misspellings), OCR confusions and keyboard typos — for the
// evaluations of dedup's defaults (issue 13) and typo-robust matching.
//
//   node scripts/make-typo-bench.mjs [OUT_DIR]     (default target/typo-bench)
//
// Writes OUT_DIR/docs.jsonl (every docs-bench document, then the typo copies)
// and OUT_DIR/pairs.tsv (docs-bench's planted pairs, then one line per typo
// copy: id_a, id_b, edit_rate "typo-R"). Deterministic: the same files on
// every run (a fixed xorshift generator, documents in id order).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir, repo } from '../tests/js/paths.mjs';

const out = process.argv[2] ?? join(repo, 'target', 'typo-bench');
const RATES = [0.05, 0.1, 0.2];
const PER_RATE = 200;

let state = 0x9e3779b97f4a7c15n;
const rand = () => {
  state ^= (state << 13n) & 0xffffffffffffffffn;
  state ^= state >> 7n;
  state ^= (state << 17n) & 0xffffffffffffffffn;
  return Number(state & 0xffffffffn) / 2 ** 32;
};
const pick = (xs) => xs[Math.floor(rand() * xs.length)];

// Mitton's format: "$correct" then one misspelling per line ("_" for spaces;
// Holbrook adds a frequency after a space).
const misspellings = new Map();
for (const file of ['missp.dat', 'holbrook-missp.dat', 'aspell.dat']) {
  let correct = null;
  for (const line of readFileSync(join(dataDir, 'misspellings', file), 'latin1').split(/\r?\n/)) {
    if (!line.trim()) continue;
    if (line.startsWith('$')) {
      correct = line.slice(1).trim().toLowerCase();
      continue;
    }
    const wrong = line.trim().split(/\s+/)[0].replace(/_/g, ' ');
    if (correct && wrong && wrong.toLowerCase() !== correct && /^[a-z]+$/i.test(correct)) {
      if (!misspellings.has(correct)) misspellings.set(correct, []);
      misspellings.get(correct).push(wrong.toLowerCase());
    }
  }
}

const OCR = [['m', 'rn'], ['rn', 'm'], ['l', '1'], ['i', 'l'], ['o', '0'], ['e', 'c'], ['c', 'e'], ['d', 'cl'], ['h', 'b'], ['w', 'vv'], ['u', 'ii'], ['s', '5']];
const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const neighbours = (ch) => {
  const r = ROWS.findIndex((row) => row.includes(ch));
  if (r < 0) return [ch];
  const c = ROWS[r].indexOf(ch);
  const near = [];
  for (const [dr, dc] of [[0, -1], [0, 1], [-1, 0], [1, 0], [-1, 1], [1, -1]]) {
    const row = ROWS[r + dr];
    if (row && row[c + dc]) near.push(row[c + dc]);
  }
  return near;
};

const keyboard = (w) => {
  if (w.length < 2) return w + pick(neighbours(w));
  const i = Math.floor(rand() * w.length);
  switch (Math.floor(rand() * 4)) {
    case 0: return w.slice(0, i) + pick(neighbours(w[i])) + w.slice(i + 1); // substitution
    case 1: return w.slice(0, i) + w.slice(i + 1); // deletion
    case 2: return w.slice(0, i) + pick(neighbours(w[i])) + w.slice(i); // insertion
    default: return i + 1 < w.length ? w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2) : w.slice(0, -1); // transposition
  }
};

const ocr = (w) => {
  const options = OCR.filter(([from]) => w.includes(from));
  if (!options.length) return keyboard(w);
  const [from, to] = pick(options);
  const at = w.indexOf(from);
  return w.slice(0, at) + to + w.slice(at + from.length);
};

// Misspells one word, keeping a leading capital; the kind counted in `ops`.
function misspell(word, ops) {
  const lower = word.toLowerCase();
  const real = misspellings.get(lower);
  let wrong;
  const r = rand();
  if (real && r < 0.6) {
    wrong = pick(real);
    ops.real++;
  } else if (r < 0.8) {
    wrong = ocr(lower);
    ops.ocr++;
  } else {
    wrong = keyboard(lower);
    ops.keyboard++;
  }
  if (wrong === lower) wrong = keyboard(lower);
  return word[0] !== lower[0] ? wrong[0].toUpperCase() + wrong.slice(1) : wrong;
}

const lines = readFileSync(join(dataDir, 'docs-bench', 'docs.jsonl'), 'utf8').trim().split('\n');
const docs = lines.map((l) => JSON.parse(l));
const pairs = readFileSync(join(dataDir, 'docs-bench', 'pairs.tsv'), 'utf8').trim().split('\n');
// Originals in no planted pair, each copied once: no pair but the labelled
// ones is a near-duplicate.
const paired = new Set(pairs.slice(1).flatMap((l) => l.split('\t').slice(0, 2)));
const originals = docs.filter((d) => !d.id.startsWith('sv') && !paired.has(d.id)).sort((a, b) => (a.id < b.id ? -1 : 1));
for (let i = originals.length - 1; i > 0; i--) {
  const j = Math.floor(rand() * (i + 1));
  [originals[i], originals[j]] = [originals[j], originals[i]];
}
const header = 'id_a\tid_b\tedit_rate';
const outPairs = [header, ...pairs.slice(1).map((l) => l.split('\t').slice(0, 3).join('\t'))];
const outDocs = [...lines];
const totals = { real: 0, ocr: 0, keyboard: 0, words: 0 };
let n = 0;
for (const rate of RATES) {
  for (let i = 0; i < PER_RATE; i++) {
    const src = originals[n];
    const ops = { real: 0, ocr: 0, keyboard: 0 };
    const text = src.text.replace(/[A-Za-z]+/g, (w) => {
      totals.words++;
      return rand() < rate ? misspell(w, ops) : w;
    });
    const id = `typo${String(++n).padStart(4, '0')}`;
    outDocs.push(JSON.stringify({ id, text }));
    outPairs.push(`${src.id}\t${id}\ttypo-${rate}`);
    for (const k of Object.keys(ops)) totals[k] += ops[k];
  }
}
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'docs.jsonl'), outDocs.join('\n') + '\n');
writeFileSync(join(out, 'pairs.tsv'), outPairs.join('\n') + '\n');
console.log(
  `${out}: ${outDocs.length} documents, ${outPairs.length - 1} pairs (${n} typo copies); ` +
    `misspellings: ${totals.real} real, ${totals.ocr} OCR, ${totals.keyboard} keyboard (${misspellings.size} words with real misspellings)`,
);
