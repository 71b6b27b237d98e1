// Worker thread body of scrub-copy.ts: makes the store copy of a generation hold what the live store
// holds now and nothing more. Rollback-journal mode (a restore must find no `-wal`/`-shm` strays);
// no temporary CLI client and no pairing code (credentials that live minutes, never a backup's);
// then VACUUM, which writes the copy anew from its live rows, so no free page keeps the bytes of
// something deleted before (a response, a store: false answer, a row deleted by an older Sanad
// before secure_delete was on). Then `PRAGMA integrity_check` of the result, and its tables
// counted for the manifest. In a worker: VACUUM and the check of a large store take seconds, which
// on the main thread would freeze every stream, the tray and the window at once.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { integrityOf } from '../../store/integrity-of.js';

if (!parentPort) throw new Error('scrub-worker runs as a worker thread.');
const port = parentPort;

interface Scrubbed {
  temporaryClients: number;
  pairingCodes: number;
  /** The first integrity_check messages when it did not answer "ok"; else null. */
  damage: string | null;
  tables: number;
}

function scrub(path: string): Scrubbed {
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma('secure_delete = ON');
    const temporaryClients = db.prepare('DELETE FROM temporary_clients').run().changes;
    const pairingCodes = db.prepare('DELETE FROM pairing_codes').run().changes;
    db.exec('VACUUM');
    return { temporaryClients, pairingCodes, ...integrityOf(db) };
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
