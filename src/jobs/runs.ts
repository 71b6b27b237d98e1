// The one owner of the `runs` table: the record of every backup, drill and restore, whoever ran it
// (the service's job owner, or a CLI command with no service beside it). A run is written when it is
// asked for (`queued`, or `running` at once), when it starts, and when it ends, here and nowhere
// else; each kind keeps only its details in its own table, keyed by the run's id (backup-runs.ts,
// drill-runs.ts, restore-runs.ts). Times are Unix milliseconds.
//
// While a run is open, the process that opened it holds a lock on runs/<id>.lock. The lock is an
// open SQLite transaction (store/file-lock.ts), so the OS drops it when that process dies, even by
// SIGKILL: a row that is still open while its lock is free was cut short, and settleRuns() settles
// it, for every kind the same way (a kind may add its own undo: leftovers.ts).
import { rmSync } from 'node:fs';

import { asBookkeeping } from '../store/content-mark.js';
import { tryFileLock, type FileLock } from '../store/file-lock.js';
import type { Db, ReadableDB } from '../store/open.js';
import { cachedStatement } from '../store/statements.js';
import { RunProgress, type Run, type RunKind, type RunStatus } from '../contract/runs.js';
import { parseJsonColumn } from '../store/json-column.js';
import { runLockPath } from '../files/data-dir-layout.js';

export type { RunKind, RunStatus } from '../contract/runs.js';
export type EndedStatus = Exclude<RunStatus, 'queued' | 'running'>;
/** A run as stored; the job owner adds what only it knows (`waiting_for`: jobs.ts) when it shows one. */
export type RunRow = Omit<Run, 'waiting_for'>;

/** How a run ended, as its kind tells it from its outcome. */
export interface RunEnd {
  status: EndedStatus;
  error: string | null;
  generation?: number | null;
}

/** An open run of this process: its id, and the lock that says it is alive. */
export interface OpenRun {
  readonly id: number;
  readonly kind: RunKind;
  readonly lock: FileLock;
}

// The record of a backup, of its maintenance and of an offsite copy is bookkeeping
// (store/content-mark.ts): it must not make the next backup think the store changed. A drill's or a
// restore's record is content, kept by the next generation.
const BOOKKEEPING: ReadonlySet<RunKind> = new Set(['backup', 'maintenance', 'offsite-copy']);
function write<T>(db: Db, kind: RunKind, fn: () => T): T {
  return BOOKKEEPING.has(kind) ? asBookkeeping(db, fn) : fn();
}

/** Records a run asked for now and takes its lock. */
export function openRun(db: Db, dataDir: string, input: { kind: RunKind; trigger: string; status: 'queued' | 'running'; nowMs: number }): OpenRun {
  const id = write(db, input.kind, () =>
    Number(
      db.prepare('INSERT INTO runs(kind, trigger, status, started_at) VALUES (?, ?, ?, ?)').run(input.kind, input.trigger, input.status, input.nowMs)
        .lastInsertRowid,
    ),
  );
  const lock = tryFileLock(runLockPath(dataDir, id));
  // A fresh id's lock is free unless a leftover file of a run that was removed (a store restored
  // over) is held by a live process; the row is then someone else's business and this one fails.
  if (!lock) {
    write(db, input.kind, () => db.prepare('DELETE FROM runs WHERE id = ?').run(id));
    throw new Error(`The lock of run ${id} is held by another process; try again.`);
  }
  return { id, kind: input.kind, lock };
}

/** A queued run starts now. */
export function startRun(db: Db, run: OpenRun, nowMs: number): void {
  write(db, run.kind, () => db.prepare("UPDATE runs SET status = 'running', started_at = ? WHERE id = ? AND status = 'queued'").run(nowMs, run.id));
}

/** The data dir's generation the run made or read, as soon as it is known (a crash after keeps it). */
export function setRunGeneration(db: Db, run: OpenRun, generation: number): void {
  write(db, run.kind, () => db.prepare('UPDATE runs SET generation = ? WHERE id = ?').run(generation, run.id));
}

/** Ends a run with its status and releases its lock. */
export function endRun(db: Db, dataDir: string, run: OpenRun, end: RunEnd, nowMs: number): void {
  write(db, run.kind, () =>
    db
      .prepare('UPDATE runs SET status = ?, error = ?, generation = COALESCE(?, generation), ended_at = ?, progress = NULL WHERE id = ?')
      .run(end.status, end.error, end.generation ?? null, nowMs, run.id),
  );
  closeLock(dataDir, run);
}

/**
 * Takes up an open run again in this process (a pull left open by a stop, resumed at the next
 * start): its lock, and `status` as it goes on. Null when another process holds it, or it ended.
 */
export function reopenRun(db: Db, dataDir: string, id: number, status: 'queued' | 'running', nowMs: number): OpenRun | null {
  const row = getRun(db, id);
  if (!row || (row.status !== 'queued' && row.status !== 'running')) return null;
  const lock = tryFileLock(runLockPath(dataDir, id));
  if (!lock) return null;
  write(db, row.kind, () => db.prepare('UPDATE runs SET status = ?, started_at = ?, progress = NULL WHERE id = ?').run(status, nowMs, id));
  return { id, kind: row.kind, lock };
}

