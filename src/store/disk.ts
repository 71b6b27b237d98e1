// What a full disk looks like from inside Sanad, in one place: SQLite says SQLITE_FULL, the file
// system says ENOSPC or EDQUOT, and restic/rclone print "no space left on device". Callers use
// these to answer "the disk is full" (a state the user can fix) instead of "unexpected error".
import { decimalSize } from '../contract/said.js';
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';

const OUT_OF_SPACE_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);
const OUT_OF_SPACE_TEXT = /no space left on device|disk quota exceeded|database or disk is full|not enough space/i;

function codeOf(err: unknown): string | null {
  if (typeof err !== 'object' || err === null || !('code' in err)) return null;
  return typeof err.code === 'string' ? err.code : null;
}

/** True when `err` (or its text, for a child process's stderr) says the disk is full. */
export function isOutOfSpace(err: unknown): boolean {
  const code = codeOf(err);
  if (code !== null && OUT_OF_SPACE_CODES.has(code)) return true;
  const text = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  return OUT_OF_SPACE_TEXT.test(text);
}

/**
 * A write that failed because of the storage under it (full, an I/O error, a lock held too long),
 * not because of what was written: the same write can succeed later and is worth retrying.
 */
export function isWriteFailure(err: unknown): boolean {
  if (isOutOfSpace(err)) return true;
  const code = codeOf(err);
  return code !== null && (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'EIO');
}

export interface FreeSpace {
  /** Bytes an unprivileged writer can still use. */
  free: number;
  total: number;
}

/** Free space of the file system holding `path` (its nearest existing parent), or null. */
export function freeSpace(path: string): FreeSpace | null {
  for (let p = path; ; p = dirname(p)) {
    try {
      const s = statfsSync(p);
      return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
    } catch {
      if (dirname(p) === p) return null;
    }
  }
}

/** "512 B", "3.4 MB", "1.2 GB": decimal units, as file managers show free space (one formatter: contract/said.ts). */
export function formatBytes(n: number): string {
  return decimalSize(n);
}

/** True when the file system holding `path` has (next to) nothing left: what a failed write left. */
export function isNearlyFull(path: string, below = 1024 * 1024): boolean {
  const space = freeSpace(path);
  return space !== null && space.free < below;
}

/** "The disk holding the restore target (/mnt/x) is full (12 kB free)." */
export function outOfSpaceSentence(path: string, what: string): string {
  const space = freeSpace(path);
  const free = space ? `${formatBytes(space.free)} free` : 'no free space';
  return `The disk holding ${what} (${path}) is full (${free}).`;
}

/** One sentence for a user: which disk, how much is free, what to do. */
export function diskFullSentence(path: string, what = "Sanad's data"): string {
  return `${outOfSpaceSentence(path, what).slice(0, -1)}; free some space on it and Sanad carries on by itself, nothing already saved is lost.`;
}
