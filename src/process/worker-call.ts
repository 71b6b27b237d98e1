// One question to a worker thread started for it, with a time limit: for work that must not run on
// the service's event loop (SQLite on a file from a backup, rewriting a store copy). The worker
// posts one message and is ended; a worker that overruns the limit is ended and the caller is told.
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { WAIT_FOR_QUESTION } from './worker-question.js';

/** Workers started ahead of their question, by script: a restore starts its checks' workers while
 *  restic runs, so loading SQLite in a new thread (~70 ms each here) is not waited for later. */
const waiting = new Map<string, Worker[]>();

/**
 * Starts one worker per script now, to be used by the next callWorker of that script. Unused, they
 * keep no process alive (unref); `close()` ends those nobody took.
 */
export function prestartWorkers(scripts: readonly URL[]): { close: () => void } {
  const started = scripts.map((script) => {
    const worker = new Worker(script, { workerData: WAIT_FOR_QUESTION });
    worker.unref();
    const list = waiting.get(script.href) ?? [];
    list.push(worker);
    waiting.set(script.href, list);
    // One that ends while it waits (it cannot load, say) is not handed out.
    worker.once('exit', () => drop(script.href, worker));
    return { script, worker };
  });
  return {
    close: () => {
      for (const { script, worker } of started) {
        if (drop(script.href, worker)) void worker.terminate().catch(() => undefined);
      }
    },
  };
}

/** Removes `worker` from the waiting ones; true when it was still waiting. */
function drop(href: string, worker: Worker): boolean {
  const list = waiting.get(href) ?? [];
  const i = list.indexOf(worker);
  if (i < 0) return false;
  list.splice(i, 1);
  if (list.length === 0) waiting.delete(href);
  return true;
}

function workerFor(script: URL, data: unknown, limits?: ResourceLimits): Worker {
  // Limits are set when a worker starts: a warm one has none.
  if (limits) return new Worker(script, { workerData: data, resourceLimits: limits });
  const warm = waiting.get(script.href)?.[0];
  if (warm && drop(script.href, warm)) {
    warm.ref();
    warm.postMessage(data);
    return warm;
  }
  return new Worker(script, { workerData: data });
}

export type WorkerAnswer<T> = { ok: true; value: T } | { ok: false; why: 'timeout' | 'cancelled' | 'crashed'; message: string };

export function callWorker<T>(
  script: URL,
  data: unknown,
  options: {
    timeLimitMs: number;
    signal?: AbortSignal;
    isAnswer: (msg: unknown) => msg is T;
    /** Messages before the answer (progress): true when `msg` was one, and the worker goes on. */
    onProgress?: (msg: unknown) => boolean;
    /** Heap limits of a worker that reads untrusted input (a fresh worker is started for them). */
    resourceLimits?: ResourceLimits;
  },
): Promise<WorkerAnswer<T>> {
  const worker = workerFor(script, data, options.resourceLimits);
  return new Promise<WorkerAnswer<T>>((resolve) => {
    let settled = false;
    const settle = (answer: WorkerAnswer<T>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      // A worker stuck inside native code is cut loose: it holds neither the answer nor the loop.
      void worker.terminate().catch(() => undefined);
      resolve(answer);
    };
    const timer = setTimeout(
      () => settle({ ok: false, why: 'timeout', message: `took longer than ${Math.round(options.timeLimitMs / 1000)} s` }),
      options.timeLimitMs,
    );
    const onAbort = (): void => settle({ ok: false, why: 'cancelled', message: 'was cancelled' });
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const onMessage = (msg: unknown): void => {
      if (options.onProgress?.(msg) === true) return;
      worker.off('message', onMessage);
      settle(options.isAnswer(msg) ? { ok: true, value: msg } : { ok: false, why: 'crashed', message: 'gave an answer of the wrong shape' });
    };
    worker.on('message', onMessage);
    worker.once('error', (err: unknown) => settle({ ok: false, why: 'crashed', message: `failed (${err instanceof Error ? err.message : String(err)})` }));
    worker.once('exit', (code) => settle({ ok: false, why: 'crashed', message: `ended without an answer (exit ${code})` }));
  });
}
