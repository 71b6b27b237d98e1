// The soak's fault schedule: drawn from a seed (mulberry32), so the same seed replays the same
// faults at the same moments with the same lengths. The schedule is the same on every machine; a
// fault this machine cannot inject (a tmpfs needs root) is counted as skipped, not redrawn.

export type Fault = 'kill-service' | 'kill-restic' | 'offsite-down' | 'keychain-restart' | 'disk-full' | 'clock-jump';
export const FAULTS: readonly Fault[] = ['kill-service', 'kill-restic', 'offsite-down', 'keychain-restart', 'disk-full', 'clock-jump'];

export interface PlannedFault {
  /** Milliseconds after the start. */
  at: number;
  fault: Fault;
  /** A draw in [0, 1) for the fault's own size: how long it holds, how far the clock jumps. */
  size: number;
}

/** A small seeded generator (mulberry32): the same seed, the same draws. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One fault every 8 to 20 seconds, none in the last 15 s (the quiet end). */
export function schedule(seed: number, totalMs: number): PlannedFault[] {
  const rand = seeded(seed);
  const out: PlannedFault[] = [];
  for (let at = 8_000 + rand() * 12_000; at < totalMs - 15_000; at += 8_000 + rand() * 12_000) {
    out.push({ at: Math.round(at), fault: FAULTS[Math.floor(rand() * FAULTS.length)] ?? 'kill-service', size: rand() });
  }
  return out;
}

/** How far a clock jump goes: one to three hours (the hourly schedule is due), or now and then a
 *  day and an hour (the daily drill is due too). */
export function jumpHours(size: number): number {
  return size < 0.2 ? 25 : 1 + Math.floor(size * 3);
}

/** How long a fault that is undone holds (the offsite down, the keychain away, the disk full). */
export function holdMs(size: number): number {
  return 2_000 + Math.round(size * 5_000);
}
