// The one owner of long-running work in a running appliance: which jobs run or wait, each job's
// AbortController and progress, the schedules that start them, and stop. Domain code (backup/,
// drill/, restore/, secrets/) stays plain run functions; they get the signal from here. Whether two
// jobs may overlap is job-table.ts's to say, nowhere else.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import type { Db } from '../store/open.js';
import type { AdminEvents } from './admin-events.js';
import { ProgressThrottle } from './progress-throttle.js';
import { CancelledByPersonError, cancelledByPerson, StalledError } from '../process/cancel.js';
import { overlap, type JobKind } from './job-table.js';
import { RunProgress, type Run } from '../contract/runs.js';
import {
  dropRun,
  endRun,
  getRun,
  leaveRun,
  listRuns,
  NEVER_STARTED,
  openRun,
  pruneRuns,
  reopenRun,
  setRunProgress,
  startRun,
  type OpenRun,
  type RunEnd,
  type RunKind,
  type RunRow,
} from './runs.js';

/** How often at most a run's progress is written to its record and told (a new phase at once). */
export const PROGRESS_WRITE_MS = 500;
/** The error a run a person cancelled while it ran keeps in its record. */
const CANCELLED = new CancelledByPersonError().message;
/** More open runs than this is a fault, not a workload (a kind refuses a second; pulls wait few). */
const OPEN_RUNS_SHOWN = 100;

export type JobState = 'waiting' | 'running';

/** What a running job gets: the signal to pass to restic and friends, and where to put progress. */
export interface JobControl<P> {
  signal: AbortSignal;
  /** Stops the job with a reason (its watchdog's StalledError). */
  abort(reason: Error): void;
  progress(p: P): void;
  /** The job's record in `runs` (runs.ts), when its kind keeps one: details are written under its id. */
  run: OpenRun | null;
}

/** How a job of a kind with history is recorded in `runs`: its trigger, and how its outcome ends the run. */
export interface RunRecord<T> {
  kind: RunKind;
  trigger: string;
  /** The run's end, from the work's value (`aborted`: the job's signal fired while it ran). */
  end: (value: T, aborted: boolean) => RunEnd;
  /** An error that means the work never began (another process held its lock): the row is dropped. */
  refused?: (error: unknown) => boolean;
  /** Keep only this many ended runs of the kind (older ones go as each one ends). */
  keep?: number;
  /** Called once the run's record has ended (a client told of it then reads it ended). */
  ended?: (value: T | null, error: unknown) => void;
  /** A stop of the owner (not a cancel) leaves the run open for the next start to take up (a pull). */
  resumable?: boolean;
  /** The open run this job takes up again (runs.ts reopenRun) instead of opening a new one. */
  resume?: number;
}

/**
 * How long a running run of a kind may go without a new progress report before its watchdog stops
 * it and it fails naming its step. Only the kinds whose work reports as it goes: restic's backup and
 * restore lines come several times a second, a download's bytes likewise, a drill's checks at least
 * every few minutes. Generous, so a slow disk hashing a big model is never taken for a hang; a
 * test gives its own (Jobs' `stallMs`).
 */
export const STALL_MS: Partial<Record<RunKind, number>> = {
  backup: 30 * 60_000,
  restore: 30 * 60_000,
  pull: 30 * 60_000,
  drill: 120 * 60_000,
};

export class JobRefusedError extends Error {
  constructor(
    readonly kind: JobKind,
    readonly blocking: JobKind,
  ) {
    super(
      blocking === kind
        ? `A ${label(kind)} is already running; wait for it to finish.`
        : `A ${label(blocking)} is running; start the ${label(kind)} when it has finished.`,
    );
    this.name = 'JobRefusedError';
  }
}

/** A waiting job that never started: stop() came first, or its caller's signal aborted. */
export class JobCancelledError extends Error {
  constructor(kind: JobKind) {
    super(`The ${label(kind)} was cancelled before it started.`);
    this.name = 'JobCancelledError';
  }
}

export class JobsStoppedError extends Error {
  constructor(kind: JobKind) {
    super(`Sanad is stopping; the ${label(kind)} was not started.`);
    this.name = 'JobsStoppedError';
  }
}

