// `npm run edge:dev`: builds the Worker and serves it in workerd on
// 127.0.0.1:$PORT (default 8787), storage in $EDGE_PERSIST (default
// .edge-data/), token $NEARDUP_TOKEN (a printed development token if unset).
import { resolve } from 'node:path';
import { buildWorker, repo } from './build.mjs';
import { startWorker } from './local.mjs';

const port = Number(process.env.PORT ?? 8787);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`[edge] PORT must be a port number, got ${process.env.PORT}`);
  process.exit(2);
}
const persist = resolve(repo, process.env.EDGE_PERSIST ?? '.edge-data');
let token = process.env.NEARDUP_TOKEN;
if (!token) {
  token = 'neardup-dev-token';
  console.log(`[edge] NEARDUP_TOKEN is not set: using the development token "${token}"`);
}
const built = await buildWorker();
const { mf, url } = await startWorker({ dir: built.outdir, persist, port, token });
console.log(`[edge] serving ${url.href} (storage ${persist}); try:
  curl ${url.origin}/v1/health
  curl -X PUT -H "authorization: Bearer ${token}" ${url.origin}/v1/collections/demo
  curl -X PUT -H "authorization: Bearer ${token}" -d '{"text":"some text"}' ${url.origin}/v1/collections/demo/documents/1`);
const stop = async () => {
  await mf.dispose();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
