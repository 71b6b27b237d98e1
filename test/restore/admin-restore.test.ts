// The GUI's restore, through the admin routes of an in-process appliance: the generation list, a
// refused target answered with 400 before anything starts, one restore at a time (409), progress
// as its run's run.updated events on the admin event bus (with measured bytes while restic restores),
// the end as restore.finished, and the job's checklist from GET /admin/restore/{id}.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backupDepsFor } from '../../src/backup/backup-deps.js';
import { backupHere } from '../../src/jobs/run-here.js';
import { systemClock } from '../../src/clock.js';
import { silentLogger } from '../../src/log/logger.js';
import type { AdminEvent } from '../../src/jobs/admin-events.js';
import { field, num, str, waitFor, type Api } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { slowRestic } from '../harness/slow-restic.js';
import { keychainEntries, treePicture } from './kit.js';
import { RestoreProgress } from '../../src/contract/restore.js';

let t: TestAppliance | null = null;
after(() => t?.close());

const MODEL_MIB = 96;

async function finished(api: Api, id: string): Promise<unknown> {
  return waitFor(
    async () => {
      const res = await api.get(`/admin/restore/${id}`);
      assert.equal(res.status, 200, res.text);
      const status = field(res.body, 'status');
      return status === 'running' || status === 'queued' ? undefined : res.body;
    },
    120_000,
    'the restore to finish',
  );
}

test('admin restore: list, refuse with 400, one at a time, progress events, the checklist', async () => {
  t = await startTestAppliance();
  const { ctx } = t.appliance;
  const api = t.api;
  // A model big enough that restic takes a while on it: progress has something to measure.
  const tiny = ctx.writer.prepare<[], { path: string }>("SELECT path FROM models WHERE id = 'tiny'").get()?.path ?? '';
  const big = join(tempDir('sanad-big-model-'), 'big.gguf');
  writeFileSync(big, Buffer.concat([readFileSync(tiny), randomBytes(MODEL_MIB * 1024 * 1024)]));
  assert.equal((await api.post('/admin/models', { path: big, id: 'big' })).status, 201);
  const deps = await backupDepsFor({ db: ctx.writer, dataDir: t.dataDir, store: ctx.secrets.store, clock: systemClock, logger: silentLogger });
  const backup = await backupHere(deps, { trigger: 'test' });
  assert.equal(backup.status, 'ok', JSON.stringify(backup));

  // From here restic reads at 16 MiB/s, so the restore lasts seconds on any machine and the
  // progress between its start and its end can be measured (read by the restore when it runs).
  process.env.SANAD_RESTIC = slowRestic(16 * 1024);

  const list = await api.get('/admin/restore/generations');
  assert.equal(list.status, 200, list.text);
  assert.equal(field(list.body, 'data', 0, 'generation'), backup.generation);
  assert.equal((await api.get('/admin/restore/generations?repo=nope')).status, 404);

  const full = tempDir('sanad-restore-full-');
  writeFileSync(join(full, 'keep.txt'), 'mine');
  const picture = treePicture(full);
  const refusals: Array<[unknown, RegExp]> = [
    [{ target: 'relative/path' }, /absolute path/],
    [{ target: full }, /is not empty/],
    [{ target: join(t.dataDir, 'inside') }, /inside the live data dir/],
  ];
  for (const [body, why] of refusals) {
    const res = await api.post('/admin/restore', body);
    assert.equal(res.status, 400, res.text);
    assert.equal(field(res.body, 'error', 'param'), 'target');
    assert.match(str(res.body, 'error', 'message'), why);
  }
  assert.deepEqual(treePicture(full), picture);
  assert.ok(!existsSync(join(t.dataDir, 'inside')));

  const events: AdminEvent[] = [];
  const unsubscribe = ctx.adminEvents.subscribe((e) => events.push(e));
  const target = join(tempDir('sanad-restore-'), 'gui');
  const started = await api.post('/admin/restore', { target });
  assert.equal(started.status, 202, started.text);
  assert.equal(field(started.body, 'status'), 'running');
  const runId = num(started.body, 'id');
  const id = String(runId);
  const second = await api.post('/admin/restore', { target: join(tempDir('sanad-restore-'), 'other') });
  assert.equal(second.status, 409, second.text);
  assert.equal(field(second.body, 'error', 'code'), 'restore_running');

  const job = await finished(api, id);
  unsubscribe();
  assert.equal(field(job, 'status'), 'ok', JSON.stringify(job, null, 1));
  const checks = field(job, 'result', 'checks');
  assert.ok(Array.isArray(checks) && checks.length > 10 && checks.every((c: unknown) => field(c, 'ok') === true));
  assert.equal(field(job, 'result', 'next_step'), `sanad serve --data-dir ${target}`);
  assert.deepEqual(readdirSync(join(target, 'models')).sort(), ['big.gguf', 'tiny-1.gguf']);
  assert.notEqual((await keychainEntries(target)).vaultKey, null);

  // Its progress as its run's (run.updated): every phase, and the last report of each before the next.
  const mine = events.flatMap((e) => {
    const p = e.type === 'run.updated' && e.data.run_id === runId ? RestoreProgress.safeParse(e.data.progress) : null;
    return p?.success === true ? [p.data] : [];
  });
  const phases = [...new Set(mine.map((d) => d.phase))];
  assert.deepEqual(phases, ['opening', 'reading_manifest', 'restoring', 'verifying', 'assembling', 'checking', 'storing_secrets', 'cleaning_up', 'done']);
  const restoring = mine.filter((d) => d.phase === 'restoring');
  const total = num(restoring[0], 'bytes_total');
  assert.ok(total > MODEL_MIB * 1024 * 1024, 'the total counts the model');
  assert.equal(restoring.at(-1)?.percent, 1);
  const between = restoring.filter((d) => typeof d.bytes_done === 'number' && d.bytes_done > 1024 * 1024 && d.bytes_done < total);
  assert.ok(between.length >= 1, `bytes measured while restic ran: ${JSON.stringify(restoring)}`);
  const percents = restoring.map((d) => Number(d.percent));
  assert.deepEqual(
    percents,
    [...percents].sort((a, b) => a - b),
    'progress only goes forward',
  );
  const end = events.find((e) => e.type === 'restore.finished' && e.data.run_id === runId);
  assert.equal(end?.type === 'restore.finished' ? end.data.status : null, 'ok');

  // A failure through the route: the job fails, says why, and leaves the target as it was.
  const empty = tempDir('sanad-restore-empty-');
  const bad = await api.post('/admin/restore', { target: empty, generation: 12345 });
  assert.equal(bad.status, 202, bad.text);
  const failed = await finished(api, String(num(bad.body, 'id')));
  assert.equal(field(failed, 'status'), 'failed');
  assert.match(String(field(failed, 'result', 'error')), /Generation 12345 is not in the repository "local".*emptied again/);
  assert.deepEqual(readdirSync(empty), []);
  assert.equal((await api.get('/admin/restore/restore_nope')).status, 404);
});
