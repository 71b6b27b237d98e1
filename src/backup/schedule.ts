// The backup schedule: every `intervalMs` (6 h by default) counted from the last attempted run,
// which the caller persists, so restarts do not reset the cadence. A run missed while the machine
// slept or the app was closed runs once on wake/start, never once per missed slot, and there are
// never two runs at once: a run that comes due while one is in flight is skipped, not queued.
// Decisions come from the pure `decideRun`; the timer, the in-flight run and stop are the shared
// loop's (schedule/loop.ts). The clock is injected, so tests move time instead of sleeping.
import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import { ScheduleLoop, type ScheduledRun } from '../schedule/loop.js';

export const DEFAULT_INTERVAL_MS = 3_600_000;
/** A misconfigured interval below this would turn the schedule into a loop of back-to-back runs. */
export const MIN_INTERVAL_MS = 60_000;
export { DEFAULT_TICK_MS } from '../schedule/loop.js';

export type RunDecision = 'none' | 'due' | 'catch-up';
/** `first`: this data dir never backed up, so nothing was missed. */
export type RunTrigger = 'schedule' | 'catch-up' | 'first';

/**
 * `due`: the next slot has come (less than one whole slot late). `catch-up`: never ran, at least one
 * whole slot was missed (sleep, downtime), or the record is in the future (the wall clock went back,
 * so it says nothing about how long ago the run was). Either way it is ONE run; the cadence then
 * counts from it. `intervalMs` must be positive (the scheduler clamps it).
 */
export function decideRun(now: number, lastRunAt: number | null, intervalMs: number, running: boolean, paused: boolean): RunDecision {
  if (paused || running) return 'none';
  if (lastRunAt === null || lastRunAt > now) return 'catch-up';
  const since = now - lastRunAt;
  if (since < intervalMs) return 'none';
  return since >= 2 * intervalMs ? 'catch-up' : 'due';
}

export interface BackupSchedulerOptions {
  clock: Clock;
  intervalMs: () => number;
  paused: () => boolean;
  /** Start time of the last attempted run (ms), persisted by the caller; null if none ever. */
  lastRunAt: () => number | null;
  /** One backup. The signal fires when `stop` gives up waiting (shutdown): pass it to restic. */
  run: (trigger: RunTrigger, signal: AbortSignal) => Promise<unknown>;
  logger: Logger;
  tickMs?: number;
}

export class BackupScheduler {
  private readonly loop: ScheduleLoop;
  /** When this process last started a run: a floor under `lastRunAt()`, so a run that failed before
   *  the caller persisted its start is not retried on every tick. */
  private startedAt: number | null = null;

  constructor(private readonly options: BackupSchedulerOptions) {
    this.loop = new ScheduleLoop({ name: 'backup', logger: options.logger, ...(options.tickMs !== undefined ? { tickMs: options.tickMs } : {}), check: (inFlight) => this.check(inFlight) });
  }

  /** Checks at once (the catch-up after downtime), then every `tickMs`. Resolves when a run it
   *  started at once has finished. */
  start(): Promise<void> {
    return this.loop.start();
  }

  /** The desktop shell calls this on resume from sleep: check now instead of at the next tick.
   *  Resolves when a run it started has finished (at once if none was due). */
  wake(): Promise<void> {
    return this.loop.wake();
  }

  /** Stops the timer and waits for an in-flight run. If `signal` aborts first, the run's own signal
   *  is aborted and stop returns without waiting any longer (the run is abandoned). */
  stop(signal?: AbortSignal): Promise<void> {
    return this.loop.stop(signal);
  }

  get running(): boolean {
    return this.loop.running;
  }

  /** When the next run is planned (ms), for the status API; `now` if one is due at the next check,
   *  null while paused. */
  nextRunAt(): number | null {
    if (this.options.paused()) return null;
    const now = this.options.clock.now();
    const last = this.lastRun(now);
    if (last === null || last > now) return now;
    return Math.max(last + this.interval(), now);
  }

  private check(inFlight: boolean): ScheduledRun | null {
    const now = this.options.clock.now();
    const last = this.lastRun(now);
    const paused = this.options.paused();
    const decision = decideRun(now, last, this.interval(), inFlight, paused);
    if (inFlight && decideRun(now, last, this.interval(), false, paused) !== 'none') {
      this.options.logger.debug('backup due but one is still running; skipped');
    }
    if (decision === 'none') return null;
    const trigger: RunTrigger = decision === 'due' ? 'schedule' : last === null ? 'first' : 'catch-up';
    this.startedAt = now;
    return (signal) => this.execute(trigger, signal);
  }

  private async execute(trigger: RunTrigger, signal: AbortSignal): Promise<void> {
    this.options.logger.info(`backup run started (${trigger})`, { trigger });
    try {
      await this.options.run(trigger, signal);
    } catch (error) {
      // The run reports its own failures (log, alerts); this only keeps the schedule alive.
      this.options.logger.warn(`backup run failed (${trigger})`, { trigger, error: error instanceof Error ? error.message : String(error) });
    }
  }

  private interval(): number {
    const ms = this.options.intervalMs();
    if (!Number.isFinite(ms) || ms <= 0) return DEFAULT_INTERVAL_MS;
    return Math.max(ms, MIN_INTERVAL_MS);
  }

  /** The persisted start of the last run, or this process's own if that is later. A persisted time
   *  in the future (the clock went back) gives way to this process's own once it has run. */
  private lastRun(now: number): number | null {
    const persisted = this.options.lastRunAt();
    const mine = this.startedAt;
    if (persisted === null) return mine;
    if (mine === null) return persisted;
    if (persisted > now) return mine;
    return Math.max(persisted, mine);
  }
}
