// An injectable clock: schedules, retention, token and code expiry take one, so tests move time
// instead of sleeping. Only this file reads the wall clock.

import { readFileSync } from 'node:fs';

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

/**
 * The wall clock moved forward by the whole milliseconds written in `file` (read again at most
 * every 200 ms, so a change is seen at once but the file is not read on every call). How the soak
 * (soak/soak.ts) jumps a running `sanad serve`'s clock, as sleep or an NTP correction does to a
 * laptop's, without touching the machine's clock. Only `sanad serve` takes one, and only when
 * SANAD_TEST_CLOCK_OFFSET_FILE names the file; a file that cannot be read counts as no offset.
 */
export function offsetFileClock(file: string): Clock {
  let offset = 0;
  let readAt = -Infinity;
  return {
    now: () => {
      const real = Date.now();
      if (real - readAt >= 200) {
        readAt = real;
        try {
          const n = Number(readFileSync(file, 'utf8').trim());
          offset = Number.isFinite(n) ? n : 0;
        } catch {
          offset = 0;
        }
      }
      return real + offset;
    },
  };
}

/** The clock `sanad serve` runs on: the wall clock, or the soak's moved one (offsetFileClock). */
export function serviceClock(env: NodeJS.ProcessEnv = process.env): Clock {
  const file = env.SANAD_TEST_CLOCK_OFFSET_FILE;
  return file === undefined || file === '' ? systemClock : offsetFileClock(file);
}
