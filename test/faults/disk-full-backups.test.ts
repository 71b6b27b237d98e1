// Backups, drills and restores on a real full disk (tmpfs): a backup whose staging runs out of room
// leaves no `.partial`, fails with a sentence naming the disk and alerts; a drill whose scratch
// runs out is UNVERIFIED naming the disk, never FAIL; a restore whose target disk fills up leaves
// the target absent; and once space is back the next backup and drill succeed as before.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startAppliance, type Appliance } from '../../src/appliance/appliance.js';
import { openAlerts } from '../../src/store/alerts.js';
import { systemClock } from '../../src/clock.js';
import { silentLogger } from '../../src/log/logger.js';
import { openStore } from '../../src/store/open.js';
import { EventHub } from '../../src/tasks/event-hub.js';
import { TaskLedger } from '../../src/tasks/ledger.js';
import { field, str } from '../harness/api.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { mountSmallDisk, type SmallDisk } from '../harness/small-disk.js';
import { runCli } from '../cli/run-cli.js';
import { stagingDir, storePath } from '../../src/files/data-dir-layout.js';

const disk = mountSmallDisk(48);
const targetDisk = mountSmallDisk(3);
let app: Appliance | null = null;
let dataDir = '';

before(async () => {
  if (typeof disk === 'string' || typeof targetDisk === 'string') return;
  dataDir = join(disk.path, 'data');
  await prepareDataDir({}, dataDir);
  // About 6 MB of real task rows (random text, so nothing compresses it away).
  const db = openStore(storePath(dataDir));
  const ledger = new TaskLedger(db, systemClock, new EventHub());
  ledger.createMany(
    Array.from({ length: 300 }, () => ({
      input: {
        clientId: null,
        model: 'tiny',
        request: { model: 'tiny', input: randomBytes(10_000).toString('hex'), instructions: null, max_output_tokens: null, temperature: null, top_p: null },
        metadata: null,
        background: true,
        store: true,
        onRestart: 'fail' as const,
      },
    })),
  );
  db.close();
  app = await startAppliance({ dataDir, port: 0, logger: silentLogger });
});

after(async () => {
  await app?.close();
  for (const d of [disk, targetDisk]) if (typeof d !== 'string') d.unmount();
});

const partials = (): string[] => (existsSync(stagingDir(dataDir)) ? readdirSync(stagingDir(dataDir)).filter((n) => n.endsWith('.partial')) : []);

test('a full disk under staging, the drill scratch and a restore target: clear answers, nothing half-done, recovered after', async (t) => {
  if (typeof disk === 'string') return t.skip(disk);
  if (typeof targetDisk === 'string') return t.skip(targetDisk);
  if (!app) throw new Error('no appliance');
  const { backups, drills, db } = app.ctx;
  const d: SmallDisk = disk;

  const first = await backups.run('manual');
  assert.equal(first.status, 'ok', first.error ?? '');
  assert.equal((await drills.run('daily', 'manual')).verdict, 'PASS');

  // Room for the run's bookkeeping, not for a copy of the ~6 MB store.
  d.fill(2 * 1024 * 1024);
  const failed = await backups.run('manual');
  assert.equal(failed.status, 'failed');
  assert.match(failed.error ?? '', /The disk holding the backup staging folder \(.*\) is full/);
  assert.ok((failed.error ?? '').includes(d.path), failed.error ?? '');
  assert.deepEqual(partials(), [], 'no half generation is left in staging');
  const alert = openAlerts(db).find((a) => a.key === 'backup.failed');
  assert.match(alert?.message ?? '', /is full/, 'the alert gives the reason');

  const drill = await drills.run('daily', 'manual');
  assert.equal(drill.verdict, 'UNVERIFIED', JSON.stringify(drill.checks));
  const integrity = drill.checks.find((c) => c.name === 'local:sqlite:integrity');
  assert.equal(integrity?.status, 'unverified');
  assert.match(integrity?.detail ?? '', /scratch folder .* is full/);
  assert.ok(!drill.checks.some((c) => c.status === 'fail'), 'a full scratch disk is never damage');

  d.free();
  const again = await backups.run('manual');
  assert.equal(again.status, 'ok', again.error ?? '');
  assert.ok(!openAlerts(db).some((a) => a.key === 'backup.failed'), 'the alert resolves with the next good backup');
  assert.equal((await drills.run('daily', 'manual')).verdict, 'PASS');

  // A restore into a 3 MB disk: the ~6 MB store cannot fit; the target goes back to absent.
  const target = join(targetDisk.path, 'restored');
  const restore = await runCli(['restore', '--target', target, '--data-dir', dataDir, '--json'], 120_000);
  assert.equal(restore.code, 1, restore.stderr);
  const body: unknown = JSON.parse(restore.stdout);
  const error = str(body, 'error');
  assert.match(error, /The disk holding the restore target \(.*\) is full/);
  assert.match(error, /was removed/);
  assert.equal(field(body, 'target'), target);
  assert.ok(!existsSync(target), 'the target is absent again');
  assert.deepEqual(readdirSync(targetDisk.path), [], 'nothing is left on the target disk');
});
