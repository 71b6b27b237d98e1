// Notification deduplication: one notification per alert while it stays open (retries stay quiet),
// again after it was resolved and raised anew, held while the shell's own interruption is retried,
// remembered across restarts; one per finished restore.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Alert } from '../../src/store/alerts.js';
import { DesktopStateFile, readDesktopState } from '../../electron/logic/desktop-state.js';
import { noticeForAlert, parseRestoreFinished, planAlertNotices, RestoreNotices, type NotifiedAlerts } from '../../electron/logic/notify-dedupe.js';
import { rotatingFileSink } from '../../electron/logic/log-file.js';
import { tempDir } from '../harness/data-dir.js';

function alert(key: string, first_seen: number, extra: Partial<Alert> = {}): Alert {
  return { key, severity: 'critical', message: `${key} happened`, first_seen, last_seen: first_seen, count: 1, resolved_at: null, said: null, ...extra };
}

/** Runs a sequence of open-alert lists through the planner, as refreshes would, returning notice ids per step. */
function run(steps: Alert[][], start: NotifiedAlerts = {}, held: Array<Set<string>> = []): { shown: string[][]; notified: NotifiedAlerts } {
  let notified = start;
  const shown: string[][] = [];
  steps.forEach((open, i) => {
    const plan = planAlertNotices(notified, open, held[i] ?? new Set());
    notified = plan.notified;
    shown.push(plan.show.map((n) => n.id));
  });
  return { shown, notified };
}

test('a failing backup retried three times notifies once', () => {
  const first = alert('backup.failed', 100);
  const { shown } = run([
    [first],
    [{ ...first, last_seen: 200, count: 2, message: 'failed again' }],
    [{ ...first, last_seen: 300, count: 3 }],
    [{ ...first, last_seen: 400, count: 4 }],
  ]);
  assert.deepEqual(shown, [['backup.failed@100'], [], [], []]);
});

test('resolved then raised again notifies again, even within the same second', () => {
  const { shown } = run([[alert('drill.failed', 100)], [], [alert('drill.failed', 500)]]);
  assert.deepEqual(shown, [['drill.failed@100'], [], ['drill.failed@500']]);
  // Resolved and re-raised between two refreshes: first_seen changed, so it is news.
  const quick = run([[alert('drill.failed', 100)], [alert('drill.failed', 101)]]);
  assert.deepEqual(quick.shown, [['drill.failed@100'], ['drill.failed@101']]);
  // Resolved and re-raised in the same second, but a refresh saw it gone in between.
  const same = run([[alert('drill.failed', 100)], [], [alert('drill.failed', 100)]]);
  assert.deepEqual(same.shown, [['drill.failed@100'], [], ['drill.failed@100']]);
});

test('each notifying alert maps to its own notification; tray-only alerts never notify', () => {
  const open = [
    alert('backup.failed', 1),
    alert('backup.offsite_failed:r2', 2, { severity: 'warning', message: 'Offsite backup to r2 failed: timeout' }),
    alert('backup.offsite_copy_failed', 3, { severity: 'warning' }),
    alert('drill.failed', 4),
    alert('drill.unverified', 5, { severity: 'warning' }),
    alert('backup.maintenance_failed:local', 6, { severity: 'warning' }),
    alert('backup.old_key_not_removed', 7, { severity: 'warning' }),
  ];
  const plan = planAlertNotices({}, open);
  assert.deepEqual(
    plan.show.map((n) => [n.title, n.urgency]),
    [
      ['Backup failed', 'critical'],
      ['Offsite backup to r2 is failing', 'normal'],
      ['The offsite copy is failing', 'normal'],
      ['Drill FAIL: the backups are damaged', 'critical'],
      ['Drill UNVERIFIED: the backups could not be checked', 'normal'],
    ],
  );
  assert.equal(plan.show[1]?.body, 'Offsite backup to r2 failed: timeout');
  assert.deepEqual(Object.keys(plan.notified).sort(), [
    'backup.failed',
    'backup.offsite_copy_failed',
    'backup.offsite_failed:r2',
    'drill.failed',
    'drill.unverified',
  ]);
  assert.equal(noticeForAlert(alert('backup.failed', 1, { message: 'x'.repeat(1000) }))?.body.length, 240);
});

test('a held alert waits without being recorded, then notifies once the hold ends', () => {
  const failed = alert('backup.failed', 100);
  const hold = new Set(['backup.failed']);
  const { shown, notified } = run([[failed], [{ ...failed, count: 2 }], [{ ...failed, count: 2 }], [{ ...failed, count: 3 }]], {}, [hold, hold]);
  assert.deepEqual(shown, [[], [], ['backup.failed@100'], []]);
  assert.deepEqual(notified, { 'backup.failed': 100 });
  // Other alerts are not held.
  assert.deepEqual(
    planAlertNotices({}, [failed, alert('drill.failed', 5)], hold).show.map((n) => n.id),
    ['drill.failed@5'],
  );
});

test('what was notified survives a restart (the state file), so a still-open alert stays quiet', () => {
  const dir = tempDir('sanad-desktop-state-');
  const path = join(dir, 'desktop-state.json');
  const before = new DesktopStateFile(path);
  assert.deepEqual(before.notified, {});
  assert.equal(before.interrupted, null);
  const plan = planAlertNotices(before.notified, [alert('backup.failed', 100)]);
  assert.equal(plan.show.length, 1);
  before.update({ notified: plan.notified, interrupted: 7 });
  const after = new DesktopStateFile(path);
  assert.deepEqual(after.notified, { 'backup.failed': 100 });
  assert.equal(after.interrupted, 7);
  assert.equal(planAlertNotices(after.notified, [alert('backup.failed', 100, { count: 9 })]).show.length, 0);
  // A damaged file reads as empty (at worst one notification more), never as a crash.
  for (const damaged of ['{"notified": {"backup.failed": 100}', '{"notified": {"backup.failed": "yesterday"}}', '[]']) {
    writeFileSync(path, damaged);
    assert.deepEqual(readDesktopState(path), { notified: {}, interrupted: null }, damaged);
  }
});

test('restores: one notification per finished restore, ok or failed', () => {
  const notices = new RestoreNotices();
  const ok = parseRestoreFinished({ run_id: 41, id: 41, status: 'ok', ok: true, generation: 5, target: '/home/ana/restored', error: null });
  assert.ok(ok);
  assert.equal(notices.notice(ok)?.title, 'Restore finished');
  assert.equal(notices.notice(ok), null, 'the same restore does not notify twice');
  const failed = parseRestoreFinished({ run_id: 42, id: 42, ok: false, target: '/x', error: 'The target folder is not empty.' });
  assert.ok(failed);
  const n = notices.notice(failed);
  assert.equal(n?.title, 'Restore failed');
  assert.equal(n?.body, 'The target folder is not empty. Open Sanad to try again.');
  assert.equal(parseRestoreFinished({ id: 'restore_3', ok: true, target: '/x' }), null, 'an id that is not a run id');
});

test('the log file rotates instead of growing without bound', () => {
  const dir = tempDir('sanad-desktop-log-');
  const path = join(dir, 'logs', 'sanad.log');
  const sink = rotatingFileSink(path, 100);
  for (let i = 0; i < 10; i++) sink(`line ${i} ${'x'.repeat(20)}`);
  const current = readFileSync(path, 'utf8');
  const old = readFileSync(`${path}.1`, 'utf8');
  assert.ok(current.length <= 100 && current.length > 0, current);
  assert.ok(old.length <= 100 && old.length > 0, old);
  assert.match(current, /line 9/);
});
