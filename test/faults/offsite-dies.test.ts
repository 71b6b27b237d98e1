// An offsite that dies mid-upload: the REST server (rclone serve restic) is SIGKILLed while restic
// uploads to it. The backup does not hang: each attempt without progress ends (SIGINT to restic),
// is tried again a bounded number of times, and then the offsite failure path answers (local ok,
// partial, an alert). No restic child is left. Once the server is back, the next backup succeeds
// and the repository holds no lock: the one the dead upload could not remove was cleared.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { openAlerts } from '../../src/store/alerts.js';
import { backupDepsFor } from '../../src/backup/backup-deps.js';
import { addRepository, getRepository, removeRepository } from '../../src/repository/repositories.js';
import { toResticRepo } from '../../src/repository/restic-target.js';
import { systemClock } from '../../src/clock.js';
import { silentLogger } from '../../src/log/logger.js';
import { runningChildren } from '../../src/process/spawn.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { waitFor } from '../harness/api.js';
import { tempDir } from '../harness/data-dir.js';
import { freePort, RestServer } from '../backup/run/rest-server.js';
import { addBigModel } from '../electron/desktop-kit.js';
import { S3_ACCESS_KEY_ID, S3Server } from '../backup/run/s3-server.js';
import { FailingHttpsProxy } from './failing-https-proxy.js';
import { backupProgress } from '../harness/open-runs.js';

let t: TestAppliance | null = null;
let rest: RestServer | null = null;
let s3: S3Server | null = null;
let proxy: FailingHttpsProxy | null = null;
after(async () => {
  await rest?.stop();
  await proxy?.stop();
  await s3?.stop();
  await t?.close();
});

async function noLocks(ctx: TestAppliance['appliance']['ctx'], name: string): Promise<void> {
  const repo = getRepository(ctx.writer, name);
  assert.ok(repo);
  const deps = await backupDepsFor({ db: ctx.writer, dataDir: ctx.dataDir, store: ctx.secrets.store, clock: systemClock, logger: silentLogger });
  assert.deepEqual(await deps.restic.listLocks(toResticRepo(repo, deps.vault, deps.passphrase)), [], `no lock is left in "${name}"`);
}

test('the REST offsite is killed mid-upload: bounded retries, the offsite failure path, no child and no lock left', async () => {
  t = await startTestAppliance({ settings: { offsite_stall_seconds: 3, offsite_retries: 1, offsite_retry_backoff_seconds: 1 } });
  const ctx = t.appliance.ctx;
  rest = new RestServer(tempDir(), await freePort());
  await rest.start();
  addRepository(ctx.writer, ctx.secrets.vault, { name: 'nas', type: 'rest', location: rest.url }, systemClock);
  await addBigModel(ctx);

  const run = ctx.backups.run('manual');
  const uploader = await waitFor(
    () => {
      const p = backupProgress(ctx);
      return p?.phase === 'upload' && p.repository === 'nas' && p.bytes_done > 0 ? runningChildren().find((c) => c.args.includes('backup')) : undefined;
    },
    120_000,
    'restic uploading to the offsite',
  );
  // Frozen while the server dies, so the upload cannot finish first on a fast machine.
  assert.ok(uploader.pid !== undefined);
  process.kill(uploader.pid, 'SIGSTOP');
  await rest.stop('SIGKILL');
  process.kill(uploader.pid, 'SIGCONT');

  const outcome = await run;
  assert.equal(outcome.status, 'partial', JSON.stringify(outcome));
  assert.equal(outcome.repositories.find((r) => r.name === 'local')?.ok, true, 'the local backup is not failed by the offsite');
  const nas = outcome.repositories.find((r) => r.name === 'nas');
  assert.equal(nas?.ok, false);
  assert.match(nas?.error ?? '', /stopped answering during the upload .*2 tries|unreachable|could not be reached/i);
  assert.ok(
    openAlerts(ctx.writer).some((a) => a.key === 'backup.offsite_failed:nas'),
    'the offsite failure alerts',
  );
  await waitFor(() => runningChildren().length === 0, 30_000, 'no restic left running');

  await rest.start();
  await waitFor(() => !ctx.backups.busy, 60_000, 'the first run to end');
  const again = await ctx.backups.run('manual');
  assert.equal(again.status, 'ok', JSON.stringify(again.repositories));
  assert.ok(!openAlerts(ctx.writer).some((a) => a.key === 'backup.offsite_failed:nas'), 'the alert resolves');
  await noLocks(ctx, 'nas');
  await rest.stop();
  removeRepository(ctx.writer, ctx.secrets.vault, 'nas');
});

test('the S3 endpoint answers 500 to everything: bounded retries, the offsite failure path, then back to normal', async () => {
  assert.ok(t, 'runs after the REST test, on the same appliance');
  const ctx = t.appliance.ctx;
  s3 = new S3Server(tempDir(), await freePort());
  await s3.start();
  proxy = new FailingHttpsProxy(await freePort(), s3.port, s3.keyPath, s3.certPath);
  await proxy.start();
  addRepository(
    ctx.writer,
    ctx.secrets.vault,
    {
      name: 'cloud',
      type: 's3',
      location: `https://127.0.0.1:${proxy.port}/${s3.bucket}/sanad`,
      secret: 'any-secret-s3rver-accepts',
      options: { access_key_id: S3_ACCESS_KEY_ID, region: 'us-east-1', cacert: s3.certPath },
    },
    systemClock,
  );
  const first = await ctx.backups.run('manual');
  assert.equal(first.status, 'ok', JSON.stringify(first.repositories));
  await waitFor(() => !ctx.backups.busy, 60_000, 'maintenance after the first run');

  proxy.failing = true;
  const failed = await ctx.backups.run('manual');
  assert.equal(failed.status, 'partial', JSON.stringify(failed.repositories));
  assert.equal(failed.repositories.find((r) => r.name === 'local')?.ok, true);
  assert.equal(failed.repositories.find((r) => r.name === 'cloud')?.ok, false);
  assert.ok(openAlerts(ctx.writer).some((a) => a.key === 'backup.offsite_failed:cloud'));
  await waitFor(() => runningChildren().length === 0, 30_000, 'no restic left running');

  proxy.failing = false;
  await waitFor(() => !ctx.backups.busy, 60_000, 'the failed run to end');
  const again = await ctx.backups.run('manual');
  assert.equal(again.status, 'ok', JSON.stringify(again.repositories));
  assert.ok(!openAlerts(ctx.writer).some((a) => a.key === 'backup.offsite_failed:cloud'), 'the alert resolves');
  await noLocks(ctx, 'cloud');
});
