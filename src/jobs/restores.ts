// Restores started by the service (the GUI's) as jobs of the owner (jobs.ts): one at a time, never
// beside a backup or maintenance (job-table.ts: a restore waits for them), each recorded in
// restore_runs (restore/restore-runs.ts) so it can be read after a restart and one cut short by a
// crash is put back at the next start (leftovers.ts). Progress and the end go to the admin events.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { RestoreJob } from '../contract/restore.js';
import type { RestoreProgress } from '../restore/restore-progress.js';
import type { RestoreResult } from '../restore/restore-request.js';
import { finishRestoreRun, getRestoreRun, pruneRestoreRuns, setRestoreCreatedTop, settleRestoreRun, startRestoreRun, storedResult } from '../restore/restore-runs.js';
import type { Db } from '../store/open.js';
import type { AdminEvents } from './admin-events.js';
import { JobCancelledError, JobRefusedError, type Job, type Jobs } from './jobs.js';

/** One restore; `onTargetPrepared` must be passed on to restoreGeneration (the rollback record). */
export type RestoreRun = (io: { onProgress: (p: RestoreProgress) => void; onTargetPrepared: (rollbackTop: string | null) => void; signal: AbortSignal }) => Promise<RestoreResult>;

const KEEP_FINISHED = 20;
const NEVER_STARTED = 'Sanad stopped before this restore could start (it was waiting for a backup or maintenance); nothing was written. Run it again.';

export class RestoreBusyError extends Error {
  constructor() {
    super('A restore is already running; wait for it to finish.');
    this.name = 'RestoreBusyError';
  }
}

export class RestoreJobs {
  constructor(private readonly deps: { db: Db; clock: Clock; jobs: Jobs; events: AdminEvents }) {}

  private current(): Job<void, RestoreProgress> | null {
    return this.deps.jobs.current<void, RestoreProgress>('restore');
  }

  /** The restore running or waiting, if any. */
  get running(): RestoreJob | null {
    const job = this.current();
    return job === null ? null : this.get(job.id);
  }

  /** A restore as the API shows it: live while it runs, from restore_runs once it ended. */
  get(id: string): RestoreJob | null {
    const row = getRestoreRun(this.deps.db, id);
    if (!row) return null;
    const live = this.current();
    const job = live?.id === id ? live : null;
    const result = storedResult(row);
    return {
      id: row.id,
      status: row.status === 'running' && job?.state === 'waiting' ? 'waiting' : row.status,
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
    const { db, clock, jobs, events } = this.deps;
    if (this.current() !== null) throw new RestoreBusyError();
    const id = `restore_${randomBytes(8).toString('hex')}`;
    let job: Job<void, RestoreProgress>;
    try {
      job = jobs.start<void, RestoreProgress>('restore', async (control) => {
        const onProgress = (p: RestoreProgress): void => {
          control.progress(p);
          events.publish('restore.progress', { id, ...p });
        };
        const onTargetPrepared = (top: string | null): void => setRestoreCreatedTop(db, id, top);
        let result: RestoreResult | null = null;
        let error: string | null = null;
        try {
          result = await run({ onProgress, onTargetPrepared, signal: control.signal });
        } catch (err) {
          error = err instanceof Error ? err.message : String(err);
        }
        const status = finishRestoreRun(db, id, { result, error, finishedAtMs: clock.now() });
        pruneRestoreRuns(db, KEEP_FINISHED);
        events.publish('restore.finished', { id, status, ok: result?.ok ?? false, generation: result?.generation ?? null, target, error: result?.error ?? error });
      }, { id });
    } catch (error) {
      if (error instanceof JobRefusedError && error.blocking === 'restore') throw new RestoreBusyError();
      throw error;
    }
    // Before the job's first step (it starts on the next turn at the earliest).
    startRestoreRun(db, { id, repo, target, startedAtMs: clock.now() });
    // Stopped while it still waited (Quit during a backup): it never wrote anything; say so.
    void job.done.catch((err: unknown) => {
      if (err instanceof JobCancelledError) settleRestoreRun(db, id, NEVER_STARTED, clock.now());
    });
    const shown = this.get(id);
    if (shown === null) throw new Error(`restore ${id} was not recorded`);
    return shown;
  }
}
