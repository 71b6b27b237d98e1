// The desktop app's main process (dist/electron/main.js) with the stand-in Electron, a real core
// and real restic: the tray's health follows a real failing offsite (a REST server that is not
// running) and its recovery; one notification per new alert, none again after a restart; suspend
// stops a running restic cleanly and resume runs one retry; Quit stops the core and everything it
// started, and leaves the store closed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addRepository } from '../../src/repository/repositories.js';
import { confirmRecoveryKit } from '../../src/secrets/recovery-kit.js';
import { systemClock } from '../../src/clock.js';
import { openStore } from '../../src/store/open.js';
import type { ServiceContext } from '../../src/service/context.js';
import { waitFor } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { freePort, RestServer } from '../backup/run/rest-server.js';
import { localTarget } from '../drill/kit.js';
import { addBigModel, alive } from './desktop-kit.js';
import type { DesktopApp } from './stand-in/driver.js';
import { launchApp, portOpen, quitAndWait, trayState, trayTooltip } from './stand-in/launch.js';
import { serviceFilePath, storePath } from '../../src/files/data-dir-layout.js';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A prepared data dir, changed first by `setUp` in an appliance of the test's own (then closed). */
async function dataDirWith(setUp: (ctx: ServiceContext) => Promise<void> | void): Promise<{ dataDir: string; adminToken: string }> {
  const { dataDir, adminToken } = await prepareDataDir();
  const t = await startTestAppliance({ dataDir, adminToken });
  try {
    await setUp(t.appliance.ctx);
  } finally {
    await t.close();
  }
  return { dataDir, adminToken };
}

/** Backup runs that ended, read beside the running app (WAL: a reader does not block it). */
function finishedRuns(dataDir: string): number {
  const db = openStore(storePath(dataDir), { readonly: true });
  try {
    return db.prepare<[], { n: number }>("SELECT count(*) AS n FROM runs WHERE kind = 'backup' AND status NOT IN ('queued','running')").get()?.n ?? 0;
  } finally {
    db.close();
  }
}

/** restic with its uploads held to 8 MiB/s (its own --limit-upload): a backup lasts long enough to act during it. */
function slowRestic(): string {
  const path = join(tempDir('sanad-slow-restic-'), 'restic');
  writeFileSync(path, '#!/bin/sh\nexec restic --limit-upload=8192 "$@"\n', { mode: 0o755 });
  return path;
}

function serviceOrigin(dataDir: string): string {
  const info: unknown = JSON.parse(readFileSync(serviceFilePath(dataDir), 'utf8'));
  assert.ok(typeof info === 'object' && info !== null && 'url' in info && typeof info.url === 'string');
  return new URL(info.url).origin;
}

/** Quit, then what must be true of a clean stop: the port closed, no child left, the store closed. */
async function quitCleanly(app: DesktopApp, dataDir: string, how: Parameters<typeof quitAndWait>[1]): Promise<void> {
  const origin = serviceOrigin(dataDir);
  const children = app.descendants().filter((c) => !/chrom/i.test(c.cmdline));
  await quitAndWait(app, how);
  assert.equal(await portOpen(origin), false, 'the core no longer listens');
  for (const c of children) assert.equal(alive(c.pid), false, `no child is left: ${c.cmdline}`);
  assert.equal(existsSync(serviceFilePath(dataDir)), false, 'service.json is gone');
  // better-sqlite3 checkpoints and removes the WAL when the last connection closes cleanly.
  assert.equal(existsSync(`${storePath(dataDir)}-wal`), false, 'the store was closed (no WAL left)');
}

test('stand-in Electron: the tray follows a failing offsite and its recovery; one notification, not again after a restart; Quit is clean', async () => {
  const rest = new RestServer(tempDir(), await freePort()); // not started yet: the offsite is down
  const { dataDir } = await dataDirWith((ctx) => {
    addRepository(ctx.writer, ctx.secrets.vault, { name: 'nas', type: 'rest', location: rest.url }, systemClock);
    confirmRecoveryKit(ctx.writer, systemClock);
  });
  const home = tempDir('sanad-home-');
  let app = launchApp({ home, dataDir, args: ['--hidden'] });
  let s = await app.until((st) => (st.tray?.menu.length ?? 0) > 0 && st, 'the tray menu');
  assert.equal(s.windows.length, 0, 'started hidden (--hidden): no window until asked');
  assert.ok(s.trayImages.length > 0 && s.trayImages.every((p) => existsSync(p)), 'every tray icon file exists');
  assert.match(trayTooltip(s), /No backup has completed yet/);

  await app.send({ op: 'tray-click', label: 'Back up now' });
  s = await app.until(
    (st) => trayState(st) === 'warning' && /Offsite backup failing: nas/.test(trayTooltip(st)) && st,
    'the tray to show the failing offsite',
    120_000,
  );
  assert.ok(
    s.trayImages.some((p) => p.endsWith('tray-running.png')),
    'it showed the backup running',
  );
  assert.ok(
    s.tray?.menu.some((i) => /^Last good backup: just now/.test(i.label)),
    'the local backup itself succeeded',
  );
  s = await app.until((st) => st.notifications.length > 0 && st, 'the notification');
  assert.deepEqual(
    s.notifications.map((n) => n.title),
    ['Offsite backup to nas is failing'],
  );
  assert.ok(s.notifications.every((n) => existsSync(n.icon)));
  // The same failure again is the same alert: no second notification.
  await app.send({ op: 'tray-click', label: 'Back up now' });
  await waitFor(() => finishedRuns(dataDir) === 2, 120_000, 'the second run');
  await app.until((st) => trayState(st) === 'warning' && st, 'the tray after the second run');
  await pause(1_000);
  assert.equal((await app.state()).notifications.length, 1, 'one notification for one alert');
  await quitCleanly(app, dataDir, { op: 'tray-click', label: 'Quit Sanad' });

  // A restart with the alert still open: the tray shows it at once, nobody is notified again.
  app = launchApp({ home, dataDir, args: ['--hidden'] });
  s = await app.until((st) => /Offsite backup failing: nas/.test(trayTooltip(st)) && st, 'the open alert after the restart');
  await pause(1_500);
  assert.deepEqual((await app.state()).notifications, [], 'not notified again after a restart');

  await rest.start();
  try {
    await app.send({ op: 'tray-click', label: 'Back up now' });
    s = await app.until((st) => trayState(st) === 'healthy' && st, 'the tray to recover', 120_000);
    assert.doesNotMatch(trayTooltip(s), /Offsite/);
    assert.match(trayTooltip(s), /backups are healthy/);
    assert.deepEqual(s.notifications, [], 'a recovery is not a notification');
    await quitCleanly(app, dataDir, { op: 'quit' });
  } finally {
    await rest.stop();
  }
});

