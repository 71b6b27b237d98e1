// `sanad passphrase rotate`, the real CLI: exit 0 and a rotated local + REST pair (old passphrase
// refused, new one opens both, the same snapshots and manifests readable, a backup afterwards
// works), no passphrase in any restic argv or the debug log; exit 1 with nothing revoked when the
// offsite is down; and beside a running `sanad serve` the CLI has the service do it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { getRepository } from '../../../src/repository/repositories.js';
import { toResticRepo } from '../../../src/repository/restic-target.js';
import { systemClock, unixSeconds } from '../../../src/clock.js';
import { listSnapshotGenerations, manifestPath } from '../../../src/restore/snapshot-generations.js';
import { confirmRecoveryKit, recoveryKitConfirmedAt } from '../../../src/secrets/recovery-kit.js';
import { createClient, listClients } from '../../../src/store/clients.js';
import { tryFileLock } from '../../../src/store/file-lock.js';
import { field, str } from '../../harness/api.js';
import { runSanad, type Ran } from '../../harness/run-sanad.js';
import { readSse } from '../../harness/sse.js';
import { startServiceProcess } from '../../harness/service-process.js';
import { resticSpy } from '../run/restic-spy.js';
import { assertOpensAll, assertOpensNone, rotationFixture, type RotationFixture } from './fixture.js';

/** Per repository: each generation and the manifest's own generation number, read with `passphrase`. */
async function manifests(f: RotationFixture, passphrase: string): Promise<string[]> {
  const deps = await f.deps();
  const out: string[] = [];
  for (const name of ['local', 'offsite']) {
    const repo = getRepository(f.db, name);
    assert.ok(repo);
    const target = toResticRepo(repo, deps.vault, passphrase);
    for (const g of await listSnapshotGenerations(deps.restic, target)) {
      const manifest: unknown = JSON.parse(await deps.restic.dumpText(target, g.snapshot_id, manifestPath(g)));
      out.push(`${name}:${g.snapshot_id}:${g.generation}:${String(field(manifest, 'generation'))}`);
    }
  }
  return out;
}

test('sanad passphrase rotate: exit 0; old refused, new opens local and REST, data intact; no passphrase in argv or log', async () => {
  const f = await rotationFixture();
  try {
    const old = await f.current();
    confirmRecoveryKit(f.db, systemClock);
    const before = await manifests(f, old);
    assert.equal(before.length, 2, 'one generation in each repository');
    const spy = await resticSpy();
    const env = { SANAD_RESTIC: spy.path, SANAD_LOG: 'debug' };

    const run = await runSanad(['passphrase', 'rotate', '--data-dir', f.dataDir, '--json'], { env });
    assert.equal(run.code, 0, run.stderr);
    const report: unknown = JSON.parse(run.stdout);
    assert.equal(field(report, 'rotated'), true);
    assert.deepEqual(field(report, 'repositories'), [
      { name: 'local', ok: true, skipped: null, old_keys_removed: true },
      { name: 'offsite', ok: true, skipped: null, old_keys_removed: true },
    ]);
    assert.deepEqual(field(report, 'warnings'), []);
    assert.match(JSON.stringify(field(report, 'notes')), /recovery kit/);

    const next = await f.current();
    assert.notEqual(next, old, 'the keychain holds the new passphrase');
    assert.match(next, /^([a-z2-9]{5}-){5}[a-z2-9]{5}$/, 'in the same format as the first one');
    assert.equal(await f.pending(), null);
    await assertOpensAll(f, next, 1, 'the new passphrase');
    await assertOpensNone(f, old, 'the old passphrase');
    assert.deepEqual(await manifests(f, next), before, 'the same snapshots and manifests, read with the new passphrase');
    assert.equal(recoveryKitConfirmedAt(f.db), null, 'the stored kit is stale: health warns again');

    const argv = spy.argv();
    assert.ok(argv.some((l) => l.includes('key add')) && argv.some((l) => l.includes('key remove')), 'the spy saw the key commands');
    for (const line of argv) assert.ok(!line.includes(old) && !line.includes(next), `no passphrase in argv: ${line}`);
    // The new passphrase went through a file in the data dir (cleared at every start), never the system temp dir.
    const files = argv.flatMap((l) => [...l.matchAll(/--new-password-file=(\S+)/g)].map((m) => m[1] ?? ''));
    assert.ok(files.length > 0, 'key add was given its password file');
    for (const file of files) assert.ok(file.startsWith(join(f.dataDir, 'backups', 'secret-files')), `the password file is in the data dir: ${file}`);
    assert.ok(run.stderr.includes('passphrase rotated'), 'the debug log is there');
    for (const text of [run.stderr, run.stdout]) assert.ok(!text.includes(old) && !text.includes(next), 'no passphrase in the output or the log');

    const backup = await runSanad(['backup', 'now', '--data-dir', f.dataDir, '--json']);
    assert.equal(backup.code, 0, backup.stderr);
    assert.equal((await manifests(f, next)).length, 4, 'a backup after the rotation works on both repositories');
  } finally {
    await f.close();
  }
});

