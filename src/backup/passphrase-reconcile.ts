// After a passphrase rotation was killed midway, `restic-passphrase-next` is still in the keychain.
// Settled at the next start (and before the next rotation) from what the keychain holds:
//  - the pending passphrase equals the current one: the rotation persisted; only the pending copy
//    (and the recovery kit's confirmation, now stale) is left to clear. Its old keys are recorded
//    (old-keys.ts) and go after the next backup.
//  - they differ: the rotation died before the persist, so the current passphrase still opens every
//    repository. Each repository is opened with the pending passphrase: the key it opens (restic
//    marks it `current`) is the one the rotation added, and is removed with the current passphrase.
import { mkdirSync } from 'node:fs';
import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import { clearRecoveryKitConfirmation } from '../secrets/recovery-kit.js';
import { RESTIC_PASSPHRASE, RESTIC_PASSPHRASE_NEXT, type SecretStore } from '../secrets/secret-store.js';
import type { Vault } from '../secrets/vault.js';
import type { Db } from '../store/open.js';
import { backupDepsFor } from './backup-deps.js';
import { listRepositories } from '../repository/repositories.js';
import { ResticError, type Restic } from '../repository/restic/index.js';
import { toResticRepo } from '../repository/restic-target.js';
import { backupsDir } from '../files/data-dir-layout.js';
import { tryBackupLock } from '../repository/backup-lock.js';

export interface ReconcileDeps {
  db: Db;
  logger: Logger;
  store: SecretStore;
  restic: Restic;
  vault: Vault;
}

export interface ReconcileResult {
  /** none: nothing pending; finished: the rotation had persisted; undone: its new keys were removed. */
  action: 'none' | 'finished' | 'undone';
  warnings: string[];
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Call with the backup lock held. */
export async function reconcilePassphrase(deps: ReconcileDeps, options: { signal?: AbortSignal } = {}): Promise<ReconcileResult> {
  const { db, logger, store, restic } = deps;
  const next = await store.get(RESTIC_PASSPHRASE_NEXT);
  if (next === null) return { action: 'none', warnings: [] };
  logger.addSecret(next);
  const current = await store.get(RESTIC_PASSPHRASE);
  if (current === null) {
    // Never drop what may be the only passphrase left; the missing one is reported where it is needed.
    return {
      action: 'none',
      warnings: ['A pending passphrase from an interrupted rotation is in the keychain, but the current one is missing; restore it from the recovery kit.'],
    };
  }
  if (current === next) {
    clearRecoveryKitConfirmation(db);
    await store.delete(RESTIC_PASSPHRASE_NEXT);
    logger.info('passphrase rotation: an interrupted rotation had persisted; pending copy removed');
    return { action: 'finished', warnings: [] };
  }
  logger.addSecret(current);
  const warnings: string[] = [];
  for (const repo of listRepositories(db)) {
    try {
      const keys = await restic.listKeys(toResticRepo(repo, deps.vault, next), options);
      const added = keys.find((k) => k.current);
      if (added) await restic.removeKey(toResticRepo(repo, deps.vault, current), added.id, options);
      logger.info('passphrase rotation: key of an interrupted rotation removed', { repository: repo.name });
    } catch (err) {
      // The interrupted rotation never reached this repository.
      if (err instanceof ResticError && (err.kind === 'wrong_password' || err.kind === 'no_repo')) continue;
      warnings.push(
        `"${repo.name}" could not be checked for a key left by an interrupted rotation (${message(err).replace(/\.$/, '')}); that key's passphrase is forgotten now, so it opens nothing.`,
      );
    }
  }
  await store.delete(RESTIC_PASSPHRASE_NEXT);
  logger.info('passphrase rotation: an interrupted rotation was undone', { unchecked: warnings.length });
  return { action: 'undone', warnings };
}

/** At appliance start: settles an interrupted rotation, if any. Never stops the start: a failure is
 *  logged and the pending passphrase stays for the next start or rotation. */
export async function reconcilePassphraseAtStart(input: { db: Db; dataDir: string; clock: Clock; logger: Logger; store: SecretStore }): Promise<void> {
  const { logger } = input;
  try {
    if ((await input.store.get(RESTIC_PASSPHRASE_NEXT)) === null) return;
    mkdirSync(backupsDir(input.dataDir), { recursive: true, mode: 0o700 });
    const lock = tryBackupLock(input.dataDir);
    if (!lock) {
      logger.warn('an interrupted passphrase rotation is settled later: a backup is running');
      return;
    }
    try {
      const deps = await backupDepsFor(input);
      const result = await reconcilePassphrase({ ...deps, store: input.store }, { signal: AbortSignal.timeout(120_000) });
      for (const warning of result.warnings) logger.warn(warning);
    } finally {
      lock.release();
    }
  } catch (err) {
    logger.warn('an interrupted passphrase rotation could not be settled at start; it is retried at the next start or rotation', { error: message(err) });
  }
}
