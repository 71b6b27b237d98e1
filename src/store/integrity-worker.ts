// Worker thread body of integrity.ts: `PRAGMA integrity_check` on a read-only connection and the
// file's table count. It reads every page (seconds on a large store), so it never runs on the
// main thread, where the desktop app's tray, window and every stream share one event loop.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

if (!parentPort) throw new Error('integrity-worker runs as a worker thread.');
const port = parentPort;

const data: unknown = workerData;
const path = typeof data === 'object' && data !== null && 'path' in data && typeof data.path === 'string' ? data.path : null;
try {
  if (path === null) throw new Error('the worker was started without a file');
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const found = db.prepare<[], { integrity_check: string }>('PRAGMA integrity_check').all().map((r) => r.integrity_check);
    const tables = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").get()?.n ?? 0;
    port.postMessage({ ok: true, found: found.slice(0, 3), whole: found.length === 1 && found[0] === 'ok', tables });
  } finally {
    db.close();
  }
} catch (err) {
  port.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
}
