// The admin API a GUI uses: start a backup (202), watch its status until done, see the run and
// its copy, the local repository's age, and /health/ready's backup check turn from warning to ok.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { field, waitFor } from '../../harness/api.js';
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
