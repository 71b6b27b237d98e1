// The one owner of a restore's details: restore_details (the repository, the target, the first folder
// it created, the result), keyed by the run's id in `runs` (jobs/runs.ts opens and ends the run and
// settles one a crash cut short; leftovers.ts then puts its target back, from what is recorded here).
import { RestoreResult as RestoreResultSchema } from '../contract/restore.js';
import type { RunStatus } from '../contract/runs.js';
import { parseJsonColumn } from '../store/json-column.js';
import type { Db, ReadableDB } from '../store/open.js';
import type { RestoreResult } from './restore-request.js';

export interface RestoreRunRow {
  id: number;
  repo: string;
  target: string;
  /** The first folder the restore created (the target or a missing parent): what a rollback removes. */
  created_top: string | null;
  status: RunStatus;
  generation: number | null;
  /** The RestoreResult as JSON, once it ended. */
  result: string | null;
  error: string | null;
  /** Unix ms. */
  started_at: number;
  finished_at: number | null;
}

/** Written as the run is recorded, before the restore touches anything. */
export function recordRestoreDetails(db: Db, runId: number, input: { repo: string; target: string }): void {
  db.prepare('INSERT INTO restore_details(run_id, repo, target) VALUES (?, ?, ?)').run(runId, input.repo, input.target);
}

/** Recorded before the restore writes anything into the target, so a crash after it can be undone. */
export function setRestoreCreatedTop(db: Db, runId: number, createdTop: string | null): void {
  db.prepare('UPDATE restore_details SET created_top = ? WHERE run_id = ?').run(createdTop, runId);
}

export function setRestoreResult(db: Db, runId: number, result: RestoreResult): void {
  db.prepare('UPDATE restore_details SET result = ? WHERE run_id = ?').run(JSON.stringify(result), runId);
}

const SELECT = `SELECT r.id, d.repo, d.target, d.created_top, r.status, r.generation, d.result, r.error, r.started_at, r.ended_at AS finished_at
  FROM runs r JOIN restore_details d ON d.run_id = r.id`;

export function getRestoreRun(db: ReadableDB, id: number): RestoreRunRow | null {
  return db.prepare<[number], RestoreRunRow>(`${SELECT} WHERE r.id = ?`).get(id) ?? null;
}

/** The newest restores, newest first. */
export function listRestoreRuns(db: ReadableDB, limit: number): RestoreRunRow[] {
  return db.prepare<[number], RestoreRunRow>(`${SELECT} ORDER BY r.id DESC LIMIT ?`).all(limit);
}

/** The stored result, if it is one (a row written by this version always is). */
export function storedResult(row: RestoreRunRow): RestoreResult | null {
  return parseJsonColumn(RestoreResultSchema, row.result);
}
