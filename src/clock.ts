// An injectable clock: schedules, retention, token and code expiry take one, so tests move time
// instead of sleeping. Only this file reads the wall clock.

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Unix seconds, as the Responses API uses them (`created_at`). */
export function unixSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}

/** A clock tests can move by hand. */
export class ManualClock implements Clock {
  constructor(private ms: number) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}
