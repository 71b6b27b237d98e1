// The bookkeeping of the one model in memory: its load, the generations running on it, and the
// context sequences they borrow (served first come, first served).
import type { Loaded } from './chat-history.js';
import type { LoadSettings } from './engine.js';

/** One model in memory, its context, and the generations running on it. */
export class ModelSlot {
  ready: Promise<void> = Promise.resolve();
  loaded: Loaded | null = null;
  active = 0;
  idleTimer: NodeJS.Timeout | null = null;
  readonly sequences: FifoSemaphore;
  private drainWaiters: Array<() => void> = [];

  constructor(
    readonly modelId: string,
    readonly modelPath: string,
    readonly settings: LoadSettings,
    concurrency: number,
  ) {
    this.sequences = new FifoSemaphore(concurrency);
  }

  /** The same model file loaded the same way (a changed context or GPU setting loads it again). */
  serves(modelId: string, modelPath: string, settings: LoadSettings): boolean {
    return (
      this.modelId === modelId &&
      this.modelPath === modelPath &&
      this.settings.contextSize === settings.contextSize &&
      this.settings.gpuLayers === settings.gpuLayers
    );
  }

  clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  drained(): Promise<void> {
    if (this.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  notifyDrained(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** Counts free context sequences; waiters are served first come, first served. */
class FifoSemaphore {
  private waiters: Array<() => void> = [];

  constructor(private free: number) {}

  /** Resolves true once a unit is held, or false if the signal aborts first. */
  acquire(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (this.free > 0 && this.waiters.length === 0) {
      this.free--;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const grant = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      };
      const onAbort = (): void => {
        this.waiters = this.waiters.filter((w) => w !== grant);
        resolve(false);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(grant);
    });
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.free++;
  }
}
