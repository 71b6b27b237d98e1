// Drills as jobs of the owner (jobs.ts): the schedule, manual drills (the admin routes, the tray),
// and the status the GUI reads. A drill asked for while a backup or its maintenance runs waits for
// it (job-table.ts) instead of reporting UNVERIFIED for a repository that is being written. The work
// is drill/run-drill.ts; its check-by-check progress goes to its run (jobs.ts: run.updated), its end
// to the admin events as drill.finished.
import type { DrillProgress, DrillStatus, DrillSummary } from '../contract/drills.js';
import { backupLockHeld } from '../repository/backup-lock.js';
import { drillDepsFor } from '../drill/drill-deps.js';
import { lastFinishedRun, type DrillRun } from '../drill/drill-runs.js';
import { DrillBusyError, runDrill, type DrillResult } from '../drill/run-drill.js';
import { DrillScheduler } from '../drill/schedule.js';
import type { DrillKind } from '../drill/verdict.js';
import { drillRecord } from './drill-record.js';
import type { JobDeps } from './job-deps.js';
import { JobRefusedError, type Job } from './jobs.js';

export interface DrillJobsDeps extends JobDeps {
  tickMs?: number;
}

/** The job's progress is the check the drill is at (written to its run). */
type DrillJob = Job<DrillResult, DrillProgress>;

function summary(run: DrillRun | null): DrillSummary | null {
  return run && { id: run.id, kind: run.kind, trigger: run.trigger, verdict: run.verdict, started_at: run.started_at, finished_at: run.finished_at };
}

const seconds = (ms: number | null): number | null => (ms === null ? null : Math.floor(ms / 1000));

export class DrillJobs {
  private readonly scheduler: DrillScheduler;

  constructor(private readonly deps: DrillJobsDeps) {
    this.scheduler = new DrillScheduler({
      clock: deps.clock,
      paused: () => deps.settings().drill_paused,
      lastFinished: () => ({ any: finishedMs(lastFinishedRun(deps.db)), deep: finishedMs(lastFinishedRun(deps.db, 'deep')) }),
      // A scheduled drill does not even queue behind a backup: it is due again at the next tick.
      backupBusy: () => this.backupRunning() || backupLockHeld(deps.dataDir),
      run: async (kind, signal) => {
        try {
          await (
            await this.begin(kind, 'schedule', undefined, signal)
          ).done;
          return 'ran';
        } catch (error) {
          if (error instanceof DrillBusyError) return 'busy';
          throw error;
        }
      },
      logger: deps.logger,
      ...(deps.tickMs !== undefined ? { tickMs: deps.tickMs } : {}),
    });
    deps.jobs.own(this.scheduler);
  }

  /** Check the schedule now (wake from sleep). */
  wake(): Promise<void> {
    return this.scheduler.wake();
  }

  private backupRunning(): boolean {
    return this.deps.jobs.current('backup') !== null || this.deps.jobs.current('maintenance') !== null;
  }

  /** Whether a drill runs or waits to. */
  get running(): boolean {
    return this.deps.jobs.current('drill') !== null;
  }

  /**
   * Starts a drill and answers once it is recorded (its id), or at once with a null id when it
   * waits for a backup to end, with the promise of its result. Rejects with DrillBusyError while one
   * runs (here or in another process), UnknownRepositoryError for a repository that does not exist,
   * or the error that kept it from starting (no secrets).
   */
  async begin(kind: DrillKind, trigger: string, repo?: string, signal?: AbortSignal): Promise<{ id: number; done: Promise<DrillResult> }> {
    let started: () => void = () => undefined;
    const began = new Promise<void>((resolve) => (started = resolve));
    let job: DrillJob;
    try {
      job = this.deps.jobs.start<DrillResult, DrillProgress>(
        'drill',
        (control) => {
          const id = control.run?.id;
          if (id === undefined) throw new Error('A drill must be started with its record (drillRecord).');
          return this.execute({ kind, trigger, repo: repo ?? null }, id, started, control.signal, (p) => control.progress(p));
        },
        { ...(signal ? { signal } : {}), record: { ...drillRecord(trigger), ended: (result, error) => this.finished(kind, () => job.runId, result, error) } },
      );
    } catch (error) {
      if (error instanceof JobRefusedError && error.blocking === 'drill') throw new DrillBusyError();
      throw error;
    }
    const id = job.runId;
    if (job.state === 'waiting') return { id, done: job.done };
    // Whichever comes first: it holds the drill lock and runs, or it was refused before that (another
    // process's drill, no such repository), which rejects here.
    await Promise.race([began, job.done]);
    return { id, done: job.done };
  }

  /** A drill to the end. */
  async run(kind: DrillKind, trigger: string, repo?: string): Promise<DrillResult> {
    return (await this.begin(kind, trigger, repo)).done;
  }

  private async execute(
    state: { kind: DrillKind; trigger: string; repo: string | null },
    runId: number,
    started: () => void,
    signal: AbortSignal,
    onProgress: (p: DrillProgress) => void,
  ): Promise<DrillResult> {
    const { db, dataDir, clock, logger, store } = this.deps;
    const deps = await drillDepsFor({ db, dataDir, clock, logger, store, backupRunning: () => this.backupRunning() });
    return runDrill(deps, {
      kind: state.kind,
      trigger: state.trigger,
      ...(state.repo !== null ? { repo: state.repo } : {}),
      signal,
      run: { id: runId },
      onStarted: started,
      onProgress,
    });
  }

  /** `drill.finished`, once the run's record has ended. */
  private finished(kind: DrillKind, runId: () => number, result: DrillResult | null, error: unknown): void {
    const id = runId();
    this.deps.events?.publish(
      'drill.finished',
      result
        ? { run_id: id, id, kind: result.kind, verdict: result.verdict, interrupted: result.interrupted, checks: result.checks }
        : { run_id: id, id, kind, verdict: null, error: error instanceof Error ? error.message : String(error) },
    );
  }

  status(): DrillStatus {
    const { db, settings } = this.deps;
    return {
      paused: settings().drill_paused,
      last: { daily: summary(lastFinishedRun(db, 'daily')), deep: summary(lastFinishedRun(db, 'deep')) },
      next_drill_at: seconds(this.scheduler.nextRunAt()),
      next_deep_at: seconds(this.scheduler.nextDeepAt()),
    };
  }
}

function finishedMs(run: DrillRun | null): number | null {
  return run === null || run.finished_at === null ? null : run.finished_at * 1000;
}
