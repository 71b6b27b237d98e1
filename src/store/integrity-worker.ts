// Worker thread body of integrity.ts: `PRAGMA integrity_check` on a read-only connection and the
// file's table count. It reads every page (seconds on a large store), so it never runs on the
// main thread, where the desktop app's tray, window and every stream share one event loop.
import Database from 'better-sqlite3';
import { parentPort } from 'node:worker_threads';
import { workerQuestion } from '../process/worker-question.js';
import { integrityOf } from './integrity-of.js';

if (!parentPort) throw new Error('integrity-worker runs as a worker thread.');
const port = parentPort;

const data: unknown = await workerQuestion();
const path = typeof data === 'object' && data !== null && 'path' in data && typeof data.path === 'string' ? data.path : null;
try {
  if (path === null) throw new Error('the worker was started without a file');
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const { damage, tables } = integrityOf(db);
    port.postMessage({ ok: true, damage, tables });
  } finally {
    db.close();
  }
} catch (err) {
  port.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
}
