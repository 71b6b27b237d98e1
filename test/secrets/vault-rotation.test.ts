// Vault-key rotation: a round trip, every branch of reconcileVaultKey, a failed rotation that loses
// nothing, and the real crash test: a child process rotating a vault of many values is SIGKILLed
// after (a), inside the transaction of (b), after (b) and after (c); each time the next start
// (reconcileVaultKey) leaves every value readable with the key the store holds under `vault-key`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore, type Db } from '../../src/store/open.js';
import { VAULT_KEY, VAULT_KEY_NEXT, type SecretStore } from '../../src/secrets/secret-store.js';
import { checkVaultKey, Vault, VaultDecryptError, vaultKeyId } from '../../src/secrets/vault.js';
import { reconcileVaultKey, rotateVaultKey, VaultKeyLostError, type RotationStep } from '../../src/secrets/vault-rotation.js';
import { SecretsFileStore } from '../../src/secrets/secrets-file.js';
import { MemorySecretStore } from './fixtures/memory-secret-store.js';

const CHILD = fileURLToPath(new URL('./fixtures/rotate-child.js', import.meta.url));

function fill(vault: Vault, count: number): Map<string, string> {
  const values = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const name = `secret-${String(i).padStart(4, '0')}`;
    values.set(name, `value-${i}-${randomBytes(12).toString('base64')}`);
    vault.set(name, values.get(name) ?? '');
  }
  return values;
}

/** The property that matters: every original value opens with the key the store now holds. */
async function assertAllReadable(db: Db, store: SecretStore, values: Map<string, string>): Promise<Buffer> {
  const stored = await store.get(VAULT_KEY);
  assert.ok(stored, 'the store holds a vault key');
  const key = Buffer.from(stored, 'base64');
  const vault = new Vault(db, key);
  assert.deepEqual(vault.names(), [...values.keys()].sort());
  for (const [name, value] of values) assert.equal(vault.get(name), value, name);
  assert.equal(checkVaultKey(db, key), values.size === 0 ? 'empty' : 'ok');
  return key;
}

test('rotation re-seals every value under a new key, stores it and reports each step', async () => {
  const db = openStore(':memory:');
  const store = new MemorySecretStore();
  const oldKey = randomBytes(32);
  await store.set(VAULT_KEY, oldKey.toString('base64'));
  const values = fill(new Vault(db, oldKey), 20);
  const steps: RotationStep[] = [];
  const newKey = await rotateVaultKey(db, store, oldKey, { onStep: async (s) => void steps.push(s) });
  assert.deepEqual(steps, ['next-saved', 're-encrypted', 'key-saved']);
  assert.notDeepEqual(newKey, oldKey);
  assert.deepEqual(await assertAllReadable(db, store, values), newKey);
  assert.equal(await store.get(VAULT_KEY_NEXT), null, 'vault-key-next is gone');
  assert.equal(checkVaultKey(db, oldKey), 'wrong_key', 'the old key no longer opens the vault');
  assert.deepEqual(await reconcileVaultKey(db, store), newKey);
  db.close();
});

test('a rotation that fails inside the transaction loses nothing and leaves the old key in use', async () => {
  const db = openStore(':memory:');
  const store = new MemorySecretStore();
  const oldKey = randomBytes(32);
  await store.set(VAULT_KEY, oldKey.toString('base64'));
  const vault = new Vault(db, oldKey);
  const values = fill(vault, 10);
  db.prepare("UPDATE vault SET tag = zeroblob(16) WHERE name = 'secret-0009'").run();
  values.delete('secret-0009');
  await assert.rejects(rotateVaultKey(db, store, oldKey), VaultDecryptError);
  assert.equal(db.prepare("SELECT value FROM service_config WHERE key = 'vault_key_id'").pluck().get(), vaultKeyId(oldKey));
  assert.deepEqual(await reconcileVaultKey(db, store), oldKey);
  assert.equal(await store.get(VAULT_KEY_NEXT), null, 'the unused next key was cleaned up');
  for (const [name, value] of values) assert.equal(vault.get(name), value);
  await assert.rejects(rotateVaultKey(db, store, randomBytes(32)), /sealed with key/, 'a wrong current key is refused');
  assert.equal(await store.get(VAULT_KEY_NEXT), null, 'before anything was written');
  db.close();
});

