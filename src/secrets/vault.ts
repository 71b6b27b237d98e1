// The vault (table `vault`): every secret Sanad keeps besides the two master secrets, each value
// sealed with the vault key (vault-crypto.ts), so the SQLite file never holds one in plain text.
// `service_config.vault_key_id` names the key that sealed the vault; a write with any other key is
// refused, so one vault never mixes two keys (rotation re-seals everything in one transaction).
import { systemClock, unixSeconds, type Clock } from '../clock.js';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/open.js';
import { assertVaultKey, openValue, sealValue, vaultKeyId, type SealedValue } from './vault-crypto.js';

export { VaultDecryptError, vaultKeyId } from './vault-crypto.js';

/** The `service_config` key holding the id of the key that sealed the vault. */
export const VAULT_KEY_ID_CONFIG = 'vault_key_id';

export interface VaultRow extends SealedValue {
  name: string;
}

/** A write with a key other than the one that sealed the vault. */
export class VaultKeyMismatchError extends Error {
  constructor(expectedId: string, givenId: string) {
    super(`The vault was sealed with key ${expectedId}, not with the key given (${givenId}), so nothing was written.`);
    this.name = 'VaultKeyMismatchError';
  }
}

export function readVaultKeyId(db: Db): string | undefined {
  return db.prepare<[string], { value: string }>('SELECT value FROM service_config WHERE key = ?').get(VAULT_KEY_ID_CONFIG)?.value;
}

export function writeVaultKeyId(db: Db, id: string, nowS: number): void {
  db.prepare(
    'INSERT INTO service_config(key, value, updated_at) VALUES (?, ?, ?) ' +
      'ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
  ).run(VAULT_KEY_ID_CONFIG, id, nowS);
}

/** The vault's timestamps (updated_at) on the given clock. */
export function nowSeconds(clock: Clock = systemClock): number {
  return unixSeconds(clock);
}

export class Vault {
  private readonly key: Buffer;
  private readonly keyId: string;
  private readonly selectOne: Statement<[string], VaultRow>;
  private readonly selectAny: Statement<[], VaultRow>;
  private readonly upsert: Statement<[VaultRow & { updated_at: number }]>;
  private readonly remove: Statement<[string]>;
  private readonly selectNames: Statement<[], { name: string }>;

  constructor(
    private readonly db: Db,
    key: Buffer,
    private readonly clock: Clock = systemClock,
  ) {
    assertVaultKey(key);
    // A private copy: a caller that zeroes its buffer afterwards must not break the vault.
    this.key = Buffer.from(key);
    this.keyId = vaultKeyId(this.key);
    this.selectOne = db.prepare('SELECT name, nonce, ciphertext, tag FROM vault WHERE name = ?');
    this.selectAny = db.prepare('SELECT name, nonce, ciphertext, tag FROM vault ORDER BY name LIMIT 1');
    this.upsert = db.prepare(
      'INSERT INTO vault(name, nonce, ciphertext, tag, updated_at) VALUES (@name, @nonce, @ciphertext, @tag, @updated_at) ' +
        'ON CONFLICT(name) DO UPDATE SET nonce = excluded.nonce, ciphertext = excluded.ciphertext, ' +
        'tag = excluded.tag, updated_at = excluded.updated_at',
    );
    this.remove = db.prepare('DELETE FROM vault WHERE name = ?');
    this.selectNames = db.prepare('SELECT name FROM vault ORDER BY name');
  }

  /** Seals and stores `value` under `name`, replacing any earlier value. */
  set(name: string, value: string): void {
    if (name.length === 0) throw new Error('A vault entry needs a non-empty name.');
    const sealed = sealValue(this.key, name, value);
    // IMMEDIATE: the key check and the write must see the same vault, even beside a rotation in
    // another process (the CLI next to `sanad serve`).
    this.db
      .transaction(() => {
        const recorded = readVaultKeyId(this.db);
        if (recorded === undefined) {
          // First write ever (or data from before the id existed): adopt this key only if whatever
          // is already stored opens with it.
          const any = this.selectAny.get();
          if (any) openValue(this.key, any.name, any);
          writeVaultKeyId(this.db, this.keyId, nowSeconds(this.clock));
        } else if (recorded !== this.keyId) {
          throw new VaultKeyMismatchError(recorded, this.keyId);
        }
        this.upsert.run({ name, ...sealed, updated_at: nowSeconds(this.clock) });
      })
      .immediate();
  }

  /** The value, or null if there is none; throws VaultDecryptError if it does not open. */
  get(name: string): string | null {
    const row = this.selectOne.get(name);
    return row ? openValue(this.key, name, row) : null;
  }

  /** True if something was deleted. */
  delete(name: string): boolean {
    return this.remove.run(name).changes > 0;
  }

  names(): string[] {
    return this.selectNames.all().map((r) => r.name);
  }

  isEmpty(): boolean {
    return this.selectAny.get() === undefined;
  }
}

/**
 * Whether `key` opens the vault: 'empty' when there is nothing to open, 'wrong_key' when the
 * recorded key id differs or a trial value does not open. When the id matches but the value still
 * does not open, the key is right and the data is damaged: that throws VaultDecryptError instead
 * of being reported as a wrong key (the restore drill must not send the user hunting for a key).
 */
export function checkVaultKey(db: Db, key: Buffer): 'ok' | 'empty' | 'wrong_key' {
  const id = vaultKeyId(key);
  const recorded = readVaultKeyId(db);
  if (recorded !== undefined && recorded !== id) return 'wrong_key';
  const row = db.prepare<[], VaultRow>('SELECT name, nonce, ciphertext, tag FROM vault ORDER BY name LIMIT 1').get();
  if (!row) return 'empty';
  try {
    openValue(key, row.name, row);
    return 'ok';
  } catch (err) {
    if (recorded === id) throw err;
    return 'wrong_key';
  }
}
