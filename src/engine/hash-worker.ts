// Worker thread body: streams a file through SHA-256 so hashing a multi-GB model never blocks the
// service's event loop. It hashes each path it is sent, one after another (hash-file.ts starts one
// for a single file, or a few ahead of the files a restore will verify).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { parentPort } from 'node:worker_threads';

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

port.on('message', (msg: { id?: unknown; path?: unknown }) => {
  const { id, path } = msg;
  if (typeof id !== 'number' || typeof path !== 'string') return;
  hash(path, (reply) => port.postMessage({ id, ...reply }));
});
