// An external disk as a backup target (a folder repository) on a real ext4 loop device: while the
// disk is connected backups go there; unplugged, the backup says the disk is not connected and
// writes nothing under the empty mount point (restic would happily create a repository there, on
// the computer's own disk); plugged in again, the next backup goes to the disk. A repository that
// vanished from a connected disk is never silently started again either.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { backupDepsFor } from '../../../src/backup/backup-deps.js';
import { getRepository } from '../../../src/repository/repositories.js';
import { toResticRepo } from '../../../src/repository/restic-target.js';
import { backupHere } from '../../../src/jobs/run-here.js';
import { systemClock } from '../../../src/clock.js';
import { silentLogger } from '../../../src/log/logger.js';
import { startTestAppliance, type TestAppliance } from '../../harness/appliance.js';
import { field, str } from '../../harness/api.js';
import { makeLoopDisk } from '../../harness/loop-disk.js';

let t: TestAppliance | null = null;
const disk = makeLoopDisk(64);
after(async () => {
  await t?.close();
  if (typeof disk !== 'string') disk.remove();
});

test(
  'an external disk target: backed up to, refused while unplugged (nothing written), used again when plugged in',
  { skip: typeof disk === 'string' ? disk : false },
  async () => {
    if (typeof disk === 'string') return;
    t = await startTestAppliance();
    const { ctx } = t.appliance;
    const folder = join(disk.mountPoint, 'sanad');

    const added = await t.api.post('/admin/repositories', { name: 'usb', type: 'folder', location: folder });
    assert.equal(added.status, 201, added.text);
    assert.equal(str(added.body, 'options', 'mount_point'), disk.mountPoint, 'Sanad found the disk the folder is on');
    const taken = await t.api.post('/admin/repositories', { name: 'usb2', type: 'folder', location: folder });
    assert.equal(taken.status, 400, 'one folder is one repository');
    const relative = await t.api.post('/admin/repositories', { name: 'rel', type: 'folder', location: 'backups/here' });
    assert.equal(relative.status, 400);
    assert.equal(field(relative.body, 'error', 'param'), 'location');

    const deps = await backupDepsFor({ db: ctx.writer, dataDir: t.dataDir, store: ctx.secrets.store, clock: systemClock, logger: silentLogger });
    const first = await backupHere(deps, { trigger: 'test' });
    assert.equal(first.status, 'ok', JSON.stringify(first));
    assert.ok(existsSync(join(folder, 'config')), 'the disk holds a restic repository');

    disk.disconnect();
    assert.deepEqual(readdirSync(disk.mountPoint), [], 'the mount point is an empty folder now');
    const probe = await t.api.post('/admin/repositories/usb/test');
    assert.equal(field(probe.body, 'ok'), false);
    assert.equal(field(probe.body, 'said', 'code'), 'folder.not_connected');
    // The retention preview does not ask restic about an empty mount point either.
    const preview = await t.api.post('/admin/retention/preview', { retention_keep_daily: 3 });
    const previewed = field(preview.body, 'repositories');
    assert.ok(Array.isArray(previewed));
    assert.equal(
      field(
        previewed.find((r) => field(r, 'name') === 'usb'),
        'error_said',
        'code',
      ),
      'folder.not_connected',
    );
    const away = await backupHere(deps, { trigger: 'test' });
    assert.equal(away.status, 'partial', 'the local backup still went through');
    const usb = away.repositories.find((r) => r.name === 'usb');
    assert.equal(usb?.ok, false);
    assert.match(usb?.error ?? '', /The disk of "usb" is not connected: nothing is mounted at .*mnt/);
    assert.deepEqual(readdirSync(disk.mountPoint), [], 'nothing was written under the empty mount point');
    const alerts = await t.api.get('/admin/alerts');
    assert.match(alerts.text, /folder\.not_connected/, "the alert carries the saying, so the GUI words it in the reader's language");

    disk.connect();
    const back = await backupHere(deps, { trigger: 'test' });
    assert.equal(back.status, 'ok', JSON.stringify(back));
    const repo = getRepository(ctx.db, 'usb');
    assert.ok(repo);
    const snaps = await deps.restic.snapshots(toResticRepo(repo, deps.vault, deps.passphrase), { tags: ['sanad'] });
    assert.equal(snaps.length, 2, 'the first backup and the one after the disk came back are both on the disk');

    // The repository gone from a connected disk (another disk at the same place, or one wiped):
    // refused, and no new repository is started where one was.
    rmSync(folder, { recursive: true, force: true });
    const gone = await backupHere(deps, { trigger: 'test' });
    assert.match(gone.repositories.find((r) => r.name === 'usb')?.error ?? '', /are not in .* any more/);
    assert.equal(existsSync(folder), false, 'no new repository was started');
  },
);
