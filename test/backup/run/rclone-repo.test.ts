// A repository on an rclone remote (restic's rclone backend, which runs `rclone serve restic
// --stdio`): backup, then the remote folder holds a restic repository; names with spaces work.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backupDepsFor } from '../../../src/backup/backup-deps.js';
import { addRepository } from '../../../src/repository/repositories.js';
import { backupHere } from '../../../src/jobs/run-here.js';
import { systemClock } from '../../../src/clock.js';
import { silentLogger } from '../../../src/log/logger.js';
import { startTestAppliance, type TestAppliance } from '../../harness/appliance.js';
import { tempDir } from '../../harness/data-dir.js';

let t: TestAppliance | null = null;
after(async () => t?.close());

test('backup to an rclone remote repository', async () => {
  t = await startTestAppliance();
  const { ctx } = t.appliance;
  const folder = tempDir();
  const conf = join(tempDir(), 'rclone.conf');
  writeFileSync(conf, '[my disk]\ntype = local\n');
  addRepository(
    ctx.writer,
    ctx.secrets.vault,
    { name: 'disk', type: 'rclone', location: `my disk:${folder}/sanad restic`, options: { rclone_config: conf } },
    systemClock,
  );
  const deps = await backupDepsFor({ db: ctx.writer, dataDir: t.dataDir, store: ctx.secrets.store, clock: systemClock, logger: silentLogger });
  const outcome = await backupHere(deps, { trigger: 'test' });
  assert.equal(outcome.status, 'ok', JSON.stringify(outcome));
  assert.equal(outcome.repositories.find((r) => r.name === 'disk')?.ok, true);
  assert.ok(existsSync(join(folder, 'sanad restic', 'config')), 'a restic repository was created on the remote');
});
