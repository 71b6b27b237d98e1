// The data dir's disk as a state, not as a string of unexpected errors. A write that fails for
// lack of space marks the disk full (the GUI, the tray and /health/ready say so once); the next
// write that succeeds, or a probe that finds space again, clears it, and writes resume by
// themselves. Kept in memory on purpose: while the disk is full the store cannot record it.
import { statSync } from 'node:fs';
import type { Clock } from '../clock.js';
import { say } from '../contract/said/index.js';
import type { Spoken } from '../contract/said.js';
import { unixSeconds } from '../clock.js';
import { freeSpace, isOutOfSpace } from './disk.js';

/** Below this much free space the disk counts as full even before a write failed. */
export const FULL_BELOW_BYTES = 1024 * 1024;
/** Free space needed beyond the next generation (a copy of the store) for the warning to stay off. */
export const LOW_MARGIN_BYTES = 32 * 1024 * 1024;
const PROBE_MS = 2000;

export interface DiskStatus {
  path: string;
  full: boolean;
  /** When the last write failed for lack of space (Unix seconds), while the disk counts as full. */
  full_since: number | null;
  free_bytes: number | null;
  total_bytes: number | null;
  /** What the next generation needs free: a copy of the store plus a margin. */
  needed_bytes: number;
  low: boolean;
}

export interface LiveAlert {
  key: string;
  severity: 'warning' | 'critical';
  message: string;
  first_seen: number;
  last_seen: number;
  count: number;
  resolved_at: null;
  /** `{code, params}` as JSON, as a stored alert keeps it. */
  said: string;
}

export const DISK_FULL_ALERT = 'disk.full';
export const DISK_LOW_ALERT = 'disk.low';

export class DiskState {
  private fullSince: number | null = null;
  private lowSince: number | null = null;
  private probe: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly path: string,
    private readonly storeFile: string,
    private readonly clock: Clock,
  ) {}

  /** Call with the error of a failed write; returns true when it was the disk being full. */
  noteFailure(err: unknown): boolean {
    if (!isOutOfSpace(err)) return false;
    if (this.fullSince === null) {
      this.fullSince = unixSeconds(this.clock);
      this.startProbe();
      this.changed();
    }
    return true;
  }

  /** A write committed: the disk has room again. Cheap, so the hot path may call it every time. */
  noteWriteOk(): void {
    if (this.fullSince !== null) this.clear();
  }

  isFull(): boolean {
    return this.fullSince !== null;
  }

  /** Called when the state flips (full ↔ not full); returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  status(): DiskStatus {
    const space = freeSpace(this.path);
    const needed = this.storeBytes() + LOW_MARGIN_BYTES;
    const full = this.fullSince !== null || (space !== null && space.free < FULL_BELOW_BYTES);
    const low = space !== null && space.free < needed;
    if (low && this.lowSince === null) this.lowSince = unixSeconds(this.clock);
    if (!low) this.lowSince = null;
    return {
      path: this.path,
      full,
      full_since: this.fullSince,
      free_bytes: space?.free ?? null,
      total_bytes: space?.total ?? null,
      needed_bytes: needed,
      low,
    };
  }

  /** The disk's alerts, in the shape of the persisted ones, for the status the GUI and tray read. */
  alerts(): LiveAlert[] {
    const s = this.status();
    const since = this.fullSince ?? this.lowSince ?? unixSeconds(this.clock);
    const base = { first_seen: since, last_seen: unixSeconds(this.clock), count: 1, resolved_at: null };
    const spoken = (said: Spoken) => ({ message: said.detail, said: JSON.stringify({ code: said.code, params: said.params }) });
    const path = this.path;
    if (s.full) {
      const said = s.free_bytes === null ? say('alert.disk_full_none', { path }) : say('alert.disk_full', { path, free_bytes: s.free_bytes });
      return [{ key: DISK_FULL_ALERT, severity: 'critical', ...spoken(said), ...base }];
    }
    if (s.low) {
      const said =
        s.free_bytes === null
          ? say('alert.disk_low_unknown', { path, needed_bytes: s.needed_bytes })
          : say('alert.disk_low', { path, free_bytes: s.free_bytes, needed_bytes: s.needed_bytes });
      return [{ key: DISK_LOW_ALERT, severity: 'warning', ...spoken(said), ...base }];
    }
    return [];
  }

  close(): void {
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
  }

  private storeBytes(): number {
    let n = 0;
    for (const f of [this.storeFile, `${this.storeFile}-wal`]) {
      try {
        n += statSync(f).size;
      } catch {
        // absent (no WAL yet): counts as nothing
      }
    }
    return n;
  }

  // Nothing may write for a while (an idle service): look for space again on a timer.
  private startProbe(): void {
    if (this.probe) return;
    this.probe = setInterval(() => {
      const space = freeSpace(this.path);
      if (space !== null && space.free >= 8 * FULL_BELOW_BYTES) this.clear();
    }, PROBE_MS);
    this.probe.unref();
  }

  private clear(): void {
    this.fullSince = null;
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
    this.changed();
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}
