// Worker thread body: streams a file through SHA-256 so hashing a multi-GB model never blocks the
// service's event loop. Started with a path (workerData), it hashes that one file; started without,
// it hashes each path it is sent, one after another (a pool started ahead of the files it hashes).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

if (!parentPort) throw new Error('hash-worker runs as a worker thread.');
const port = parentPort;

function hash(path: string, reply: (msg: { sha256?: string; bytes?: number; error?: string }) => void): void {
  const h = createHash('sha256');
  let bytes = 0;
  createReadStream(path, { highWaterMark: 1 << 20 })
    .on('data', (chunk) => {
      bytes += chunk.length;
      h.update(chunk);
    })
    .on('error', (err) => reply({ error: err.message }))
    .on('end', () => reply({ sha256: h.digest('hex'), bytes }));
}

const initial: unknown = workerData;
if (typeof initial === 'string') {
  hash(initial, (msg) => port.postMessage(msg));
} else {
  port.on('message', (msg: { id?: unknown; path?: unknown }) => {
    const { id, path } = msg;
    if (typeof id !== 'number' || typeof path !== 'string') return;
    hash(path, (reply) => port.postMessage({ id, ...reply }));
  });
}
