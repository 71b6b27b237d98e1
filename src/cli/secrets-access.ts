// The master secrets for a CLI command. A data dir that never had any gets them here, exactly as
// `sanad serve` makes them on its first start and under the same instance lock, so a serve that
// starts meanwhile cannot make a second pair. A data dir that had them and lost them is refused by
// ensureMasterSecrets itself (MissingSecretError): nothing is ever made over existing data.
import { mkdirSync } from 'node:fs';
import { systemClock } from '../clock.js';
import { ensureMasterSecrets, secretsInitialized } from '../secrets/master-secrets.js';
import { openSecretStore } from '../secrets/open-secret-store.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { writeSecretsLocation } from '../secrets/secrets-location.js';
import { tryFileLock } from '../store/file-lock.js';
import { CliError } from './cli-error.js';
import { withStore } from './store-access.js';
import { instanceLockPath } from '../files/data-dir-layout.js';

const WAIT_FOR_SERVE_MS = 30_000;

export async function secretStoreFor(dataDir: string, secretsFile: string | undefined): Promise<SecretStore> {
  const store = await openSecretStore(dataDir, secretsFile);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  await withStore(dataDir, async (db) => {
    if (secretsInitialized(db)) return;
    const lock = tryFileLock(instanceLockPath(dataDir));
    if (!lock) {
      // A serve holds the data dir and is starting: its first start makes the secrets.
      const deadline = systemClock.now() + WAIT_FOR_SERVE_MS;
      while (!secretsInitialized(db)) {
        if (systemClock.now() > deadline) throw new CliError(`Another Sanad holds ${dataDir} and has not made its secrets yet; try again in a moment.`);
        await new Promise((r) => setTimeout(r, 200));
      }
      return;
    }
    try {
      await ensureMasterSecrets(db, store, systemClock);
      if (store.path !== undefined) writeSecretsLocation(dataDir, { kind: 'file', path: store.path });
    } finally {
      lock.release();
    }
  });
  return store;
}
