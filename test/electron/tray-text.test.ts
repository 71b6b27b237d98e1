// The tray's Arabic: every case of the tray model worded in Arabic has the same shape as in English
// (state, menu, number of lines) and no English left but isolated names; counts and ages take
// Arabic's own plural forms (one, two, few, many) from Intl, not "2 ساعة".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TRAY_WORDS, trayLanguage } from '../../electron/logic/tray-text.js';
import { trayModel, type TrayInput } from '../../electron/logic/tray-model.js';

const NOW = 1_800_000_000;
const H = 3600;
const AR = TRAY_WORDS.ar;

/** Latin letters outside the isolates (U+2068 … U+2069) that keep names and commands whole. */
const latinOutsideIsolates = (s: string): string[] => s.replace(/\u2068[^\u2069]*\u2069/g, '').match(/[A-Za-z]+/g) ?? [];

function worstCase(overrides: Partial<TrayInput>): TrayInput {
  return {
    nowS: NOW,
    backupRunning: true,
    backupPercent: 42,
    backupPaused: true,
    backupFailed: true,
    backupInterrupted: false,
    lastOkAt: NOW - 30 * H,
    backupTargetS: 2 * H,
    offsiteFailing: ['nas-at-home', 'r2'],
    drillRunning: false,
    lastDrill: { verdict: 'UNVERIFIED', kind: 'deep', finishedAt: NOW - 3 * 86_400 },
    drillFailed: true,
    drillUnverified: true,
    recoveryKitConfirmed: false,
    otherAlerts: [{ severity: 'warning' }, { severity: 'warning' }, { severity: 'critical' }],
    openAtLogin: false,
    disk: 'low',
    keychainDown: true,
    secretsInFile: true,
    ...overrides,
  };
}

test('every line of the tray in Arabic, with the same state and menu as in English, and no English prose', () => {
  for (const overrides of [
    {},
    { backupRunning: false, backupFailed: false, drillFailed: false, keychainDown: false, otherAlerts: [] },
    { lastOkAt: null, lastDrill: null },
  ]) {
    const en = trayModel(worstCase(overrides));
    const ar = trayModel(worstCase(overrides), AR);
    assert.equal(ar.state, en.state);
    assert.equal(ar.lines.length, en.lines.length);
    assert.deepEqual(
      ar.menu.map((m) => (m.type === 'separator' ? m.type : [m.id, m.enabled])),
      en.menu.map((m) => (m.type === 'separator' ? m.type : [m.id, m.enabled])),
    );
    for (const line of [...ar.lines, ar.lastBackupLine, ar.lastDrillLine, ...ar.menu.flatMap((m) => (m.type === 'separator' ? [] : [m.label]))]) {
      assert.deepEqual(latinOutsideIsolates(line), [], line);
    }
    assert.ok(ar.tooltip.length <= 127, 'the Arabic tooltip fits too');
  }
});

test('Arabic counts and ages take their plural forms', () => {
  assert.deepEqual(
    [1, 2, 3, 11, 100].map((n) => AR.reason.otherAlerts(n)),
    ['تنبيه آخر', 'تنبيهان آخران', '3 تنبيهات أخرى', '11 تنبيهًا آخر', '100 تنبيه آخر'],
  );
  assert.equal(AR.reason.stale(1, 2), 'عمر آخر نسخة احتياطية سليمة ساعة واحدة (الهدف ساعتان)');
  assert.equal(AR.reason.stale(30, 24), 'عمر آخر نسخة احتياطية سليمة 30 ساعة (الهدف 24 ساعة)');
  assert.equal(AR.ago(30), 'الآن');
  assert.equal(AR.ago(2 * 60), 'قبل دقيقتين');
  assert.equal(AR.ago(5 * H), 'قبل 5 ساعات');
  assert.equal(AR.ago(3 * 86_400), 'قبل 3 أيام');
  assert.equal(trayModel(worstCase({}), AR).lastDrillLine, 'آخر اختبار استعادة: غير مؤكَّد (معمَّق)، قبل 3 أيام');
  // The core's English sentence is not shown under an Arabic title; an Arabic one would be.
  assert.equal(AR.notice.alertBody('restic: repository is locked'), 'افتح سند لمعرفة التفاصيل.');
  assert.equal(TRAY_WORDS.en.notice.alertBody('restic: repository is locked'), 'restic: repository is locked');
});

test("the language: the GUI's choice first, then the system's locale, else English", () => {
  assert.equal(trayLanguage('ar', 'en-US'), 'ar');
  assert.equal(trayLanguage('en', 'ar-EG'), 'en');
  assert.equal(trayLanguage(null, 'ar-EG'), 'ar');
  assert.equal(trayLanguage(null, 'ar'), 'ar');
  assert.equal(trayLanguage(null, 'fr-FR'), 'en');
  assert.equal(trayLanguage(undefined, undefined), 'en');
});
