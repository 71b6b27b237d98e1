// SHA-256 of a file, computed in a worker thread (see hash-worker.ts).
import { Worker } from 'node:worker_threads';

export function sha256File(path: string): Promise<{ sha256: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./hash-worker.js', import.meta.url), { workerData: path });
    worker.once('message', (msg: { sha256?: string; bytes?: number; error?: string }) => {
      void worker.terminate();
      if (msg.sha256 !== undefined && msg.bytes !== undefined) resolve({ sha256: msg.sha256, bytes: msg.bytes });
      else reject(new Error(`Could not read ${path}: ${msg.error ?? 'unknown error'}.`));
    });
    worker.once('error', reject);
  });
}
