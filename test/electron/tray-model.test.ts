// The tray model for every combination of what the core can report: backup running or not; last
// backup none / fresh / too old / failed / interrupted by the shell (sleep, Quit); last drill none / PASS / FAIL / UNVERIFIED; recovery kit
// confirmed or not; offsite ok or failing; backups paused or not (2·5·4·2·2·2 = 320 cases). The
// expected state comes from the rule as the issue states it, written independently here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BackupStatus } from '../../src/contract/backups.js';
import type { DrillStatus } from '../../src/contract/drills.js';
import { trayInputFrom } from '../../electron/logic/tray-input.js';
import { fitTooltip, TOOLTIP_MAX, trayModel, type TrayInput, type TrayMenuItem, type TrayState } from '../../electron/logic/tray-model.js';
import type { Run } from '../../src/contract/runs.js';

const NOW = 1_800_000_000;
const H = 3600;
const TARGET = 12 * H;

type LastBackup = 'none' | 'fresh' | 'stale' | 'failed' | 'interrupted';
type Drill = 'none' | 'PASS' | 'FAIL' | 'UNVERIFIED';
interface Case {
  running: boolean;
  last: LastBackup;
  drill: Drill;
  kit: boolean;
  offsite: boolean;
  paused: boolean;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const running of [false, true])
    for (const last of ['none', 'fresh', 'stale', 'failed', 'interrupted'] as const)
      for (const drill of ['none', 'PASS', 'FAIL', 'UNVERIFIED'] as const)
        for (const kit of [true, false])
          for (const offsite of [false, true]) for (const paused of [false, true]) out.push({ running, last, drill, kit, offsite, paused });
  return out;
}

function input(c: Case): TrayInput {
  return {
    nowS: NOW,
    backupRunning: c.running,
    backupPercent: c.running ? 42 : null,
    backupPaused: c.paused,
    // A failed last run keeps the previous good backup's time: a fresh one, so the failure alone decides.
    backupFailed: c.last === 'failed',
    backupInterrupted: c.last === 'interrupted',
    lastOkAt: c.last === 'none' ? null : c.last === 'stale' ? NOW - 30 * H : NOW - 2 * H,
    backupTargetS: TARGET,
    offsiteFailing: c.offsite ? ['r2'] : [],
    drillRunning: false,
    lastDrill: c.drill === 'none' ? null : { verdict: c.drill, kind: 'daily', finishedAt: NOW - 5 * H },
    drillFailed: c.drill === 'FAIL',
    drillUnverified: c.drill === 'UNVERIFIED',
    recoveryKitConfirmed: c.kit,
    otherAlerts: [],
    openAtLogin: false,
  };
}

/** The rule: failing (backup failed, drill FAIL) > running > warning (old or no backup, drill
 *  UNVERIFIED, kit not confirmed, offsite failing; here also a backup the shell interrupted) > healthy. */
function expectedState(c: Case): TrayState {
  if (c.last === 'failed' || c.drill === 'FAIL') return 'failing';
  if (c.running) return 'running';
  if (c.last === 'none' || c.last === 'stale' || c.last === 'interrupted' || c.drill === 'UNVERIFIED' || !c.kit || c.offsite) return 'warning';
  return 'healthy';
}

function item(menu: TrayMenuItem[], id: string): Exclude<TrayMenuItem, { type: 'separator' }> {
  const found = menu.find((m) => m.type !== 'separator' && m.id === id);
  assert.ok(found && found.type !== 'separator', `menu item ${id}`);
  return found;
}

