// "Copy to offsite now" with real restic and a real REST offsite (rclone serve restic): a backup
// while the offsite is down is partial; once it is back, POST /admin/backups/offsite-copy copies
// that same generation there (no new generation, the same snapshot paths and time), the alert
// clears, a second copy finds it up to date and adds nothing, and the copy is a snapshot a restore
// from that offsite can use (its files are the local snapshot's).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { openAlerts } from '../../../src/store/alerts.js';
import { backupDepsFor } from '../../../src/backup/backup-deps.js';
import { recordedCopies } from '../../../src/repository/backup-runs.js';
import { addRepository, getRepository } from '../../../src/repository/repositories.js';
import { toResticRepo } from '../../../src/repository/restic-target.js';
import { systemClock } from '../../../src/clock.js';
import { OffsiteCatchUp } from '../../../src/contract/backups.js';
import { silentLogger } from '../../../src/log/logger.js';
import { field } from '../../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../../harness/appliance.js';
import { tempDir } from '../../harness/data-dir.js';
import { freePort, RestServer } from './rest-server.js';

let t: TestAppliance | null = null;
let rest: RestServer | null = null;
after(async () => {
  await rest?.stop();
  await t?.close();
});

test('an offsite that was down at the backup gets the same generation by Copy to offsite now, once', async () => {
  t = await startTestAppliance({ settings: { offsite_retries: 0, offsite_stall_seconds: 5 } });
  const ctx = t.appliance.ctx;
  rest = new RestServer(tempDir(), await freePort());
  addRepository(ctx.writer, ctx.secrets.vault, { name: 'nas', type: 'rest', location: rest.url }, systemClock);

  // Nothing to copy before the first backup: said, not an error.
  const early = await t.api.post('/admin/backups/offsite-copy', {});
  assert.equal(early.status, 200, early.text);
  assert.equal(OffsiteCatchUp.parse(early.body).said?.code, 'copy.no_local');

  const first = await ctx.backups.run('manual');
  assert.equal(first.status, 'partial', 'the offsite is down: local ok, the offsite failed');
  assert.ok(openAlerts(ctx.writer).some((a) => a.key === 'backup.offsite_failed:nas'));
  const runsBefore = ctx.writer.prepare("SELECT COUNT(*) AS n FROM runs WHERE kind = 'backup'").get();

  await rest.start();
  const copied = OffsiteCatchUp.parse((await t.api.post('/admin/backups/offsite-copy', {})).body);
  assert.equal(copied.generation, first.generation);
  assert.deepEqual(
    copied.targets.map((x) => [x.name, x.status]),
    [['nas', 'copied']],
  );
  assert.deepEqual(ctx.writer.prepare("SELECT COUNT(*) AS n FROM runs WHERE kind = 'backup'").get(), runsBefore, 'no new generation was made');
  // It is a run of its own kind, in the one record, with the generation it copied.
  const copyRun = field((await t.api.get('/admin/runs?kind=offsite-copy&limit=1')).body, 'data', 0);
  assert.equal(field(copyRun, 'status'), 'ok', JSON.stringify(copyRun));
  assert.equal(field(copyRun, 'trigger'), 'manual');
  assert.equal(field(copyRun, 'generation'), first.generation);
  assert.ok(!openAlerts(ctx.writer).some((a) => a.key === 'backup.offsite_failed:nas'), 'the offsite alert cleared');
  const shown = ctx.backups.status().repositories.find((r) => r.name === 'nas');
  assert.equal(shown?.failing, false);

  const deps = await backupDepsFor({ db: ctx.writer, dataDir: ctx.dataDir, store: ctx.secrets.store, clock: systemClock, logger: silentLogger });
  const repo = (name: string) => {
    const r = getRepository(ctx.writer, name);
    assert.ok(r);
    return toResticRepo(r, deps.vault, deps.passphrase);
  };
  const [localSnap] = await deps.restic.snapshots(repo('local'));
  const nasSnaps = await deps.restic.snapshots(repo('nas'));
  assert.ok(localSnap);
  assert.equal(nasSnaps.length, 1);
  assert.equal(nasSnaps[0]?.original, localSnap.id, 'the offsite snapshot is a copy of the local one');
  assert.deepEqual([nasSnaps[0]?.paths, nasSnaps[0]?.time, nasSnaps[0]?.hostname], [localSnap.paths, localSnap.time, localSnap.hostname]);
  const files = async (name: string, id: string) =>
    (await deps.restic.ls(repo(name), id))
      .filter((n) => n.type === 'file')
      .map((n) => `${n.path} ${n.size}`)
      .sort();
  assert.deepEqual(await files('nas', nasSnaps[0]?.id ?? ''), await files('local', localSnap.id));
  // Restore from the offsite reads Sanad's record of it: the copied generation is there.
  assert.deepEqual(
    recordedCopies(ctx.writer, 'nas').map((c) => [c.generation, c.snapshot_id]),
    [[first.generation, nasSnaps[0]?.short_id]],
  );

  const again = OffsiteCatchUp.parse((await t.api.post('/admin/backups/offsite-copy', {})).body);
  assert.deepEqual(
    again.targets.map((x) => [x.name, x.status]),
    [['nas', 'up_to_date']],
  );
  assert.equal((await deps.restic.snapshots(repo('nas'))).length, 1, 'nothing was copied twice');

  // A typo in the body is a 400 naming the field, as every admin route answers.
  assert.equal((await t.api.post('/admin/backups/offsite-copy', { now: true })).status, 400);
});

test('Copy to offsite now while the offsite is still down: failed for that target, in words, and the alert stays', async () => {
  const app = await startTestAppliance({ settings: { offsite_retries: 0, offsite_stall_seconds: 5 } });
  try {
    const ctx = app.appliance.ctx;
    addRepository(ctx.writer, ctx.secrets.vault, { name: 'gone', type: 'rest', location: `http://127.0.0.1:${await freePort()}/` }, systemClock);
    await ctx.backups.run('manual');
    const answer = OffsiteCatchUp.parse((await app.api.post('/admin/backups/offsite-copy', {})).body);
    const [target] = answer.targets;
    assert.equal(target?.status, 'failed');
    assert.match(target?.said.code ?? '', /^restic\./, "restic's failure as a saying the GUI words");
    assert.match(target?.said.detail ?? '', /gone/);
    assert.ok(openAlerts(ctx.writer).some((a) => a.key === 'backup.offsite_failed:gone'));
  } finally {
    await app.close();
  }
});
