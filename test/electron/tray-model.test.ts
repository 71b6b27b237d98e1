// The tray model for every combination of what the core can report: backup running or not; last
// backup none / fresh / too old / failed; last drill none / PASS / FAIL / UNVERIFIED; recovery kit
// confirmed or not; offsite ok or failing; backups paused or not (4·2·4·2·2·2 = 256 cases). The
// expected state comes from the rule as the issue states it, written independently here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fitTooltip, TOOLTIP_MAX, trayModel, type TrayInput, type TrayMenuItem, type TrayState } from '../../electron/logic/tray-model.js';

const NOW = 1_800_000_000;
const H = 3600;
const TARGET = 12 * H;

type LastBackup = 'none' | 'fresh' | 'stale' | 'failed';
type Drill = 'none' | 'PASS' | 'FAIL' | 'UNVERIFIED';
interface Case { running: boolean; last: LastBackup; drill: Drill; kit: boolean; offsite: boolean; paused: boolean }

function cases(): Case[] {
  const out: Case[] = [];
  for (const running of [false, true])
    for (const last of ['none', 'fresh', 'stale', 'failed'] as const)
      for (const drill of ['none', 'PASS', 'FAIL', 'UNVERIFIED'] as const)
        for (const kit of [true, false])
          for (const offsite of [false, true])
            for (const paused of [false, true]) out.push({ running, last, drill, kit, offsite, paused });
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
 *  UNVERIFIED, kit not confirmed, offsite failing) > healthy. */
function expectedState(c: Case): TrayState {
  if (c.last === 'failed' || c.drill === 'FAIL') return 'failing';
  if (c.running) return 'running';
  if (c.last === 'none' || c.last === 'stale' || c.drill === 'UNVERIFIED' || !c.kit || c.offsite) return 'warning';
  return 'healthy';
}

function item(menu: TrayMenuItem[], id: string): Exclude<TrayMenuItem, { type: 'separator' }> {
  const found = menu.find((m) => m.type !== 'separator' && m.id === id);
  assert.ok(found && found.type !== 'separator', `menu item ${id}`);
  return found;
}

test('tray model: every status combination (256) gets the right state, icon, reasons and menu', () => {
  const all = cases();
  assert.equal(all.length, 256);
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
    assert.equal(m.lastBackupLine, c.last === 'none' ? 'Last good backup: none yet' : c.last === 'stale' ? 'Last good backup: 30 h ago' : 'Last good backup: 2 h ago', label);
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
    for (const [suffix, size] of [['', 16], ['@2x', 32]] as const) {
      const file = fileURLToPath(new URL(`../../../build/icons/tray-${state}${suffix}.png`, import.meta.url));
      const png = readFileSync(file);
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], file);
      assert.equal(png.toString('ascii', 12, 16), 'IHDR');
      assert.equal(png.readUInt32BE(16), size);
      assert.equal(png.readUInt32BE(20), size);
    }
  }
});
