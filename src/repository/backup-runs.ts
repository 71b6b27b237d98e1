// The one owner of a backup run's details: backup_details (the generation's manifest, the offsite
// copy's outcome) and backup_copies (one per repository), keyed by the run's id in `runs`
// (jobs/runs.ts opens and ends the run itself, and settles one a crash cut short). The reads here
// join the two and show times in Unix seconds, as the backup answers always have.
import {
  BackupCopySummary as BackupCopySummarySchema,
  OffsiteCopyOutcome as OffsiteCopyOutcomeSchema,
  type BackupCopySummary,
  type OffsiteCopyOutcome,
} from '../contract/backups.js';
import type { RunStatus } from '../contract/runs.js';
import { z } from 'zod/v3';
import { parseJsonColumn } from '../store/json-column.js';
import type { Db, ReadableDB } from '../store/open.js';
import { asBookkeeping } from '../store/content-mark.js';

export type BackupRunStatus = RunStatus;

/** A backup run as the backup answers show it (times in Unix seconds). */
export interface BackupRunRow {
  id: number;
  generation: number | null;
  trigger: string;
  status: BackupRunStatus;
  error: string | null;
  started_at: number;
  finished_at: number | null;
}

/** The run a backup writes its details under, and where it says which generation it made. */
export interface BackupRunHandle {
  readonly id: number;
  generation(epoch: number): void;
}

const RUN_COLUMNS = 'r.id, r.generation, r.trigger, r.status, r.error, r.started_at / 1000 AS started_at, r.ended_at / 1000 AS finished_at';

export interface BackupCopyRow {
  run_id: number;
  repository: string;
  ok: number;
  snapshot_id: string | null;
  error: string | null;
  finished_at: number;
  /** restic's summary of the copy as JSON (what it read and added); null when it failed. */
  summary: string | null;
}

/** A copy as the API shows it: the summary parsed. */
export type ShownCopy = Omit<BackupCopyRow, 'summary'> & { summary: BackupCopySummary | null };

/** What Sanad sent restic for one copy: the snapshot's paths (absolute, as given), host and time. */
export interface SentSnapshot {
  paths: string[];
  host: string;
  time: string;
}

