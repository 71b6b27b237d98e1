// `sanad secrets move-to-keychain`: from the secrets file into the OS keychain, each step safe to
// be killed after. The order is what makes it so: copy every secret, read each back and compare,
// record the switch (secrets-location.json), and only then remove them from the file, written over
// first. Before the record, the file is where the data dir's secrets are (and it still holds them
// all); after it, the keychain is (and it holds them all, verified). A second run finishes the job.
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { RESTIC_PASSPHRASE, RESTIC_PASSPHRASE_NEXT, VAULT_KEY, VAULT_KEY_NEXT, type SecretStore } from './secret-store.js';
import type { SecretsFileStore } from './secrets-file.js';
import { writeSecretsLocation } from './secrets-location.js';

const NAMES = [VAULT_KEY, RESTIC_PASSPHRASE, VAULT_KEY_NEXT, RESTIC_PASSPHRASE_NEXT] as const;

export type MoveStep = 'copied' | 'verified' | 'recorded' | 'removed';

export interface MoveReport {
  moved: string[];
  /** True when the file held nothing else and is gone; false when other data dirs' secrets stay in it. */
  fileRemoved: boolean;
}

export class MoveVerifyError extends Error {
  constructor(name: string) {
    super(
      `The OS keychain did not give back the ${name} that was stored in it, so nothing was switched: the secrets stay in the file. Check the keychain, then run this again.`,
    );
    this.name = 'MoveVerifyError';
  }
}

/**
 * `alreadySwitched`: the record already names the keychain (a move killed after its record): the
 * keychain is then the truth and the file's copies are only removed.
 */
export async function moveSecretsToKeychain(
  dataDir: string,
  file: SecretsFileStore,
  keychain: SecretStore,
  options: { alreadySwitched?: boolean; onStep?: (step: MoveStep) => void } = {},
): Promise<MoveReport> {
  const onStep = options.onStep ?? (() => undefined);
  const found: Array<[string, string]> = [];
  for (const name of NAMES) {
    const value = await file.get(name);
    if (value !== null) found.push([name, value]);
  }
  if (!options.alreadySwitched) {
    for (const [name, value] of found) await keychain.set(name, value);
    onStep('copied');
    for (const [name, value] of found) if ((await keychain.get(name)) !== value) throw new MoveVerifyError(name);
    onStep('verified');
    writeSecretsLocation(dataDir, { kind: 'keychain', moved_from: file.path });
    onStep('recorded');
  }
  // Written over before it goes, so the old bytes are not left in the file's blocks by a rename.
  for (const [name, value] of found) await file.set(name, randomBytes(value.length).toString('base64').slice(0, value.length));
  for (const [name] of found) await file.delete(name);
  let fileRemoved = false;
  if (existsSync(file.path) && file.scopesLeft() === 0) {
    const size = statSync(file.path).size;
    writeFileSync(file.path, randomBytes(Math.max(size, 64)));
    rmSync(file.path);
    fileRemoved = true;
  }
  writeSecretsLocation(dataDir, { kind: 'keychain' });
  onStep('removed');
  return { moved: found.map(([name]) => name), fileRemoved };
}
