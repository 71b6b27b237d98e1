// The backup schedule: every `intervalMs` (1 h by default) counted from the last attempted run, or
// once a day at a time of day (local time); a due run is held while on battery or on a metered
// connection when the person asked for that (the OS's answer, schedule/os-conditions.ts).
// The interval counts from the last attempted run,
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

/** The most recent `HH:MM` (local time) at or before `now` (ms): today's, or yesterday's if today's is still ahead. */
export function lastDailySlot(now: number, timeOfDay: string): number {
  const [hours = 0, minutes = 0] = timeOfDay.split(':').map(Number);
  const slot = new Date(now);
  slot.setHours(hours, minutes, 0, 0);
  // setDate, not 24 h: a day with a daylight-saving change is 23 or 25 hours long.
  if (slot.getTime() > now) slot.setDate(slot.getDate() - 1);
  return slot.getTime();
}

/** The next `HH:MM` (local time) after `now`. */
export function nextDailySlot(now: number, timeOfDay: string): number {
  const slot = new Date(lastDailySlot(now, timeOfDay));
  slot.setDate(slot.getDate() + 1);
  return slot.getTime();
}

/** A slot the machine was awake for starts within a tick or two; later than this it was asleep or off. */
const ON_TIME_MS = 3_600_000;

/**
 * The daily schedule (`backup_time_of_day`): due once the day's slot has passed and no run started
 * since it. A slot missed while the machine slept or was off runs once on wake (a catch-up), never
 * once per missed day; like the interval schedule, a run of any kind (a manual one too) after the
 * slot counts for it.
 */
export function decideDaily(now: number, lastRunAt: number | null, timeOfDay: string, running: boolean, paused: boolean): RunDecision {
  if (paused || running) return 'none';
  if (lastRunAt === null || lastRunAt > now) return 'catch-up';
  const slot = lastDailySlot(now, timeOfDay);
  if (lastRunAt >= slot) return 'none';
  return now - slot < ON_TIME_MS ? 'due' : 'catch-up';
}

/** Why a due backup waits: the person asked for none on battery, or on a metered connection. */
export type HeldBy = 'battery' | 'metered';

export interface BackupSchedulerOptions {
  clock: Clock;
  intervalMs: () => number;
  /** `HH:MM` local time for one backup a day at that time; null: every `intervalMs`. */
  timeOfDay?: () => string | null;
  /** Asked when a run is due: a reason to hold it (it stays due, and runs at the first check the
   *  reason is gone), or null to run; null at once (not a promise) when no hold is asked for. */
  held?: () => Promise<HeldBy | null> | null;
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
  private heldNow: HeldBy | null = null;

  constructor(private readonly options: BackupSchedulerOptions) {
    this.loop = new ScheduleLoop({
      name: 'backup',
      logger: options.logger,
      ...(options.tickMs !== undefined ? { tickMs: options.tickMs } : {}),
      check: (inFlight) => this.check(inFlight),
    });
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

  /** Why the due backup is not running (battery, metered), as of the last check; null if it is not held. */
  get heldBy(): HeldBy | null {
    return this.heldNow;
  }

  /** When the next run is planned (ms), for the status API; `now` if one is due at the next check,
   *  null while paused. */
  nextRunAt(): number | null {
    if (this.options.paused()) return null;
    const now = this.options.clock.now();
    const last = this.lastRun(now);
    if (last === null || last > now) return now;
    const daily = this.options.timeOfDay?.() ?? null;
    if (daily !== null) return last < lastDailySlot(now, daily) ? now : nextDailySlot(now, daily);
    return Math.max(last + this.interval(), now);
  }

  private decide(now: number, last: number | null, running: boolean, paused: boolean): RunDecision {
    const daily = this.options.timeOfDay?.() ?? null;
    return daily !== null ? decideDaily(now, last, daily, running, paused) : decideRun(now, last, this.interval(), running, paused);
  }

  private check(inFlight: boolean): ScheduledRun | null {
    const now = this.options.clock.now();
    const last = this.lastRun(now);
    const paused = this.options.paused();
    const decision = this.decide(now, last, inFlight, paused);
    if (inFlight && this.decide(now, last, false, paused) !== 'none') {
      this.options.logger.debug('backup due but one is still running; skipped');
    }
    if (decision === 'none') {
      if (!inFlight) this.heldNow = null;
      return null;
    }
    const trigger: RunTrigger = decision === 'due' ? 'schedule' : last === null ? 'first' : 'catch-up';
    const asking = this.options.held?.() ?? null;
    const start = (signal: AbortSignal): Promise<void> => {
      this.heldNow = null;
      this.startedAt = now;
      return this.execute(trigger, signal);
    };
    // No hold to ask the OS about: the run starts now, as it always did.
    if (asking === null) return start;
    return async (signal) => {
      const held = await asking;
      if (held === null) return start(signal);
      if (this.heldNow !== held)
        this.options.logger.info(`backup due but held: ${held === 'battery' ? 'on battery' : 'on a metered connection'}`, { held_by: held });
      this.heldNow = held;
    };
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