test('tray model: every status combination (320) gets the right state, icon, reasons and menu', () => {
  const all = cases();
  assert.equal(all.length, 320);
  const seen = new Set<TrayState>();
  for (const c of all) {
    const m = trayModel(input(c));
    const label = JSON.stringify(c);
    const state = expectedState(c);
    seen.add(m.state);
    assert.equal(m.state, state, label);
    assert.equal(m.icon, `tray-${state}`, label);
    const text = m.lines.join('\n');
    assert.match(m.lines[0] ?? '', /^Sanad: /, label);
    // Every active condition is named, whatever the state.
    assert.equal(/Backing up… 42%/.test(text), c.running, label);
    assert.equal(/last backup failed/.test(text), c.last === 'failed', label);
    assert.equal(/was interrupted/.test(text), c.last === 'interrupted', label);
    assert.equal(/found damage/.test(text), c.drill === 'FAIL', label);
    assert.equal(/No backup has completed/.test(text), c.last === 'none', label);
    assert.equal(/30 h old \(target 12 h\)/.test(text), c.last === 'stale', label);
    assert.equal(/UNVERIFIED/.test(text), c.drill === 'UNVERIFIED', label);
    assert.equal(/recovery kit/.test(text), !c.kit, label);
    assert.equal(/Offsite backup failing: r2/.test(text), c.offsite, label);
    assert.equal(/paused/.test(text), c.paused, label);
    assert.ok(m.tooltip.length <= TOOLTIP_MAX, `${label}: tooltip of ${m.tooltip.length} chars`);
    assert.ok(m.tooltip.startsWith(m.lines[0] ?? '?'), label);
    // The menu follows the state.
    assert.equal(item(m.menu, 'backup-now').enabled, !c.running, label);
    assert.equal(item(m.menu, 'drill').enabled, !c.running, label);
    const pause = item(m.menu, 'pause');
    assert.ok(pause.type === 'checkbox' && pause.checked === c.paused, label);
    assert.equal(m.paused, c.paused, label);
    assert.equal(item(m.menu, 'last-backup').label, m.lastBackupLine, label);
    assert.equal(item(m.menu, 'last-backup').enabled, false, label);
    assert.equal(
      m.lastBackupLine,
      c.last === 'none' ? 'Last good backup: none yet' : c.last === 'stale' ? 'Last good backup: 30 h ago' : 'Last good backup: 2 h ago',
      label,
    );
    assert.equal(m.lastDrillLine, c.drill === 'none' ? 'Last drill: none yet' : `Last drill: ${c.drill} (daily), 5 h ago`, label);
    assert.ok(item(m.menu, 'quit').enabled && item(m.menu, 'open').enabled, label);
  }
  assert.deepEqual([...seen].sort(), ['failing', 'healthy', 'running', 'warning']);
});

test('tray model: unknown alerts count by severity; a running drill disables "Run a drill"; a percent is shown only once known', () => {
  const healthy = input({ running: false, last: 'fresh', drill: 'PASS', kit: true, offsite: false, paused: false });
  assert.equal(trayModel(healthy).state, 'healthy');
  const warn = trayModel({ ...healthy, otherAlerts: [{ severity: 'warning' }, { severity: 'info' }] });
  assert.equal(warn.state, 'warning');
  assert.ok(warn.lines.includes('1 other alert'));
  assert.equal(trayModel({ ...healthy, otherAlerts: [{ severity: 'info' }] }).state, 'healthy');
  assert.equal(trayModel({ ...healthy, otherAlerts: [{ severity: 'critical' }] }).state, 'failing');
  assert.equal(item(trayModel({ ...healthy, drillRunning: true }).menu, 'drill').enabled, false);
  const preparing = trayModel({ ...healthy, backupRunning: true, backupPercent: null });
  assert.ok(preparing.lines.includes('Backing up (preparing)…'));
  const login = item(trayModel({ ...healthy, openAtLogin: true }).menu, 'open-at-login');
  assert.ok(login.type === 'checkbox' && login.checked);
});

test('tooltip: whole lines within the limit, an ellipsis when lines were left out', () => {
  assert.equal(fitTooltip(['a', 'b'], 10), 'a\nb');
  assert.equal(fitTooltip(['12345', '67890'], 8), '12345\n…');
  assert.equal(fitTooltip(['x'.repeat(20)], 8), `${'x'.repeat(7)}…`);
  const worst = trayModel({
    ...input({ running: true, last: 'failed', drill: 'FAIL', kit: false, offsite: true, paused: true }),
    offsiteFailing: ['a-very-long-repository-name', 'another-very-long-repository-name', 'offsite copy'],
  });
  assert.equal(worst.state, 'failing');
  assert.ok(worst.tooltip.length <= TOOLTIP_MAX);
  assert.ok(worst.tooltip.endsWith('…'));
  assert.equal(worst.lines.length, 7, 'the full list keeps every reason');
});

