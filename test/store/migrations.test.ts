// Migrations: a fresh store reaches the latest version with every LMSP §11.1 table; a newer store
// is refused untouched; an older one is copied aside first; a failing migration changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentVersion, latestVersion, migrate, StoreTooNewError } from '../../src/store/migrate.js';
import { MIGRATIONS, type Migration } from '../../src/store/migrations/index.js';
import { openStore } from '../../src/store/open.js';
import { tempDir } from '../harness/data-dir.js';

const LMSP_TABLES = ['service_config', 'clients', 'models', 'responses', 'tasks', 'task_events', 'idempotency_keys'];

function tables(db: Database.Database): string[] {
  return db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((r) => r.name);
}

function fileHash(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** A later schema step for tests: the real list plus one more. */
const addNotes: Migration = {
  version: MIGRATIONS.length + 1,
  name: 'test-add-notes',
  up(db) {
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT');
  },
};

/** Creates a table, then fails: the table must not survive. */
const failing: Migration = {
  version: MIGRATIONS.length + 1,
  name: 'test-failing',
  up(db) {
    db.exec('CREATE TABLE half_done (id INTEGER PRIMARY KEY) STRICT');
    db.exec("INSERT INTO clients(id, name, token_hash, scopes, created_at) VALUES ('client_x', 'x', 'h', '[]', 1)");
    throw new Error('boom in migration');
  },
};

test('a fresh store reaches the latest user_version with every table of LMSP §11.1', () => {
  const path = join(tempDir(), 'sanad.db');
  const db = openStore(path);
  try {
    assert.equal(latestVersion(), MIGRATIONS.length);
    assert.ok(MIGRATIONS.length >= 1);
    assert.equal(currentVersion(db), latestVersion());
    const names = tables(db);
    for (const t of LMSP_TABLES) assert.ok(names.includes(t), `table ${t} exists (have ${names.join(', ')})`);
    assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  } finally {
    db.close();
  }
  // Nothing to copy aside for a store that did not exist yet.
  assert.deepEqual(
    readdirSync(join(path, '..')).filter((f) => f.includes('before-migration')),
    [],
  );
  // Opening again is a no-op: the version stays, nothing is re-run.
  const again = openStore(path);
  try {
    assert.equal(currentVersion(again), latestVersion());
  } finally {
    again.close();
  }
});

test('a store with a higher user_version is refused with StoreTooNewError and left unchanged', () => {
  const dir = tempDir();
  const path = join(dir, 'sanad.db');
  const tooNew = latestVersion() + 3;
  const seed = openStore(path);
  seed.prepare("INSERT INTO service_config(key, value, updated_at) VALUES ('k', '\"v\"', 1)").run();
  seed.pragma(`user_version = ${tooNew}`);
  seed.close();
  const before = fileHash(path);

  assert.throws(
    () => openStore(path),
    (err: unknown) => {
      assert.ok(err instanceof StoreTooNewError, `got ${String(err)}`);
      assert.match(err.message, /newer Sanad/);
      assert.match(err.message, new RegExp(`store version ${tooNew}`));
      assert.match(err.message, new RegExp(`knows up to ${latestVersion()}`));
      assert.ok(!err.message.includes('\n'), 'one-line message');
      return true;
    },
  );

  assert.equal(fileHash(path), before, 'the store file is byte-for-byte unchanged');
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.includes('before-migration')),
    [],
    'no backup copy was made',
  );
  const check = new Database(path, { readonly: true });
  try {
    assert.equal(currentVersion(check), tooNew);
    assert.equal(check.prepare<[], { value: string }>("SELECT value FROM service_config WHERE key = 'k'").get()?.value, '"v"');
  } finally {
    check.close();
  }
});

test('an existing older store is copied aside before migrating, and the copy is the old store', () => {
  const dir = tempDir();
  const path = join(dir, 'sanad.db');
  const old = openStore(path, { migrations: MIGRATIONS });
  old.prepare("INSERT INTO clients(id, name, token_hash, scopes, created_at) VALUES ('client_old', 'old', 'hash', '[]', 1)").run();
  old.close();

  const db = openStore(path, { migrations: [...MIGRATIONS, addNotes] });
  try {
    assert.equal(currentVersion(db), addNotes.version);
    assert.ok(tables(db).includes('notes'));
    const kept = db.prepare<[], { name: string }>("SELECT name FROM clients WHERE id = 'client_old'").get();
    assert.equal(kept?.name, 'old', 'migrating keeps the data');
  } finally {
    db.close();
  }

  const backup = `${path}.before-migration-v${MIGRATIONS.length}.bak`;
  assert.ok(existsSync(backup), `backup ${backup} exists (dir: ${readdirSync(dir).join(', ')})`);
  const copy = new Database(backup, { readonly: true });
  try {
    assert.equal(currentVersion(copy), MIGRATIONS.length, 'the copy is at the old version');
    assert.ok(!tables(copy).includes('notes'), 'the copy predates the new migration');
    const row = copy.prepare<[], { name: string }>("SELECT name FROM clients WHERE id = 'client_old'").get();
    assert.equal(row?.name, 'old', 'the copy holds the old data');
  } finally {
    copy.close();
  }
});

test('each migration runs in a transaction: a failing one leaves the version and schema unchanged', () => {
  const path = join(tempDir(), 'sanad.db');
  openStore(path).close();

  assert.throws(() => openStore(path, { migrations: [...MIGRATIONS, failing] }), /boom in migration/);

  const db = new Database(path);
  try {
    assert.equal(currentVersion(db), latestVersion(), 'version unchanged');
    assert.ok(!tables(db).includes('half_done'), 'the half-run migration left no table');
    assert.equal(db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM clients').get()?.n, 0, 'its row was rolled back');
  } finally {
    db.close();
  }

  // From an empty store, the migrations before the failing one commit and the failing one does not.
  const fresh = new Database(':memory:');
  try {
    assert.throws(() => migrate(fresh, ':memory:', { migrations: [...MIGRATIONS, failing] }), /boom in migration/);
    assert.equal(currentVersion(fresh), MIGRATIONS.length);
    assert.ok(tables(fresh).includes('tasks'));
    assert.ok(!tables(fresh).includes('half_done'));
  } finally {
    fresh.close();
  }
});

test('migrations out of order are refused before anything runs', () => {
  const db = new Database(':memory:');
  try {
    const skipped: Migration = { ...addNotes, version: MIGRATIONS.length + 2 };
    assert.throws(() => migrate(db, ':memory:', { migrations: [...MIGRATIONS, skipped] }), /expected/);
    assert.equal(currentVersion(db), 0);
    assert.deepEqual(tables(db), []);
  } finally {
    db.close();
  }
});
