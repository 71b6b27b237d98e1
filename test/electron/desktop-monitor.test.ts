// The tray and the notifications fed by a real core: real backups failing (the local repository
// made unusable) and succeeding, and a real restore through the GUI's route. One notification per
// alert however many retries fail, a new one after the alert was resolved and raised again, none
// for a still-open alert after an app restart, and one when a restore finishes. Then the same in
// Arabic: the language chosen in the GUI (the `language` setting), else the system's.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAlerts } from '../../src/store/alerts.js';
import { moveLocalRepository } from '../../src/repository/repositories.js';
import { silentLogger } from '../../src/log/logger.js';
import { DesktopMonitor } from '../../electron/logic/desktop-monitor.js';
import { DesktopStateFile } from '../../electron/logic/desktop-state.js';
import type { Notice } from '../../electron/logic/notify-dedupe.js';
import { SleepWake } from '../../electron/logic/sleep-wake.js';
import type { TrayModel } from '../../electron/logic/tray-model.js';
import { waitFor } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { defaultLocalRepository } from '../../src/files/data-dir-layout.js';

let t: TestAppliance | null = null;
after(async () => t?.close());

test('a real core: one notification per alert across retries, again after resolve and raise, none after a restart, one per restore', async () => {
  t = await startTestAppliance();
  const ctx = t.appliance.ctx;
  const statePath = join(tempDir('sanad-userdata-'), 'desktop-state.json');
  const monitorWith = (notices: Notice[], trays: TrayModel[]): DesktopMonitor => {
    const state = new DesktopStateFile(statePath);
    const sleepWake = new SleepWake({ backups: ctx.backups, drills: ctx.drills, record: state, logger: silentLogger });
    return new DesktopMonitor({
      core: ctx,
      state,
      sleepWake,
      logger: silentLogger,
      openAtLogin: () => false,
      systemLocale: () => 'en-US',
      sinks: { tray: (m) => trays.push(m), notify: (n) => notices.push(n) },
    });
  };
  const notices: Notice[] = [];
  const trays: TrayModel[] = [];
  let monitor = monitorWith(notices, trays);
  monitor.start();
  try {
    assert.equal(trays.at(-1)?.state, 'warning');
    assert.ok(trays.at(-1)?.lines.includes('No backup has completed yet'));
    assert.ok(trays.at(-1)?.lines.includes('The recovery kit is not confirmed as stored safely'));

    // The local repository's location is a regular file: every backup fails.
    const blocker = join(tempDir('sanad-blocked-'), 'not-a-folder');
    writeFileSync(blocker, 'x');
    moveLocalRepository(ctx.writer, blocker);
    for (let i = 0; i < 3; i++) assert.equal((await ctx.backups.run('manual')).status, 'failed');
    await waitFor(() => notices.length > 0, 10_000, 'a notification');
    assert.equal(openAlerts(ctx.writer).find((a) => a.key === 'backup.failed')?.count, 3, 'three failures on one alert');
    assert.deepEqual(
      notices.map((n) => n.title),
      ['Backup failed'],
      'one notification, not one per retry',
    );
    assert.equal(notices[0]?.urgency, 'critical');
    assert.equal(monitor.model?.state, 'failing');

    // Fixed: a good backup resolves the alert (and the tray leaves red).
    moveLocalRepository(ctx.writer, defaultLocalRepository(t.dataDir));
    assert.equal((await ctx.backups.run('manual')).status, 'ok');
    await waitFor(() => monitor.model?.state === 'warning', 10_000, 'the tray to leave failing');
    assert.ok(monitor.model?.lastBackupLine.startsWith('Last good backup: '));

    // Broken again: a new occurrence of the alert, so a new notification.
    moveLocalRepository(ctx.writer, blocker);
    assert.equal((await ctx.backups.run('manual')).status, 'failed');
    await waitFor(() => notices.length === 2, 10_000, 'a second notification');
    assert.deepEqual(
      notices.map((n) => n.title),
      ['Backup failed', 'Backup failed'],
    );
    assert.notEqual(notices[0]?.id, notices[1]?.id);

    // The app restarts (same state file): the alert is still open, and nobody is told twice.
    monitor.stop();
    const after: Notice[] = [];
    monitor = monitorWith(after, []);
    monitor.start();
    monitor.refresh();
    assert.equal(after.length, 0, 'no notification after the restart');
    assert.equal(monitor.model?.state, 'failing');

    // A restore through the GUI's route: one notification when it finishes.
    moveLocalRepository(ctx.writer, defaultLocalRepository(t.dataDir));
    const target = join(tempDir('sanad-restore-'), 'restored');
    const started = await t.api.post('/admin/restore', { target });
    assert.equal(started.status, 202, started.text);
    await waitFor(() => after.length > 0, 120_000, 'the restore notification');
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(
      after.map((n) => [n.title, n.body]),
      [['Restore finished', `The data was restored and verified in ${target}.`]],
    );
  } finally {
    monitor.stop();
  }
});

