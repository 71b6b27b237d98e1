// The admin API a GUI uses: start a backup (202), watch its status until done, see the run and
// its copy, the local repository's age, and /health/ready's backup check turn from warning to ok.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { field, waitFor } from '../../harness/api.js';
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
  await waitFor(async () => field((await api.get('/admin/backups/status')).body, 'running') === false, 60_000, 'the backup to finish');

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

test('the local repository can be moved; the next backup goes to the new place', async () => {
  const app = await startTestAppliance();
  try {
    const target = join(tempDir(), 'external drive', 'sanad restic');
    assert.equal((await app.api.request('PATCH', '/admin/repositories/local', { location: 'relative/path' })).status, 400);
    const moved = await app.api.request('PATCH', '/admin/repositories/local', { location: target });
    assert.equal(moved.status, 200);
    assert.equal(field(moved.body, 'location'), target);
    assert.equal((await app.api.post('/admin/backups')).status, 202);
    await waitFor(async () => field((await app.api.get('/admin/backups/status')).body, 'running') === false, 60_000, 'the backup to finish');
    assert.ok(existsSync(join(target, 'config')), 'the repository was created at the new location');
  } finally {
    await app.close();
  }
});
