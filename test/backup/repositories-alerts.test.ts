// Repository targets and the alert list: the local repository always exists, offsite secrets go
// to the vault (never the table), bad targets name their param; alerts deduplicate and resolve.
import { say } from '../../src/contract/said/index.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { openAlerts, raiseAlert, resolveAlert } from '../../src/store/alerts.js';
import { addRepository, ensureLocalRepository, listRepositories, removeRepository, RepositoryError, secretName } from '../../src/repository/repositories.js';
import { ManualClock } from '../../src/clock.js';
import { Vault } from '../../src/secrets/vault.js';
import { openStore } from '../../src/store/open.js';

function setup(): { db: ReturnType<typeof openStore>; vault: Vault; clock: ManualClock } {
  const db = openStore(':memory:');
  return { db, vault: new Vault(db, randomBytes(32)), clock: new ManualClock(1_800_000_000_000) };
}

test('local exists from the start; offsite targets keep their secret in the vault only', () => {
  const { db, vault, clock } = setup();
  ensureLocalRepository(db, '/data', clock);
  ensureLocalRepository(db, '/data', clock);
  assert.deepEqual(
    listRepositories(db).map((r) => [r.name, r.location]),
    [['local', '/data/backups/restic']],
  );
  const r2 = addRepository(
    db,
    vault,
    {
      name: 'r2',
      type: 's3',
      location: 'https://acct.r2.example:8443/bucket/prefix',
      options: { access_key_id: 'AKID', region: 'auto' },
      secret: 'S3CRET-VALUE-123',
    },
    clock,
  );
  assert.equal(r2.location, 'https://acct.r2.example:8443/bucket/prefix');
  assert.equal(vault.get(secretName('r2')), 'S3CRET-VALUE-123');
  const raw = JSON.stringify(db.prepare('SELECT * FROM repositories').all());
  assert.ok(!raw.includes('S3CRET-VALUE-123'), 'the table never holds the secret');
  addRepository(db, vault, { name: 'nas', type: 'rclone', location: 'backup:سند/restic' }, clock);
  assert.equal(removeRepository(db, vault, 'r2'), true);
  assert.equal(vault.get(secretName('r2')), null, 'its secret went with it');
  assert.throws(() => removeRepository(db, vault, 'local'), /cannot be removed/);
});

test('bad targets are refused naming the parameter', () => {
  const { db, vault, clock } = setup();
  const bad: Array<[Parameters<typeof addRepository>[2], string]> = [
    [{ name: 'Bad Name', type: 'rest', location: 'http://127.0.0.1:8000/' }, 'name'],
    [{ name: 'local', type: 'rest', location: 'http://127.0.0.1:8000/' }, 'name'],
    [{ name: 'x', type: 'rest', location: 'ftp://host/' }, 'url'],
    [{ name: 'x', type: 'rest', location: 'http://user:pw@127.0.0.1:8000/' }, 'url'],
    [{ name: 'x', type: 's3', location: 'https://host/' }, 'url'],
    [{ name: 'x', type: 's3', location: 'https://host/bucket', options: { access_key_id: 'A' } }, 'secret'],
    [{ name: 'x', type: 'rclone', location: ':s3:bucket' }, 'remote'],
  ];
  for (const [input, param] of bad) {
    assert.throws(
      () => addRepository(db, vault, input, clock),
      (err: unknown) => err instanceof RepositoryError && err.param === param,
      JSON.stringify(input),
    );
  }
  assert.equal(listRepositories(db).length, 0, 'nothing was written');
});

test('alerts raise once, count repeats, resolve, and raise anew', () => {
  const { db, clock } = setup();
  assert.equal(raiseAlert(db, clock, 'backup.offsite_failed:r2', 'warning', say('said.text', { text: 'r2 failed' })), true, 'new');
  clock.advance(60_000);
  assert.equal(raiseAlert(db, clock, 'backup.offsite_failed:r2', 'warning', say('said.text', { text: 'r2 failed again' })), false, 'a repeat is not new');
  const [open] = openAlerts(db);
  assert.equal(open?.count, 2);
  assert.equal(open?.message, 'r2 failed again');
  assert.ok(open && open.last_seen > open.first_seen);
  assert.equal(resolveAlert(db, clock, 'backup.offsite_failed:r2'), true);
  assert.equal(openAlerts(db).length, 0);
  assert.equal(raiseAlert(db, clock, 'backup.offsite_failed:r2', 'critical', say('said.text', { text: 'again' })), true, 'new after resolution');
});
