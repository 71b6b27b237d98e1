// Fixed-window counters in memory: per client for the API, per address for failed pairing.
import type { Clock } from '../clock.js';
import { ApiError } from './errors.js';

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly windowMs: number,
  ) {}

  /** Counts one hit; throws 429 with Retry-After once `limit` is passed within the window. */
  hit(key: string, limit: number): void {
    const now = this.clock.now();
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 10_000) this.prune(now);
    }
    w.count += 1;
    if (w.count > limit) throw this.tooMany(w.start, now);
  }

  /** Throws 429 if `key` is already over `limit`, without counting. */
  check(key: string, limit: number): void {
    const now = this.clock.now();
    const w = this.windows.get(key);
    if (w && now - w.start < this.windowMs && w.count >= limit) throw this.tooMany(w.start, now);
  }

  private tooMany(start: number, now: number): ApiError {
    const retry = Math.max(1, Math.ceil((start + this.windowMs - now) / 1000));
    return new ApiError('rate_limited', `Too many requests; try again in ${retry} s.`, null, {
      'retry-after': String(retry),
    });
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
  }
}
