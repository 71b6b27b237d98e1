// At start-up, before any job runs: every run of any kind that a crash (a kill, a power cut) left
// `running` is settled here, in one place, with a reason, as tasks/recovery.ts does for tasks. A run
// is only settled while its lock shows that no other process (a `sanad backup now`, a CLI drill) is
// still doing it. A restore cut short has its target put back as it was, and the keychain entries
// it may have written for that target removed, so the next attempt starts clean; a CLI command's
// temporary admin client left by a command that died is revoked.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { unixSeconds, type Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import { settleLeftoverBackupRuns } from '../backup/backup-runs.js';
import { backupLockPath } from '../drill/checks/repo-lock.js';
import { markInterrupted } from '../drill/drill-runs.js';
import { drillLockPath } from '../drill/scratch.js';
import { leftoverRestoreRuns, settleRestoreRun } from '../restore/restore-runs.js';
import { rollbackLeftoverTarget } from '../restore/target-dir.js';
import { RESTIC_PASSPHRASE, VAULT_KEY, VAULT_KEY_NEXT, type SecretStore } from '../secrets/secret-store.js';
import { revokeStaleTemporaryClients } from '../store/clients.js';
import { tryFileLock } from '../store/file-lock.js';
import type { Db } from '../store/open.js';

export const BACKUP_INTERRUPTED =
  'Sanad stopped while this backup ran (it was closed, killed, or the power went); the generations before it are untouched and the next backup runs as usual.';

export interface LeftoverReport {
  backups: number[];
  drills: number;
  restores: Array<{ id: string; target: string; putBack: boolean }>;
}

export interface LeftoverInput {
  db: Db;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  /** The secret store scoped to another data dir (a restore's target), when the store can be. */
  secretsFor?: (dataDir: string) => SecretStore | null;
}

function underLock<T>(path: string, settle: () => T, none: T): T {
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  const lock = tryFileLock(path);
  // Held: another process is doing that work right now, and its rows are its own.
  if (!lock) return none;
  try {
    return settle();
  } finally {
    lock.release();
  }
}

export async function settleLeftovers(input: LeftoverInput): Promise<LeftoverReport> {
  const { db, dataDir, clock, logger } = input;
  const backups = underLock(backupLockPath(dataDir), () => settleLeftoverBackupRuns(db, unixSeconds(clock), BACKUP_INTERRUPTED), []);
  const drills = underLock(drillLockPath(dataDir), () => markInterrupted(db, unixSeconds(clock)), 0);
  const restores: LeftoverReport['restores'] = [];
  for (const run of leftoverRestoreRuns(db)) {
    const putBack = await rollbackLeftoverTarget(run.target, run.created_top).catch((err: unknown) => {
      logger.warn('could not put back the target of an interrupted restore', { target: run.target, error: err instanceof Error ? err.message : String(err) });
      return false;
    });
    if (putBack) await forgetSecrets(input.secretsFor?.(run.target) ?? null, logger);
    const reason = putBack
      ? `Sanad stopped while this restore ran; ${run.target} was put back as it was before, so run the restore again.`
      : `Sanad stopped while this restore ran; ${run.target} may hold part of it: delete that folder and run the restore again.`;
    settleRestoreRun(db, run.id, reason, clock.now());
    restores.push({ id: run.id, target: run.target, putBack });
  }
  // A CLI command that died while asking the service left its temporary admin client: no command
  // can be asking a service that is only starting, so every one left is stale.
  const clients = revokeStaleTemporaryClients(db, unixSeconds(clock));
  if (backups.length > 0 || drills > 0 || restores.length > 0 || clients > 0) {
    logger.info('interrupted runs settled at start', { backups: backups.length, drills, restores: restores.length, temporary_clients: clients });
  }
  return { backups, drills, restores };
}

async function forgetSecrets(store: SecretStore | null, logger: Logger): Promise<void> {
  if (store === null) return;
  for (const name of [VAULT_KEY, RESTIC_PASSPHRASE, VAULT_KEY_NEXT]) {
    await store.delete(name).catch((err: unknown) => logger.warn('could not remove a keychain entry of an interrupted restore', { name, error: err instanceof Error ? err.message : String(err) }));
  }
}
