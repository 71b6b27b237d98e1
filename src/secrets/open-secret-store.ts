// Picks where this data dir's master secrets live and proves it answers before anything is
// written: the OS keychain by default, a 0600 secrets file only when the user opted in.
import { KeychainStore } from './keychain.js';
import { dataDirScope } from './scope.js';
import type { SecretStore } from './secret-store.js';
import { SecretsFileStore } from './secrets-file.js';

export async function openSecretStore(dataDir: string, secretsFile: string | undefined): Promise<SecretStore> {
  const scope = dataDirScope(dataDir);
  const store: SecretStore = secretsFile ? new SecretsFileStore(secretsFile, scope) : new KeychainStore(scope);
  await store.probe();
  return store;
}
