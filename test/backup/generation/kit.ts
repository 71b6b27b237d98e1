// Shared pieces of the generation tests: a store made large with filler rows, file fingerprints
// computed here (not by the code under test), and a look into a generation's copy of the store.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { openStore } from '../../../src/store/open.js';
import { storePath } from '../../../src/files/data-dir-layout.js';

/** Adds a throwaway table of about `mb` MB so the online backup takes many steps. */
export function addFiller(dataDir: string, mb: number): void {
  const db = openStore(storePath(dataDir));
  try {
    const rows = Math.ceil((mb * 1024 * 1024) / 4000);
    db.exec('CREATE TABLE IF NOT EXISTS test_filler (id INTEGER PRIMARY KEY, b BLOB)');
    db.prepare('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) INSERT INTO test_filler(b) SELECT randomblob(4000) FROM c').run(
      rows,
    );
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

export function sha256Of(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Opens a copied store read-only (the copy is in rollback-journal mode, so nothing is created). */
export function openCopy(path: string): Database.Database {
  return new Database(path, { readonly: true, fileMustExist: true });
}

export function integrity(db: Database.Database): string {
  return db
    .prepare<[], { integrity_check: string }>('PRAGMA integrity_check')
    .all()
    .map((r) => r.integrity_check)
    .join('; ');
}

/**
 * The ledger's invariants, which hold at every commit and so in a copy of one moment: each task's
 * last_sequence_number is the highest of its events, its events run 1..N without a gap, and its
 * response exists. Returns the number of tasks checked.
 */
export function assertLedgerConsistent(db: Database.Database): number {
  const tasks = db
    .prepare<[], { id: string; last: number; mx: number | null; mn: number | null; n: number }>(
      `SELECT t.id, t.last_sequence_number AS last, max(e.sequence_number) AS mx, min(e.sequence_number) AS mn, count(e.sequence_number) AS n
     FROM tasks t LEFT JOIN task_events e ON e.task_id = t.id GROUP BY t.id`,
    )
    .all();
  for (const t of tasks) {
    assert.equal(t.mx, t.last, `task ${t.id}: last_sequence_number ${t.last} but highest event ${String(t.mx)}`);
    assert.equal(t.mn, 1, `task ${t.id}: first event ${String(t.mn)}`);
    assert.equal(t.n, t.last, `task ${t.id}: ${t.n} events for sequence 1..${t.last}`);
  }
  const orphanTasks = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM tasks t LEFT JOIN responses r ON r.id = t.response_id WHERE r.id IS NULL').get();
  assert.equal(orphanTasks?.n, 0, 'every task has its response');
  const orphanEvents = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM task_events e LEFT JOIN tasks t ON t.id = e.task_id WHERE t.id IS NULL').get();
  assert.equal(orphanEvents?.n, 0, 'every event has its task');
  return tasks.length;
}
