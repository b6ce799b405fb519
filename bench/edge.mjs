// Benchmark of the edge Worker (edge/) in the local workerd runtime
// (miniflare 4), on texts made of docs-bench sentences.
//   npm run bench:edge [-- SIZES]      (after `npm run build`; default 10000,100000)
// For each collection size: inserts/s with 8 concurrent clients while
// loading, then the latency (p50/p99) of 400 queries of edited copies, one at
// a time. Then 1,000 inserts of 10 KB documents: CPU time per insert of the
// whole runtime (Worker + Durable Objects + the local HTTP proxy, read from
// /proc for every workerd process) and of the Worker's own sketching (the
// same wasm in Node). And the bundle's size. Everything runs on one machine,
// so the figures are those of one local runtime, not of Cloudflare's network.
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWorker } from '../edge/build.mjs';
import { startWorker } from '../edge/local.mjs';
import { MinHash, MinHashLsh } from '../pkg/node.js';

const repo = fileURLToPath(new URL('..', import.meta.url));
const data = process.env.NEARDUP_DATA ?? join(repo, '..', 'shared', 'data');
const sizes = (process.argv[2] ?? '10000,100000').split(',').map(Number);
const TOKEN = 'bench';

// Sentences of docs-bench, and a deterministic generator.
const sentences = [];
for (const line of readFileSync(join(data, 'docs-bench/docs.jsonl'), 'utf8').trim().split('\n')) {
  for (const s of JSON.parse(line).text.split(/(?<=[.!?])\s+/)) if (s.length >= 40) sentences.push(s);
}
let seed = 0x2545f491;
const rand = (n) => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) % n;
};
/** A text of about `bytes` bytes: random sentences. */
function makeText(bytes) {
  let t = '';
  while (t.length < bytes) t += sentences[rand(sentences.length)] + ' ';
  return t;
}
/** An edited copy: 3 % of the words replaced. */
function edit(text) {
  const w = text.split(' ');
  for (let i = 0; i < w.length * 0.03; i++) w[rand(w.length)] = 'edited';
  return w.join(' ');
}

/** CPU seconds used so far by every workerd process on the machine. */
function workerdCpu() {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(workerd)')) continue;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      /* gone */
    }
  }
  return ticks / 100;
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

async function run() {
  const work = mkdtempSync(join(tmpdir(), 'neardup-edge-bench-'));
  const built = await buildWorker({ outdir: join(work, 'dist') });
  const worker = await startWorker({ dir: built.outdir, persist: join(work, 'data'), token: TOKEN });
  const url = (p) => new URL(p, worker.url);
  const headers = { authorization: `Bearer ${TOKEN}` };
  const put = (path, body) => fetch(url(path), { method: 'PUT', headers, body: body && JSON.stringify(body) });
  const post = (path, body) => fetch(url(path), { method: 'POST', headers, body: JSON.stringify(body) });
  const lines = [];
  const say = (s) => {
    console.log(s);
    lines.push(s);
  };
  say(`machine: ${cpus().length} × ${cpus()[0].model}, Node ${process.version}`);
  say(`bundle: worker.js ${built.bytes.script} B (${gzipSync(readFileSync(built.script)).length} B gzipped), neardup_bg.wasm ${built.bytes.wasm} B (${gzipSync(readFileSync(built.wasm)).length} B gzipped)`);

  try {
    await put('/v1/collections/bench', { shards: Number(process.env.SHARDS ?? 4) });
    let loaded = 0;
    const kept = [];
    for (const size of sizes) {
      // Load up to `size` documents of ~1.5 KB, 8 clients at a time.
      const t0 = performance.now();
      const cpu0 = workerdCpu();
      const n0 = loaded;
      let next = loaded;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < size) {
            const i = next++;
            const text = makeText(1500);
            if (i % 250 === 0) kept.push([i, text]);
            const r = await put(`/v1/collections/bench/documents/d${i}`, { text });
            if (r.status !== 201) throw new Error(`insert ${i}: ${r.status} ${await r.text()}`);
            await r.arrayBuffer();
          }
        }),
      );
      loaded = size;
      const secs = (performance.now() - t0) / 1000;
      const cpu = workerdCpu() - cpu0;
      // Queries: edited copies of stored documents, one at a time.
      const lat = [];
      let found = 0;
      for (let q = 0; q < 400; q++) {
        const [i, text] = kept[q % kept.length];
        const t = performance.now();
        const r = await post('/v1/collections/bench/query', { text: edit(text) });
        const body = await r.json();
        lat.push(performance.now() - t);
        if (body.duplicates.some((d) => d.id === `d${i}`)) found++;
      }
      const count = (await (await fetch(url('/v1/collections/bench'), { headers })).json()).count;
      say(
        `${size} documents (count ${count}): inserts ${((size - n0) / secs).toFixed(0)}/s with 8 clients ` +
          `(${((cpu / (size - n0)) * 1000).toFixed(2)} ms workerd CPU each, ~1.5 KB texts); ` +
          `query p50 ${quantile(lat, 0.5).toFixed(1)} ms, p99 ${quantile(lat, 0.99).toFixed(1)} ms; ` +
          `edited copies found ${found}/400`,
      );
    }

    // 10 KB documents: CPU per insert.
    await put('/v1/collections/ten', { shards: Number(process.env.SHARDS ?? 4) });
    const texts = Array.from({ length: 1000 }, () => makeText(10 * 1024));
    const cpu0 = workerdCpu();
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < texts.length) {
          const i = next++;
          const r = await put(`/v1/collections/ten/documents/t${i}`, { text: texts[i] });
          await r.arrayBuffer();
        }
      }),
    );
    const wall = (performance.now() - t0) / 1000;
    const cpu = workerdCpu() - cpu0;
    // The Worker's own compute on a 10 KB text (JSON parse + MinHash + band keys), in Node's V8.
    const lsh = new MinHashLsh(0.5, 128);
    const c0 = process.cpuUsage();
    for (const t of texts) {
      const body = JSON.parse(JSON.stringify({ text: t }));
      const m = new MinHash({ shingle: 'char:5' });
      m.update(body.text);
      lsh.bandKeys(m);
      m.toBytes();
      m.free();
    }
    const c = process.cpuUsage(c0);
    say(
      `10 KB documents: ${(texts.length / wall).toFixed(0)} inserts/s with 4 clients; CPU per insert: ` +
        `${((cpu / texts.length) * 1000).toFixed(2)} ms for the whole local runtime, ` +
        `${((c.user + c.system) / 1000 / texts.length).toFixed(2)} ms for the Worker's sketch (text → MinHash-128 char:5 → ${lsh.bands} band keys)`,
    );
  } finally {
    await worker.mf.dispose();
    rmSync(work, { recursive: true, force: true });
  }
  return lines;
}

await run();
