// `repo:lock`: nobody is writing to the repository. A backup running on this data dir (the backup
// lock file, or the in-process flag) or a live restic lock (another machine's backup, a prune)
// makes the drill UNVERIFIED, not FAIL: what it would read may be half written. restic's own rule
// decides what is stale: older than 30 minutes, or made on this host by a process that is gone.
import { hostname } from 'node:os';
import type { ResticLock } from '../../repository/restic/index.js';
import { say } from '../../contract/said/index.js';
import type { Spoken } from '../../contract/said.js';
import { resticOutcome } from '../restic-outcome.js';
import { pass, unverified, type CheckOutcome } from '../verdict.js';
import { signalOf, type RepoContext } from './repo-context.js';
import { backupLockHeld } from '../../repository/backup-lock.js';

export const STALE_LOCK_MS = 30 * 60_000;

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

export function describeLock(lock: ResticLock): Spoken {
  const owner = `${lock.username ? `${lock.username}@` : ''}${lock.hostname}`;
  return say(lock.exclusive ? 'drill.lock.held_exclusive' : 'drill.lock.held', { owner, pid: lock.pid, time: lock.time });
}

/** The live locks now, or a reason they could not be read. */
export async function liveLocks(ctx: RepoContext): Promise<ResticLock[]> {
  const locks = await ctx.restic.listLocks(ctx.target, signalOf(ctx));
  return locks.filter((l) => isLiveLock(l, ctx.deps.clock.now()));
}

export async function checkRepoLock(ctx: RepoContext): Promise<CheckOutcome> {
  const { deps } = ctx;
  if (deps.backupRunning?.() === true || backupLockHeld(deps.dataDir)) {
    return unverified(say('drill.lock.backup_running'));
  }
  let locks: ResticLock[];
  try {
    locks = await ctx.restic.listLocks(ctx.target, signalOf(ctx));
  } catch (error) {
    return resticOutcome(error, { doing: say('drill.doing_locks'), hadBackups: ctx.hadBackups });
  }
  const live = locks.filter((l) => isLiveLock(l, deps.clock.now()));
  const first = live[0];
  if (first) {
    const lock = [describeLock(first)];
    return unverified(live.length > 1 ? say('drill.lock.live_more', { lock, more: live.length - 1 }) : say('drill.lock.live', { lock }));
  }
  const stale = locks.length - live.length;
  return pass(stale > 0 ? say('drill.lock.stale', { count: stale }) : say('drill.lock.none'));
}
