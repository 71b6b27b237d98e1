// "Back up now" while a backup runs: the API attaches to it (or queues one more after it with
// {"queue": true}), and `sanad backup now` beside the running service follows that backup to its end
// and reports its result instead of failing with "already running". A real appliance, real restic,
// a model big enough that the first backup is still uploading when the others ask.
import { test, after } from 'node:test';
import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { field, waitFor, noOpenRun } from '../../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../../harness/appliance.js';
import { tempDir } from '../../harness/data-dir.js';
import { BIN } from '../../cli/run-cli.js';
import { resticUploading } from '../../electron/desktop-kit.js';

let t: TestAppliance | null = null;
after(async () => t?.close());

test('back up now during a backup: the API attaches or queues, the CLI follows it and reports its result', async () => {
  t = await startTestAppliance();
  const api = t.api;
  const model = t.appliance.ctx.writer.prepare<[], { path: string }>("SELECT path FROM models WHERE id = 'tiny'").get()?.path ?? '';
  const big = join(tempDir(), 'big.gguf');
  writeFileSync(big, Buffer.concat([readFileSync(model), randomBytes(128 * 1024 * 1024)]));
  assert.equal((await api.post('/admin/models', { path: big, id: 'big' })).status, 201);

  const first = (await api.post('/admin/backups')).body;
  const firstId = Number(field(first, 'run_id'));
  assert.deepEqual(first, { run_id: firstId, started: true, attached: false, queued: false }, 'the start route answers its run id');
  assert.deepEqual(
    (await api.post('/admin/backups')).body,
    { run_id: firstId, started: false, attached: true, queued: false },
    'attached to the same run, by its id',
  );
  assert.equal(field((await api.get(`/admin/runs/${firstId}`)).body, 'status'), 'running');
  // The CLI beside the service, while that backup runs (restic is frozen meanwhile, so it surely
  // still runs when the CLI asks): it attaches, says so, and reports that run.
  const restic = await resticUploading(t.appliance.ctx);
  assert.ok(restic.pid !== undefined);
  process.kill(restic.pid, 'SIGSTOP');
  const child = spawn(process.execPath, [BIN, 'backup', 'now', '--json', '--data-dir', t.dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = new Promise<number | null>((resolve) => child.once('close', resolve));
  try {
    await waitFor(() => /following it to its end/.test(err), 60_000, 'the CLI to attach');
  } finally {
    process.kill(restic.pid, 'SIGCONT');
  }
  assert.equal(await code, 0, err);
  assert.match(err, /A backup is already running on this data dir; following it to its end/);
  const runsAfterFirst = (await api.get('/admin/backups')).body;
  const reported: unknown = JSON.parse(out);
  assert.equal(field(reported, 'generation'), field(runsAfterFirst, 'data', 0, 'generation'), 'the CLI reported the run it attached to');
  assert.equal(field(runsAfterFirst, 'data', 0, 'id'), firstId);
  assert.equal(field((await api.get(`/admin/runs/${firstId}`)).body, 'generation'), field(reported, 'generation'), 'the one record says the same generation');
  assert.equal(field(runsAfterFirst, 'data', 0, 'trigger'), 'manual', 'no second run was started for the CLI');
  const live = t.appliance.ctx.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM temporary_clients WHERE revoked_at IS NULL').get();
  assert.equal(live?.n, 0, 'the CLI revoked its temporary admin client');
  const staged = new Database(join(t.dataDir, 'backups', 'staging', String(field(reported, 'generation')), 'sanad.db'), { readonly: true });
  try {
    assert.equal(staged.prepare<[], { n: number }>('SELECT count(*) AS n FROM temporary_clients').get()?.n, 0, 'the generation holds no temporary client');
  } finally {
    staged.close();
  }

  // With a backup running, {"queue": true} runs exactly one more right after it.
  const second = (await api.post('/admin/backups')).body;
  assert.equal(field(second, 'started'), true);
  const secondId = Number(field(second, 'run_id'));
  const queued = (await api.post('/admin/backups', { queue: true })).body;
  const queuedId = Number(field(queued, 'run_id'));
  assert.deepEqual(queued, { run_id: queuedId, started: false, attached: false, queued: true });
  assert.ok(queuedId > secondId, 'the queued backup is a run of its own');
  assert.equal(field((await api.get(`/admin/runs/${queuedId}`)).body, 'status'), 'queued', 'recorded as waiting its turn');
  assert.equal(field((await api.post('/admin/backups', { queue: true })).body, 'run_id'), queuedId, 'asking again answers the one already queued');
  const statusOf = async (id: number): Promise<unknown> => field((await api.get(`/admin/runs/${id}`)).body, 'status');
  await waitFor(async () => (await statusOf(queuedId)) === 'ok' && (await noOpenRun(api, 'backup')), 240_000, 'the running backup and the queued one');
  assert.equal(await statusOf(secondId), 'ok');
  const runs = (await api.get('/admin/backups')).body;
  assert.deepEqual([field(runs, 'data', 0, 'id'), field(runs, 'data', 1, 'id')], [queuedId, secondId], 'exactly one more ran');
  assert.equal((await api.post('/admin/backups', { queue: 'yes' })).status, 400, 'a wrong body is refused');
});
