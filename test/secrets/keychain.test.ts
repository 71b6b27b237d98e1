// The real OS keychain (gnome-keyring's Secret Service in the test session): round trip, data dirs
// isolated from each other, and a missing secret for existing data is an error that changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { MissingSecretError } from '../../src/secrets/errors.js';
import { KeychainStore } from '../../src/secrets/keychain.js';
import { ensureMasterSecrets } from '../../src/secrets/master-secrets.js';
import { openSecretStore } from '../../src/secrets/open-secret-store.js';
import { dataDirScope } from '../../src/secrets/scope.js';
import { RESTIC_PASSPHRASE, VAULT_KEY } from '../../src/secrets/secret-store.js';
import { openStore } from '../../src/store/open.js';
import { readConfigValue } from '../../src/store/settings.js';
import { tempDir } from '../harness/data-dir.js';
import { storePath } from '../../src/files/data-dir-layout.js';

test('the real keychain stores, reads and deletes a secret', async () => {
  const store = new KeychainStore(dataDirScope(tempDir()));
  await store.probe();
  assert.equal(await store.get('round-trip'), null);
  await store.set('round-trip', 'v4lue with ümlauts and مرحبا');
  assert.equal(await store.get('round-trip'), 'v4lue with ümlauts and مرحبا');
  assert.equal(await store.delete('round-trip'), true);
  assert.equal(await store.get('round-trip'), null);
});

test('two data dirs get their own master secrets and never see each other', async () => {
  const [a, b] = [tempDir(), tempDir()];
  const dbA = openStore(storePath(a));
  const dbB = openStore(storePath(b));
  try {
    const storeA = await openSecretStore(a, undefined);
    const storeB = await openSecretStore(b, undefined);
    const sa = await ensureMasterSecrets(dbA, storeA, systemClock);
    const sb = await ensureMasterSecrets(dbB, storeB, systemClock);
    assert.notDeepEqual(sa.vaultKey, sb.vaultKey);
    assert.notEqual(sa.resticPassphrase, sb.resticPassphrase);
    assert.equal(await storeA.get(VAULT_KEY), sa.vaultKey.toString('base64'));
    assert.equal(await storeB.get(RESTIC_PASSPHRASE), sb.resticPassphrase);
    assert.match(sa.resticPassphrase, /^[a-z2-9]{5}(-[a-z2-9]{5}){5}$/, 'typeable groups');
    // A second start reads the same secrets back instead of making new ones.
    const again = await ensureMasterSecrets(dbA, storeA, systemClock);
    assert.deepEqual(again.vaultKey, sa.vaultKey);
    assert.equal(again.resticPassphrase, sa.resticPassphrase);
  } finally {
    dbA.close();
    dbB.close();
  }
});

test('a missing secret for existing data is a clear error and nothing is regenerated', async () => {
  const dir = tempDir();
  const db = openStore(storePath(dir));
  try {
    const store = await openSecretStore(dir, undefined);
    const first = await ensureMasterSecrets(db, store, systemClock);
    const marker = readConfigValue(db, 'secrets_initialized_at');
    await store.delete(VAULT_KEY);
    await assert.rejects(ensureMasterSecrets(db, store, systemClock), (err: unknown) => {
      assert.ok(err instanceof MissingSecretError);
      assert.match(err.message, /vault key/);
      assert.match(err.message, /recovery kit/);
      assert.ok(!err.message.includes(first.resticPassphrase));
      return true;
    });
    assert.equal(await store.get(VAULT_KEY), null, 'no new vault key was made over existing data');
    assert.equal(await store.get(RESTIC_PASSPHRASE), first.resticPassphrase, 'the passphrase is untouched');
    assert.equal(readConfigValue(db, 'secrets_initialized_at'), marker);

    await store.set(VAULT_KEY, first.vaultKey.toString('base64'));
    await store.delete(RESTIC_PASSPHRASE);
    await assert.rejects(ensureMasterSecrets(db, store, systemClock), /passphrase/);
    assert.equal(await store.get(RESTIC_PASSPHRASE), null);
  } finally {
    db.close();
  }
});