test('reconcileVaultKey: no key, no id yet, a stray next key, and a key that matches nothing', async () => {
  const db = openStore(':memory:');
  const store = new MemorySecretStore();
  assert.equal(await reconcileVaultKey(db, store), null, 'no vault-key at all: the caller decides');
  const key = randomBytes(32);
  await store.set(VAULT_KEY, key.toString('base64'));
  await store.set(VAULT_KEY_NEXT, randomBytes(32).toString('base64'));
  assert.deepEqual(await reconcileVaultKey(db, store), key, 'no id recorded yet: vault-key is used');
  assert.equal(await store.get(VAULT_KEY_NEXT), null, 'the stray next key is removed');
  new Vault(db, key).set('a', 'b');
  await store.set(VAULT_KEY, randomBytes(32).toString('base64'));
  await assert.rejects(reconcileVaultKey(db, store), (err: unknown) => {
    assert.ok(err instanceof VaultKeyLostError);
    assert.match(err.message, /does not match .*recovery kit.*backup/);
    return true;
  });
  await store.set(VAULT_KEY, 'not a key');
  await assert.rejects(reconcileVaultKey(db, store), VaultKeyLostError);
  db.close();
});

interface ChildResult {
  paused: string | null;
}

/** Runs the rotation in a child, SIGKILLs it where it froze, and resolves once it is dead. */
function runChild(dbPath: string, secretsPath: string, stop: string, pauseAfterName: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, dbPath, secretsPath, stop, pauseAfterName], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let paused: string | null = null;
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const m = /^paused (\S+)$/m.exec(out);
      if (m && paused === null) {
        paused = m[1] ?? null;
        if (paused !== 'none') child.kill('SIGKILL');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (paused === null) reject(new Error(`the child ended (${code ?? signal}) without pausing: ${err}`));
      else resolve({ paused });
    });
  });
}

const COUNT = 400;
// Stop where the old key is left after reconcile (true) or the new one (false).
const KILL_POINTS: Array<{ stop: string; keepsOldKey: boolean }> = [
  { stop: 'next-saved', keepsOldKey: true },
  { stop: 'during', keepsOldKey: true },
  { stop: 're-encrypted', keepsOldKey: false },
  { stop: 'key-saved', keepsOldKey: false },
  { stop: 'none', keepsOldKey: false },
];

for (const { stop, keepsOldKey } of KILL_POINTS) {
  test(`SIGKILL of a rotation at "${stop}": the next start reads every value with the stored key`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sanad-rotate-'));
    const dbPath = join(dir, 'sanad.db');
    const secretsPath = join(dir, 'secrets.json');
    writeFileSync(secretsPath, '', { mode: 0o600 });
    // The real opt-in secrets file: a SIGKILLed child and this test share it, as two starts would.
    const store = new SecretsFileStore(secretsPath, 'rotation-test');
    try {
      const oldKey = randomBytes(32);
      await store.set(VAULT_KEY, oldKey.toString('base64'));
      const seed = openStore(dbPath);
      seed.pragma('synchronous = OFF'); // seeding speed only; the child runs with the real settings
      const values = fill(new Vault(seed, oldKey), COUNT);
      seed.close();

      // Halfway through the table, so the killed transaction had re-sealed half the rows.
      const { paused } = await runChild(dbPath, secretsPath, stop, `secret-${String(COUNT / 2).padStart(4, '0')}`);
      assert.equal(paused, stop);
      const next = await store.get(VAULT_KEY_NEXT);
      if (stop !== 'none') assert.ok(next, 'the child got as far as saving vault-key-next');

      const db = openStore(dbPath);
      try {
        const key = await reconcileVaultKey(db, store);
        assert.ok(key);
        assert.equal(await store.get(VAULT_KEY_NEXT), null, 'vault-key-next is gone after reconcile');
        assert.deepEqual(await assertAllReadable(db, store, values), key);
        if (keepsOldKey) assert.deepEqual(key, oldKey, 'the rotation had not committed: the old key stays');
        else assert.notDeepEqual(key, oldKey, 'the rotation had committed: the new key is in use');
        if (!keepsOldKey && next) assert.equal(key.toString('base64'), next, 'and it is the key the child generated');
        // A second start changes nothing.
        assert.deepEqual(await reconcileVaultKey(db, store), key);
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
