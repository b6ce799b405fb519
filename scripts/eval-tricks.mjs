// The tricks that hide a copy (issue 47), on real labelled data:
//   1. every copied answer of the Clough–Stevenson tasks (cut, light, heavy)
//      against its source, untouched and tricked four ways — Latin letters
//      typed as their Cyrillic look-alikes (а е о с р х у і), a zero-width
//      space after every second letter of a word, a soft hyphen after every
//      third, Greek omicron for o between zero-width joiners — with the
//      tricks undone (the default) and kept (`unmask: false`): the mean
//      score, the worst drop, and the learned verdict's "copied";
//   2. false alarms: the untouched answers and sources, and the docs-bench
//      documents (real prose in many languages), reporting any obfuscation.
// Needs the built package (pkg/: bash scripts/build-pkg.sh).
//   node scripts/eval-tricks.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as nd from '../pkg/node.js';
import { clough, cloughLabels, docsBench, repo } from '../tests/js/helpers.mjs';
import { TRICKS } from '../tests/js/tricks.mjs';

const model = nd.SvmModel.fromJson(readFileSync(join(repo, 'pkg/model.json'), 'utf8'));

const copied = cloughLabels().filter((l) => l.source && l.category !== 'non');
const f3 = (x) => x.toFixed(3);
console.log(`Copied answers: ${copied.length} (cut, light, heavy) of the Clough–Stevenson tasks a–c\n`);
console.log('| text of the answer | mean score, undone (default) | worst change | "copied" verdicts | mean score, kept (`unmask: false`) | "copied", kept | answers with obfuscation reported |');
console.log('|---|---|---|---|---|---|---|');
const base = copied.map((l) => compareBoth(clough(l.file), clough(l.source)));
row('untouched', base, base);
for (const [name, trick] of Object.entries(TRICKS)) {
  row(name, copied.map((l) => compareBoth(trick(clough(l.file)), clough(l.source))), base);
}

function compareBoth(a, b) {
  const on = nd.compare(a, b, { model });
  const off = nd.compare(a, b, { model, unmask: false });
  return { on, off };
}

function row(name, rs, base) {
  const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const worst = Math.min(...rs.map((r, i) => r.on.score - base[i].on.score));
  const flagged = rs.filter((r) => r.on.obfuscationA.lookalikes + r.on.obfuscationA.invisible > 0).length;
  console.log(`| ${name} | ${f3(mean(rs.map((r) => r.on.score)))} | ${worst >= 0 ? '+' : ''}${f3(worst)} | ${rs.filter((r) => r.on.verdict.copied).length} | ${f3(mean(rs.map((r) => r.off.score)))} | ${rs.filter((r) => r.off.verdict.copied).length} | ${flagged} |`);
}

// False alarms on honest text.
const honest = [...new Set(cloughLabels().flatMap((l) => [l.file, l.source].filter(Boolean)))];
const alarmsClough = honest.filter((f) => {
  const r = nd.compare(clough(f), clough(f));
  return r.obfuscationA.lookalikes + r.obfuscationA.invisible > 0;
});
const { docs } = docsBench();
const alarmsDocs = [];
for (const [id, text] of docs) {
  const r = nd.compare(text, text);
  if (r.obfuscationA.lookalikes + r.obfuscationA.invisible > 0) alarmsDocs.push(`${id} (${r.obfuscationA.warning})`);
}
console.log(`\nFalse alarms: ${alarmsClough.length} of ${honest.length} untouched Clough–Stevenson texts; ${alarmsDocs.length} of ${docs.size} docs-bench documents${alarmsDocs.length ? `: ${alarmsDocs.join('; ')}` : ''}`);
