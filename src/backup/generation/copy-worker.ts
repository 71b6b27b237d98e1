// Worker thread body of store-copy.ts: copies the live store to a new file with SQLite's online
// backup API on a connection of its own, inside one read transaction: the copy is the store as it
// was at one moment (WAL: the service's later commits are not seen, and do not restart the copy),
// and no page of it is copied on the service's event loop (a 434 MiB store held that loop for
// up to half a second per step there).
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

if (!parentPort) throw new Error('copy-worker runs as a worker thread.');
const port = parentPort;

/** Pages per step: progress about every 8 MiB. */
const PAGES_PER_STEP = 2048;

async function copy(source: string, dest: string): Promise<{ copiedPages: number; totalPages: number }> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // The snapshot: a read transaction held across every step of the copy.
    db.exec('BEGIN');
    db.prepare('SELECT COUNT(*) FROM sqlite_master').get();
    const result = await db.backup(dest, {
      progress: ({ totalPages, remainingPages }) => {
        port.postMessage({ progress: { copiedPages: totalPages - remainingPages, totalPages } });
        return PAGES_PER_STEP;
      },
    });
    db.exec('COMMIT');
    return { copiedPages: result.totalPages - result.remainingPages, totalPages: result.totalPages };
  } finally {
    db.close();
  }
}

const data: unknown = workerData;
const source = typeof data === 'object' && data !== null && 'source' in data && typeof data.source === 'string' ? data.source : null;
const dest = typeof data === 'object' && data !== null && 'dest' in data && typeof data.dest === 'string' ? data.dest : null;
if (source === null || dest === null) port.postMessage({ ok: false, error: 'the worker was started without a source and a destination' });
else {
  copy(source, dest).then(
    (done) => port.postMessage({ ok: true, ...done }),
    (err: unknown) => port.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
}
