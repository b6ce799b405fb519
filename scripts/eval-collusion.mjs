// Collusion without the source (issue 38): how well each tool ranks the
// answer–answer pairs of a class, on Clough–Stevenson's three shared tasks,
// each a class of its 19 answers. A pair of two answers that both reused
// the Wikipedia source (cut, light or heavy) shares its passages: a
// positive; a pair of two answers written independently ("non"): a
// negative; mixed pairs are left out. ROC AUC (Mann–Whitney, ties count
// half) pooled over the three classes, without the source and with it,
// neardup's classPairs beside Dolos (its plain-text mode) in the same run:
//   npm run build && npm ci --prefix bench/dolos && node scripts/eval-collusion.mjs
// Also, at the default cut-off, the answer–answer pairs it flags; and the
// defaults chosen by leave-one-task-out (below).
import { classPairs } from '../pkg/node.js';
import { clough, cloughLabels } from '../tests/js/helpers.mjs';

const dolosLib = new URL('../bench/dolos/node_modules/@dodona/dolos-lib/dist/index.js', import.meta.url);
let dolos = null;
try {
  dolos = await import(dolosLib);
} catch {
  console.error('Dolos is not installed (npm ci --prefix bench/dolos): its column is left empty');
}

const labels = cloughLabels().filter((l) => l.source);
const tasks = [...new Set(labels.map((l) => l.source))];
const copied = (l) => l.category !== 'non';

/** ROC AUC of `scored` [{score, positive}]: P(positive > negative), ties half. */
function auc(scored) {
  const pos = scored.filter((s) => s.positive).map((s) => s.score);
  const neg = scored.filter((s) => !s.positive).map((s) => s.score);
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return { auc: wins / (pos.length * neg.length), pos: pos.length, neg: neg.length };
}

/** The labelled answer–answer pairs of one class with a score from `score(i, j)`. */
function labelled(answers, score) {
  const out = [];
  for (let i = 0; i < answers.length; i++) {
    for (let j = i + 1; j < answers.length; j++) {
      const [x, y] = [copied(answers[i]), copied(answers[j])];
      if (x !== y) continue;
      out.push({ score: score(i, j), positive: x });
    }
  }
  return out;
}

/** Each answer against the source (text `answers.length`): copied or not. */
const againstSource = (answers, score) => answers.map((l, i) => ({ score: score(i, answers.length), positive: copied(l) }));

const ours = (answers, texts, sources, options) => {
  const r = classPairs(texts, sources, '', { minContainment: 0, minShared: 1, ...options });
  const by = new Map(r.pairs.map((p) => [`${p.a} ${p.b}`, p.score]));
  const score = (i, j) => by.get(`${i} ${j}`) ?? 0;
  return { pairs: labelled(answers, score), source: sources.length ? againstSource(answers, score) : [] };
};

async function theirs(answers, texts, sources) {
  const files = [...texts, ...sources].map((t, i) => new dolos.File(`f${i}.txt`, t));
  const report = await new dolos.Dolos({ language: 'char' }).analyze(files);
  const by = new Map();
  for (const p of report.allPairs()) {
    const at = (f) => Number(f.path.slice(1, -4));
    const [a, b] = [at(p.leftFile), at(p.rightFile)].sort((x, y) => x - y);
    by.set(`${a} ${b}`, p.similarity);
  }
  const score = (i, j) => by.get(`${i} ${j}`) ?? 0;
  return { pairs: labelled(answers, score), source: sources.length ? againstSource(answers, score) : [] };
}

const runs = [
  ['neardup classPairs (defaults: character 20-grams, window 8, stockShare 0.5)', (a, t, s) => ours(a, t, s, {})],
  ['neardup, stockShare 1 (no stock phrases)', (a, t, s) => ours(a, t, s, { stockShare: 1 })],
];
for (const stockShare of [0.5]) runs.push([`neardup, word 3-shingles, stockShare ${stockShare}`, (a, t, s) => ours(a, t, s, { charQ: 0, stockShare })]);
runs.push(['neardup, word 3-shingles, stockShare 0.2 (the defaults before issue 38)', (a, t, s) => ours(a, t, s, { charQ: 0, stockShare: 0.2 })]);
if (dolos) runs.push(['Dolos 3.5.1 (language char)', theirs]);
console.log('| tool | answer–answer pairs, without the source | each answer against the source | answer–answer pairs, the source given too |');
console.log('|---|---|---|---|');
let counts = '';
for (const [name, run] of runs) {
  const got = { without: [], source: [], with: [] };
  for (const src of tasks) {
    const answers = labels.filter((l) => l.source === src);
    const texts = answers.map((l) => clough(l.file));
    got.without.push(...(await run(answers, texts, [])).pairs);
    const given = await run(answers, texts, [clough(src)]);
    got.source.push(...given.source);
    got.with.push(...given.pairs);
  }
  const [a, b, c] = [auc(got.without), auc(got.source), auc(got.with)];
  counts = `answer–answer: ${a.pos} pairs of two answers that reused the source, ${a.neg} of two written independently; against the source: ${b.pos} answers that reused it, ${b.neg} that did not`;
  console.log(`| ${name} | ${a.auc.toFixed(3)} | ${b.auc.toFixed(3)} | ${c.auc.toFixed(3)} |`);
}
console.log(`\nROC AUC; ${counts}.`);

// The defaults were chosen on these three tasks. How much that flatters
// them: leave-one-task-out — for each task, the setting with the best AUC on
// the two others (a grid of shingles, windows and stock shares) scores the
// held-out task's pairs; the three held-out sets are pooled.
const grid = [];
for (const stockShare of [0.2, 0.5, 1]) {
  for (const wordK of [3, 4]) grid.push({ charQ: 0, wordK, stockShare });
  for (const charQ of [16, 20, 23]) for (const window of [1, 4, 8, 12]) grid.push({ charQ, window, stockShare });
}
const perTask = new Map(); // task → grid index → labelled answer–answer pairs
for (const src of tasks) {
  const answers = labels.filter((l) => l.source === src);
  const texts = answers.map((l) => clough(l.file));
  perTask.set(src, grid.map((o) => ours(answers, texts, [], o).pairs));
}
const heldOut = [];
for (const src of tasks) {
  const others = tasks.filter((t) => t !== src);
  let best = 0, bestAuc = -1;
  grid.forEach((_, g) => {
    const a = auc(others.flatMap((t) => perTask.get(t)[g])).auc;
    if (a > bestAuc) [best, bestAuc] = [g, a];
  });
  heldOut.push(...perTask.get(src)[best]);
  console.log(`held-out ${src}: chosen on the other two tasks ${JSON.stringify(grid[best])} (AUC there ${bestAuc.toFixed(3)})`);
}
console.log(`leave-one-task-out, held-out answer–answer AUC without the source: ${auc(heldOut).auc.toFixed(3)}\n`);

// The default cut-off: the answer–answer pairs flagged without the source.
let flagged = 0, truePairs = 0;
for (const src of tasks) {
  const answers = labels.filter((l) => l.source === src);
  const r = classPairs(answers.map((l) => clough(l.file)), [], '', {});
  for (const p of r.pairs) {
    flagged++;
    if (copied(answers[p.a]) && copied(answers[p.b])) truePairs++;
  }
}
console.log(`Defaults, without the source: ${flagged} answer–answer pairs flagged, ${truePairs} of them two answers that reused the source.`);
