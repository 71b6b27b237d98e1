// The faults' alerts in the desktop shell: a full disk and a keychain that stopped answering are
// failing lines of their own in the tray, a nearly full disk a warning; each gives one native
// notification per occurrence (not one per poll), and the tray reads them from the core's status.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BackupStatus } from '../../src/contract/backups.js';
import type { DrillStatus } from '../../src/contract/drills.js';
import { planAlertNotices } from '../../electron/logic/notify-dedupe.js';
import { trayInputFrom } from '../../electron/logic/tray-input.js';
import { trayModel } from '../../electron/logic/tray-model.js';

const NOW = 1_800_000_000;
const alert = (key: string, severity: 'critical' | 'warning', first = NOW - 60) => ({
  key,
  severity,
  message: `${key} happened`,
  code: 'said.text',
  params: { text: `${key} happened` },
  first_seen: first,
  last_seen: NOW,
  count: 1,
  resolved_at: null,
  accepted_at: null,
  snoozed_until: null,
});
const backups = (alerts: BackupStatus['alerts']): BackupStatus => ({
  paused: false,
  interval_hours: 6,
  time_of_day: null,
  held_by: null,
  next_run_at: null,
  last_run: null,
  last_ok_at: NOW - 3600,
  repositories: [],
  alerts,
});
const drills: DrillStatus = {
  paused: false,
  last: { daily: { id: 1, kind: 'daily', trigger: 'schedule', verdict: 'PASS', started_at: NOW - 100, finished_at: NOW - 50 }, deep: null },
  next_drill_at: null,
  next_deep_at: null,
};
const model = (alerts: BackupStatus['alerts']) =>
  trayModel(trayInputFrom({ backups: backups(alerts), drills, recoveryKitConfirmedAt: 1, nowS: NOW, openAtLogin: false, openRuns: [], held: new Set() }));

test('tray: a full disk and a silent keychain fail with their own line; a nearly full disk warns', () => {
  assert.equal(model([]).state, 'healthy');
  const full = model([alert('disk.full', 'critical')]);
  assert.equal(full.state, 'failing');
  assert.ok(
    full.lines.some((l) => /disk .* is full/.test(l)),
    full.lines.join('\n'),
  );
  assert.ok(!full.lines.some((l) => /other alert/.test(l)), 'not counted as an unknown alert');
  const low = model([alert('disk.low', 'warning')]);
  assert.equal(low.state, 'warning');
  assert.ok(low.lines.some((l) => /nearly full/.test(l)));
  const keychain = model([alert('secrets.keychain_unavailable', 'critical')]);
  assert.equal(keychain.state, 'failing');
  assert.ok(keychain.lines.some((l) => /keychain is not answering/.test(l)));
  const inFile = model([alert('secrets.in_file', 'warning')]);
  assert.equal(inFile.state, 'warning');
  assert.ok(
    inFile.lines.some((l) => /keys are in a file, not in the OS keychain/.test(l)),
    inFile.lines.join('\n'),
  );
});

test('notifications: one per occurrence of disk.full and of the keychain alert', () => {
  const first = planAlertNotices({}, [alert('disk.full', 'critical'), alert('secrets.keychain_unavailable', 'critical'), alert('disk.low', 'warning')]);
  assert.deepEqual(
    first.show.map((n) => n.title),
    ['The disk is full', 'The OS keychain is not answering'],
  );
  const again = planAlertNotices(first.notified, [alert('disk.full', 'critical'), alert('secrets.keychain_unavailable', 'critical')]);
  assert.deepEqual(again.show, [], 'the same occurrence stays quiet');
  const later = planAlertNotices(again.notified, [alert('disk.full', 'critical', NOW + 500)]);
  assert.deepEqual(
    later.show.map((n) => n.title),
    ['The disk is full'],
    'a new occurrence notifies again',
  );
});

test('tray and notifications: an accepted or snoozed warning is quiet; a snoozed critical alert still fails the tray but is not notified until the snooze ends', () => {
  const accepted = { ...alert('secrets.in_file', 'warning'), accepted_at: NOW - 10 };
  assert.equal(model([accepted]).state, 'healthy', 'the accepted secrets-file warning no longer turns the tray amber');
  const snoozedLow = { ...alert('disk.low', 'warning'), snoozed_until: NOW + 3600 };
  assert.equal(model([snoozedLow]).state, 'healthy');
  const snoozedFull = { ...alert('disk.full', 'critical'), snoozed_until: NOW + 3600 };
  assert.equal(model([snoozedFull]).state, 'failing', 'a critical alert always counts');

  const quiet = planAlertNotices({}, [snoozedFull]);
  assert.deepEqual(quiet.show, [], 'snoozed: no notification');
  assert.deepEqual(quiet.notified, {}, 'and not recorded as shown');
  const over = planAlertNotices(quiet.notified, [{ ...snoozedFull, snoozed_until: null }]);
  assert.equal(over.show.length, 1, 'the snooze ended with the alert still open: it is notified now');
});
