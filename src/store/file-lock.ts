// An exclusive lock on a side file, held as an open SQLite transaction. The OS drops it when the
// process dies (even by SIGKILL), so there is never a stale lock to clean up by hand.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export interface FileLock {
  release(): void;
}

/** The lock, or null if another process (or another holder in this one) has it. */
export function tryFileLock(path: string): FileLock | null {
  // The folder of a lock may not exist yet (no backup ran on a new data dir): made here, private.
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const db = new Database(path);
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('busy_timeout = 0');
    db.exec('BEGIN EXCLUSIVE');
  } catch {
    db.close();
    return null;
  }
  return {
    release: () => {
      if (!db.open) return;
      db.exec('ROLLBACK');
      db.close();
    },
  };
}
