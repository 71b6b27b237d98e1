// vault.key in a generation: the 32-byte vault key, base64, mode 0600. It exists in staging only
// between the generation's making and its restic snapshots (restic encrypts it); the caller
// removes it right after, so the key never rests in plain text beside the data it opens.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncPath, writeNewFileDurable } from './durable.js';

export const VAULT_KEY_FILE = 'vault.key';

export async function writeVaultKey(dir: string, vaultKey: Buffer): Promise<string> {
  if (vaultKey.length !== 32) throw new Error(`A vault key is 32 bytes, not ${vaultKey.length}.`);
  const path = join(dir, VAULT_KEY_FILE);
  await writeNewFileDurable(path, vaultKey.toString('base64'), 0o600);
  return path;
}

/** Deletes the vault key from a generation dir (no error if it is already gone). */
export async function removeVaultKey(dir: string): Promise<void> {
  await rm(join(dir, VAULT_KEY_FILE), { force: true });
  // The unlink must be durable too: a power cut must not bring the key back.
  await fsyncPath(dir);
}
