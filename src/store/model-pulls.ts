// Downloads of models (table `model_pulls`): what is being fetched, from where, and what it must
// hash to. A row stays 'running' from the first byte to the registration, so a pull cut by a crash
// or a stop is found at the next start and resumed (its partial file is kept beside its row).
import type { Db } from './open.js';

export type PullStatus = 'running' | 'done' | 'failed' | 'cancelled';

export interface PullRow {
  id: string;
  /** As the user gave it (`hf:…` or `https://…`), and the file URL it resolved to. */
  uri: string;
  url: string;
  file_name: string;
  model_id: string;
  size_bytes: number;
  /** The hub's sha256 (X-Linked-Etag / LFS oid), or one the user gave; null: none is published. */
  sha256: string | null;
  revision: string | null;
  status: PullStatus;
  error: string | null;
  downloaded_bytes: number;
  /** Unix ms. */
  created_at: number;
  finished_at: number | null;
  /** Its run (jobs/runs.ts, kind `pull`): its progress and end as every run's; null before 0028. */
  run_id: number | null;
}

export type NewPull = Omit<PullRow, 'status' | 'error' | 'downloaded_bytes' | 'finished_at' | 'run_id'>;

export function insertPull(db: Db, row: NewPull): void {
  db.prepare(
    `INSERT INTO model_pulls(id, uri, url, file_name, model_id, size_bytes, sha256, revision, status, created_at)
     VALUES (@id, @uri, @url, @file_name, @model_id, @size_bytes, @sha256, @revision, 'running', @created_at)`,
  ).run(row);
}

export function getPull(db: Db, id: string): PullRow | undefined {
  return db.prepare<[string], PullRow>('SELECT * FROM model_pulls WHERE id = ?').get(id);
}

/** The pull of this file still running (two pulls of one file are one). */
export function runningPullOf(db: Db, url: string): PullRow | undefined {
  return db.prepare<[string], PullRow>("SELECT * FROM model_pulls WHERE url = ? AND status = 'running'").get(url);
}

export function runningPulls(db: Db): PullRow[] {
  return db.prepare<[], PullRow>("SELECT * FROM model_pulls WHERE status = 'running' ORDER BY created_at, id").all();
}

export function recentPulls(db: Db, limit: number): PullRow[] {
  return db.prepare<[number], PullRow>('SELECT * FROM model_pulls ORDER BY created_at DESC, id DESC LIMIT ?').all(limit);
}

/** The pull recorded under this run, if any. */
export function pullOfRun(db: Db, runId: number): PullRow | undefined {
  return db.prepare<[number], PullRow>('SELECT * FROM model_pulls WHERE run_id = ?').get(runId);
}

/** The run this pull goes on under (a new one, or the one a stop left open). */
export function setPullRun(db: Db, id: string, runId: number): void {
  db.prepare('UPDATE model_pulls SET run_id = ? WHERE id = ?').run(runId, id);
}

export function notePullBytes(db: Db, id: string, bytes: number): void {
  db.prepare("UPDATE model_pulls SET downloaded_bytes = ? WHERE id = ? AND status = 'running'").run(bytes, id);
}

/** Ends a running pull; false if it had already ended (a cancel raced the finish). */
export function finishPull(db: Db, id: string, end: { status: Exclude<PullStatus, 'running'>; error: string | null; finishedAt: number }): boolean {
  return (
    db.prepare("UPDATE model_pulls SET status = @status, error = @error, finished_at = @finishedAt WHERE id = @id AND status = 'running'").run({ id, ...end })
      .changes > 0
  );
}

/** Keeps the newest `keep` ended pulls. */
export function pruneEndedPulls(db: Db, keep: number): void {
  db.prepare(
    "DELETE FROM model_pulls WHERE status != 'running' AND id NOT IN (SELECT id FROM model_pulls WHERE status != 'running' ORDER BY created_at DESC, id DESC LIMIT ?)",
  ).run(keep);
}
