// Where Sanad's master secrets live: the OS keychain (keyring-library.ts) or, by explicit opt-in on a headless
// server, a 0600 secrets file. Names are short ("vault-key", "restic-passphrase"); each store
// scopes them to one data dir, so two data dirs never share or overwrite a secret.

export interface SecretStore {
  readonly kind: 'keychain' | 'file';
  /** Human description for messages, e.g. "the OS keychain (Secret Service)". */
  readonly description: string;
  /** The file, for a secrets-file store (said at every start: keys in a file are never silent). */
  readonly path?: string;
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  /** True if something was deleted. */
  delete(name: string): Promise<boolean>;
  /** Throws KeychainUnavailableError (one clear sentence) if the store cannot be used at all. */
  probe(): Promise<void>;
  /** The same kind of store for another data dir (a restore puts the restored dir's secrets there). */
  forDataDir?(dataDir: string): SecretStore;
}

export const VAULT_KEY = 'vault-key';
/** Written before a vault-key rotation re-encrypts, removed after the new key is in place. */
export const VAULT_KEY_NEXT = 'vault-key-next';
export const RESTIC_PASSPHRASE = 'restic-passphrase';
/** The user's Hugging Face token for gated models (`sanad models login`); sent only to the hub. */
export const HUB_TOKEN = 'hub-token';
/** The new passphrase while a rotation adds it to the repositories; removed once it is the current one
 *  (or the rotation was undone), so after a crash the next start knows which keys to clean up. */
export const RESTIC_PASSPHRASE_NEXT = 'restic-passphrase-next';
