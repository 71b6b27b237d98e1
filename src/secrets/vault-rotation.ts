// Vault-key rotation and its crash recovery. The order is what makes a crash at any point safe:
//   (a) the new key is saved as `vault-key-next` before any value depends on it;
//   (b) one transaction re-seals every value and records the new key's id (all or nothing);
//   (c) the new key replaces `vault-key`;  (d) `vault-key-next` is removed.
// `vault_key_id` in the database is the truth about which key the vault needs; at every start
// `reconcileVaultKey` makes the store's `vault-key` agree with it (promoting `vault-key-next` after
// a crash between (b) and (c)), so whatever step a crash hit, no value is lost.
import { randomBytes } from 'node:crypto';
import type { Db } from '../store/open.js';
import { VAULT_KEY, VAULT_KEY_NEXT, type SecretStore } from './secret-store.js';
import { assertVaultKey, openValue, sealValue, VAULT_KEY_BYTES, vaultKeyId } from './vault-crypto.js';
import { nowSeconds, readVaultKeyId, VaultKeyMismatchError, writeVaultKeyId, type VaultRow } from './vault.js';

/** Progress of a rotation, reported after each durable step. */
export type RotationStep = 'next-saved' | 're-encrypted' | 'key-saved';

export interface RotateOptions {
  onStep?: (step: RotationStep) => Promise<void>;
}

/** The store's vault key belongs to no vault this data dir has: recovery is outside Sanad. */
export class VaultKeyLostError extends Error {
  constructor(storeDescription: string) {
    super(
      `The vault key in ${storeDescription} does not match this data dir's vault (it was lost or replaced); ` +
        'restore it from the recovery kit or restore the data dir from a backup.',
    );
    this.name = 'VaultKeyLostError';
  }
}

/** Re-seals the vault under a fresh key and returns it; `currentKey` must be the key in use. */
export async function rotateVaultKey(db: Db, store: SecretStore, currentKey: Buffer, options: RotateOptions = {}): Promise<Buffer> {
  assertVaultKey(currentKey);
  const currentId = vaultKeyId(currentKey);
  // Checked before (a) too, so a wrong current key leaves not even a `vault-key-next` behind.
  assertRecordedKey(db, currentId);
  const next = randomBytes(VAULT_KEY_BYTES);
  const nextId = vaultKeyId(next);

  await store.set(VAULT_KEY_NEXT, next.toString('base64'));
  await options.onStep?.('next-saved');

  const all = db.prepare<[], VaultRow>('SELECT name, nonce, ciphertext, tag FROM vault ORDER BY name');
  const update = db.prepare('UPDATE vault SET nonce = ?, ciphertext = ?, tag = ?, updated_at = ? WHERE name = ?');
  // One IMMEDIATE transaction: no other writer can slip a value sealed with the old key in between,
  // and any failure (a value that does not open) rolls everything back to the old key.
  db.transaction(() => {
    assertRecordedKey(db, currentId);
    const now = nowSeconds();
    for (const row of all.all()) {
      const sealed = sealValue(next, row.name, openValue(currentKey, row.name, row));
      update.run(sealed.nonce, sealed.ciphertext, sealed.tag, now, row.name);
    }
    writeVaultKeyId(db, nextId, now);
  }).immediate();
  await options.onStep?.('re-encrypted');

  await store.set(VAULT_KEY, next.toString('base64'));
  await options.onStep?.('key-saved');
  await store.delete(VAULT_KEY_NEXT);
  return next;
}

/**
 * Run at every start before the vault is used: returns the key the vault needs, with the store's
 * `vault-key` set to it, or null when the store has no vault key at all (first run, or lost: the
 * caller knows which). Throws VaultKeyLostError when neither stored key matches the vault.
 */
export async function reconcileVaultKey(db: Db, store: SecretStore): Promise<Buffer | null> {
  const current = decodeKey(await store.get(VAULT_KEY));
  if (current === null) return null;
  const nextText = await store.get(VAULT_KEY_NEXT);
  const next = decodeKey(nextText);
  const recorded = readVaultKeyId(db);
  const matches = (key: Buffer | 'invalid' | null): key is Buffer => Buffer.isBuffer(key) && recorded !== undefined && vaultKeyId(key) === recorded;

  if (Buffer.isBuffer(current) && (recorded === undefined || matches(current))) {
    // Here `vault-key-next` is never needed: one that does not match the id is a rotation that
    // crashed before its transaction committed (nothing was sealed with it), and one that does
    // match equals `vault-key` (same id), a rotation that crashed after (c).
    if (nextText !== null) await store.delete(VAULT_KEY_NEXT);
    return current;
  }
  if (matches(next)) {
    // The rotation committed but crashed before (c): finish it.
    await store.set(VAULT_KEY, next.toString('base64'));
    await store.delete(VAULT_KEY_NEXT);
    return next;
  }
  throw new VaultKeyLostError(store.description);
}

function assertRecordedKey(db: Db, id: string): void {
  const recorded = readVaultKeyId(db);
  if (recorded !== undefined && recorded !== id) throw new VaultKeyMismatchError(recorded, id);
}

/** A stored key as bytes; 'invalid' for anything that is not base64 of 32 bytes. */
function decodeKey(text: string | null): Buffer | 'invalid' | null {
  if (text === null) return null;
  const key = Buffer.from(text, 'base64');
  return key.length === VAULT_KEY_BYTES && key.toString('base64') === text ? key : 'invalid';
}
