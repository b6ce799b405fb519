// The Worker in the real workerd runtime (npm miniflare 4), with its Durable
// Objects on SQLite storage persisted in a folder: what `npm run edge:dev`
// serves and what the tests and the benchmark drive.
import { Miniflare } from 'miniflare';
import { join } from 'node:path';

/** Must not be newer than the workerd that miniflare bundles (nor than edge/wrangler.jsonc's). */
export const COMPATIBILITY_DATE = '2026-04-01';

/**
 * Starts the bundle of `buildWorker` (`dir`) on 127.0.0.1:`port` (0: any),
 * storage under `persist`; `objects: false` for a bundle without the
 * Worker's Durable Objects. Returns the Miniflare instance and its URL.
 */
export async function startWorker({ dir, persist, port = 0, token, maxBodyBytes, objects = true } = {}) {
  const bindings = {};
  if (token !== undefined) bindings.NEARDUP_TOKEN = token;
  if (maxBodyBytes !== undefined) bindings.MAX_BODY_BYTES = String(maxBodyBytes);
  const mf = new Miniflare({
    modules: true,
    scriptPath: join(dir, 'worker.js'),
    modulesRoot: dir,
    modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
    compatibilityDate: COMPATIBILITY_DATE,
    bindings,
    durableObjects: objects
      ? {
          COLLECTION: { className: 'Collection', useSQLite: true },
          DOCUMENTS: { className: 'DocumentShard', useSQLite: true },
          INDEX: { className: 'IndexShard', useSQLite: true },
        }
      : {},
    durableObjectsPersist: persist,
    host: '127.0.0.1',
    port,
  });
  const url = await mf.ready;
  return { mf, url };
}
