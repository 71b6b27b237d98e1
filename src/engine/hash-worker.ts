// Worker thread body: streams a file through SHA-256 so hashing a multi-GB model never blocks the
// service's event loop.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const path: unknown = workerData;
if (typeof path !== 'string' || !parentPort) throw new Error('hash-worker needs a file path.');
const port = parentPort;
const hash = createHash('sha256');
let bytes = 0;
createReadStream(path, { highWaterMark: 1 << 20 })
  .on('data', (chunk) => {
    bytes += chunk.length;
    hash.update(chunk);
  })
  .on('error', (err) => port.postMessage({ error: err.message }))
  .on('end', () => port.postMessage({ sha256: hash.digest('hex'), bytes }));
