// The drill schedule: two clocks that never move each other. Daily: the first 5 minutes after start
// (the service settles, a catch-up backup may run first), then 24 h after the last completed drill
// of any kind (a deep drill makes every daily check, so it counts as the daily). Deep: the first 5
// minutes after start, then a week after the last deep one, however many daily drills ran in
// between (a daily drill run by hand once moved a never-run deep drill to the next day). Both are
// counted from persisted finish times, so restarts cannot push a drill away or bring it forward.
// Never two drills at once, and never during a backup: a due drill then waits for the next tick
// instead of reporting UNVERIFIED. The clock is injected, so tests move time instead of sleeping.
import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import { ScheduleLoop, type ScheduledRun } from '../schedule/loop.js';
import type { DrillKind } from './verdict.js';

export const FIRST_DRILL_DELAY_MS = 5 * 60_000;
export const DAILY_MS = 24 * 3_600_000;
export const DEEP_EVERY_MS = 7 * DAILY_MS;
export { DEFAULT_TICK_MS } from '../schedule/loop.js';

/** A persisted time in the future (the clock went back) says nothing about how long ago it was. */
const past = (at: number | null, now: number): number | null => (at !== null && at <= now ? at : null);

/** When the next daily drill is due (ms): 24 h after the last drill of any kind. */
export function nextDrillAt(startedAt: number, lastAny: number | null, now: number): number {
  const first = startedAt + FIRST_DRILL_DELAY_MS;
  const last = past(lastAny, now);
  return last === null ? first : Math.max(first, last + DAILY_MS);
}

/** When the next deep drill is due (ms): a week after the last deep one; daily drills do not move it. */
export function nextDeepDrillAt(startedAt: number, lastDeep: number | null, now: number): number {
  const first = startedAt + FIRST_DRILL_DELAY_MS;
  const last = past(lastDeep, now);
  return last === null ? first : Math.max(first, last + DEEP_EVERY_MS);
}

export type DrillDecision = { run: true; kind: DrillKind } | { run: false; why: 'not_due' | 'paused' | 'running' | 'backup' };

export function decideDrill(input: {
  now: number;
  startedAt: number;
  lastAny: number | null;
  lastDeep: number | null;
  paused: boolean;
  running: boolean;
  backupBusy: boolean;
}): DrillDecision {
  if (input.paused) return { run: false, why: 'paused' };
  const deepDue = input.now >= nextDeepDrillAt(input.startedAt, input.lastDeep, input.now);
  if (!deepDue && input.now < nextDrillAt(input.startedAt, input.lastAny, input.now)) return { run: false, why: 'not_due' };
  if (input.running) return { run: false, why: 'running' };
  if (input.backupBusy) return { run: false, why: 'backup' };
  return { run: true, kind: deepDue ? 'deep' : 'daily' };
}

export interface DrillSchedulerOptions {
  clock: Clock;
  paused: () => boolean;
  /** Finish times (ms) of the last completed drill of any kind and of the last deep one, persisted. */
  lastFinished: () => { any: number | null; deep: number | null };
  /** A backup is running (here, or in another process: the backup lock). */
  backupBusy: () => boolean;
  /** One drill; 'busy' when another drill (the CLI's) holds the drill lock: try again next tick. */
  run: (kind: DrillKind, signal: AbortSignal) => Promise<'ran' | 'busy'>;
  logger: Logger;
  tickMs?: number;
}

export class DrillScheduler {
  private readonly loop: ScheduleLoop;
  private startedAt: number | null = null;
  /** When this process last started a scheduled drill (any kind / deep): a floor under the
   *  persisted times, so a drill that failed before it was recorded is not retried every tick. */
  private attempted: { any: number | null; deep: number | null } = { any: null, deep: null };

  constructor(private readonly options: DrillSchedulerOptions) {
    this.loop = new ScheduleLoop({
      name: 'drill',
      logger: options.logger,
      abortOnStop: true,
      ...(options.tickMs !== undefined ? { tickMs: options.tickMs } : {}),
      check: (inFlight) => this.check(inFlight),
    });
  }

  /** Starts the clock for "5 minutes after start" and checks every `tickMs`. */
  start(): Promise<void> {
    if (!this.loop.started) this.startedAt = this.options.clock.now();
    return this.loop.start();
  }

  /** Check now instead of at the next tick (wake from sleep; tests). Resolves when a drill it
   *  started has finished. */
  wake(): Promise<void> {
    return this.loop.wake();
  }

  /** Stops the timer; aborts a running scheduled drill (it is read-only, so stopping loses nothing
   *  but the answer) and waits for it, unless `signal` gives up first. */
  stop(signal?: AbortSignal): Promise<void> {
    return this.loop.stop(signal);
  }

  get running(): boolean {
    return this.loop.running;
  }

  /** When the next drill of either kind is planned (ms); null while paused or not started. */
  nextRunAt(): number | null {
    if (this.options.paused() || this.startedAt === null) return null;
    const now = this.options.clock.now();
    const times = this.times(now);
    const next = Math.min(nextDrillAt(this.startedAt, times.any, now), nextDeepDrillAt(this.startedAt, times.deep, now));
    return Math.max(next, now);
  }

  /** When the next deep drill is planned (ms), on its own weekly clock. */
  nextDeepAt(): number | null {
    if (this.options.paused() || this.startedAt === null) return null;
    const now = this.options.clock.now();
    return Math.max(nextDeepDrillAt(this.startedAt, this.times(now).deep, now), now);
  }

  private times(now: number): { any: number | null; deep: number | null } {
    const persisted = this.options.lastFinished();
    const floor = (stored: number | null, mine: number | null): number | null => {
      // A record in the future (the clock went back) says nothing about how long ago it was.
      const p = stored !== null && stored <= now ? stored : null;
      if (p === null) return mine;
      return mine === null ? p : Math.max(p, mine);
    };
    return { any: floor(persisted.any, this.attempted.any), deep: floor(persisted.deep, this.attempted.deep) };
  }

  private check(inFlight: boolean): ScheduledRun | null {
    if (this.startedAt === null) return null;
    const now = this.options.clock.now();
    const times = this.times(now);
    let decision = decideDrill({
      now,
      startedAt: this.startedAt,
      lastAny: times.any,
      lastDeep: times.deep,
      paused: this.options.paused(),
      running: inFlight,
      backupBusy: false,
    });
    if (decision.run && this.options.backupBusy()) decision = { run: false, why: 'backup' };
    if (!decision.run) {
      if (decision.why === 'backup') this.options.logger.info('drill due, waiting for the running backup to finish');
      return null;
    }
    const kind = decision.kind;
    return (signal) => this.execute(kind, now, signal);
  }

  private async execute(kind: DrillKind, now: number, signal: AbortSignal): Promise<void> {
    this.options.logger.info(`scheduled ${kind} drill started`, { kind });
    try {
      const outcome = await this.options.run(kind, signal);
      if (outcome === 'busy') {
        this.options.logger.info('scheduled drill skipped: another drill is running; trying again later');
        return;
      }
    } catch (error) {
      // The drill reports its own results (store, alerts); this only keeps the schedule alive.
      this.options.logger.warn(`scheduled ${kind} drill failed to run`, { kind, error: error instanceof Error ? error.message : String(error) });
    }
    this.attempted.any = now;
    if (kind === 'deep') this.attempted.deep = now;
  }
}