function label(kind: JobKind | RunKind): string {
  return kind.replace('-', ' ');
}

export class Job<T = unknown, P = unknown> {
  state: JobState = 'waiting';
  /** Its record in `runs`, when its kind keeps one (opened as it is asked for). */
  run: OpenRun | null = null;

  /** The id of its record; only for a job started with one (StartOptions.record). */
  get runId(): number {
    if (this.run === null) throw new Error(`This ${label(this.kind)} job was started without a record.`);
    return this.run.id;
  }
  progress: P | null = null;
  /** Unix ms. */
  startedAt: number | null = null;
  readonly done: Promise<T>;
  readonly controller = new AbortController();
  /** Set by Jobs: starts the work once nothing blocks it. */
  begin: () => void = () => undefined;
  fail: (error: unknown) => void = () => undefined;

  constructor(
    readonly id: string,
    readonly kind: JobKind,
    readonly queuedAt: number,
    work: (control: JobControl<P>) => Promise<T>,
    private readonly onEnd: (job: Job) => void,
    clock: Clock,
  ) {
    this.done = new Promise<T>((resolve, reject) => {
      this.fail = (error) => {
        this.onEnd(this);
        reject(error instanceof Error ? error : new Error(String(error)));
      };
      this.begin = () => {
        this.state = 'running';
        this.startedAt = clock.now();
        const control: JobControl<P> = {
          signal: this.controller.signal,
          abort: (reason) => this.controller.abort(reason),
          progress: (p) => (this.progress = p),
          run: this.run,
        };
        // The work runs on the next turn, so the caller has the job in hand before it can end. The
        // job leaves the owner before `done` settles: whoever awaited it may start the next at once.
        void Promise.resolve()
          .then(() => work(control))
          .then(
            (value) => {
              this.onEnd(this);
              resolve(value);
            },
            (error: unknown) => {
              this.onEnd(this);
              reject(error instanceof Error ? error : new Error(String(error)));
            },
          );
      };
    });
    // A caller that only reads status must not get an unhandled rejection.
    this.done.catch(() => undefined);
  }

  /** Aborts the job: a running one through its signal, a waiting one never starts. `byPerson`:
   *  someone asked (process/cancel.ts), so its run ends `cancelled`, not interrupted. */
  cancel(byPerson = false): void {
    this.controller.abort(byPerson ? new CancelledByPersonError() : undefined);
    if (this.state === 'waiting') this.fail(new JobCancelledError(this.kind));
  }
}

export interface StartOptions<T = unknown> {
  /** The caller's own signal (a shutdown of the schedule that asked): aborts the job too. */
  signal?: AbortSignal;
  /** The job's id, when its caller records it under one of its own (a restore's run id). */
  id?: string;
  /** Keep a record of the job in `runs` (backups, drills, restores): needs the owner's store. */
  record?: RunRecord<T>;
}

/** What the owner starts and stops besides jobs: the schedules (schedule/loop.ts users). */
export interface OwnedSchedule {
  start(): unknown;
  wake(): Promise<void>;
  stop(signal?: AbortSignal): Promise<void>;
}

export class Jobs {
  /** Running and waiting jobs in the order they were asked for. */
  private readonly jobs: Job[] = [];
  private readonly schedules: OwnedSchedule[] = [];
  private stopped = false;

  /** `store`: where jobs that keep a record write it (runs.ts); absent, no job may ask for one. */
  constructor(
    private readonly deps: {
      clock: Clock;
      logger: Logger;
      store?: { db: Db; dataDir: string };
      events?: AdminEvents;
      /** Watchdog limits by kind, over STALL_MS (tests: a few seconds). */
      stallMs?: Partial<Record<RunKind, number>>;
    },
  ) {}

