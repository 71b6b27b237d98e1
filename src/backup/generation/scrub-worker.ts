// Worker thread body of scrub-copy.ts: makes the store copy of a generation hold what the live store
// holds now and nothing more. Rollback-journal mode (a restore must find no `-wal`/`-shm` strays);
// no temporary CLI client and no pairing code (credentials that live minutes, never a backup's);
// then VACUUM, which writes the copy anew from its live rows, so no free page keeps the bytes of
// something deleted before (a response, a store: false answer, a row deleted by an older Sanad
// before secure_delete was on). In a worker: VACUUM of a large store takes seconds.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

if (!parentPort) throw new Error('scrub-worker runs as a worker thread.');
const port = parentPort;

function scrub(path: string): { temporaryClients: number; pairingCodes: number } {
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma('secure_delete = ON');
    const temporaryClients = db.prepare('DELETE FROM temporary_clients').run().changes;
    const pairingCodes = db.prepare('DELETE FROM pairing_codes').run().changes;
    db.exec('VACUUM');
    return { temporaryClients, pairingCodes };
  } finally {
    db.close();
  }
}

const data: unknown = workerData;
const path = typeof data === 'object' && data !== null && 'path' in data && typeof data.path === 'string' ? data.path : null;
try {
  if (path === null) throw new Error('the worker was started without a file');
  port.postMessage({ ok: true, ...scrub(path) });
} catch (err) {
  port.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
}
