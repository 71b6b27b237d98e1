// Backup progress for the live admin stream: restic reports a few times a second per repository and
// the generation step reports every file it copies, but a GUI needs only the first report, every
// change of phase, and otherwise a few per second. Time comes from the injected clock.
import type { Clock } from '../clock.js';

export class ProgressThrottle<T> {
  private lastKey: string | null = null;
  private lastAt = 0;

  constructor(
    private readonly clock: Clock,
    private readonly minIntervalMs: number,
    /** Two reports with different keys are different phases: the second always goes out. */
    private readonly keyOf: (report: T) => string,
    private readonly emit: (report: T) => void,
  ) {}

  push(report: T): void {
    const key = this.keyOf(report);
    const now = this.clock.now();
    if (key === this.lastKey && now - this.lastAt < this.minIntervalMs) return;
    this.lastKey = key;
    this.lastAt = now;
    this.emit(report);
  }
}
