// The sealing of one vault value: AES-256-GCM with a fresh random 12-byte nonce per write and the
// value's name bound as associated data, so a ciphertext copied onto another row fails to open
// instead of silently answering for the wrong secret. Shared by the vault and by key rotation.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export const VAULT_KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
// A context prefix keeps these associated data from ever meaning the same as another use of the key.
const AAD_PREFIX = 'sanad-vault/v1\0';

export interface SealedValue {
  nonce: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

/** Thrown when a stored value does not open; the message names the secret, never its value. */
export class VaultDecryptError extends Error {
  constructor(readonly secretName: string) {
    // GCM cannot tell a wrong key from altered bytes: both are just a failed tag check.
    super(`The vault value "${secretName}" could not be decrypted: wrong key or damaged.`);
    this.name = 'VaultDecryptError';
  }
}

/** Throws unless `key` is a 32-byte AES-256 key (a short key would be a silent downgrade). */
export function assertVaultKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length !== VAULT_KEY_BYTES) {
    throw new Error(`The vault key must be ${VAULT_KEY_BYTES} bytes, not ${Buffer.isBuffer(key) ? key.length : 'a non-buffer'}.`);
  }
}

/** First 16 hex chars of sha256(key): names the key in the database without revealing it. */
export function vaultKeyId(key: Buffer): string {
  assertVaultKey(key);
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

export function sealValue(key: Buffer, name: string, value: string): SealedValue {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(name));
  const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return { nonce, ciphertext, tag: cipher.getAuthTag() };
}

export function openValue(key: Buffer, name: string, sealed: SealedValue): string {
  // Checked here because a shorter tag would weaken the check rather than fail it.
  if (sealed.nonce.length !== NONCE_BYTES || sealed.tag.length !== TAG_BYTES) throw new VaultDecryptError(name);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.nonce, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad(name));
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
  } catch {
    // Node's own message ("Unsupported state or unable to authenticate data") adds nothing.
    throw new VaultDecryptError(name);
  }
}

function aad(name: string): Buffer {
  return Buffer.from(AAD_PREFIX + name, 'utf8');
}