test('sanad passphrase rotate: exit 1 with the offsite down, and nothing revoked', async () => {
  const f = await rotationFixture();
  try {
    const old = await f.current();
    await f.rest.stop();
    const run = await runSanad(['passphrase', 'rotate', '--data-dir', f.dataDir]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^sanad: The passphrase was not rotated: .* on "offsite" failed .*Nothing was revoked/m);
    assert.equal(run.stdout, '');
    await f.rest.start();
    assert.equal(await f.current(), old);
    assert.equal(await f.pending(), null);
    await assertOpensAll(f, old, 1, 'the old passphrase after the failure');
  } finally {
    await f.close();
  }
});

test('beside a running sanad serve the CLI has the service rotate; the route needs admin and refuses during a backup', async () => {
  const f = await rotationFixture();
  const service = await startServiceProcess(f.dataDir, f.adminToken);
  try {
    const old = await f.current();
    const calls: { run?: Promise<Ran> } = {};
    const stream = await readSse(
      `${service.url}/admin/events`,
      { headers: { authorization: `Bearer ${f.adminToken}` } },
      (frame) => {
        if (frame.event === 'ready') calls.run = runSanad(['passphrase', 'rotate', '--data-dir', f.dataDir, '--json']);
        return frame.event === 'passphrase.rotated';
      },
      180_000,
    );
    assert.ok(calls.run);
    const run = await calls.run;
    assert.equal(run.code, 0, run.stderr);
    const rotated = stream.frames.at(-1);
    assert.equal(rotated?.event, 'passphrase.rotated', 'the GUI hears about it on /admin/events');
    assert.deepEqual(field(rotated?.data, 'data', 'warnings'), []);
    assert.ok(!JSON.stringify(stream.frames).includes(old), 'no passphrase in the event');
    assert.equal(field(JSON.parse(run.stdout), 'rotated'), true);
    const next = await f.current();
    assert.notEqual(next, old);
    assert.ok(!JSON.stringify(stream.frames).includes(next), 'nor the new one');
    await assertOpensAll(f, next, 1, 'rotated by the service');
    const kit = await service.api.get('/admin/recovery-kit');
    assert.equal(str(kit.body, 'restic_passphrase'), next, 'the service hands out the new passphrase in its kit');
    const temporary = listClients(f.db).filter((c) => c.name.includes('passphrase rotate'));
    assert.equal(temporary.length, 1);
    assert.notEqual(temporary[0]?.revoked_at, null, "the CLI's temporary admin token is revoked");

    const reader = createClient(f.db, 'reader', ['models:read'], unixSeconds(systemClock));
    const denied = await service.api.withToken(reader.token).post('/admin/passphrase/rotate');
    assert.equal(denied.status, 403);
    assert.equal(field(denied.body, 'error', 'type'), 'permission_error');

    const lock = tryFileLock(join(f.dataDir, 'backups', 'backup.lock'));
    assert.ok(lock, 'the test holds the backup lock, as a running backup would');
    try {
      const busy = await service.api.post('/admin/passphrase/rotate');
      assert.equal(busy.status, 409);
      assert.equal(field(busy.body, 'error', 'code'), 'backup_running');
    } finally {
      lock.release();
    }
    assert.equal(await f.current(), next, 'a refused rotation changed nothing');
  } finally {
    await service.stop();
    await f.close();
  }
});
