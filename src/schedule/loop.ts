// The one timer loop under every schedule (backups, drills): check at start, on every tick (a timer
// that does not keep the process alive) and on wake from sleep; never two runs of one schedule at
// once; stop ends the timer and waits for the run in flight. What is due, and which run it is, is
// each schedule's own pure decision (`check`); a missed slot is caught up once because the
// decision counts from the last run, not from the slots. The clock is the schedule's (injected).
import type { Logger } from '../log/logger.js';

export const DEFAULT_TICK_MS = 60_000;

/** One run the schedule decided on; the signal fires when stop gives up on it (or at once, with abortOnStop). */
export type ScheduledRun = (signal: AbortSignal) => Promise<void>;

export interface ScheduleLoopOptions {
  /** For the log: "backup", "drill". */
  name: string;
  logger: Logger;
  tickMs?: number;
  /** Decides now: the run to start, or null. Called only while no run of this loop is in flight
   *  (`inFlight` says whether one is, for a decision that wants to log a skipped slot). */
  check: (inFlight: boolean) => ScheduledRun | null;
  /** Abort the run in flight as soon as stop is called (a drill loses only its answer), instead of
   *  only when stop's own signal gives up (a backup is worth finishing). */
  abortOnStop?: boolean;
}

export class ScheduleLoop {
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private controller: AbortController | null = null;
  private stopped = true;

  constructor(private readonly options: ScheduleLoopOptions) {}

  /** Checks at once (the catch-up after downtime), then every tick. Resolves when a run it started
   *  at once has finished. */
  start(): Promise<void> {
    if (!this.stopped) return this.inFlight ?? Promise.resolve();
    this.stopped = false;
    this.timer = setInterval(() => void this.check(), this.options.tickMs ?? DEFAULT_TICK_MS);
    this.timer.unref();
    return this.check();
  }

  /** Check now instead of at the next tick (resume from sleep). Resolves when a run it started has finished. */
  wake(): Promise<void> {
    return this.check();
  }

  get started(): boolean {
    return !this.stopped;
  }

  get running(): boolean {
    return this.inFlight !== null;
  }

  /** Stops the timer and waits for the run in flight; if `signal` aborts first, the run's own signal
   *  is aborted and stop returns without waiting any longer (the run is abandoned). */
  async stop(signal?: AbortSignal): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    if (this.options.abortOnStop) this.controller?.abort();
    const running = this.inFlight;
    if (running === null) return;
    await new Promise<void>((resolve) => {
      const abandon = (): void => {
        if (!this.options.abortOnStop) this.options.logger.warn(`${this.options.name} schedule stopped: the running ${this.options.name} was abandoned`);
        this.controller?.abort();
        resolve();
      };
      if (signal?.aborted) return abandon();
      signal?.addEventListener('abort', abandon, { once: true });
      void running.then(() => {
        signal?.removeEventListener('abort', abandon);
        resolve();
      });
    });
  }

  private check(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    let run: ScheduledRun | null;
    try {
      run = this.options.check(this.inFlight !== null);
    } catch (error) {
      // Decisions read the database; a failing read must not kill the timer.
      this.options.logger.warn(`${this.options.name} schedule check failed`, { error: error instanceof Error ? error.message : String(error) });
      return Promise.resolve();
    }
    if (run === null || this.inFlight !== null) return Promise.resolve();
    const controller = new AbortController();
    this.controller = controller;
    // `.finally` always runs asynchronously, so `inFlight` is set below before it is cleared.
    const done = run(controller.signal)
      .catch((error: unknown) => {
        this.options.logger.warn(`${this.options.name} run failed`, { error: error instanceof Error ? error.message : String(error) });
      })
      .finally(() => {
        this.inFlight = null;
        this.controller = null;
      });
    this.inFlight = done;
    return done;
  }
}
