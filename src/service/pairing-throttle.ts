// How failed pairing codes slow a guesser down, per listener. On this machine every caller is
// 127.0.0.1, so a per-address lock would let any local program block the owner's pairing: there
// one budget of failures a second holds for everyone (the numbers are in pair.ts). On the network
// each address has its own growing wait as well, so a guessing device is slowed to a few tries an
// hour while every other device, and the desktop (whose budget is its own), pairs at once.
import type { Clock } from '../clock.js';
import { ApiError } from './errors.js';
import { RateLimiter } from './rate-limit.js';

export interface PairingThrottle {
  /** Throws 429 (Retry-After) when a caller from `address` must wait before its next code. */
  check(address: string | null): void;
  failed(address: string | null): void;
  succeeded(address: string | null): void;
}

const EVERYONE = 'all callers';

/** One budget of failures per window for all callers of a listener. */
export function sharedBudget(clock: Clock, failuresPerWindow: number, windowMs: number): PairingThrottle {
  const limiter = new RateLimiter(clock, windowMs);
  return {
    check: () => limiter.check(EVERYONE, failuresPerWindow),
    // Only counting here (a limit no count reaches): the next check refuses.
    failed: () => limiter.hit(EVERYONE, Number.MAX_SAFE_INTEGER),
    succeeded: () => undefined,
  };
}

/** Failures an address may make before it has to wait; then 1 s, 2 s, 4 s … up to the cap. */
export const FREE_FAILURES = 3;
export const MAX_WAIT_MS = 15 * 60_000;
/** An address that stayed quiet this long starts again from nothing. */
const FORGET_AFTER_MS = 60 * 60_000;
const MAX_ADDRESSES = 10_000;

interface Record {
  failures: number;
  until: number;
  last: number;
}

/** A wait per address that doubles with each failure past FREE_FAILURES. */
export function addressBackoff(clock: Clock): PairingThrottle {
  const records = new Map<string, Record>();
  const prune = (now: number): void => {
    for (const [k, r] of records) if (now - r.last > FORGET_AFTER_MS) records.delete(k);
    // Still too many (a flood of addresses): the oldest go first; the shared budget still holds.
    for (const k of records.keys()) {
      if (records.size <= MAX_ADDRESSES) break;
      records.delete(k);
    }
  };
  const key = (address: string | null): string => address ?? 'unknown';
  return {
    check(address) {
      const now = clock.now();
      const r = records.get(key(address));
      if (!r || now - r.last > FORGET_AFTER_MS || r.until <= now) return;
      const retry = Math.max(1, Math.ceil((r.until - now) / 1000));
      throw new ApiError(
        'pairing_backoff',
        `Too many wrong pairing codes came from this device; try again in ${retry} s with the code the Sanad window shows.`,
        null,
        {
          'retry-after': String(retry),
        },
      );
    },
    failed(address) {
      const now = clock.now();
      const k = key(address);
      const previous = records.get(k);
      const failures = previous && now - previous.last <= FORGET_AFTER_MS ? previous.failures + 1 : 1;
      const wait = failures > FREE_FAILURES ? Math.min(MAX_WAIT_MS, 1000 * 2 ** (failures - FREE_FAILURES - 1)) : 0;
      records.delete(k);
      records.set(k, { failures, until: now + wait, last: now });
      if (records.size > MAX_ADDRESSES) prune(now);
    },
    succeeded(address) {
      records.delete(key(address));
    },
  };
}

/** Both, in order: the address's own wait, then the listener's shared budget. */
export function bothThrottles(...throttles: PairingThrottle[]): PairingThrottle {
  return {
    check: (a) => throttles.forEach((t) => t.check(a)),
    failed: (a) => throttles.forEach((t) => t.failed(a)),
    succeeded: (a) => throttles.forEach((t) => t.succeeded(a)),
  };
}
