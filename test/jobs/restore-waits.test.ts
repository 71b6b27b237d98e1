// A restore asked for while a backup holds the repository waits for it (the job table), says so in
// GET /admin/restore/{id}, and when Sanad stops before it could start it is recorded as never
// started, with nothing written, across the restart. The backup here is a job the test holds open.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { field, str } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';

let t: TestAppliance | null = null;
after(async () => t?.close());

test('a restore waits for a backup; stopped before it started, it is cancelled with nothing written', async () => {
  t = await startTestAppliance();
  const { dataDir, adminToken } = t;
  // The test holds the backup slot: a job of the appliance's own owner that ends only when aborted.
  const held = t.appliance.ctx.jobs.start(
    'backup',
    (control) => new Promise<void>((resolve) => control.signal.addEventListener('abort', () => resolve(), { once: true })),
  );
  const target = join(tempDir('sanad-restore-'), 'restored');
  const started = await t.api.post('/admin/restore', { target });
  assert.equal(started.status, 202, started.text);
  assert.equal(field(started.body, 'status'), 'queued');
  const id = field(started.body, 'id');
  assert.equal(typeof id, 'number', "a restore is a run: its id is the run's");
  const job = await t.api.get(`/admin/restore/${String(id)}`);
  assert.equal(field(job.body, 'status'), 'queued');
  assert.deepEqual(field(job.body, 'waiting_for'), ['backup']);
  assert.equal((await t.api.post('/admin/restore', { target: join(tempDir(), 'other') })).status, 409, 'a second restore is refused while one waits');

  await t.close();
  await held.done;
  t = await startTestAppliance({ dataDir, adminToken });
  const after = await t.api.get(`/admin/restore/${String(id)}`);
  assert.equal(field(after.body, 'status'), 'cancelled');
  assert.match(str(after.body, 'error'), /before this run could start .* nothing was done/);
  const run = await t.api.get(`/admin/runs/${String(id)}`);
  assert.equal(field(run.body, 'kind'), 'restore');
  assert.equal(field(run.body, 'status'), 'cancelled', 'the one record says the same');
  assert.equal(existsSync(target), false, 'nothing was made');
});
