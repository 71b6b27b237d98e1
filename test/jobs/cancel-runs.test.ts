// A person's cancel of any run (POST /admin/runs/{id}/cancel), against an in-process appliance with
// real restic made slow enough to be caught mid-work: a backup stops with restic gone (its lock
// dropped), no snapshot, no alert and no maintenance, and the next backup runs at once; a drill
// waiting behind it never starts; a restore takes back the folders it made. Each run ends
// `cancelled`. And a restore into a folder Sanad cannot create is refused at the check, at once
// (Node's own recursive mkdir never returns for /proc/nope/x: that restore used to hang for good).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runningChildren } from '../../src/process/spawn.js';
import { field, num, str, waitFor, type Api } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { backupProgress } from '../harness/open-runs.js';
import { slowRestic } from '../harness/slow-restic.js';

let t: TestAppliance | null = null;
after(async () => {
  delete process.env.SANAD_RESTIC;
  await t?.close();
});

const MODEL_MIB = 64;

const statusOf = async (api: Api, id: number): Promise<unknown> => field((await api.get(`/admin/runs/${id}`)).body, 'status');
const until = (api: Api, id: number, status: string, what: string): Promise<true> =>
  waitFor(async () => ((await statusOf(api, id)) === status ? true : undefined), 60_000, what);

test('cancel: a backup drops restic and leaves nothing, a queued drill never starts, a restore takes its folders back', async () => {
  t = await startTestAppliance();
  const { ctx } = t.appliance;
  const api = t.api;
  const tiny = ctx.writer.prepare<[], { path: string }>("SELECT path FROM models WHERE id = 'tiny'").get()?.path ?? '';
  const big = join(tempDir('sanad-cancel-model-'), 'big.gguf');
  writeFileSync(big, Buffer.concat([readFileSync(tiny), randomBytes(MODEL_MIB * 1024 * 1024)]));
  assert.equal((await api.post('/admin/models', { path: big, id: 'big' })).status, 201);

  // restic at 4 MiB/s: the upload of the model lasts many seconds, so the cancel lands mid-way.
  process.env.SANAD_RESTIC = slowRestic(4 * 1024);
  const started = await api.post('/admin/backups', {});
  assert.equal(started.status, 202, started.text);
  const backupId = num(started.body, 'run_id');
  await waitFor(
    () => {
      const p = backupProgress(ctx);
      return p?.phase === 'upload' && p.bytes_done > 0 ? true : undefined;
    },
    60_000,
    'restic uploading',
  );

  // A drill asked for now waits behind the backup; cancelled, it never starts.
  const drill = await api.post('/admin/drills', {});
  assert.equal(drill.status, 202, drill.text);
  const drillId = num(drill.body, 'id');
  assert.equal(await statusOf(api, drillId), 'queued');
  assert.equal((await api.post(`/admin/runs/${drillId}/cancel`)).status, 202);
  await until(api, drillId, 'cancelled', 'the queued drill to end cancelled');
  assert.match(str((await api.get(`/admin/runs/${drillId}`)).body, 'error'), /cancelled before it started/);

  const cancel = await api.post(`/admin/runs/${backupId}/cancel`);
  assert.equal(cancel.status, 202, cancel.text);
  await until(api, backupId, 'cancelled', 'the backup to end cancelled');
  assert.equal(str((await api.get(`/admin/runs/${backupId}`)).body, 'error'), 'Cancelled by you.');
  await waitFor(() => (runningChildren().length === 0 ? true : undefined), 30_000, 'no restic left running');
  assert.doesNotMatch((await api.get('/admin/alerts')).text, /"key":"backup\.failed"/, 'a cancel is no failure');
  assert.deepEqual(field((await api.get('/admin/runs?kind=maintenance')).body, 'data'), [], 'no maintenance after a cancelled backup');
  delete process.env.SANAD_RESTIC;
  assert.deepEqual(field((await api.get('/admin/restore/generations')).body, 'data'), [], 'the cut upload left no snapshot');

  // Ended: nothing to cancel. Unknown: not found.
  const again = await api.post(`/admin/runs/${backupId}/cancel`);
  assert.equal(again.status, 409, again.text);
  assert.equal(field(again.body, 'error', 'code'), 'run_not_open');
  assert.equal((await api.post('/admin/runs/999999/cancel')).status, 404);

  // restic's lock went with it: the next backup runs at once and ends ok.
  const next = await ctx.backups.run('test');
  assert.equal(next.status, 'ok', JSON.stringify(next));

  // A restore cancelled while restic restores: the folders it made are gone again.
  process.env.SANAD_RESTIC = slowRestic(4 * 1024);
  const parent = tempDir('sanad-cancel-restore-');
  const target = join(parent, 'new', 'place');
  const restore = await api.post('/admin/restore', { target });
  assert.equal(restore.status, 202, restore.text);
  const restoreId = num(restore.body, 'id');
  await waitFor(
    async () => {
      const progress = field((await api.get(`/admin/runs/${restoreId}`)).body, 'progress');
      return progress !== null && field(progress, 'phase') === 'restoring' ? true : undefined;
    },
    60_000,
    'restic restoring',
  );
  assert.equal((await api.post(`/admin/runs/${restoreId}/cancel`)).status, 202);
  await until(api, restoreId, 'cancelled', 'the restore to end cancelled');
  delete process.env.SANAD_RESTIC;
  assert.equal(existsSync(join(parent, 'new')), false, 'the folders the restore made are removed');
  await waitFor(() => (runningChildren().length === 0 ? true : undefined), 30_000, 'no restic left running');
});

test('a restore into a folder Sanad cannot create is refused at the check, at once, naming why', async () => {
  t ??= await startTestAppliance();
  const api = t.api;
  for (const target of ['/proc/nope/x', '/proc/nope']) {
    const check = await api.post('/admin/restore/check-target', { target });
    assert.equal(check.status, 200, check.text);
    assert.equal(field(check.body, 'ok'), false);
    assert.equal(field(check.body, 'refusal'), 'not_writable');
    assert.match(str(check.body, 'reason'), /cannot create or write/);
    const start = await api.post('/admin/restore', { target });
    assert.equal(start.status, 400, start.text);
    assert.equal(field(start.body, 'error', 'param'), 'target');
  }
  // A folder it can make is made and removed again by the check: nothing is left behind.
  const parent = tempDir('sanad-check-target-');
  const fine = await api.post('/admin/restore/check-target', { target: join(parent, 'a', 'b') });
  assert.equal(field(fine.body, 'ok'), true, fine.text);
  assert.equal(existsSync(join(parent, 'a')), false);
});
