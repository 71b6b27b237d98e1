// SHA-256 of a file. A big file (a model, a store copy) is hashed in a worker thread (see
// hash-worker.ts) so it never blocks the service's event loop; a small one (a key, a journal, a
// manifest) is read and hashed here, because starting a worker (~40 ms) costs far more than that.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';

/** Up to this size a file is hashed in-process: ~2 ms of SHA-256 at most, under one worker start. */
export const INLINE_HASH_BYTES = 4 * 1024 * 1024;

export async function sha256File(path: string): Promise<{ sha256: string; bytes: number }> {
  const small = await hashIfSmall(path);
  return small ?? sha256FileInWorker(path);
}

/** Reads the file through one handle (so size and content are of the same file); null when it is big. */
async function hashIfSmall(path: string): Promise<{ sha256: string; bytes: number } | null> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw new Error(`Could not read ${path}: ${err instanceof Error ? err.message : String(err)}.`);
  }
  try {
    const { size } = await handle.stat();
    if (size > INLINE_HASH_BYTES) return null;
    const content = await handle.readFile();
    return { sha256: createHash('sha256').update(content).digest('hex'), bytes: content.length };
  } finally {
    await handle.close();
  }
}

/** Always in a worker, started now: for a file known to be big, hashed while this thread does other work. */
export function sha256FileInWorker(path: string): Promise<{ sha256: string; bytes: number }> {
  const one = startHashWorkers(1);
  return one.inWorker(path).finally(one.close);
}

export type Hasher = (path: string) => Promise<{ sha256: string; bytes: number }>;

/**
 * Workers started ahead of the files they will hash (a restore starts them while restic runs, so
 * verifying does not wait ~40 ms per worker start). Small files are still hashed in-process.
 * `close()` ends the workers; a hash asked for after it fails.
 */
export function startHashWorkers(count: number): { hash: Hasher; inWorker: Hasher; close: () => void } {
  const workers = Array.from({ length: count }, () => new Worker(new URL('./hash-worker.js', import.meta.url)));
  const waiting = new Map<number, { resolve: (r: { sha256: string; bytes: number }) => void; reject: (e: Error) => void; path: string }>();
  let nextId = 0;
  let closed = false;
  for (const w of workers) {
    w.on('message', (msg: { id?: number; sha256?: string; bytes?: number; error?: string }) => {
      const entry = msg.id === undefined ? undefined : waiting.get(msg.id);
      if (!entry || msg.id === undefined) return;
      waiting.delete(msg.id);
      if (msg.sha256 !== undefined && msg.bytes !== undefined) entry.resolve({ sha256: msg.sha256, bytes: msg.bytes });
      else entry.reject(new Error(`Could not read ${entry.path}: ${msg.error ?? 'unknown error'}.`));
    });
    w.on('error', (err: unknown) => {
      for (const entry of waiting.values()) entry.reject(err instanceof Error ? err : new Error(String(err)));
      waiting.clear();
    });
  }
  const inWorker: Hasher = (path) => {
    const id = nextId++;
    const worker = workers[id % workers.length];
    if (closed || !worker) return Promise.reject(new Error(`Could not hash ${path}: the hash workers were closed.`));
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject, path });
      worker.postMessage({ id, path });
    });
  };
  const hash: Hasher = async (path) => (await hashIfSmall(path)) ?? inWorker(path);
  return {
    hash,
    inWorker,
    close: () => {
      closed = true;
      for (const w of workers) void w.terminate();
    },
  };
}