  /**
   * Starts `work` as a job of `kind` now, or once the jobs it must wait for have ended (job-table.ts).
   * Throws JobRefusedError at once when the table refuses it beside a running or waiting job.
   */
  start<T, P = unknown>(kind: JobKind, work: (control: JobControl<P>) => Promise<T>, options: StartOptions<T> = {}): Job<T, P> {
    if (this.stopped) throw new JobsStoppedError(kind);
    const refusing = this.jobs.find((j) => overlap(kind, j.kind) === 'refuse');
    if (refusing) throw new JobRefusedError(kind, refusing.kind);
    const record = options.record;
    const recorded = record ? this.recorded(record, work) : work;
    const job = new Job<T, P>(
      options.id ?? `job_${randomBytes(6).toString('hex')}`,
      kind,
      this.deps.clock.now(),
      recorded,
      (j) => this.ended(j),
      this.deps.clock,
    );
    if (options.signal) {
      if (options.signal.aborted) job.controller.abort();
      else options.signal.addEventListener('abort', () => job.cancel(), { once: true });
    }
    this.jobs.push(job);
    if (record) {
      try {
        const store = this.requireStore(kind);
        const status = this.blockers(job).length === 0 ? 'running' : 'queued';
        const nowMs = this.deps.clock.now();
        const run =
          record.resume === undefined
            ? openRun(store.db, store.dataDir, { kind: record.kind, trigger: record.trigger, status, nowMs })
            : reopenRun(store.db, store.dataDir, record.resume, status, nowMs);
        if (run === null) throw new Error(`Run ${record.resume ?? ''} cannot be taken up again: it ended, or another process holds it.`);
        job.run = run;
        this.told(run);
        // A job that never started (stop() first, or its caller gave up) ends its record as
        // cancelled, unless a stop leaves it for the next start.
        job.done.catch((error: unknown) => {
          if (!(error instanceof JobCancelledError)) return;
          if (this.stopped && record.resumable === true) leaveRun(store.dataDir, run);
          else this.end(run, { status: 'cancelled', error: this.stopped ? NEVER_STARTED : error.message });
        });
      } catch (error) {
        this.jobs.splice(this.jobs.indexOf(job), 1);
        throw error;
      }
    }
    this.pump();
    return job;
  }

  /** Ends a run's record, then says so on the admin events (a client following it by id). */
  private end(run: OpenRun, end: RunEnd): void {
    const { db, dataDir } = this.requireStore(run.kind);
    endRun(db, dataDir, run, end, this.deps.clock.now());
    const row = getRun(db, run.id);
    if (row) this.deps.events?.publish('run.finished', { run_id: row.id, ...this.shown(row) });
  }

  /** Tells an open run's row as it is now (`run.updated`): asked for, started, or a step further. */
  private told(run: OpenRun): void {
    const row = getRun(this.requireStore(run.kind).db, run.id);
    if (row) this.deps.events?.publish('run.updated', { run_id: row.id, ...this.shown(row) });
  }

  /** A run's row with what only this owner knows: the kinds of work a queued run waits for. */
  shown(row: RunRow): Run {
    return { ...row, waiting_for: row.status === 'queued' ? this.waitingFor(row.id) : [] };
  }

  /** The kinds of work the job of this run waits for; empty once it runs (or is not here). */
  waitingFor(runId: number): JobKind[] {
    const job = this.byRun(runId);
    return job && job.state === 'waiting' ? this.blockers(job) : [];
  }

  /** The runs asked for and not ended (GET /admin/runs?open=true, the tray), newest first. */
  openRuns(): Run[] {
    const { db } = this.requireStore('backup');
    return listRuns(db, { open: true, limit: OPEN_RUNS_SHOWN }).map((r) => this.shown(r));
  }

  private requireStore(kind: JobKind | RunKind): { db: Db; dataDir: string } {
    if (!this.deps.store) throw new Error(`This job owner has no store, so a ${label(kind)} cannot be recorded.`);
    return this.deps.store;
  }

