// A run's progress as its record and the live admin stream want it: restic reports a few times a
// second per repository and a drill or a generation step reports often, but a GUI needs only the
// first report, every change of step, and otherwise a couple per second. The last report of a step
// that was held back goes out before the next step's first, so a step is never seen to end short
// (a restore's 100 % before its checks). Time is the injected clock.
import type { Clock } from '../clock.js';

export class ProgressThrottle<T> {
  private lastKey: string | null = null;
  private lastAt = 0;
  /** The newest report of the current step that was held back. */
  private held: T | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly minIntervalMs: number,
    /** Two reports with different keys are different steps: the second always goes out. */
    private readonly keyOf: (report: T) => string,
    private readonly emit: (report: T) => void,
  ) {}

  push(report: T): void {
    const key = this.keyOf(report);
    const now = this.clock.now();
    if (key === this.lastKey && now - this.lastAt < this.minIntervalMs) {
      this.held = report;
      return;
    }
    if (key !== this.lastKey && this.held !== null) this.emit(this.held);
    this.held = null;
    this.lastKey = key;
    this.lastAt = now;
    this.emit(report);
  }
}
