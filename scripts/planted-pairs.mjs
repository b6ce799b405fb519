// Writes docs-bench's planted pairs as {"id", "a", "b"} JSONL (for
// `neardup multiref pairs`): node scripts/planted-pairs.mjs > pairs.jsonl
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir } from '../tests/js/helpers.mjs';

const docs = new Map(
  readFileSync(join(dataDir, 'docs-bench', 'docs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).map((d) => [d.id, d.text]),
);
for (const line of readFileSync(join(dataDir, 'docs-bench', 'pairs.tsv'), 'utf8').trim().split('\n').slice(1)) {
  const [a, b, rate] = line.split('\t');
  console.log(JSON.stringify({ id: `${a} ${b} ${rate}`, a: docs.get(a), b: docs.get(b) }));
}
