// The admin API a GUI uses: start a backup (202), watch its status until done, see the run and
// its copy, the local repository's age, and /health/ready's backup check turn from warning to ok.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { backupDepsFor } from '../../../src/backup/backup-deps.js';
import { getRepository } from '../../../src/repository/repositories.js';
import { forgetSnapshot } from '../../../src/repository/restic/forget-snapshot.js';
import { toResticRepo } from '../../../src/repository/restic-target.js';
import { field, waitFor, noOpenRun } from '../../harness/api.js';
import { tempDir } from '../../harness/data-dir.js';
import { startTestAppliance, type TestAppliance } from '../../harness/appliance.js';

let t: TestAppliance | null = null;
after(async () => t?.close());

test('POST /admin/backups runs one backup; status, runs and health follow', async () => {
  t = await startTestAppliance();
  const api = t.api;
  const before = await api.get('/health/ready');
  assert.equal(field(before.body, 'checks', 'backup', 'ok'), false, 'no backup yet is a warning');
  assert.equal(field(before.body, 'checks', 'restic', 'ok'), true);

  const started = await api.post('/admin/backups');
  assert.equal(started.status, 202);
  const second = await api.post('/admin/backups');
  assert.ok(second.status === 409 || second.status === 202, 'a second start while running is refused (or the first already ended)');
  await waitFor(async () => await noOpenRun(api, 'backup'), 60_000, 'the backup to finish');

  const runs = await api.get('/admin/backups');
  const data = field(runs.body, 'data');
  assert.ok(Array.isArray(data) && data.length === 1, 'exactly one run happened');
  assert.equal(field(data[0], 'status'), 'ok');
  const status = (await api.get('/admin/backups/status')).body;
  const repos = field(status, 'repositories');
  assert.ok(Array.isArray(repos));
  assert.equal(field(repos[0], 'name'), 'local');
  assert.equal(typeof field(repos[0], 'last_ok_at'), 'number');
  assert.equal(field(repos[0], 'failing'), false);
  assert.equal(field((await api.get('/health/ready')).body, 'checks', 'backup', 'ok'), true);
  assert.equal((await api.withToken(null).get('/admin/backups/status')).status, 401);
});

async function backUp(app: TestAppliance): Promise<unknown> {
  assert.equal((await app.api.post('/admin/backups')).status, 202);
  const status = await waitFor(
    async () => {
      const s = (await app.api.get('/admin/backups/status')).body;
      return (await noOpenRun(app.api, 'backup')) ? s : undefined;
    },
    60_000,
    'the backup to finish',
  );
  return field(status, 'last_run');
}

test('the local repository can be moved; the next backup goes to the new place', async () => {
  const app = await startTestAppliance();
  try {
    // A first backup at the default place: the recorded parent then names a snapshot the new
    // place does not have, and the repository there does not exist yet.
    assert.equal(field(await backUp(app), 'status'), 'ok');
    const target = join(tempDir(), 'external drive', 'sanad restic');
    assert.equal((await app.api.request('PATCH', '/admin/repositories/local', { location: 'relative/path' })).status, 400);
    const moved = await app.api.request('PATCH', '/admin/repositories/local', { location: target });
    assert.equal(moved.status, 200);
    assert.equal(field(moved.body, 'location'), target);
    assert.equal(field(await backUp(app), 'status'), 'ok');
    assert.ok(existsSync(join(target, 'config')), 'the repository was created at the new location');
  } finally {
    await app.close();
  }
});

test('a recorded parent snapshot the repository no longer has does not stop the next backup', async () => {
  const app = await startTestAppliance();
  try {
    assert.equal(field(await backUp(app), 'status'), 'ok');
    const { ctx } = app.appliance;
    const deps = await backupDepsFor({ db: ctx.writer, dataDir: ctx.dataDir, store: ctx.secrets.store, clock: ctx.clock, logger: ctx.logger });
    const local = getRepository(ctx.writer, 'local');
    assert.ok(local);
    const repo = toResticRepo(local, deps.vault, deps.passphrase);
    const [only] = await deps.restic.snapshots(repo);
    assert.ok(only);
    await forgetSnapshot(deps.restic.runtime, repo, only.id);
    assert.equal((await deps.restic.snapshots(repo)).length, 0, 'the parent Sanad recorded is gone from the repository');
    assert.equal(field(await backUp(app), 'status'), 'ok');
    assert.equal((await deps.restic.snapshots(repo)).length, 1);
  } finally {
    await app.close();
  }
});
