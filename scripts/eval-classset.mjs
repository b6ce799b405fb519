// Chooses and checks the class-set defaults (EVALUATION.md, "Class sets"):
// the phrases (word k-shingles or character 20-grams), the stock-phrase share (`stockShare`), the
// least shared shingles (`minShared`) and the cut-off on a pair's larger
// containment (`minContainment`), on real labelled data, both at once:
//   node scripts/eval-classset.mjs        (after npm run build)
// 1. Clough–Stevenson, each shared task as a class set of its 19 answers
//    with the Wikipedia source as a source: an answer labelled cut, light
//    or heavy should be flagged "shared source", a "non" answer not; no two
//    answers should be paired (the students wrote alone): F1 of the
//    answers flagged, and the answer–answer pairs flagged (false).
// 2. docs-bench as one class set of its 5,075 documents: its 543 planted
//    near-duplicate pairs should be flagged, no other pair: pair F1.
import { classPairs } from '../pkg/node.js';
import { clough, cloughLabels, docsBench } from '../tests/js/helpers.mjs';

// Word k-shingles (charQ 0) and the character 20-grams winnowed with a
// window of 8 (the default since issue 38: "Collusion without the source").
const shinglings = [
  ...[3, 4, 5].map((k) => ({ label: `word ${k}`, charQ: 0, wordK: k })),
  { label: 'char 20, window 8', charQ: 20, window: 8 },
];
const shares = [0.2, 0.5, 1];
const minShareds = [1, 5, 10];
const cuts = [0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.6];
const f1 = (tp, fp, fn) => (tp ? (2 * tp) / (2 * tp + fp + fn) : 0);
const fmt = (x) => x.toFixed(3);

const labels = cloughLabels().filter((l) => l.source);
const tasks = [...new Set(labels.map((l) => l.source))];
const { docs, pairs } = docsBench();
const ids = [...docs.keys()];
const texts = ids.map((id) => docs.get(id));
const planted = new Set(pairs.map((p) => [p.a, p.b].sort().join('\t')));
// A pair whose shorter text occurs word for word in the longer one (case and
// white space folded): real reuse the benchmark did not plant.
const folded = texts.map((t) => t.toLowerCase().replace(/\s+/g, ' ').trim());
const contained = (a, b) => folded[a].includes(folded[b]) || folded[b].includes(folded[a]);

console.log('| phrases | stockShare | minShared | minContainment | Clough answers F1 | Clough answer–answer pairs | docs-bench pair F1 (P / R) | docs-bench false pairs contained word for word |');
console.log('|---|---|---|---|---|---|---|---|');
for (const { label, ...shingling } of shinglings) {
  for (const share of shares) {
    const opts = { ...shingling, stockShare: share, minContainment: 0, minShared: 1, adaptiveCutOff: false };
    const classes = tasks.map((src) => {
      const answers = labels.filter((l) => l.source === src);
      return { answers, r: classPairs(answers.map((l) => clough(l.file)), [clough(src)], '', opts) };
    });
    const t0 = process.cpuUsage();
    const bench = classPairs(texts, [], '', opts);
    const cpu = process.cpuUsage(t0);
    console.error(`${label}, stockShare ${share}: docs-bench ${bench.candidates} pairs sharing a shingle, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} CPU s`);
    for (const minShared of minShareds) {
      for (const cut of cuts) {
        const keep = (p) => p.score >= cut && p.shared >= minShared;
        let tp = 0, fp = 0, fn = 0, collusion = 0;
        for (const { answers, r } of classes) {
          const flagged = new Set(r.pairs.filter((p) => p.source && keep(p)).map((p) => p.a));
          collusion += r.pairs.filter((p) => !p.source && keep(p)).length;
          answers.forEach((l, i) => {
            const copied = l.category !== 'non';
            if (flagged.has(i) && copied) tp++;
            else if (flagged.has(i)) fp++;
            else if (copied) fn++;
          });
        }
        let btp = 0, bfp = 0, within = 0;
        for (const p of bench.pairs) {
          if (!keep(p)) continue;
          if (planted.has([ids[p.a], ids[p.b]].sort().join('\t'))) btp++;
          else {
            bfp++;
            if (cut >= 0.3 && contained(p.a, p.b)) within++;
          }
        }
        const bfn = planted.size - btp;
        console.log(`| ${label} | ${share} | ${minShared} | ${cut} | ${fmt(f1(tp, fp, fn))} | ${collusion} | ${fmt(f1(btp, bfp, bfn))} (${fmt(btp / (btp + bfp || 1))} / ${fmt(btp / planted.size)}) | ${cut >= 0.3 ? within : ''} |`);
      }
    }
  }
}
