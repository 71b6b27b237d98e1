// A backup run with the compressed offsite copy configured: each run uploads one encrypted copy
// to the rclone folder and keeps the newest N; a broken destination makes the run partial and
// alerts, without failing the local backup.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAlerts } from '../../../src/store/alerts.js';
import { backupDepsFor } from '../../../src/backup/backup-deps.js';
import { backupHere } from '../../../src/jobs/run-here.js';
import { systemClock } from '../../../src/clock.js';
import { silentLogger } from '../../../src/log/logger.js';
import { startTestAppliance, type TestAppliance } from '../../harness/appliance.js';
import { tempDir } from '../../harness/data-dir.js';

let t: TestAppliance | null = null;
after(async () => t?.close());

test('each run sends one encrypted copy, keeps N, and a broken destination is partial + alert', async () => {
  t = await startTestAppliance();
  const { ctx } = t.appliance;
  const folder = tempDir();
  const conf = join(tempDir(), 'rclone.conf');
  writeFileSync(conf, `[copies]\ntype = local\n`);
  ctx.updateSettings({ offsite_copy_destination: `copies:${folder}/سند copies`, offsite_copy_keep: 2, offsite_copy_rclone_config: conf });
  const run = async (): Promise<Awaited<ReturnType<typeof backupHere>>> =>
    backupHere(await backupDepsFor({ db: ctx.writer, dataDir: t?.dataDir ?? '', store: ctx.secrets.store, clock: systemClock, logger: silentLogger }), {
      trigger: 'test',
    });

  for (let i = 0; i < 3; i++) {
    const outcome = await run();
    assert.equal(outcome.status, 'ok', JSON.stringify(outcome));
    assert.equal(outcome.offsite_copy?.ok, true);
  }
  const copies = readdirSync(join(folder, 'سند copies')).filter((n) => n.endsWith('.tar.gz.age'));
  assert.equal(copies.length, 2, `keep 2: ${copies.join(', ')}`);

  ctx.updateSettings({ offsite_copy_destination: 'nosuchremote:folder' });
  const broken = await run();
  assert.equal(broken.status, 'partial');
  assert.equal(broken.repositories.find((r) => r.name === 'local')?.ok, true, 'the local backup still succeeded');
  assert.equal(broken.offsite_copy?.ok, false);
  assert.ok(openAlerts(ctx.writer).some((a) => a.key === 'backup.offsite_copy_failed'));
});
