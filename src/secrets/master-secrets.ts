// The two master secrets of a data dir: the vault key and the restic passphrase. Made once, on the
// first start of a data dir, straight into the SecretStore; after that a missing one is an error
// that names what was lost, never a silent new secret over data the old one protected.
import { randomBytes, randomInt } from 'node:crypto';
import type { Clock } from '../clock.js';
import { unixSeconds } from '../clock.js';
import type { Db } from '../store/open.js';
import { readConfigValue, writeConfigValue } from '../store/settings.js';
import { MissingSecretError, NoSecretsYetError } from './errors.js';
import { RESTIC_PASSPHRASE, VAULT_KEY, type SecretStore } from './secret-store.js';
import { reconcileVaultKey } from './vault-rotation.js';
import { vaultKeyId } from './vault.js';

export interface MasterSecrets {
  vaultKey: Buffer;
  resticPassphrase: string;
}

const INITIALIZED = 'secrets_initialized_at';
const TYPEABLE = 'abcdefghjkmnpqrstuvwxyz23456789';

/** 6 groups of 5 from 31 symbols: ~149 bits, readable aloud and typeable from a printed kit. */
export function newPassphrase(): string {
  return Array.from({ length: 6 }, () => Array.from({ length: 5 }, () => TYPEABLE[randomInt(TYPEABLE.length)]).join('')).join('-');
}

/**
 * For the CLI beside (or without) a running service: reads the passphrase only. It never makes a
 * secret and never reconciles the vault key, which could race a rotation in the service.
 */
export async function readResticPassphrase(db: Db, store: SecretStore): Promise<string> {
  if (!secretsInitialized(db)) throw new NoSecretsYetError();
  const passphrase = await store.get(RESTIC_PASSPHRASE);
  if (!passphrase) throw new MissingSecretError('backup (restic) passphrase', store.description);
  return passphrase;
}

/** True once this data dir made its master secrets (they may still be lost since). */
export function secretsInitialized(db: Db): boolean {
  return readConfigValue(db, INITIALIZED) !== undefined;
}

export async function ensureMasterSecrets(db: Db, store: SecretStore, clock: Clock): Promise<MasterSecrets> {
  const initialized = readConfigValue(db, INITIALIZED) !== undefined;
  let vaultKey = await reconcileVaultKey(db, store);
  let passphrase = await store.get(RESTIC_PASSPHRASE);
  if (initialized) {
    if (!vaultKey) throw new MissingSecretError('vault key', store.description);
    if (!passphrase) throw new MissingSecretError('backup (restic) passphrase', store.description);
    return { vaultKey, resticPassphrase: passphrase };
  }
  // First start of this data dir. A secret already present (a restored data dir whose key was put
  // back) is kept; only what is absent is made.
  if (!vaultKey) {
    vaultKey = randomBytes(32);
    await store.set(VAULT_KEY, vaultKey.toString('base64'));
  }
  if (!passphrase) {
    passphrase = newPassphrase();
    await store.set(RESTIC_PASSPHRASE, passphrase);
  }
  const now = unixSeconds(clock);
  db.transaction(() => {
    if (readConfigValue(db, 'vault_key_id') === undefined) writeConfigValue(db, 'vault_key_id', vaultKeyId(vaultKey), now);
    writeConfigValue(db, INITIALIZED, String(now), now);
  })();
  return { vaultKey, resticPassphrase: passphrase };
}