test('every tray state has its 16 px icon and a 32 px @2x one, as real PNGs', () => {
  for (const state of ['healthy', 'running', 'warning', 'failing'] as const) {
    for (const [suffix, size] of [
      ['', 16],
      ['@2x', 32],
    ] as const) {
      const file = fileURLToPath(new URL(`../../../build/icons/tray-${state}${suffix}.png`, import.meta.url));
      const png = readFileSync(file);
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], file);
      assert.equal(png.toString('ascii', 12, 16), 'IHDR');
      assert.equal(png.readUInt32BE(16), size);
      assert.equal(png.readUInt32BE(20), size);
    }
  }
});

test('tray input from the core status: percent scale, offsite names, the latest drill, held alerts', () => {
  const alertRow = (key: string, severity: 'critical' | 'warning') => ({
    key,
    severity,
    message: key,
    code: 'said.text',
    params: { text: key },
    first_seen: 1,
    last_seen: 1,
    count: 1,
    resolved_at: null,
    accepted_at: null,
    snoozed_until: null,
  });
  const repo = (name: string, type: string, failing: boolean, enabled = true) => ({
    name,
    type,
    location: '/x',
    enabled,
    last_ok_at: null,
    last_ok_age_s: null,
    last_error: null,
    last_error_said: null,
    failing,
  });
  const backups: BackupStatus = {
    paused: false,
    interval_hours: 6,
    time_of_day: null,
    held_by: null,
    next_run_at: null,
    last_run: null,
    last_ok_at: NOW - H,
    repositories: [repo('local', 'local', true), repo('r2', 's3', true), repo('nas', 'rest', false), repo('old', 'rest', true, false)],
    alerts: [
      alertRow('backup.failed', 'critical'),
      alertRow('backup.offsite_failed:b2', 'warning'),
      alertRow('backup.offsite_copy_failed', 'warning'),
      alertRow('drill.unverified', 'warning'),
      alertRow('backup.maintenance_failed:local', 'warning'),
    ],
  };
  const summary = (id: number, kind: 'daily' | 'deep', verdict: 'PASS' | 'FAIL', finished: number) => ({
    id,
    kind,
    trigger: 'schedule',
    verdict,
    started_at: finished - 60,
    finished_at: finished,
  });
  const drills: DrillStatus = {
    paused: false,
    last: { daily: summary(9, 'daily', 'PASS', NOW - 100), deep: summary(4, 'deep', 'FAIL', NOW - 5000) },
    next_drill_at: null,
    next_deep_at: null,
  };
  // The running backup is an open run (GET /admin/runs?open=true), its progress restic's upload.
  const run = (progress: Run['progress']): Run => ({
    id: 7,
    kind: 'backup',
    trigger: 'schedule',
    status: 'running',
    error: null,
    generation: null,
    started_at: NOW * 1000,
    ended_at: null,
    progress,
    waiting_for: [],
  });
  const uploading = run({ phase: 'upload', repository: 'local', percent: 0.4271, files_done: 1, total_files: 3, bytes_done: 10, total_bytes: 30 });
  const input = trayInputFrom({ backups, drills, openRuns: [uploading], recoveryKitConfirmedAt: 5, nowS: NOW, openAtLogin: true, held: new Set() });
  assert.equal(input.backupPercent, 42);
  assert.equal(input.backupTargetS, 12 * H);
  assert.deepEqual(input.offsiteFailing, ['b2', 'offsite copy', 'r2'], 'local and disabled repositories are not offsite failures');
  assert.deepEqual(input.lastDrill, { verdict: 'PASS', kind: 'daily', finishedAt: NOW - 100 });
  assert.equal(input.backupFailed, true);
  assert.equal(input.drillUnverified, true);
  assert.equal(input.drillFailed, false, 'the alert, not the last verdict, says whether damage stands');
  assert.deepEqual(input.otherAlerts, [{ severity: 'warning' }]);
  assert.equal(input.recoveryKitConfirmed, true);
  const held = trayInputFrom({
    backups,
    drills,
    openRuns: [run({ phase: 'generation', step: 'copy' })],
    recoveryKitConfirmedAt: null,
    nowS: NOW,
    openAtLogin: false,
    held: new Set(['backup.failed']),
  });
  assert.equal(held.backupFailed, false);
  assert.equal(held.backupInterrupted, true);
  assert.equal(held.backupPercent, null);
  assert.equal(trayModel(held).state, 'running');
  assert.equal(
    trayModel({ ...held, backupRunning: false, drillUnverified: false, offsiteFailing: [], otherAlerts: [], recoveryKitConfirmed: true }).state,
    'warning',
  );
});
