// Picks where this data dir's master secrets live and proves it answers before anything is
// written: a file the user named (--secrets-file), else the one its record names
// (secrets-location.ts), else the OS keychain. Only when asked to (the quick start's `npm start`)
// and only for a data dir whose secrets are not already in the keychain, a missing keychain means
// the default secrets file instead; the caller says so loudly.
import { KeychainUnavailableError } from './errors.js';
import { KeychainStore } from './keychain.js';
import { dataDirScope } from './scope.js';
import type { SecretStore } from './secret-store.js';
import { SecretsFileStore } from './secrets-file.js';
import { createSecretsFile, defaultSecretsFilePath, readSecretsLocation } from './secrets-location.js';
import { existsSync } from 'node:fs';
import { openStore } from '../store/open.js';
import { secretsInitialized } from './master-secrets.js';
import { storePath } from '../files/data-dir-layout.js';

export interface OpenSecretStoreOptions {
  /** No keychain: use (and make) the default secrets file, for a data dir not already in the keychain. */
  fallbackToFile?: boolean;
}

/** True when this data dir already made its secrets without a record: they are in the keychain. */
function initializedInKeychain(dataDir: string): boolean {
  if (!existsSync(storePath(dataDir))) return false;
  try {
    const db = openStore(storePath(dataDir), { readonly: true });
    try {
      return secretsInitialized(db);
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

export async function openSecretStore(dataDir: string, secretsFile: string | undefined, options: OpenSecretStoreOptions = {}): Promise<SecretStore> {
  const scope = dataDirScope(dataDir);
  const recorded = readSecretsLocation(dataDir);
  const file = secretsFile ?? (recorded?.kind === 'file' ? recorded.path : undefined);
  if (file !== undefined) {
    const store = new SecretsFileStore(file, scope);
    await store.probe();
    return store;
  }
  const keychain = new KeychainStore(scope);
  try {
    await keychain.probe();
    return keychain;
  } catch (err) {
    if (!(err instanceof KeychainUnavailableError) || !options.fallbackToFile || recorded?.kind === 'keychain' || initializedInKeychain(dataDir)) throw err;
    const path = defaultSecretsFilePath();
    createSecretsFile(path);
    const store = new SecretsFileStore(path, scope);
    await store.probe();
    return store;
  }
}
