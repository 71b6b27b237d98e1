// The one owner of the restore_runs table: the restores the service starts (the GUI's), so one that
// is running can be followed, one that ended can still be read after a restart, and one that a crash
// cut short is found at the next start (jobs/leftovers.ts) and its target put back.
import { RestoreResult as RestoreResultSchema } from '../contract/restore.js';
import { parseJsonColumn } from '../store/json-column.js';
import type { Db, ReadableDB } from '../store/open.js';
import type { RestoreResult } from './restore-request.js';

export type RestoreRunStatus = 'running' | 'succeeded' | 'failed' | 'interrupted';

export interface RestoreRunRow {
  id: string;
  repo: string;
  target: string;
  /** The first folder the restore created (the target or a missing parent): what a rollback removes. */
  created_top: string | null;
  status: RestoreRunStatus;
  generation: number | null;
  /** The RestoreResult as JSON, once it ended. */
  result: string | null;
  error: string | null;
  /** Unix ms. */
  started_at: number;
  finished_at: number | null;
}

export function startRestoreRun(db: Db, run: { id: string; repo: string; target: string; startedAtMs: number }): void {
  db.prepare("INSERT INTO restore_runs(id, repo, target, status, started_at) VALUES (?, ?, ?, 'running', ?)").run(run.id, run.repo, run.target, run.startedAtMs);
}

/** Recorded before the restore writes anything into the target, so a crash after it can be undone. */
export function setRestoreCreatedTop(db: Db, id: string, createdTop: string | null): void {
  db.prepare('UPDATE restore_runs SET created_top = ? WHERE id = ?').run(createdTop, id);
}

export function finishRestoreRun(db: Db, id: string, outcome: { result: RestoreResult | null; error: string | null; finishedAtMs: number }): RestoreRunStatus {
  const status: RestoreRunStatus = outcome.result?.ok ? 'succeeded' : 'failed';
  db.prepare('UPDATE restore_runs SET status = ?, generation = ?, result = ?, error = ?, finished_at = ? WHERE id = ?').run(
    status, outcome.result?.generation ?? null, outcome.result ? JSON.stringify(outcome.result) : null, outcome.result?.error ?? outcome.error, outcome.finishedAtMs, id,
  );
  return status;
}

export function getRestoreRun(db: ReadableDB, id: string): RestoreRunRow | null {
  return db.prepare<[string], RestoreRunRow>('SELECT * FROM restore_runs WHERE id = ?').get(id) ?? null;
}

export function leftoverRestoreRuns(db: ReadableDB): RestoreRunRow[] {
  return db.prepare<[], RestoreRunRow>("SELECT * FROM restore_runs WHERE status = 'running'").all();
}

export function settleRestoreRun(db: Db, id: string, reason: string, nowMs: number): void {
  db.prepare("UPDATE restore_runs SET status = 'interrupted', error = ?, finished_at = ? WHERE id = ? AND status = 'running'").run(reason, nowMs, id);
}

/** Keeps the newest `keep` ended runs. */
export function pruneRestoreRuns(db: Db, keep: number): void {
  db.prepare("DELETE FROM restore_runs WHERE status != 'running' AND id NOT IN (SELECT id FROM restore_runs ORDER BY started_at DESC LIMIT ?)").run(keep);
}

/** The stored result, if it is one (a row written by this version always is). */
export function storedResult(row: RestoreRunRow): RestoreResult | null {
  return parseJsonColumn(RestoreResultSchema, row.result);
}
