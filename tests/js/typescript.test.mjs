// The package's types, as a TypeScript user meets them: the packed package
// installed in a fresh Node project and a fresh browser project, each checked
// by `tsc --strict` with its default libraries and without skipLibCheck. The
// sample uses every class and reads typed results; `@ts-expect-error` lines
// prove that options and arguments are typed (not `any`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectWithPackage, repo } from './helpers.mjs';

const SAMPLE = `
import {
  compare, normalize, wordShingles, charShingles, shingles, phonetic, doubleMetaphone,
  MinHash, MinHashLsh, SimHash, SimHashIndex, Fingerprint, SvmModel, MultiRef, Speller,
} from 'neardup';

const report = compare('one two three four', 'one two three five', { wordK: 3 });
const score: number = report.score;
const passages: number = report.passages.length;
const tokens: number = normalize('Hello, World').tokens.length;
const w: BigUint64Array = wordShingles('a b c d', 2);
const c: BigUint64Array = charShingles('abcdef', 3);
const p = shingles('a b c', 'phonetic:2');
const code: string = phonetic('Robert', 'soundex');
const [primary, alternate] = doubleMetaphone('Schmidt');

const m = new MinHash({ numPerm: 64, shingle: 'char:5', scheme: 'oph' });
m.update('the quick brown fox');
const scheme: string = m.scheme;
const lsh = new MinHashLsh(0.5, 64);
lsh.insert('a', m);
const hits = lsh.query(m);
const first: string | undefined = hits[0]?.id;
const keys: BigUint64Array = lsh.bandKeys(m);

const fp: Fingerprint = SimHash.fingerprint('some text here', { shingle: 'word:3' });
const d: number = SimHash.hammingDistance(fp.value, Fingerprint.fromValue(3n).value);
const index = new SimHashIndex(3);
index.insert('a', fp);
const near = index.query(fp, 2);

declare const modelJson: string;
declare const referenceJson: string;
const model = SvmModel.fromJson(modelJson);
const judged = compare('a b c', 'a b d', { model });
const verdict: string | undefined = judged.verdict.class ?? undefined;
const ref = MultiRef.fromJson(referenceJson);
declare const dictionary: Uint8Array;
const speller = Speller.fromBytes(dictionary);
const fixed: string = speller.correctText('teh cat');

// @ts-expect-error: option names are checked
new MinHash({ numperm: 1 });
// @ts-expect-error: the scheme is one of two names
new MinHash({ scheme: 'fast' });
// @ts-expect-error: texts are strings
compare(123, 'b');
// @ts-expect-error: fingerprint values are bigints
Fingerprint.fromValue('0x1');

export const used = [score, passages, tokens, w, c, p, code, primary, alternate, scheme, first, keys, d, near, verdict, ref, fixed];
`;

// \`neardup/compare\` (issue 49): the comparison's own module, typed as the
// main entry's compare.
const COMPARE_SAMPLE = `
import init, { compare, SvmModel, textOfBytes, wasmSimd } from 'neardup/compare';

export const ready: Promise<unknown> = init();
const simd: boolean = wasmSimd;
const report = compare('one two three four', 'one two three five', { wordK: 3 });
const score: number = report.score;
declare const modelJson: string;
const judged = compare('a b c', 'a b d', { model: SvmModel.fromJson(modelJson) });
const grade: string | undefined = judged.verdict.class ?? undefined;
const decoded: string = textOfBytes(new Uint8Array([104, 105])).text;
// @ts-expect-error: texts are strings
compare(123, 'b');
// @ts-expect-error: the class set is not in this entry
import('neardup/compare').then((m) => m.classPairs);
// @ts-expect-error: nor the dictionary (the whole package's: \`neardup\`)
import('neardup/compare').then((m) => m.Speller);
// @ts-expect-error: nor the normalisation, shingles and phonetic codes
import('neardup/compare').then((m) => m.normalize);

export const usedToo = [simd, score, grade, decoded];
`;

const PROJECTS = {
  // A Node project: its default libraries (those of its target), Node's
  // module resolution, no DOM.
  node: {
    compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', noEmit: true, types: [] },
    files: ['sample.ts', 'compare.ts'],
  },
  // A browser project built by a bundler: the DOM libraries.
  browser: {
    compilerOptions: { strict: true, target: 'es2022', lib: ['es2022', 'dom', 'dom.iterable'], module: 'esnext', moduleResolution: 'bundler', noEmit: true, types: [] },
    files: ['sample.ts', 'compare.ts'],
  },
};

test('the types check under tsc --strict in a Node project and a browser project', () => {
  const tsc = join(repo, 'node_modules', '.bin', 'tsc');
  for (const [kind, tsconfig] of Object.entries(PROJECTS)) {
    const dir = projectWithPackage(`sample-${kind}`);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    writeFileSync(join(dir, 'sample.ts'), SAMPLE);
    writeFileSync(join(dir, 'compare.ts'), COMPARE_SAMPLE);
    assert.equal(tsconfig.compilerOptions.skipLibCheck, undefined);
    let out = '';
    try {
      out = execFileSync(tsc, ['-p', dir], { encoding: 'utf8' });
    } catch (e) {
      assert.fail(`tsc failed in the ${kind} project:\n${e.stdout}${e.stderr}`);
    }
    assert.equal(out.trim(), '', `${kind}: ${out}`);
  }
});
