// What a drill needs, gathered from a data dir: the passphrase and vault key from the keychain
// (read only), the vault (offsite credentials), and restic with `--no-lock` on every command, so
// nothing the drill runs can write to a repository. restic missing is not an error here: the drill
// still runs and reports every repository as unverified, saying why.
import type { Spoken } from '../contract/said.js';
import { createRestic, findRestic, ResticError, type Restic } from '../repository/restic/index.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import { MissingSecretError } from '../secrets/errors.js';
import { readResticPassphrase } from '../secrets/master-secrets.js';
import { VAULT_KEY, type SecretStore } from '../secrets/secret-store.js';
import { Vault } from '../secrets/vault.js';
import type { Db } from '../store/open.js';
import { readSettings, type Settings } from '../store/settings.js';
import { resticCacheDir } from '../files/data-dir-layout.js';

export interface DrillDeps {
  db: Db;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  /** null when restic could not be found (`resticProblem` says why). */
  restic: Restic | null;
  resticProblem: Spoken | null;
  vault: Vault;
  passphrase: string;
  settings: Settings;
  /** A backup (or its maintenance) running in this process; other processes are seen through the
   *  backup lock file and restic's own locks. */
  backupRunning?: () => boolean;
}

export async function drillDepsFor(input: {
  db: Db;
  dataDir: string;
  store: SecretStore;
  clock: Clock;
  logger: Logger;
  backupRunning?: () => boolean;
}): Promise<DrillDeps> {
  const passphrase = await readResticPassphrase(input.db, input.store);
  const key = await input.store.get(VAULT_KEY);
  if (!key) throw new MissingSecretError('vault key', input.store.description);
  let restic: Restic | null = null;
  let resticProblem: Spoken | null = null;
  try {
    const binary = await findRestic(process.env.SANAD_RESTIC ? { configuredPath: process.env.SANAD_RESTIC } : {});
    restic = createRestic({ binary, cacheDir: resticCacheDir(input.dataDir), logger: input.logger, noLock: true, lowPriority: true });
  } catch (error) {
    if (!(error instanceof ResticError)) throw error;
    resticProblem = { ...error.said, detail: error.message };
  }
  return {
    db: input.db,
    dataDir: input.dataDir,
    clock: input.clock,
    logger: input.logger,
    restic,
    resticProblem,
    vault: new Vault(input.db, Buffer.from(key, 'base64')),
    passphrase,
    settings: readSettings(input.db),
    ...(input.backupRunning ? { backupRunning: input.backupRunning } : {}),
  };
}
