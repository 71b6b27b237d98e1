// The vault: values round-trip; tampering, a wrong key and values swapped between names are all
// detected; no value ever reaches the SQLite file in plain text; checkVaultKey tells ok, empty and
// wrong key apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Db } from '../../src/store/open.js';
import { checkVaultKey, Vault, VaultDecryptError, vaultKeyId, VaultKeyMismatchError } from '../../src/secrets/vault.js';

function withDb(fn: (db: Db) => void): void {
  const db = openStore(':memory:');
  try {
    fn(db);
  } finally {
    db.close();
  }
}

/** Flips one bit of one column of one row, as damage on disk or an attacker would. */
function flip(db: Db, name: string, column: 'nonce' | 'ciphertext' | 'tag'): void {
  const row = db.prepare<[string], { v: Buffer }>(`SELECT ${column} AS v FROM vault WHERE name = ?`).get(name);
  assert.ok(row);
  const bytes = Buffer.from(row.v);
  bytes[0] = (bytes[0] ?? 0) ^ 1;
  db.prepare(`UPDATE vault SET ${column} = ? WHERE name = ?`).run(bytes, name);
}

function assertDecryptError(fn: () => unknown, name: string, secret: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof VaultDecryptError, `expected VaultDecryptError, got ${String(err)}`);
    assert.equal(err.secretName, name);
    assert.match(err.message, new RegExp(`"${name}".*wrong key or damaged`));
    assert.ok(!err.message.includes(secret), 'the message never carries the value');
    return true;
  });
}

test('values round-trip, including empty and non-ASCII ones; delete, names and isEmpty agree', () => {
  withDb((db) => {
    const vault = new Vault(db, randomBytes(32));
    assert.equal(vault.isEmpty(), true);
    vault.set('offsite/r2/secret', 'abc');
    vault.set('empty', '');
    vault.set('unicode', 'كلمة سر ✓');
    vault.set('offsite/r2/secret', 'abc2');
    assert.equal(vault.get('offsite/r2/secret'), 'abc2');
    assert.equal(vault.get('empty'), '');
    assert.equal(vault.get('unicode'), 'كلمة سر ✓');
    assert.equal(vault.get('missing'), null);
    assert.deepEqual(vault.names(), ['empty', 'offsite/r2/secret', 'unicode']);
    assert.equal(vault.delete('empty'), true);
    assert.equal(vault.delete('empty'), false);
    assert.equal(vault.isEmpty(), false);
  });
});

test('a key that is not 32 bytes is refused', () => {
  withDb((db) => {
    for (const bad of [randomBytes(16), randomBytes(31), randomBytes(33), Buffer.alloc(0)]) {
      assert.throws(() => new Vault(db, bad), /must be 32 bytes/);
    }
  });
});

test('each write uses a fresh nonce, so equal values never look alike', () => {
  withDb((db) => {
    const vault = new Vault(db, randomBytes(32));
    vault.set('a', 'same');
    vault.set('b', 'same');
    const rows = db.prepare<[], { nonce: Buffer; ciphertext: Buffer }>('SELECT nonce, ciphertext FROM vault').all();
    assert.notDeepEqual(rows[0]?.nonce, rows[1]?.nonce);
    assert.notDeepEqual(rows[0]?.ciphertext, rows[1]?.ciphertext);
  });
});

test('tampered ciphertext, nonce or tag is detected as VaultDecryptError naming the secret', () => {
  for (const column of ['ciphertext', 'nonce', 'tag'] as const) {
    withDb((db) => {
      const vault = new Vault(db, randomBytes(32));
      vault.set('token', 'hunter2-value');
      flip(db, 'token', column);
      assertDecryptError(() => vault.get('token'), 'token', 'hunter2-value');
    });
  }
  withDb((db) => {
    const vault = new Vault(db, randomBytes(32));
    vault.set('token', 'hunter2-value');
    db.prepare('UPDATE vault SET tag = substr(tag, 1, 8) WHERE name = ?').run('token');
    assertDecryptError(() => vault.get('token'), 'token', 'hunter2-value');
  });
});