  /** The work wrapped so that its run is marked started, then ended with its outcome, here. */
  private recorded<T, P>(record: RunRecord<T>, work: (control: JobControl<P>) => Promise<T>): (control: JobControl<P>) => Promise<T> {
    return async (control) => {
      const { db, dataDir } = this.requireStore(record.kind);
      const run = control.run;
      if (run === null) return work(control);
      startRun(db, run, this.deps.clock.now());
      this.told(run);
      const report = this.progressWriter(run);
      const watchdog = this.watchdog(record.kind, control);
      const reporting: JobControl<P> = {
        ...control,
        progress: (p) => {
          control.progress(p);
          report(p);
          watchdog.saw(p);
        },
      };
      let value: T;
      const stalled = (): StalledError | null => (control.signal.reason instanceof StalledError ? control.signal.reason : null);
      // A stop (not a cancel) of a resumable run leaves it open, its lock let go, for the next start.
      const leftForNextStart = (): boolean => control.signal.aborted && this.stopped && record.resumable === true;
      try {
        value = await work(reporting);
      } catch (error) {
        watchdog.stop();
        if (leftForNextStart()) {
          leaveRun(dataDir, run);
        } else if (record.refused?.(error) === true) {
          dropRun(db, dataDir, run);
        } else if (cancelledByPerson(control.signal)) {
          this.end(run, { status: 'cancelled', error: CANCELLED });
          record.ended?.(null, error);
        } else if (stalled() !== null) {
          this.end(run, { status: 'failed', error: stalled()?.message ?? null });
          record.ended?.(null, error);
        } else {
          this.end(run, { status: control.signal.aborted ? 'interrupted' : 'failed', error: error instanceof Error ? error.message : String(error) });
          record.ended?.(null, error);
        }
        throw error;
      }
      watchdog.stop();
      if (leftForNextStart()) {
        leaveRun(dataDir, run);
        return value;
      }
      const end = record.end(value, control.signal.aborted);
      // What it did before a cancel or a stall (a generation made, say) stays in its record.
      const cut = stalled();
      if (cancelledByPerson(control.signal)) this.end(run, { ...end, status: 'cancelled', error: CANCELLED });
      else if (cut !== null) this.end(run, { ...end, status: 'failed', error: cut.message });
      else this.end(run, end);
      if (record.keep !== undefined) pruneRuns(db, record.kind, record.keep);
      record.ended?.(value, null);
      return value;
    };
  }

