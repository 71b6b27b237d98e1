// "Copy to offsite now": the newest generation in this computer's repository, copied to every
// enabled offsite repository that does not have it yet (restic copy: the same snapshot, paths, host
// and time, re-encrypted for the target), without making a new generation. For a target that was
// unreachable or unplugged during the last backup: once it answers again, it catches up at once
// instead of at the next backup. Runs as a backup job (jobs/backups.ts), under the backup lock.
import { errorParam, type Said } from '../contract/said.js';
import { say } from '../contract/said/index.js';
import type { OffsiteCatchUp, OffsiteCatchUpTarget } from '../contract/backups.js';
import { unixSeconds } from '../clock.js';
import { raiseAlert, resolveAlert } from '../store/alerts.js';
import { newestLocalGeneration, replaceCopy } from '../repository/backup-runs.js';
import { assertFolderPresent, FolderMissingError } from '../repository/folder-target.js';
import { listRepositories, LOCAL, recordRepositoryResult, type Repository } from '../repository/repositories.js';
import { copySnapshot } from '../repository/restic/copy.js';
import { ResticError } from '../repository/restic/index.js';
import { toResticRepo } from '../repository/restic-target.js';
import { BackupBusyError, type BackupDeps } from './run-backup.js';
import { tryBackupLock } from '../repository/backup-lock.js';
import { cancelledByPerson } from '../process/cancel.js';

/** A failure as a saying with its English words: restic's and the folder check's own, else the message. */
function spokenFailure(err: unknown): Said & { detail: string } {
  const detail = err instanceof Error ? err.message : String(err);
  const param = errorParam(err);
  const said = Array.isArray(param) ? param[0] : undefined;
  return said ? { ...said, detail } : say('said.text', { text: detail });
}

export async function copyToOffsite(deps: BackupDeps, options: { signal?: AbortSignal; onTarget?: (name: string) => void } = {}): Promise<OffsiteCatchUp> {
  const lock = tryBackupLock(deps.dataDir);
  if (!lock) throw new BackupBusyError();
  try {
    return await copyLocked(deps, options);
  } finally {
    lock.release();
  }
}

async function copyLocked(deps: BackupDeps, options: { signal?: AbortSignal; onTarget?: (name: string) => void }): Promise<OffsiteCatchUp> {
  const { db, logger } = deps;
  const newest = newestLocalGeneration(db, LOCAL);
  const offsite = listRepositories(db).filter((r) => r.enabled && r.name !== LOCAL);
  if (newest === null) return { generation: null, targets: [], said: say('copy.no_local') };
  if (offsite.length === 0) return { generation: newest.generation, targets: [], said: say('copy.no_targets') };
  const local = listRepositories(db).find((r) => r.name === LOCAL);
  if (!local) return { generation: null, targets: [], said: say('copy.no_local') };
  const targets: OffsiteCatchUpTarget[] = [];
  for (const repo of offsite) {
    if (newest.reached.includes(repo.name)) {
      targets.push({
        name: repo.name,
        status: 'up_to_date',
        snapshot_id: null,
        said: say('copy.up_to_date', { repo: repo.name, generation: newest.generation }),
      });
      continue;
    }
    if (options.signal?.aborted) break;
    options.onTarget?.(repo.name);
    targets.push(await copyOne(deps, local, repo, newest, options.signal));
  }
  logger.info('offsite catch-up finished', { generation: newest.generation, targets: targets.map((t) => `${t.name}:${t.status}`) });
  return { generation: newest.generation, targets, said: null };
}

async function copyOne(
  deps: BackupDeps,
  local: Repository,
  repo: Repository,
  newest: NonNullable<ReturnType<typeof newestLocalGeneration>>,
  signal: AbortSignal | undefined,
): Promise<OffsiteCatchUpTarget> {
  const { db, clock, restic } = deps;
  const alertKey = `backup.offsite_failed:${repo.name}`;
  const opts = signal ? { signal } : {};
  try {
    assertFolderPresent(repo);
    const from = toResticRepo(local, deps.vault, deps.passphrase);
    const to = toResticRepo(repo, deps.vault, deps.passphrase);
    let id: string;
    try {
      id = await copySnapshot(restic.runtime, from, to, newest.snapshot_id, opts);
    } catch (err) {
      // A target that never got a backup has no repository yet: made here, as a backup would.
      if (!(err instanceof ResticError && err.kind === 'no_repo')) throw err;
      await restic.init(to, opts);
      id = await copySnapshot(restic.runtime, from, to, newest.snapshot_id, opts);
    }
    const now = unixSeconds(clock);
    replaceCopy(
      db,
      { run_id: newest.run_id, repository: repo.name, ok: 1, snapshot_id: id.slice(0, 8), error: null, finished_at: now, summary: null },
      newest.sent,
    );
    recordRepositoryResult(db, repo.name, now, null);
    resolveAlert(db, clock, alertKey);
    return { name: repo.name, status: 'copied', snapshot_id: id.slice(0, 8), said: say('copy.copied', { repo: repo.name, generation: newest.generation }) };
  } catch (err) {
    const said = err instanceof FolderMissingError ? { ...err.said, detail: err.message } : spokenFailure(err);
    const error = said.detail;
    // A person's cancel says nothing about the repository: no failure recorded, no alert.
    if (cancelledByPerson(signal)) return { name: repo.name, status: 'failed', snapshot_id: null, said };
    recordRepositoryResult(db, repo.name, unixSeconds(clock), error);
    raiseAlert(db, clock, alertKey, 'warning', say('alert.offsite_failed', { repo: repo.name, error: [{ code: said.code, params: said.params }] }));
    deps.logger.warn('copy to offsite repository failed', { repository: repo.name, error });
    return { name: repo.name, status: 'failed', snapshot_id: null, said };
  }
}
