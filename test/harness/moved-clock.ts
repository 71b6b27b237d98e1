// The soak's clock: the wall clock moved forward by the whole milliseconds a file holds, as sleep or
// an NTP correction moves a laptop's, without touching the machine's clock. Only the test build of
// `sanad serve` (serve-moved-clock.ts) runs on it: the shipped service reads no test hook. The file
// is read off the event loop's critical path (asynchronously, every 200 ms), only when it is a small
// regular file, and the offset is bounded, so a FIFO or a huge number cannot stall or break it.
import { readFile, stat } from 'node:fs/promises';
import { systemClock, type Clock } from '../../src/clock.js';

/** Ten years: more than any jump the soak makes, less than what breaks a date. */
export const MAX_CLOCK_OFFSET_MS = 10 * 365 * 24 * 3_600_000;
const READ_EVERY_MS = 200;

export function movedClock(file: string): Clock {
  let offset = 0;
  let reading = false;
  const read = async (): Promise<void> => {
    if (reading) return;
    reading = true;
    try {
      const info = await stat(file);
      if (!info.isFile() || info.size > 64) {
        offset = 0;
        return;
      }
      const n = Number((await readFile(file, 'utf8')).trim());
      offset = Number.isFinite(n) ? Math.max(-MAX_CLOCK_OFFSET_MS, Math.min(MAX_CLOCK_OFFSET_MS, Math.trunc(n))) : 0;
    } catch {
      // Gone or unreadable: no offset.
      offset = 0;
    } finally {
      reading = false;
    }
  };
  void read();
  setInterval(() => void read(), READ_EVERY_MS).unref();
  return { now: () => systemClock.now() + offset };
}
