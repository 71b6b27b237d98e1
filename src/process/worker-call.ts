// One question to a worker thread started for it, with a time limit: for work that must not run on
// the service's event loop (SQLite on a file from a backup, rewriting a store copy). The worker
// posts one message and is ended; a worker that overruns the limit is ended and the caller is told.
import { Worker } from 'node:worker_threads';

export type WorkerAnswer<T> =
  | { ok: true; value: T }
  | { ok: false; why: 'timeout' | 'cancelled' | 'crashed'; message: string };

export function callWorker<T>(
  script: URL,
  data: unknown,
  options: {
    timeLimitMs: number;
    signal?: AbortSignal;
    isAnswer: (msg: unknown) => msg is T;
    /** Messages before the answer (progress): true when `msg` was one, and the worker goes on. */
    onProgress?: (msg: unknown) => boolean;
  },
): Promise<WorkerAnswer<T>> {
  const worker = new Worker(script, { workerData: data });
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
    const timer = setTimeout(() => settle({ ok: false, why: 'timeout', message: `took longer than ${Math.round(options.timeLimitMs / 1000)} s` }), options.timeLimitMs);
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