test("the tray and the notifications speak the language chosen in the GUI, else the system's", async () => {
  await t?.close();
  t = await startTestAppliance();
  const ctx = t.appliance.ctx;
  const state = new DesktopStateFile(join(tempDir('sanad-userdata-'), 'desktop-state.json'));
  const sleepWake = new SleepWake({ backups: ctx.backups, drills: ctx.drills, record: state, logger: silentLogger });
  const notices: Notice[] = [];
  const trays: TrayModel[] = [];
  let locale = 'ar_EG.UTF-8';
  const monitor = new DesktopMonitor({
    core: ctx,
    state,
    sleepWake,
    logger: silentLogger,
    openAtLogin: () => false,
    systemLocale: () => locale,
    sinks: { tray: (m) => trays.push(m), notify: (n) => notices.push(n) },
  });
  monitor.start();
  try {
    // No choice made yet: the system's Arabic.
    assert.equal(monitor.model?.lines[0], 'سند: النسخ الاحتياطية تحتاج إلى انتباه');
    assert.ok(monitor.model?.lines.includes('لم تكتمل أي نسخة احتياطية بعد'));
    assert.equal(monitor.model?.lastBackupLine, 'آخر نسخة احتياطية سليمة: لا شيء بعد');
    assert.deepEqual(monitor.model?.menu.flatMap((m) => (m.type === 'separator' ? [] : [m.label])).slice(0, 3), [
      'افتح سند',
      'انسخ احتياطيًا الآن',
      'شغّل اختبار استعادة',
    ]);

    // A failure: the notification is Arabic, title and body (the core's English sentence is not shown).
    const blocker = join(tempDir('sanad-blocked-'), 'not-a-folder');
    writeFileSync(blocker, 'x');
    moveLocalRepository(ctx.writer, blocker);
    assert.equal((await ctx.backups.run('manual')).status, 'failed');
    await waitFor(() => notices.length > 0, 10_000, 'a notification');
    assert.deepEqual(
      notices.map((n) => [n.title, n.body]),
      [['فشل النسخ الاحتياطي', 'افتح سند لمعرفة التفاصيل.']],
    );

    // The person chooses English in the GUI: the tray follows at once, whatever the system says.
    assert.equal((await t.api.request('PATCH', '/admin/settings', { language: 'en' })).status, 200);
    monitor.refresh();
    assert.equal(monitor.model?.lines[0], 'Sanad: backups are failing');
    // And Arabic again, on an English system; ages and counts take Arabic's own forms.
    locale = 'en-US';
    assert.equal((await t.api.request('PATCH', '/admin/settings', { language: 'ar' })).status, 200);
    moveLocalRepository(ctx.writer, defaultLocalRepository(t.dataDir));
    assert.equal((await ctx.backups.run('manual')).status, 'ok');
    monitor.refresh();
    assert.equal(monitor.model?.lastBackupLine, 'آخر نسخة احتياطية سليمة: الآن');
    assert.doesNotMatch(monitor.model?.tooltip ?? '', /[A-Za-z]/, 'no English in the Arabic tooltip');
  } finally {
    monitor.stop();
  }
});
