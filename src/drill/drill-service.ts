// The drill side of a running appliance: the schedule, manual drills (the admin routes), and the
// status the GUI reads (the running drill and its progress, the last verdict of each kind, the next
// planned times). Progress and the end of every drill, scheduled or manual, go to the admin event
// bus as `drill.progress` / `drill.finished`, which the GUI streams.
import { unixSeconds, type Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { Db } from '../store/open.js';
import type { Settings } from '../store/settings.js';
import type { DrillProgress } from './checklist.js';
import { backupLockHeld } from './checks/repo-lock.js';
import { drillDepsFor } from './drill-deps.js';
import { lastFinishedRun, type DrillRun } from './drill-runs.js';
import { DrillBusyError, runDrill, type DrillResult } from './run-drill.js';
import { DrillScheduler } from './schedule.js';
import type { DrillKind, Verdict } from './verdict.js';

export interface DrillServiceDeps {
  db: Db;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  store: SecretStore;
  settings: () => Settings;
  /** A backup of this appliance is running (its maintenance included). */
  backupRunning: () => boolean;
  publish?: (type: 'drill.progress' | 'drill.finished', data: Record<string, unknown>) => void;
  tickMs?: number;
}

export interface RunningDrill {
  id: number | null;
  kind: DrillKind;
  trigger: string;
  repo: string | null;
  started_at: number;
  progress: DrillProgress | null;
}

export interface DrillSummary {
  id: number;
  kind: DrillKind;
  trigger: string;
  verdict: Verdict | null;
  started_at: number;
  finished_at: number | null;
}

export interface DrillStatus {
  running: RunningDrill | null;
  paused: boolean;
  last: { daily: DrillSummary | null; deep: DrillSummary | null };
  /** Unix seconds; null while paused. */
  next_drill_at: number | null;
  next_deep_at: number | null;
}

function summary(run: DrillRun | null): DrillSummary | null {
  return run && { id: run.id, kind: run.kind, trigger: run.trigger, verdict: run.verdict, started_at: run.started_at, finished_at: run.finished_at };
}

const seconds = (ms: number | null): number | null => (ms === null ? null : Math.floor(ms / 1000));

export class DrillService {
  private current: RunningDrill | null = null;
  private controller: AbortController | null = null;
  private done: Promise<unknown> | null = null;
  private readonly scheduler: DrillScheduler;

  constructor(private readonly deps: DrillServiceDeps) {
    this.scheduler = new DrillScheduler({
      clock: deps.clock,
      paused: () => deps.settings().drill_paused,
      lastFinished: () => ({ any: finishedMs(lastFinishedRun(deps.db)), deep: finishedMs(lastFinishedRun(deps.db, 'deep')) }),
      backupBusy: () => deps.backupRunning() || backupLockHeld(deps.dataDir),
      run: async (kind, signal) => {
        try {
          await (await this.begin(kind, 'schedule', undefined, signal)).done;
          return 'ran';
        } catch (error) {
          if (error instanceof DrillBusyError) return 'busy';
          throw error;
        }
      },
      logger: deps.logger,
      ...(deps.tickMs !== undefined ? { tickMs: deps.tickMs } : {}),
    });
  }

  start(): void {
    void this.scheduler.start();
  }

  /** Check the schedule now (wake from sleep). */
  wake(): Promise<void> {
    return this.scheduler.wake();
  }

  /**
   * Starts a drill and answers once it is recorded (its id) with the promise of its result.
   * Rejects with DrillBusyError while one runs (here or in another process), UnknownRepositoryError
   * for a repository that does not exist, or the error that kept it from starting (no secrets).
   */
  async begin(kind: DrillKind, trigger: string, repo?: string, signal?: AbortSignal): Promise<{ id: number; done: Promise<DrillResult> }> {
    if (this.current !== null) throw new DrillBusyError();
    const controller = new AbortController();
    const state: RunningDrill = { id: null, kind, trigger, repo: repo ?? null, started_at: unixSeconds(this.deps.clock), progress: null };
    this.current = state;
    this.controller = controller;
    let started: (id: number) => void = () => undefined;
    const recorded = new Promise<number>((resolve) => (started = resolve));
    const done = this.execute(state, started, signal ? AbortSignal.any([signal, controller.signal]) : controller.signal).finally(() => {
      this.current = null;
      this.controller = null;
      this.done = null;
    });
    this.done = done;
    // Whichever comes first: the run is recorded, or it failed before that.
    const id = await Promise.race([recorded, done.then(() => recorded)]);
    return { id, done };
  }

  /** A drill to the end. */
  async run(kind: DrillKind, trigger: string, repo?: string): Promise<DrillResult> {
    return (await this.begin(kind, trigger, repo)).done;
  }

  private async execute(state: RunningDrill, started: (id: number) => void, signal: AbortSignal): Promise<DrillResult> {
    const { db, dataDir, clock, logger, store } = this.deps;
    const deps = await drillDepsFor({ db, dataDir, clock, logger, store, backupRunning: this.deps.backupRunning });
    const publish = this.deps.publish ?? (() => undefined);
    try {
      const result = await runDrill(deps, {
        kind: state.kind,
        trigger: state.trigger,
        ...(state.repo !== null ? { repo: state.repo } : {}),
        signal,
        onStarted: (id) => {
          state.id = id;
          started(id);
        },
        onProgress: (p) => {
          state.progress = p;
          publish('drill.progress', { id: state.id, kind: state.kind, ...p });
        },
      });
      publish('drill.finished', { id: result.id, kind: result.kind, verdict: result.verdict, interrupted: result.interrupted, checks: result.checks });
      return result;
    } catch (error) {
      if (state.id !== null) publish('drill.finished', { id: state.id, kind: state.kind, verdict: null, error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  /** Stops the schedule and the running drill (read-only, so nothing is lost but its answer). */
  async stop(): Promise<void> {
    const abandon = new AbortController();
    const timer = setTimeout(() => abandon.abort(), 15_000);
    this.controller?.abort();
    await this.scheduler.stop(abandon.signal);
    await this.done?.catch(() => undefined);
    clearTimeout(timer);
  }

  status(): DrillStatus {
    const { db, settings } = this.deps;
    return {
      running: this.current && { ...this.current },
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
