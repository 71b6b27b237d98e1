// Worker thread body: streams a file through SHA-256 so hashing a multi-GB model never blocks the
// service's event loop. It hashes each path it is sent, one after another (hash-file.ts starts one
// for a single file, or a few ahead of the files a restore will verify).
import { CHUNK_BYTES, hashInChunks } from './hash-chunks.js';
import { parentPort } from 'node:worker_threads';

if (!parentPort) throw new Error('hash-worker runs as a worker thread.');
const port = parentPort;

/** The worker's one buffer (hash-chunks.ts). */
const buffer = Buffer.allocUnsafe(CHUNK_BYTES);

// One file at a time: the buffer is shared, so a second path waits for the first.
let queue: Promise<void> = Promise.resolve();

port.on('message', (msg: { id?: unknown; path?: unknown }) => {
  const { id, path } = msg;
  if (typeof id !== 'number' || typeof path !== 'string') return;
  queue = queue.then(() =>
    hashInChunks(path, buffer).then(
      (done) => port.postMessage({ id, ...done }),
      (err: unknown) => port.postMessage({ id, error: err instanceof Error ? err.message : String(err) }),
    ),
  );
});