export function recordCopy(db: Db, copy: BackupCopyRow, sent: SentSnapshot | null = null): void {
  asBookkeeping(db, () =>
    db
      .prepare('INSERT INTO backup_copies(run_id, repository, ok, snapshot_id, error, finished_at, summary, snapshot) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(copy.run_id, copy.repository, copy.ok, copy.snapshot_id, copy.error, copy.finished_at, copy.summary, sent ? JSON.stringify(sent) : null),
  );
}

/** The generation's manifest exactly as written into it (manifest.json's bytes). */
export function setRunManifest(db: Db, runId: number, manifestText: string): void {
  asBookkeeping(db, () =>
    db
      .prepare('INSERT INTO backup_details(run_id, manifest) VALUES (?, ?) ON CONFLICT(run_id) DO UPDATE SET manifest = excluded.manifest')
      .run(runId, manifestText),
  );
}

/** What the run's compressed offsite copy did, when one is set up. */
export function setOffsiteCopyOutcome(db: Db, runId: number, offsiteCopy: OffsiteCopyOutcome | null): void {
  if (offsiteCopy === null) return;
  asBookkeeping(db, () =>
    db
      .prepare('INSERT INTO backup_details(run_id, offsite_copy) VALUES (?, ?) ON CONFLICT(run_id) DO UPDATE SET offsite_copy = excluded.offsite_copy')
      .run(runId, JSON.stringify(offsiteCopy)),
  );
}

/** The snapshot of the last good backup to this repository, as recorded by Sanad (a parent hint). */
export function lastSnapshotId(db: ReadableDB, repository: string): string | null {
  const row = db
    .prepare<[string], { snapshot_id: string }>(
      'SELECT snapshot_id FROM backup_copies WHERE repository = ? AND ok = 1 AND snapshot_id IS NOT NULL ORDER BY finished_at DESC, run_id DESC LIMIT 1',
    )
    .get(repository);
  return row?.snapshot_id ?? null;
}

export function lastBackupRun(db: ReadableDB): BackupRunRow | null {
  return db.prepare<[], BackupRunRow>(`SELECT ${RUN_COLUMNS} FROM runs r WHERE r.kind = 'backup' ORDER BY r.id DESC LIMIT 1`).get() ?? null;
}

/** The backup run with this id (seconds), or null when there is none of that kind. */
export function backupRun(db: ReadableDB, id: number): BackupRunRow | null {
  return db.prepare<[number], BackupRunRow>(`SELECT ${RUN_COLUMNS} FROM runs r WHERE r.kind = 'backup' AND r.id = ?`).get(id) ?? null;
}

/** Unix seconds of the start of the newest run that started, of any outcome (the schedule counts from it). */
export function lastBackupStartedAt(db: ReadableDB): number | null {
  return (
    db.prepare<[], { t: number | null }>("SELECT MAX(started_at) / 1000 AS t FROM runs WHERE kind = 'backup' AND status NOT IN ('queued','cancelled')").get()
      ?.t ?? null
  );
}

/** Unix seconds of the end of the newest run that kept a copy on this machine (ok or partial). */
export function lastGoodBackupAt(db: ReadableDB): number | null {
  return (
    db.prepare<[], { t: number | null }>("SELECT MAX(ended_at) / 1000 AS t FROM runs WHERE kind = 'backup' AND status IN ('ok','partial')").get()?.t ?? null
  );
}

/** The newest runs (newest first) and the copies they made. */
/** A run as GET /admin/backups shows it: with its offsite copy's outcome parsed. */
export type ShownRun = BackupRunRow & { offsite_copy: OffsiteCopyOutcome | null };

export function recentBackupRuns(db: ReadableDB, limit: number): { runs: ShownRun[]; copies: ShownCopy[] } {
  const rows = db
    .prepare<[number], BackupRunRow & { offsite_copy: string | null }>(
      `SELECT ${RUN_COLUMNS}, d.offsite_copy FROM runs r LEFT JOIN backup_details d ON d.run_id = r.id WHERE r.kind = 'backup' ORDER BY r.id DESC LIMIT ?`,
    )
    .all(limit);
  const runs = rows.map((r) => ({ ...r, offsite_copy: parseJsonColumn(OffsiteCopyOutcomeSchema, r.offsite_copy) }));
  const copies = db
    .prepare<[number], BackupCopyRow>(
      "SELECT run_id, repository, ok, snapshot_id, error, finished_at, summary FROM backup_copies WHERE run_id IN (SELECT id FROM runs WHERE kind = 'backup' ORDER BY id DESC LIMIT ?)",
    )
    .all(limit);
  return { runs, copies: copies.map((c) => ({ ...c, summary: parseJsonColumn(BackupCopySummarySchema, c.summary) })) };
}

const SentSnapshotSchema = z.object({ paths: z.array(z.string()).min(1), host: z.string(), time: z.string() });

/** A generation as this data dir recorded sending it to a repository. */
export interface RecordedCopy extends SentSnapshot {
  generation: number;
  /** restic's id of the snapshot, as its backup reported it (the short form). */
  snapshot_id: string;
  manifest: string;
}

/**
 * Every generation this data dir recorded in `repository` (ok copies with their snapshot and
 * manifest; runs from before these were recorded are absent), newest data first.
 */
export function recordedCopies(db: ReadableDB, repository: string): RecordedCopy[] {
  const rows = db
    .prepare<[string], { generation: number; snapshot_id: string; manifest: string; snapshot: string }>(
      `SELECT r.generation, c.snapshot_id, d.manifest, c.snapshot FROM backup_copies c JOIN runs r ON r.id = c.run_id JOIN backup_details d ON d.run_id = c.run_id
     WHERE c.repository = ? AND c.ok = 1 AND c.snapshot_id IS NOT NULL AND c.snapshot IS NOT NULL AND d.manifest IS NOT NULL AND r.generation IS NOT NULL
     ORDER BY r.generation DESC, c.finished_at DESC`,
    )
    .all(repository);
  const out: RecordedCopy[] = [];
  for (const row of rows) {
    const sent = parseJsonColumn(SentSnapshotSchema, row.snapshot);
    if (sent) out.push({ generation: row.generation, snapshot_id: row.snapshot_id, manifest: row.manifest, ...sent });
  }
  return out;
}

/** The newest generation this computer's own repository holds (its run, snapshot and what was sent),
 *  and which repositories already have that run's copy. */
export interface NewestLocal {
  run_id: number;
  generation: number;
  snapshot_id: string;
  sent: SentSnapshot;
  /** Repositories with an ok copy of this run. */
  reached: string[];
}

export function newestLocalGeneration(db: ReadableDB, local: string): NewestLocal | null {
  const row = db
    .prepare<[string], { run_id: number; generation: number; snapshot_id: string; snapshot: string }>(
      `SELECT c.run_id, r.generation, c.snapshot_id, c.snapshot FROM backup_copies c JOIN runs r ON r.id = c.run_id
     WHERE c.repository = ? AND c.ok = 1 AND c.snapshot_id IS NOT NULL AND c.snapshot IS NOT NULL AND r.generation IS NOT NULL
     ORDER BY r.generation DESC, c.run_id DESC LIMIT 1`,
    )
    .get(local);
  const sent = row ? parseJsonColumn(SentSnapshotSchema, row.snapshot) : null;
  if (!row || !sent) return null;
  const reached = db
    .prepare<[number], { repository: string }>('SELECT repository FROM backup_copies WHERE run_id = ? AND ok = 1')
    .all(row.run_id)
    .map((r) => r.repository);
  return { run_id: row.run_id, generation: row.generation, snapshot_id: row.snapshot_id, sent, reached };
}

/** A run's copy to one repository made later (Copy to offsite now): it takes the place of the
 *  failed one the run recorded, so restore and the generation list find it like any other copy. */
export function replaceCopy(db: Db, copy: BackupCopyRow, sent: SentSnapshot): void {
  db.prepare(
    `INSERT INTO backup_copies(run_id, repository, ok, snapshot_id, error, finished_at, summary, snapshot) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(run_id, repository) DO UPDATE SET ok = excluded.ok, snapshot_id = excluded.snapshot_id, error = excluded.error, finished_at = excluded.finished_at, summary = excluded.summary, snapshot = excluded.snapshot`,
  ).run(copy.run_id, copy.repository, copy.ok, copy.snapshot_id, copy.error, copy.finished_at, copy.summary, JSON.stringify(sent));
}

/** One run's copies and its offsite copy's outcome (GET /admin/runs/{id}). */
export function backupRunDetails(db: ReadableDB, runId: number): { copies: ShownCopy[]; offsite_copy: OffsiteCopyOutcome | null } {
  const copies = db
    .prepare<[number], BackupCopyRow>(
      'SELECT run_id, repository, ok, snapshot_id, error, finished_at, summary FROM backup_copies WHERE run_id = ? ORDER BY rowid',
    )
    .all(runId);
  const details = db.prepare<[number], { offsite_copy: string | null }>('SELECT offsite_copy FROM backup_details WHERE run_id = ?').get(runId);
  return {
    copies: copies.map((c) => ({ ...c, summary: parseJsonColumn(BackupCopySummarySchema, c.summary) })),
    offsite_copy: parseJsonColumn(OffsiteCopyOutcomeSchema, details?.offsite_copy ?? null),
  };
}
