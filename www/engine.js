// The page's one client of its Web Workers: the two-text view's comparisons
// (two-text/worker.js, on the comparison's own module), the class set's
// (worker.js, in class-set/view.js's pool), and every file read
// (read/worker.js, through reader.js) go through here.
//
//   ask(request, { worker, timeout })
//                             a request ({kind, …}) to one worker of the
//                             pool; resolves with its result, rejects with
//                             its error (an Error naming what went wrong);
//                             with a timeout (ms), a worker that has not
//                             answered by then is taken as stalled: it is
//                             stopped and replaced, and what it was asked
//                             rejects with a StallError
//   latest(channel, request)  ask, and resolve only while it is the newest
//                             request of `channel`: an answer to an older
//                             one resolves to STALE, never shown
//   recycle(index)            replaces worker `index` by a fresh one when it
//                             has nothing pending: a WebAssembly memory only
//                             grows, so a worker that held a whole class gives
//                             its memory back only by ending
//   cancel()                  stops every worker (a long run, or Cancel):
//                             pending requests reject with an AbortError,
//                             and the next request starts fresh workers
//
// Requests carry ids; a worker answers {id, result} or {id, error}. A worker
// that fails to load or dies rejects what it was asked, and is replaced by
// the next request (a page whose server went away and came back recovers
// without a reload).

/** What `latest` resolves to for an answer nobody waits for any more. */
export const STALE = Symbol('stale');

/** A worker that did not answer within the time it was given. */
export class StallError extends Error {
  constructor(seconds) {
    super(`a worker stopped answering for ${seconds} s (it may have run out of memory); it was restarted`);
    this.name = 'StallError';
  }
}

export class Engine {
  /**
   * @param {number} size workers in the pool (one per core, at most 8).
   * @param {URL} [url] the worker's module (the class set's worker.js,
   *   unless another is given: the two-text view's two-text/worker.js, the
   *   reader's read/worker.js).
   */
  constructor(size = Math.max(1, Math.min(globalThis.navigator?.hardwareConcurrency || 2, 8)), url = new URL('./worker.js', import.meta.url)) {
    this.size = size;
    this.url = url;
    this.workers = [];
    this.pending = new Map(); // id → {resolve, reject, worker}
    this.nextId = 1;
    this.newest = new Map(); // channel → id
  }

  /** The pool's workers, started when first needed (again, for one that failed). */
  pool() {
    if (!this.workers.length) {
      this.workers = Array.from({ length: this.size }, (_, i) => this.start(i));
    }
    this.workers.forEach((w, i) => {
      if (!w) this.workers[i] = this.start(i);
    });
    return this.workers;
  }

  start(index) {
    const w = new Worker(this.url, { type: 'module' });
    // Its script's request, said at once: the page's timeline has it only
    // once loaded, and not always for a worker ended early (privacy.js
    // counts it once either way).
    if (resourceListeners.length) {
      const script = { url: new URL(this.url, globalThis.location?.href ?? import.meta.url).href, at: performance.timeOrigin + performance.now(), script: true };
      for (const f of resourceListeners) f(script);
    }
    w.onmessage = (event) => {
      // The requests the worker made since its last answer (resources.js),
      // for the network-proof line.
      for (const r of event.data?.resources ?? []) for (const f of resourceListeners) f(r);
      const { id, result, error } = event.data;
      const p = this.pending.get(id);
      if (!p) return;
      this.pending.delete(id);
      clearTimeout(p.timer);
      if (error !== undefined) p.reject(new Error(error));
      else p.resolve(result);
    };
    w.onerror = (event) => {
      event.preventDefault?.();
      // A worker whose module failed to load never answers: it is dropped,
      // and the next request starts another (the server may be back).
      w.terminate();
      if (this.workers[index] === w) this.workers[index] = null;
      this.fail(index, new Error(`The comparison engine failed (${event.message || 'it could not load'}).`));
    };
    return w;
  }

  /** Rejects what worker `index` was asked. */
  fail(index, error) {
    for (const [id, p] of this.pending) {
      if (p.worker === index) {
        this.pending.delete(id);
        clearTimeout(p.timer);
        p.reject(error);
      }
    }
  }

  /**
   * Ends worker `index` and starts a fresh one in its place, when nothing is
   * pending on it (else does nothing): its memory goes back to the system.
   * @param {number} index
   * @returns {boolean} whether it was replaced
   */
  recycle(index) {
    if (!this.workers[index]) return false;
    for (const p of this.pending.values()) if (p.worker === index) return false;
    this.workers[index].terminate();
    this.workers[index] = this.start(index);
    return true;
  }

  /** Stops worker `index`, which stalled, and starts another in its place. */
  restart(index, error) {
    this.workers[index]?.terminate();
    this.fail(index, error);
    if (this.workers.length) this.workers[index] = this.start(index);
  }

  /**
   * Asks one worker.
   * @param {{kind: string}} request
   * @param {{worker?: number, transfer?: Transferable[], timeout?: number}} [how]
   *   `timeout`: milliseconds the worker has to answer, else StallError
   * @returns {Promise<any>}
   */
  ask(request, { worker = 0, transfer = [], timeout = 0 } = {}) {
    const workers = this.pool();
    const index = worker % workers.length;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const p = { resolve, reject, worker: index, timer: 0 };
      if (timeout > 0) {
        p.timer = setTimeout(() => {
          if (this.pending.has(id)) this.restart(index, new StallError(Math.round(timeout / 1000)));
        }, timeout);
      }
      this.pending.set(id, p);
      workers[index].postMessage({ ...request, id }, transfer);
    });
  }

  /**
   * Asks, and resolves to STALE when a newer request of the same channel was
   * made meanwhile (typing: only the last comparison is shown).
   * @param {string} channel
   * @param {{kind: string}} request
   */
  async latest(channel, request, how) {
    const mine = this.nextId;
    this.newest.set(channel, mine);
    const result = await this.ask(request, how);
    return this.newest.get(channel) === mine ? result : STALE;
  }

  /** Stops every worker; what was pending rejects with an AbortError. */
  cancel() {
    for (const w of this.workers) w?.terminate();
    this.workers = [];
    const abort = new DOMException('Cancelled.', 'AbortError');
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(abort);
    }
    this.pending.clear();
  }
}

/**
 * The two-text view's engine: its workers load the comparison's own module
 * (`neardup/compare`), not the whole package's (issue 49).
 */
export const engine = new Engine(undefined, new URL('./two-text/worker.js', import.meta.url));

/** Listeners of the workers' requests (privacy.js). */
const resourceListeners = [];

/**
 * Calls `f({url, at})` for every request any worker of any engine made
 * (`at`: ms since the epoch), as the workers report them with their answers
 * (resources.js), and for each worker's own script when it is started
 * (`script: true`).
 */
export function onWorkerResource(f) {
  resourceListeners.push(f);
}
