// `repo:lock`: nobody is writing to the repository. A backup running on this data dir (the backup
// lock file, or the in-process flag) or a live restic lock (another machine's backup, a prune)
// makes the drill UNVERIFIED, not FAIL: what it would read may be half written. restic's own rule
// decides what is stale: older than 30 minutes, or made on this host by a process that is gone.
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { ResticLock } from '../../backup/restic/index.js';
import { tryFileLock } from '../../store/file-lock.js';
import { resticOutcome } from '../restic-outcome.js';
import { pass, unverified, type CheckOutcome } from '../verdict.js';
import { signalOf, type RepoContext } from './repo-context.js';

export const STALE_LOCK_MS = 30 * 60_000;

export function backupLockPath(dataDir: string): string {
  return join(dataDir, 'backups', 'backup.lock');
}

/**
 * Whether a backup holds the data dir's backup lock. Probing means taking the lock for an instant
 * (SQLite has no "is it locked" call), synchronously, so no backup in this process can try in
 * between; a backup in another process starting in that very instant would be refused as busy.
 */
export function backupLockHeld(dataDir: string): boolean {
  if (!existsSync(join(dataDir, 'backups'))) return false;
  const lock = tryFileLock(backupLockPath(dataDir));
  if (lock === null) return true;
  lock.release();
  return false;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it just is not ours.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

export function isLiveLock(lock: ResticLock, nowMs: number, thisHost = hostname(), alive: (pid: number) => boolean = processAlive): boolean {
  const at = Date.parse(lock.time);
  if (!Number.isFinite(at) || nowMs - at > STALE_LOCK_MS) return false;
  return !(lock.hostname === thisHost && !alive(lock.pid));
}

export function describeLock(lock: ResticLock): string {
  return `${lock.exclusive ? 'an exclusive' : 'a'} lock of ${lock.username ? `${lock.username}@` : ''}${lock.hostname}, pid ${lock.pid}, since ${lock.time}`;
}

/** The live locks now, or a reason they could not be read. */
export async function liveLocks(ctx: RepoContext): Promise<ResticLock[]> {
  const locks = await ctx.restic.listLocks(ctx.target, signalOf(ctx));
  return locks.filter((l) => isLiveLock(l, ctx.deps.clock.now()));
}

export async function checkRepoLock(ctx: RepoContext): Promise<CheckOutcome> {
  const { deps } = ctx;
  if (deps.backupRunning?.() === true || backupLockHeld(deps.dataDir)) {
    return unverified('A backup is running on this data dir; run the drill again when it has finished.');
  }
  let locks: ResticLock[];
  try {
    locks = await ctx.restic.listLocks(ctx.target, signalOf(ctx));
  } catch (error) {
    return resticOutcome(error, { doing: 'Reading the locks', hadBackups: ctx.hadBackups });
  }
  const live = locks.filter((l) => isLiveLock(l, deps.clock.now()));
  const first = live[0];
  if (first) {
    return unverified(`The repository is in use by a live restic process (${describeLock(first)}${live.length > 1 ? ` and ${live.length - 1} more` : ''}); run the drill again when it has finished.`);
  }
  const stale = locks.length - live.length;
  return pass(stale > 0 ? `no live lock (${stale} stale lock(s) ignored; maintenance clears them)` : 'no lock held');
}
