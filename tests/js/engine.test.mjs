// The page's worker client (www/engine.js) with a stand-in for Web Workers
// (Node has none): answers, a stall restarts the worker, and recycle()
// replaces a worker only when nothing is pending on it — the class-set view
// recycles the worker that held a whole class, whose WebAssembly memory
// never shrinks.
import { test } from 'node:test';
import assert from 'node:assert/strict';

const made = [];
class FakeWorker {
  constructor(url) {
    this.url = url;
    this.terminated = false;
    this.held = [];
    made.push(this);
  }
  postMessage(message) {
    if (message.kind === 'hold') this.held.push(message.id);
    else setTimeout(() => this.onmessage({ data: { id: message.id, result: `${message.kind} done` } }), 1);
  }
  release() {
    for (const id of this.held.splice(0)) this.onmessage({ data: { id, result: 'released' } });
  }
  terminate() {
    this.terminated = true;
  }
}
globalThis.Worker = FakeWorker;
const { Engine, StallError } = await import('../../www/engine.js');

test('recycle replaces an idle worker, never one with work pending', async () => {
  made.length = 0;
  const engine = new Engine(2, new URL('file:///worker.js'));
  assert.equal(await engine.ask({ kind: 'classPairs' }), 'classPairs done');
  const [first, second] = made;
  const held = engine.ask({ kind: 'hold' });
  assert.equal(engine.recycle(0), false, 'a request is pending on worker 0');
  assert.equal(first.terminated, false);
  first.release();
  assert.equal(await held, 'released');
  assert.equal(engine.recycle(0), true);
  assert.equal(first.terminated, true, 'the old worker ended: its memory is freed');
  assert.equal(made.length, 3);
  assert.equal(second.terminated, false, 'the other worker is untouched');
  // The fresh worker answers in its place.
  assert.equal(await engine.ask({ kind: 'compare' }), 'compare done');
  assert.equal(made[2].terminated, false);
  assert.equal(engine.recycle(5), false, 'no such worker');
  engine.cancel();
});

test('a worker that does not answer in time is restarted and its request rejects', async () => {
  made.length = 0;
  const engine = new Engine(1, new URL('file:///worker.js'));
  await assert.rejects(engine.ask({ kind: 'hold' }, { timeout: 20 }), StallError);
  assert.equal(made[0].terminated, true);
  assert.equal(await engine.ask({ kind: 'compare' }), 'compare done');
  engine.cancel();
});
