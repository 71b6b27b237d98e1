// The entries keytar made are the entries Sanad reads now: a gnome-keyring file that keytar 7.9.0
// wrote (test/secrets/fixtures/keytar-era-login.keyring, password "sanad-private-test", made once
// with keytar before it left the project) is served by a real gnome-keyring, and the new keychain
// library reads both secrets of that data dir as they are — nothing to move, nothing lost. A write
// lands in the same entry and survives a daemon restart (it is in the keyring file, not a session
// keyring that a reboot would empty), and a missing entry is null, not an error.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startPrivateKeyring, type PrivateKeyring } from '../harness/private-keyring.js';

const FIXTURE = fileURLToPath(new URL('../../../test/secrets/fixtures/keytar-era-login.keyring', import.meta.url));
const OPS = fileURLToPath(new URL('./fixtures/keychain-ops.js', import.meta.url));
/** The scope the fixture's entries carry ("vault-key@0123456789abcdef"). */
const SCOPE = '0123456789abcdef';

let keyring: PrivateKeyring | null = null;
after(async () => keyring?.close());

async function ops(...list: string[]): Promise<unknown[]> {
  if (keyring === null) throw new Error('no keyring');
  const { stdout } = await promisify(execFile)(process.execPath, [OPS, SCOPE, ...list], { env: { ...process.env, ...keyring.env } });
  const answers: unknown = JSON.parse(stdout);
  assert.ok(Array.isArray(answers));
  return answers.map((a: unknown) => a);
}

test('the secrets keytar wrote are read as they are, written in place, and kept across a keyring restart', async () => {
  keyring = await startPrivateKeyring({ loginKeyring: FIXTURE });
  assert.deepEqual(await ops('get:vault-key', 'get:restic-passphrase', 'get:hub-token'), ['keytar-era vault key AAAA', 'keytar-era-passphrase', null]);

  assert.deepEqual(await ops('set:restic-passphrase=rotated after keytar', 'get:restic-passphrase', 'get:vault-key'), [
    null,
    'rotated after keytar',
    'keytar-era vault key AAAA',
  ]);
  await keyring.stopDaemon();
  await keyring.startDaemon();
  assert.deepEqual(await ops('get:restic-passphrase', 'delete:restic-passphrase', 'get:restic-passphrase', 'get:vault-key'), [
    'rotated after keytar',
    true,
    null,
    'keytar-era vault key AAAA',
  ]);
});
