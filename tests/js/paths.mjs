// Where things are, for tests and scripts that must run before pkg/ is
// built (scripts/make-typo-bench.mjs runs inside `cargo test`).
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';

export const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const dataDir = process.env.NEARDUP_DATA ?? join(repo, '..', 'shared', 'data');
