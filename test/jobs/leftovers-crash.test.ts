// Runs a crash cut short, for real: `sanad serve` is SIGKILLed (with its restic, as a power cut
// would take both) in the middle of a backup and in the middle of a restore. The dead process's
// store still says `running` in the one record of runs; at the next start both are settled by the
// one settle (jobs/runs.ts, with the restore's undo from jobs/leftovers.ts) as "interrupted" with a
// reason, the restore's half-written target is put back, and the next backup runs as usual (no lock
// of Sanad's own left in the way). Each run is followed by the id its start route answered.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { systemClock } from '../../src/clock.js';
import { ModelRegistry } from '../../src/engine/registry.js';
import { openStore } from '../../src/store/open.js';
import { field, num, str, waitFor, noOpenRun } from '../harness/api.js';
import { tempDir } from '../harness/data-dir.js';
import { killAllServices, prepareCrashDataDir, startService } from '../crash/crash-kit.js';
import type { ServiceProcess } from '../harness/service-process.js';
import { childrenOf } from '../harness/process-tree.js';
import { storePath } from '../../src/files/data-dir-layout.js';

after(killAllServices);

/** Freezes the service's restic child running `sub` (so the run is surely mid-way), then kills both. */
async function powerCut(service: ServiceProcess, sub: string): Promise<void> {
  const pid = service.child.pid;
  assert.ok(pid !== undefined);
  const restic = await waitFor(() => childrenOf(pid).find((c) => c.args.includes(sub)), 120_000, `restic ${sub} to run`);
  process.kill(restic.pid, 'SIGSTOP');
  await service.kill();
  process.kill(restic.pid, 'SIGKILL');
}

function rowStatus(dataDir: string, sql: string): string | undefined {
  const db = new Database(storePath(dataDir), { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], { status: string }>(sql).get()?.status;
  } finally {
    db.close();
  }
}

test('SIGKILL mid-backup and mid-restore: the runs are settled as interrupted at the next start, the target put back', async () => {
  const { dataDir, adminToken } = await prepareCrashDataDir();
  // A model big enough that restic is still busy when it is frozen.
  const big = join(tempDir('sanad-big-'), 'big.gguf');
  const db = openStore(storePath(dataDir));
  try {
    const tiny = db.prepare<[], { path: string }>("SELECT path FROM models WHERE id = 'tiny'").get()?.path;
    assert.ok(tiny);
    writeFileSync(big, Buffer.concat([readFileSync(tiny), randomBytes(96 * 1024 * 1024)]));
    await new ModelRegistry(db, systemClock).add(big, 'big');
  } finally {
    db.close();
  }

  let service = await startService(dataDir, adminToken);
  const asked = await service.api.post('/admin/backups');
  assert.equal(asked.status, 202);
  const backupId = num(asked.body, 'run_id');
  await powerCut(service, 'backup');
  assert.equal(rowStatus(dataDir, `SELECT status FROM runs WHERE id = ${backupId} AND kind = 'backup'`), 'running', 'the dead process left its run running');

  service = await startService(dataDir, adminToken);
  const settled = await service.api.get(`/admin/runs/${backupId}`);
  assert.equal(field(settled.body, 'status'), 'interrupted');
  assert.match(str(settled.body, 'error'), /Sanad stopped while this backup ran/);
  assert.notEqual(field(settled.body, 'ended_at'), null);
  assert.equal(existsSync(join(dataDir, 'runs', `${backupId}.lock`)), false, 'its lock file is gone with it');
  const runs = await service.api.get('/admin/backups');
  assert.equal(num(runs.body, 'data', 0, 'id'), backupId, 'the backup list reads the same record');
  assert.equal(field(runs.body, 'data', 0, 'status'), 'interrupted');
  assert.equal(num((await service.api.get('/admin/backups/status')).body, 'last_run', 'id'), num(runs.body, 'data', 0, 'id'));
  // Nothing of Sanad's own is left in the way: the next backup runs and is good.
  assert.equal(field((await service.api.post('/admin/backups')).body, 'started'), true);
  await waitFor(async () => await noOpenRun(service.api, 'backup'), 180_000, 'the next backup');
  assert.equal(field((await service.api.get('/admin/backups')).body, 'data', 0, 'status'), 'ok');

  const target = join(tempDir('sanad-restore-'), 'restored');
  const started = await service.api.post('/admin/restore', { target });
  assert.equal(started.status, 202, started.text);
  const id = num(started.body, 'id');
  await powerCut(service, 'restore');
  assert.equal(rowStatus(dataDir, `SELECT status FROM runs WHERE id = ${id} AND kind = 'restore'`), 'running');
  assert.equal(existsSync(target), true, 'the dead restore left its half-made target');

  service = await startService(dataDir, adminToken);
  const job = await service.api.get(`/admin/restore/${id}`);
  assert.equal(job.status, 200, job.text);
  assert.equal(field(job.body, 'status'), 'interrupted');
  assert.match(str(job.body, 'error'), /Sanad stopped while this restore ran; .* was put back as it was before/);
  assert.equal(existsSync(target), false, 'the folder the restore made is gone again');
  assert.equal(field((await service.api.get(`/admin/runs/${id}`)).body, 'status'), 'interrupted', 'the one record says the same');
  await service.stop();
});