test('a wrong key cannot read and cannot write', () => {
  withDb((db) => {
    new Vault(db, randomBytes(32)).set('token', 'the-value');
    const wrong = new Vault(db, randomBytes(32));
    assertDecryptError(() => wrong.get('token'), 'token', 'the-value');
    assert.throws(() => wrong.set('other', 'x'), VaultKeyMismatchError);
    assert.deepEqual(wrong.names(), ['token'], 'the refused write left nothing');
  });
});

test('values swapped between two names are detected (the name is bound to its value)', () => {
  withDb((db) => {
    const vault = new Vault(db, randomBytes(32));
    vault.set('a', 'value-of-a');
    vault.set('b', 'value-of-b');
    db.exec(`
      UPDATE vault SET name = 'tmp' WHERE name = 'a';
      UPDATE vault SET name = 'a' WHERE name = 'b';
      UPDATE vault SET name = 'b' WHERE name = 'tmp';
    `);
    assertDecryptError(() => vault.get('a'), 'a', 'value-of-b');
    assertDecryptError(() => vault.get('b'), 'b', 'value-of-a');
  });
});

test('no value, and not the key, appears in the SQLite file or its WAL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sanad-vault-'));
  const path = join(dir, 'sanad.db');
  const key = randomBytes(32);
  const values = Array.from({ length: 50 }, (_, i) => `plain-secret-${i}-${randomBytes(8).toString('hex')}`);
  const needles = [...values, key.toString('base64'), key.toString('hex')].map((v) => Buffer.from(v, 'utf8'));
  needles.push(key);
  const search = (when: string): void => {
    for (const file of [path, `${path}-wal`]) {
      if (!existsSync(file)) continue;
      const bytes = readFileSync(file);
      for (const needle of needles) assert.equal(bytes.indexOf(needle), -1, `${when}: a secret is readable in ${file}`);
    }
  };
  try {
    const db = openStore(path);
    const vault = new Vault(db, key);
    values.forEach((v, i) => vault.set(`name-${i}`, v));
    assert.ok(existsSync(`${path}-wal`), 'the WAL is there to be searched');
    search('with the WAL open');
    db.close();
    search('after the checkpoint on close');
    const again = openStore(path);
    assert.equal(new Vault(again, key).get('name-7'), values[7], 'and the values are really stored');
    again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('checkVaultKey tells ok, empty and wrong key apart, and calls damage damage', () => {
  withDb((db) => {
    const key = randomBytes(32);
    assert.equal(checkVaultKey(db, key), 'empty', 'a new vault');
    const vault = new Vault(db, key);
    vault.set('token', 'v');
    assert.equal(db.prepare('SELECT value FROM service_config WHERE key = ?').pluck().get('vault_key_id'), vaultKeyId(key));
    assert.equal(checkVaultKey(db, key), 'ok');
    assert.equal(checkVaultKey(db, randomBytes(32)), 'wrong_key');
    vault.delete('token');
    assert.equal(checkVaultKey(db, key), 'empty', 'emptied again, same key');
    assert.equal(checkVaultKey(db, randomBytes(32)), 'wrong_key', 'the recorded id still names the key');
    vault.set('token', 'v');
    // Without the recorded id (data from before it existed) the trial decryption decides alone.
    db.prepare("DELETE FROM service_config WHERE key = 'vault_key_id'").run();
    assert.equal(checkVaultKey(db, key), 'ok');
    assert.equal(checkVaultKey(db, randomBytes(32)), 'wrong_key');
    // The right key (the id matches) but a damaged value is damage, not a wrong key.
    vault.set('token', 'v');
    flip(db, 'token', 'ciphertext');
    assert.throws(() => checkVaultKey(db, key), VaultDecryptError);
  });
});

test('vaultKeyId is the first 16 hex chars of sha256 of the key', () => {
  const key = Buffer.alloc(32, 7);
  assert.match(vaultKeyId(key), /^[0-9a-f]{16}$/);
  assert.equal(vaultKeyId(key), vaultKeyId(Buffer.alloc(32, 7)));
  assert.notEqual(vaultKeyId(key), vaultKeyId(Buffer.alloc(32, 8)));
});
