// The drill schedule: the first drill 5 minutes after start (the service settles, a catch-up backup
// may run first), then every 24 h counted from the last completed drill, which is persisted, so
// frequent restarts cannot keep pushing the next drill away or bring it forward. A drill is deep when
// the last deep one is a week old (a deep drill runs every daily check, so it counts as the daily).
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

/** When the next drill is due (ms). A last drill in the future (the clock went back) says nothing. */
export function nextDrillAt(startedAt: number, lastAny: number | null, now: number): number {
  const first = startedAt + FIRST_DRILL_DELAY_MS;
  if (lastAny === null || lastAny > now) return first;
  return Math.max(first, lastAny + DAILY_MS);
}

export function kindDue(lastDeep: number | null, now: number): DrillKind {
  return lastDeep === null || lastDeep > now || now - lastDeep >= DEEP_EVERY_MS ? 'deep' : 'daily';
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
  if (input.now < nextDrillAt(input.startedAt, input.lastAny, input.now)) return { run: false, why: 'not_due' };
  if (input.running) return { run: false, why: 'running' };
  if (input.backupBusy) return { run: false, why: 'backup' };
  return { run: true, kind: kindDue(input.lastDeep, input.now) };
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
      name: 'drill', logger: options.logger, abortOnStop: true,
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

  /** When the next drill is planned (ms); null while paused or not started. */
  nextRunAt(): number | null {
    if (this.options.paused() || this.startedAt === null) return null;
    const now = this.options.clock.now();
    return Math.max(nextDrillAt(this.startedAt, this.times(now).any, now), now);
  }

  /** The first planned drill that will be deep (ms): drills are deep only at a daily slot. */
  nextDeepAt(): number | null {
    const next = this.nextRunAt();
    if (next === null) return null;
    const deep = this.times(this.options.clock.now()).deep;
    if (kindDue(deep, next) === 'deep' || deep === null) return next;
    const slots = Math.ceil((deep + DEEP_EVERY_MS - next) / DAILY_MS);
    return next + Math.max(0, slots) * DAILY_MS;
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
      now, startedAt: this.startedAt, lastAny: times.any, lastDeep: times.deep,
      paused: this.options.paused(), running: inFlight, backupBusy: false,
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
