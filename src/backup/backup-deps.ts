// Everything a backup run needs, gathered from a data dir: secrets from the keychain (read only,
// never made here), the vault, and restic with its cache inside the data dir.
import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import { MissingSecretError } from '../secrets/errors.js';
import { readResticPassphrase } from '../secrets/master-secrets.js';
import { VAULT_KEY, type SecretStore } from '../secrets/secret-store.js';
import { Vault } from '../secrets/vault.js';
import type { Db } from '../store/open.js';
import { readSettings } from '../store/settings.js';
import { APP_VERSION } from '../version.js';
import { createRestic, findRestic } from '../repository/restic/index.js';
import type { BackupDeps } from './run-backup.js';
import { resticCacheDir } from '../files/data-dir-layout.js';

export async function backupDepsFor(input: { db: Db; dataDir: string; store: SecretStore; clock: Clock; logger: Logger }): Promise<BackupDeps> {
  const passphrase = await readResticPassphrase(input.db, input.store);
  const key = await input.store.get(VAULT_KEY);
  if (!key) throw new MissingSecretError('vault key', input.store.description);
  const vaultKey = Buffer.from(key, 'base64');
  const binary = await findRestic({ ...(process.env.SANAD_RESTIC ? { configuredPath: process.env.SANAD_RESTIC } : {}) });
  // Below the engine: a backup nobody watches must not slow the text someone is reading (low-priority.ts).
  const restic = createRestic({ binary, cacheDir: resticCacheDir(input.dataDir), logger: input.logger, lowPriority: true });
  const settings = readSettings(input.db);
  const offsiteCopy = settings.offsite_copy_destination
    ? {
        destination: settings.offsite_copy_destination,
        keep: settings.offsite_copy_keep,
        ...(settings.offsite_copy_rclone_config ? { rcloneConfig: settings.offsite_copy_rclone_config } : {}),
      }
    : undefined;
  return {
    db: input.db,
    dataDir: input.dataDir,
    clock: input.clock,
    logger: input.logger,
    vault: new Vault(input.db, vaultKey),
    vaultKey,
    passphrase,
    restic,
    appVersion: APP_VERSION,
    ...(offsiteCopy ? { offsiteCopy } : {}),
    offsiteRetry: {
      stallMs: settings.offsite_stall_seconds * 1000,
      retries: settings.offsite_retries,
      backoffMs: settings.offsite_retry_backoff_seconds * 1000,
    },
  };
}