  /**
   * A running run's watchdog: armed at its start, armed again by every report that differs from the
   * one before (a report repeated while restic hangs is no progress), and when it fires the job is
   * stopped with a StalledError naming the step it was at (restic gets SIGINT as for a cancel).
   */
  private watchdog<P>(kind: RunKind, control: JobControl<P>): { saw: (p: unknown) => void; stop: () => void } {
    const limit = this.deps.stallMs?.[kind] ?? STALL_MS[kind];
    if (limit === undefined) return { saw: () => undefined, stop: () => undefined };
    let step = 'starting';
    let last = '';
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        this.deps.logger.warn('a run made no progress and was stopped', { kind, step, limit_ms: limit });
        control.abort(new StalledError(step, limit));
      }, limit);
      timer.unref();
    };
    arm();
    return {
      saw: (p) => {
        const seen = JSON.stringify(p);
        if (seen === last) return;
        last = seen;
        const parsed = RunProgress.safeParse(p);
        if (parsed.success) step = stepOf(parsed.data);
        arm();
      },
      stop: () => clearTimeout(timer),
    };
  }

  /**
   * Writes a run's progress to its record (runs.ts) and tells it as `run.updated`: the first report,
   * every new step at once, and otherwise at most one every PROGRESS_WRITE_MS, so the record never
   * lags a step and a fast byte count costs two small writes a second.
   */
  private progressWriter(run: OpenRun): (progress: unknown) => void {
    const { db } = this.requireStore(run.kind);
    const throttle = new ProgressThrottle<RunProgress>(this.deps.clock, PROGRESS_WRITE_MS, stepOf, (p) => {
      setRunProgress(db, run, p);
      this.told(run);
    });
    return (progress) => {
      const parsed = RunProgress.safeParse(progress);
      if (parsed.success) throttle.push(parsed.data);
    };
  }

  /**
   * A person's cancel of the job of this run (POST /admin/runs/{id}/cancel): a running one is
   * stopped through its signal (restic gets SIGINT and drops its lock), a waiting one never starts;
   * either way its run ends `cancelled`. False when no job of this owner holds the run.
   */
  cancelRun(runId: number): boolean {
    const job = this.byRun(runId);
    if (!job) return false;
    job.cancel(true);
    return true;
  }

  /** A running or waiting job by its id (pulls, of which several may wait). */
  byId<T = unknown, P = unknown>(id: string): Job<T, P> | null {
    const job = this.jobs.find((j) => j.id === id);
    // Ids are the caller's own (pulls.ts names its jobs by pull id and starts them with these types).
    return (job ?? null) as Job<T, P> | null; // eslint-disable-line @typescript-eslint/consistent-type-assertions -- see above
  }

  /** The first running or waiting job of a kind (the only one, for a kind that refuses a second). */
  current<T = unknown, P = unknown>(kind: JobKind): Job<T, P> | null {
    const job = this.jobs.find((j) => j.kind === kind);
    // Its type parameters are what the caller of start gave for this kind (see backups.ts, drills.ts).
    return (job ?? null) as Job<T, P> | null; // eslint-disable-line @typescript-eslint/consistent-type-assertions -- see above
  }

  /** The running or waiting job whose record is this run (runs.ts), if it is still here. */
  byRun(runId: number): Job | null {
    return this.jobs.find((j) => j.run?.id === runId) ?? null;
  }

  /** How many jobs of a kind run or wait. */
  count(kind: JobKind): number {
    return this.jobs.filter((j) => j.kind === kind).length;
  }

  /** What the jobs of this appliance are doing, for status and tests. */
  list(): ReadonlyArray<{ id: string; kind: JobKind; state: JobState; waitingFor: JobKind[] }> {
    return this.jobs.map((j) => ({ id: j.id, kind: j.kind, state: j.state, waitingFor: j.state === 'waiting' ? this.blockers(j) : [] }));
  }

  /** The kinds a waiting job waits for: any running job, and any job waiting ahead of it, that the
   *  table does not let it run beside. */
  blockers(job: Job): JobKind[] {
    const at = this.jobs.indexOf(job);
    const holding = this.jobs.filter((other, i) => other !== job && (other.state === 'running' || i < at) && overlap(job.kind, other.kind) !== 'together');
    return [...new Set(holding.map((o) => o.kind))];
  }

  /** A schedule this owner starts (start()), wakes (wake()) and stops before its jobs (stop()). */
  own(schedule: OwnedSchedule): void {
    this.schedules.push(schedule);
  }

  startSchedules(): void {
    for (const s of this.schedules) s.start();
  }

  /** On resume from sleep: every schedule checks now (one catch-up each). */
  async wake(): Promise<void> {
    await Promise.all(this.schedules.map((s) => s.wake()));
  }

  /**
   * Stops the schedules and aborts every job this owner started and waits for them to end
   * (restic gets SIGINT, removes its lock and exits; a restore puts its target back), at most
   * `waitMs`. Children this owner did not start (a CLI's) are not touched.
   */
  async stop(waitMs = 15_000): Promise<void> {
    this.stopped = true;
    const giveUp = AbortSignal.timeout(waitMs);
    const jobs = [...this.jobs];
    for (const job of jobs) job.cancel();
    const all = Promise.allSettled([...this.schedules.map((s) => s.stop(giveUp)), ...jobs.map((j) => j.done)]);
    const late = await Promise.race([
      all.then(() => false),
      new Promise<boolean>((resolve) => giveUp.addEventListener('abort', () => resolve(true), { once: true })),
    ]);
    if (late) this.deps.logger.warn('some jobs did not stop in time', { jobs: this.jobs.map((j) => j.kind) });
  }

  private ended(job: Job): void {
    const at = this.jobs.indexOf(job);
    if (at >= 0) this.jobs.splice(at, 1);
    this.pump();
  }

  /** Starts every waiting job that nothing running, and nothing waiting ahead of it, holds back. */
  private pump(): void {
    for (const job of this.jobs) {
      if (job.state !== 'waiting' || job.controller.signal.aborted) continue;
      if (this.blockers(job).length === 0) job.begin();
    }
  }
}

/** Which step a report belongs to: a backup's generation step or repository, a drill's check, a restore's phase. */
function stepOf(p: RunProgress): string {
  if ('check' in p) return `check:${p.repo ?? ''}:${p.check}`;
  if ('step' in p) return `${p.phase}:${p.step}`;
  if ('repository' in p) return `${p.phase}:${p.repository}`;
  return p.phase;
}
