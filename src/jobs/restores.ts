// Restores started by the service (the GUI's) as jobs of the owner (jobs.ts): one at a time, never
// beside a backup or maintenance (job-table.ts: a restore waits for them), each a run in `runs` with
// its details in restore_details (restore/restore-runs.ts), so it can be read after a restart and
// one cut short by a crash is put back at the next start (leftovers.ts). Progress and the end go to
// the admin events.
import type { Clock } from '../clock.js';
import type { RestoreJob } from '../contract/restore.js';
import type { RestoreProgress } from '../restore/restore-progress.js';
import type { RestoreResult } from '../restore/restore-request.js';
import {
  getRestoreRun,
  listRestoreRuns,
  recordRestoreDetails,
  type RestoreRunRow,
  setRestoreCreatedTop,
  setRestoreResult,
  storedResult,
} from '../restore/restore-runs.js';
import type { Db } from '../store/open.js';
import type { AdminEvents } from './admin-events.js';
import { JobRefusedError, type Job, type Jobs, type RunRecord } from './jobs.js';

/** One restore; `onTargetPrepared` must be passed on to restoreGeneration (the rollback record). */
export type RestoreRun = (io: {
  onProgress: (p: RestoreProgress) => void;
  onTargetPrepared: (rollbackTop: string | null) => void;
  signal: AbortSignal;
}) => Promise<RestoreResult>;

const KEEP_FINISHED = 20;

/** A restore's run ends `ok` when its checklist passed, `failed` otherwise (its error, or the result's);
 *  `restore.finished` goes out once the run has ended. */
function restoreRecord(events: AdminEvents, target: string): RunRecord<RestoreEnd> {
  return {
    kind: 'restore',
    trigger: 'gui',
    end: ({ result, error }, aborted) => ({
      status: result?.ok === true ? 'ok' : aborted ? 'interrupted' : 'failed',
      error: result?.error ?? error,
      generation: result?.generation ?? null,
    }),
    keep: KEEP_FINISHED,
    ended: (value) => {
      if (value === null) return;
      const { id, result, error } = value;
      events.publish('restore.finished', {
        run_id: id,
        id,
        status: result?.ok === true ? 'ok' : 'failed',
        ok: result?.ok ?? false,
        generation: result?.generation ?? null,
        target,
        error: result?.error ?? error,
      });
    },
  };
}

type RestoreEnd = { id: number; result: RestoreResult | null; error: string | null };

export class RestoreBusyError extends Error {
  constructor() {
    super('A restore is already running; wait for it to finish.');
    this.name = 'RestoreBusyError';
  }
}

export class RestoreJobs {
  constructor(private readonly deps: { db: Db; clock: Clock; jobs: Jobs; events: AdminEvents }) {}

  private current(): Job<RestoreEnd, RestoreProgress> | null {
    return this.deps.jobs.current<RestoreEnd, RestoreProgress>('restore');
  }

  /** The restore running or waiting, if any. */
  get running(): RestoreJob | null {
    const job = this.current();
    return job === null ? null : this.get(job.runId);
  }

  /** The newest restores as the API shows them. */
  list(limit: number): RestoreJob[] {
    return listRestoreRuns(this.deps.db, limit).map((row) => this.shown(row));
  }

  /** A restore as the API shows it: live while it runs, from its record once it ended. */
  get(id: number): RestoreJob | null {
    const row = getRestoreRun(this.deps.db, id);
    return row && this.shown(row);
  }

  private shown(row: RestoreRunRow): RestoreJob {
    const id = row.id;
    const live = this.current();
    const job = live?.run?.id === id ? live : null;
    const result = storedResult(row);
    return {
      id: row.id,
      status: row.status,
      target: row.target,
      repo: row.repo,
      started_at: row.started_at,
      finished_at: row.finished_at,
      progress: job?.progress ?? null,
      result,
      error: row.error,
      waiting_for: job?.state === 'waiting' ? this.deps.jobs.blockers(job) : [],
    };
  }

  /** Records and starts `run`; throws RestoreBusyError while one runs or waits, JobRefusedError
   *  when another job forbids it (job-table.ts). */
  start(target: string, repo: string, run: RestoreRun): RestoreJob {
    const { db, jobs, events } = this.deps;
    if (this.current() !== null) throw new RestoreBusyError();
    let job: Job<RestoreEnd, RestoreProgress>;
    try {
      job = jobs.start<RestoreEnd, RestoreProgress>(
        'restore',
        async (control) => {
          const id = control.run?.id;
          if (id === undefined) throw new Error('A restore must be started with its record.');
          const onProgress = (p: RestoreProgress): void => control.progress(p);
          const onTargetPrepared = (top: string | null): void => setRestoreCreatedTop(db, id, top);
          let result: RestoreResult | null = null;
          let error: string | null = null;
          try {
            result = await run({ onProgress, onTargetPrepared, signal: control.signal });
            setRestoreResult(db, id, result);
          } catch (err) {
            error = err instanceof Error ? err.message : String(err);
          }
          return { id, result, error };
        },
        { record: restoreRecord(events, target) },
      );
    } catch (error) {
      if (error instanceof JobRefusedError && error.blocking === 'restore') throw new RestoreBusyError();
      throw error;
    }
    const id = job.runId;
    // Before the job's first step (it starts on the next turn at the earliest).
    recordRestoreDetails(db, id, { repo, target });
    const shown = this.get(id);
    if (shown === null) throw new Error(`restore ${id} was not recorded`);
    return shown;
  }
}