test('stand-in Electron: suspend during a backup stops restic cleanly, resume runs one retry, Quit mid-backup leaves nothing behind', async () => {
  // Scheduled backups on (a paused schedule is the user's choice: resume would not retry): the
  // first start has no backup yet, so the schedule's catch-up runs at once.
  const { dataDir, adminToken } = await dataDirWith(async (ctx) => {
    await addBigModel(ctx);
    ctx.updateSettings({ backup_paused: false });
  });
  const app = launchApp({ dataDir, args: ['--hidden'], env: { SANAD_RESTIC: slowRestic() } });
  const uploading = (): { pid: number; cmdline: string } | undefined =>
    app.descendants().find((c) => /restic/.test(c.cmdline) && / backup /.test(` ${c.cmdline} `));
  const restic = await waitFor(uploading, 90_000, 'restic backing up');
  await app.until((st) => /Backing up… [1-9]\d*%/.test(trayTooltip(st)), 'upload progress in the tray', 90_000);

  await app.send({ op: 'power', event: 'suspend' });
  await waitFor(() => !alive(restic.pid), 30_000, 'restic to stop on suspend');
  let s = await app.until((st) => /was interrupted/.test(trayTooltip(st)) && st, 'the interrupted line');
  assert.notEqual(trayState(s), 'failing', 'an interruption the shell caused is not painted red');
  assert.deepEqual(s.notifications, [], 'and notifies nobody');

  await app.send({ op: 'power', event: 'resume' });
  const retry = await waitFor(uploading, 60_000, "the retry's restic").catch((err: unknown) => {
    throw new Error(`${String(err)}\n${app.logTail()}`);
  });
  assert.notEqual(retry.pid, restic.pid);
  s = await app.state();
  assert.deepEqual(s.notifications, []);
  await quitCleanly(app, dataDir, { op: 'tray-click', label: 'Quit Sanad' });
  assert.equal(alive(retry.pid), false, 'Quit stopped the running restic');

  const db = openStore(storePath(dataDir), { readonly: true });
  const runs = db.prepare<[], { trigger: string; status: string }>("SELECT trigger, status FROM runs WHERE kind = 'backup' ORDER BY id").all();
  db.close();
  assert.equal(runs.length, 2, JSON.stringify(runs));
  assert.equal(runs[1]?.trigger, 'resume', `one retry on resume, nothing more: ${JSON.stringify(runs)}`);
  assert.ok(
    runs.every((r) => r.status !== 'running'),
    `no run is left "running": ${JSON.stringify(runs)}`,
  );
  // Neither the suspend nor the Quit left a lock in the repository.
  const t = await startTestAppliance({ dataDir, adminToken });
  try {
    const { target, deps } = await localTarget(t.appliance.ctx);
    assert.deepEqual(await deps.restic.listLocks(target), [], 'no restic lock is left');
  } finally {
    await t.close();
  }
});

test('stand-in Electron: on battery (powerMonitor) with "not on battery" set, the due backup waits; plugged in and woken, it runs', async () => {
  const { dataDir } = await dataDirWith((ctx) => {
    ctx.updateSettings({ backup_paused: false, backup_skip_on_battery: true });
  });
  const app = launchApp({ dataDir, args: ['--hidden'], env: { SANAD_STAND_IN_ON_BATTERY: '1' } });
  try {
    await app.until((st) => (st.tray?.menu.length ?? 0) > 0 && st, 'the tray menu');
    // The first start's schedule check has run (it runs before the tray shows): it held the backup.
    await pause(3_000);
    assert.equal(finishedRuns(dataDir), 0, 'no backup on battery');
    await app.send({ op: 'battery', on: false });
    await app.send({ op: 'power', event: 'resume' });
    await waitFor(() => finishedRuns(dataDir) === 1, 120_000, 'the held backup, once plugged in');
    await quitCleanly(app, dataDir, { op: 'quit' });
  } finally {
    await app.kill();
  }
});