/** Lets go of a run that stays open for the next start to take up (reopenRun): its lock only. */
export function leaveRun(dataDir: string, run: OpenRun): void {
  closeLock(dataDir, run);
}

/** A run that was refused before it did anything (another process held its kind's lock): no record. */
export function dropRun(db: Db, dataDir: string, run: OpenRun): void {
  write(db, run.kind, () => db.prepare('DELETE FROM runs WHERE id = ?').run(run.id));
  closeLock(dataDir, run);
}

function closeLock(dataDir: string, run: OpenRun): void {
  run.lock.release();
  rmSync(runLockPath(dataDir, run.id), { force: true });
}

/** Its latest progress while it runs (setRunProgress); null while it waits and once it ended. */
export function setRunProgress(db: Db, run: OpenRun, progress: RunProgress): void {
  write(db, run.kind, () => db.prepare("UPDATE runs SET progress = ? WHERE id = ? AND status = 'running'").run(JSON.stringify(progress), run.id));
}

/** A row as stored: its progress is JSON text. */
type StoredRun = Omit<RunRow, 'progress'> & { progress: string | null };
const COLUMNS = 'id, kind, trigger, status, error, generation, started_at, ended_at, progress';
const rowOf = (r: StoredRun): RunRow => ({ ...r, progress: parseJsonColumn(RunProgress, r.progress) });

const byId = cachedStatement<[number], StoredRun>(`SELECT ${COLUMNS} FROM runs WHERE id = ?`);

export function getRun(db: ReadableDB, id: number): RunRow | null {
  const row = byId(db).get(id);
  return row === undefined ? null : rowOf(row);
}

/** Newest first; of one kind, or of every kind; only the open ones (queued or running) if asked. */
export function listRuns(db: ReadableDB, options: { kind?: RunKind; limit: number; before?: number; open?: boolean }): RunRow[] {
  const before = options.before ?? Number.MAX_SAFE_INTEGER;
  const open = options.open === true ? " AND status IN ('queued','running')" : '';
  const rows =
    options.kind === undefined
      ? db.prepare<[number, number], StoredRun>(`SELECT ${COLUMNS} FROM runs WHERE id < ?${open} ORDER BY id DESC LIMIT ?`).all(before, options.limit)
      : db
          .prepare<[string, number, number], StoredRun>(`SELECT ${COLUMNS} FROM runs WHERE kind = ? AND id < ?${open} ORDER BY id DESC LIMIT ?`)
          .all(options.kind, before, options.limit);
  return rows.map(rowOf);
}

/** Keeps the newest `keep` ended runs of a kind (their details go with them: ON DELETE CASCADE). */
export function pruneRuns(db: Db, kind: RunKind, keep: number): number {
  return write(
    db,
    kind,
    () =>
      db
        .prepare(
          "DELETE FROM runs WHERE kind = ? AND status NOT IN ('queued','running') AND id NOT IN (SELECT id FROM runs WHERE kind = ? ORDER BY id DESC LIMIT ?)",
        )
        .run(kind, kind, keep).changes,
  );
}

/** What settling a run cut short does beyond its row: the kind's own undo, and the reason it gives. */
export type SettleHook = (run: RunRow) => Promise<string> | string;

export interface Settled {
  id: number;
  kind: RunKind;
  status: 'interrupted' | 'cancelled';
}

export const NEVER_STARTED = 'Sanad stopped before this run could start (it was waiting for another job to end); nothing was done. Run it again.';

/**
 * Every run still open whose process is gone (its lock is free) is ended: `interrupted` if it had
 * started, `cancelled` if it only waited. The one settle for every kind, at every start.
 */
/** Kinds whose open runs their owner takes up again at the next start instead of settling them. */
const RESUMED: ReadonlySet<RunKind> = new Set(['pull']);

export async function settleRuns(db: Db, dataDir: string, nowMs: number, hooks: Partial<Record<RunKind, SettleHook>>): Promise<Settled[]> {
  const open = db.prepare<[], StoredRun>(`SELECT ${COLUMNS} FROM runs WHERE status IN ('queued','running') ORDER BY id`).all().map(rowOf);
  const settled: Settled[] = [];
  for (const row of open) {
    // A pull a stop or a crash cut goes on at the next start under the same run (jobs/pulls.ts).
    if (RESUMED.has(row.kind)) continue;
    const lock = tryFileLock(runLockPath(dataDir, row.id));
    // Held: another process runs it right now, and its row is its own.
    if (!lock) continue;
    const run: OpenRun = { id: row.id, kind: row.kind, lock };
    try {
      const status = row.status === 'queued' ? 'cancelled' : 'interrupted';
      const hook = hooks[row.kind];
      const reason = status === 'cancelled' ? NEVER_STARTED : hook ? await hook(row) : 'Sanad stopped while this ran; run it again.';
      endRun(db, dataDir, run, { status, error: reason }, nowMs);
      settled.push({ id: row.id, kind: row.kind, status });
    } finally {
      closeLock(dataDir, run);
    }
  }
  return settled;
}

/** The open run of a kind (queued or running), oldest first: the one another process holds. */
export function openRunOf(db: ReadableDB, kind: RunKind): RunRow | null {
  return db.prepare<[string], RunRow>("SELECT * FROM runs WHERE kind = ? AND status IN ('queued','running') ORDER BY id LIMIT 1").get(kind) ?? null;
}
