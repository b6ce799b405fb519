// What holds the page's memory after a class set, by allocator: Chromium's
// memory-infra dump (the DevTools protocol's Tracing.requestMemoryDump with
// the disabled-by-default-memory-infra category) of every process, idle
// and once N docs-bench documents (given by path, as a file picker gives
// them) are analysed as a class. Prints, per process, each allocator's size
// and effective size in MB (malloc, PartitionAlloc, V8, Oilpan as blink_gc,
// cc, shared memory) and, for the renderers, the sub-allocators over 2 MB.
// WebAssembly memories are not attributed by the dump.
//   npm run build && node bench/classset-memory-dump.mjs [N=2000]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from '../tests/browser/browser.mjs';
import { docsBench } from '../tests/js/helpers.mjs';
const n = Number(process.argv[2] ?? 2000);
const { docs } = docsBench();
const ids = [...docs.keys()].slice(0, n);
const folder = mkdtempSync(join(tmpdir(), 'neardup-class-'));
const files = ids.map((id) => { const p = join(folder, `${id}.txt`); writeFileSync(p, docs.get(id)); return p; });
const env = await launch();
const context = await env.browser.newContext();
const page = await context.newPage();
await page.goto(`${env.origin}/`);
const cdp = await env.browser.newBrowserCDPSession();
async function dump(label) {
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['disabled-by-default-memory-infra'], memoryDumpConfig: { triggers: [] } }, transferMode: 'ReportEvents' });
  await new Promise((r) => setTimeout(r, 500));
  const res = await cdp.send('Tracing.requestMemoryDump', { deterministic: true, levelOfDetail: 'detailed' });
  await cdp.send('Tracing.end');
  await done;
  cdp.removeAllListeners('Tracing.dataCollected');
  const dumps = events.filter((e) => e.ph === 'v' && e.args?.dumps?.allocators);
  for (const d of dumps) {
    const a = d.args.dumps.allocators;
    const top = {};
    for (const [name, v] of Object.entries(a)) {
      const root = name.split('/')[0];
      if (name !== root) continue;
      const size = parseInt(v.attrs?.size?.value ?? '0', 16);
      const eff = parseInt(v.attrs?.effective_size?.value ?? v.attrs?.size?.value ?? '0', 16);
      top[root] = [Math.round(size / 1e6), Math.round(eff / 1e6)];
    }
    const sub = {};
    for (const [name, v] of Object.entries(a)) {
      const parts = name.split('/');
      if (parts.length !== 3 || !['partition_alloc', 'v8', 'malloc'].includes(parts[0])) continue;
      const size = parseInt(v.attrs?.size?.value ?? '0', 16);
      if (size >= 2e6) sub[name] = Math.round(size / 1e6);
    }
    const pname = events.find((e) => e.ph === 'M' && e.name === 'process_name' && e.pid === d.pid)?.args?.name ?? d.pid;
    console.log(label, pname, JSON.stringify(Object.fromEntries(Object.entries(top).filter(([, [s]]) => s >= 2).sort((x, y) => y[1][0] - x[1][0]))));
    if (label === 'done' && /^Renderer/.test(pname)) console.log('   by sub-allocator (MB):', JSON.stringify(sub));
  }
  return res;
}
await dump('idle');
await page.setInputFiles('[data-testid=class-files]', files);
await page.waitForFunction(() => ['done', 'error', 'stalled'].includes(document.querySelector('[data-testid=class-status]').dataset.state), null, { timeout: 600_000, polling: 500 });
await dump('done');
await env.close();
rmSync(folder, { recursive: true, force: true });
