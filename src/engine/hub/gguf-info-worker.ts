// Worker thread body of memory-fit.ts: node-llama-cpp's GGUF parser on the bounded copy of a remote
// header. The bytes came from whoever answered the URL, so the parse runs here, with a memory and a
// time limit: a header built to make a parser allocate or loop ends this thread, not the service.
import { parentPort } from 'node:worker_threads';
import { workerQuestion } from '../../process/worker-question.js';

if (!parentPort) throw new Error('gguf-info-worker runs as a worker thread.');
const port = parentPort;

const data: unknown = await workerQuestion();
const path = typeof data === 'object' && data !== null && 'path' in data && typeof data.path === 'string' ? data.path : null;
try {
  if (path === null) throw new Error('the worker was started without a file');
  const { readGgufFileInfo } = await import('node-llama-cpp');
  const info = await readGgufFileInfo(path, { sourceType: 'filesystem', logWarnings: false });
  port.postMessage({ ok: true, info });
} catch (err) {
  port.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
}
