// Repository maintenance: clear stale locks, apply the retention policy with `forget --prune`, then
// `check`. A clean run logs `maintenance ok: <repo> …` and records its time, so "never ran" (no
// record, no line) and "always succeeds" (a fresh record, a line per run) look different; a failed
// run records that too and raises an alert the next clean run resolves.
import { errorParam } from '../contract/said.js';
import { say } from '../contract/said/index.js';
import type { Clock } from '../clock.js';
import { unixSeconds } from '../clock.js';
import type { Logger } from '../log/logger.js';
import type { Db, ReadableDB } from '../store/open.js';
import { readConfigValue, readSettings, writeConfigValue } from '../store/settings.js';
import { retentionPolicy } from './retention.js';
import { raiseAlert, resolveAlert } from '../store/alerts.js';
import { recordMaintenance } from './maintenance-log.js';
import { asBookkeeping } from '../store/content-mark.js';
import { ResticError, type Restic, type ResticRepo } from '../repository/restic/index.js';

export const MAINTENANCE_EVERY_MS = 24 * 3_600_000;

export type MaintenanceStep = 'unlock' | 'forget' | 'check';

export type MaintenanceResult =
  | { ok: true; removed: number; kept: number }
  /** `busy`: maintenance of this repository was already running in this process; nothing done. */
  | { ok: false; outcome: 'failed' | 'cancelled'; step: MaintenanceStep; reason: string };

export interface MaintenanceContext {
  logger: Logger;
  signal?: AbortSignal;
  db: Db;
  clock: Clock;
}

export const okKey = (repo: string): string => `maintenance_ok_at:${repo}`;
export const failedKey = (repo: string): string => `maintenance_failed_at:${repo}`;
export const alertKey = (repo: string): string => `backup.maintenance_failed:${repo}`;

/** One maintenance at a time in a process is the job table's to say (jobs/job-table.ts refuses a
 *  second); another process is kept out by restic's own exclusive lock. */
export async function runMaintenance(restic: Restic, repo: ResticRepo, ctx: MaintenanceContext): Promise<MaintenanceResult> {
  let step: MaintenanceStep = 'unlock';
  const startedAt = unixSeconds(ctx.clock);
  const done: MaintenanceStep[] = [];
  let forgot: { removed: number; kept: number } | null = null;
  try {
    const signal = ctx.signal;
    // restic's unlock removes only stale locks (dead process on this host, or past restic's stale
    // age); a live backup elsewhere keeps its lock and forget below then fails as `locked`.
    await restic.unlock(repo, { signal });
    done.push('unlock');
    step = 'forget';
    // The policy the person set (Settings), read when the run starts.
    const forget = await restic.forget(repo, { ...retentionPolicy(readSettings(ctx.db)), prune: true, signal });
    forgot = { removed: forget.removed.length, kept: forget.kept.length };
    done.push('forget');
    step = 'check';
    const checked = await restic.check(repo, { signal });
    if (!checked.ok) {
      const what = checked.damaged ? 'the repository has errors' : 'check could not run';
      throw new ResticError(
        checked.error.kind,
        say('restic.step_failed', { step: what, error: [checked.error.said] }),
        checked.error.exitCode,
        checked.error.stderrTail,
      );
    }
    done.push('check');
    const now = unixSeconds(ctx.clock);
    asBookkeeping(ctx.db, () => writeConfigValue(ctx.db, okKey(repo.name), String(now), now));
    recordMaintenance(ctx.db, {
      repository: repo.name,
      started_at: startedAt,
      finished_at: now,
      ok: true,
      steps: done,
      failed_step: null,
      ...forgot,
      error: null,
    });
    resolveAlert(ctx.db, ctx.clock, alertKey(repo.name));
    ctx.logger.info(`maintenance ok: ${repo.name} (forget --prune, check)`, { repo: repo.name, ...forgot });
    return { ok: true, ...forgot };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // Cancelled (shutdown, user) is neither a success nor a fault of the repository: no record, no alert.
    const cancelled = ctx.signal?.aborted === true || (error instanceof ResticError && error.kind === 'cancelled');
    if (cancelled) {
      ctx.logger.info(`maintenance cancelled: ${repo.name} (${step})`, { repo: repo.name, step });
      return { ok: false, outcome: 'cancelled', step, reason };
    }
    const now = unixSeconds(ctx.clock);
    asBookkeeping(ctx.db, () => writeConfigValue(ctx.db, failedKey(repo.name), String(now), now));
    recordMaintenance(ctx.db, {
      repository: repo.name,
      started_at: startedAt,
      finished_at: now,
      ok: false,
      steps: done,
      failed_step: step,
      removed: forgot?.removed ?? null,
      kept: forgot?.kept ?? null,
      error: reason,
    });
    const kind = error instanceof ResticError ? error.kind : 'error';
    raiseAlert(ctx.db, ctx.clock, alertKey(repo.name), 'warning', say('alert.maintenance_failed', { repo: repo.name, step, error: errorParam(error) }));
    ctx.logger.warn(`maintenance failed: ${repo.name} (${step}): ${reason}`, { repo: repo.name, step, kind });
    return { ok: false, outcome: 'failed', step, reason };
  }
}

/** When maintenance last finished cleanly / failed for `repo` (Unix seconds), or null. */
export function maintenanceRecord(db: ReadableDB, repo: string): { okAt: number | null; failedAt: number | null } {
  return { okAt: readSeconds(db, okKey(repo)), failedAt: readSeconds(db, failedKey(repo)) };
}

/** Due when it never ran, or the last attempt (clean or failed) is `everyMs` old. A failure waits a
 *  full period too, so a broken repository is not hammered every tick; its alert stays open meanwhile,
 *  unless a backup has just reached the repository again (`reachedNow`): then the failed maintenance
 *  is retried at once, so an offsite that came back does not keep a stale alert for a day.
 *  A record in the future (the wall clock went back) cannot be trusted, so that is due as well. */
export function maintenanceDue(db: Db, clock: Clock, repo: string, everyMs = MAINTENANCE_EVERY_MS, reachedNow = false): boolean {
  const { okAt, failedAt } = maintenanceRecord(db, repo);
  if (okAt === null && failedAt === null) return true;
  if (reachedNow && failedAt !== null && failedAt >= (okAt ?? 0)) return true;
  const lastMs = Math.max(okAt ?? 0, failedAt ?? 0) * 1000;
  const now = clock.now();
  return lastMs > now || now - lastMs >= everyMs;
}

function readSeconds(db: ReadableDB, key: string): number | null {
  const value = readConfigValue(db, key);
  if (value === undefined) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}
