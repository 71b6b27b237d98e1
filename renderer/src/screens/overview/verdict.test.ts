import { describe, expect, test } from 'vitest';
import type { DrillSummary } from './api';
import { backupAge, latestDrill, overallVerdict, type VerdictInputs } from './verdict';

type Drill = Pick<DrillSummary, 'verdict' | 'finished_at'>;

const NOW = 1_700_000_000;
const H = 3600;

/** Everything fine: two repositories backed up an hour ago, drills passed, kit confirmed. */
function good(over: Partial<VerdictInputs> = {}): VerdictInputs {
  return {
    nowS: NOW,
    intervalHours: 6,
    backupsPaused: false,
    repositories: [
      { name: 'local', enabled: true, last_ok_at: NOW - H, failing: false },
      { name: 'r2', enabled: true, last_ok_at: NOW - 2 * H, failing: false },
    ],
    drills: { daily: { verdict: 'PASS', finished_at: NOW - 3 * H }, deep: { verdict: 'PASS', finished_at: NOW - 50 * H } },
    drillsPaused: false,
    alerts: [],
    recoveryKitConfirmed: true,
    ...over,
  };
}

const codes = (input: VerdictInputs) => overallVerdict(input).reasons.map((r) => r.code);

describe('overall verdict', () => {
  test('all good: protected, with no reasons', () => {
    expect(overallVerdict(good())).toEqual({ level: 'protected', accepted: 0, reasons: [] });
  });

  test('no enabled repository, or none ever backed up, is a risk (and not also a list of per-repository notes)', () => {
    expect(overallVerdict(good({ repositories: [] }))).toEqual({ level: 'risk', accepted: 0, reasons: [{ level: 'risk', code: 'no_repository' }] });
    const disabledOnly = good({ repositories: [{ name: 'local', enabled: false, last_ok_at: NOW - H, failing: false }] });
    expect(codes(disabledOnly)).toEqual(['no_repository']);
    const never = good({
      repositories: [
        { name: 'local', enabled: true, last_ok_at: null, failing: false },
        { name: 'r2', enabled: true, last_ok_at: null, failing: true },
      ],
    });
    expect(overallVerdict(never)).toEqual({ level: 'risk', accepted: 0, reasons: [{ level: 'risk', code: 'no_backup' }] });
  });

  test('a backup older than the target (two intervals, as the tray and the doctor say) needs attention and says how old; exactly the target is still on it', () => {
    const atTarget = good({ repositories: [{ name: 'local', enabled: true, last_ok_at: NOW - 12 * H, failing: false }] });
    expect(overallVerdict(atTarget).level).toBe('protected');
    const late = good({ repositories: [{ name: 'local', enabled: true, last_ok_at: NOW - 12 * H - 1, failing: false }] });
    expect(overallVerdict(late)).toEqual({
      level: 'attention',
      accepted: 0,
      reasons: [{ level: 'attention', code: 'backup_stale', repo: 'local', ageS: 12 * H + 1 }],
    });
    // A longer interval makes the same age fine.
    expect(overallVerdict({ ...late, intervalHours: 24 }).level).toBe('protected');
  });

  test('one repository never backed up or failing while another is fine needs attention; a disabled one is ignored', () => {
    const mixed = good({
      repositories: [
        { name: 'local', enabled: true, last_ok_at: NOW - H, failing: false },
        { name: 'r2', enabled: true, last_ok_at: null, failing: false },
        { name: 'b2', enabled: true, last_ok_at: NOW - 30 * H, failing: true },
        { name: 'old', enabled: false, last_ok_at: NOW - 900 * H, failing: true },
      ],
    });
    expect(overallVerdict(mixed)).toEqual({
      level: 'attention',
      accepted: 0,
      reasons: [
        { level: 'attention', code: 'backup_never', repo: 'r2' },
        // Failing wins over stale: it says why the backup is old.
        { level: 'attention', code: 'backup_failing', repo: 'b2' },
      ],
    });
  });

  test('drills: none yet or unverified need attention; a failed one is a risk, and a deep FAIL stays one after a later daily PASS', () => {
    expect(codes(good({ drills: { daily: null, deep: null } }))).toEqual(['drill_never']);
    expect(codes(good({ drills: { daily: { verdict: 'UNVERIFIED', finished_at: NOW }, deep: null } }))).toEqual(['drill_unverified']);
    expect(codes(good({ drills: { daily: { verdict: null, finished_at: NOW }, deep: null } }))).toEqual(['drill_unverified']);
    expect(overallVerdict(good({ drills: { daily: { verdict: 'PASS', finished_at: NOW }, deep: null } })).level).toBe('protected');
    const deepFailed = good({ drills: { daily: { verdict: 'PASS', finished_at: NOW }, deep: { verdict: 'FAIL', finished_at: NOW - 24 * H } } });
    expect(overallVerdict(deepFailed)).toEqual({ level: 'risk', accepted: 0, reasons: [{ level: 'risk', code: 'drill_failed', kind: 'deep' }] });
    const bothFailed = good({ drills: { daily: { verdict: 'FAIL', finished_at: NOW }, deep: { verdict: 'FAIL', finished_at: NOW } } });
    expect(codes(bothFailed)).toEqual(['drill_failed', 'drill_failed']);
    // A failure is what counts; "unverified" beside it adds nothing.
    expect(codes(good({ drills: { daily: { verdict: 'FAIL', finished_at: NOW }, deep: { verdict: 'UNVERIFIED', finished_at: NOW } } }))).toEqual([
      'drill_failed',
    ]);
  });

  test('open alerts: critical is a risk, warning needs attention, info and resolved ones do not count', () => {
    const alerts: VerdictInputs['alerts'] = [
      { severity: 'critical', resolved_at: null, accepted_at: null, snoozed_until: null },
      { severity: 'critical', resolved_at: null, accepted_at: null, snoozed_until: null },
      { severity: 'critical', resolved_at: NOW - 5, accepted_at: null, snoozed_until: null },
      { severity: 'warning', resolved_at: null, accepted_at: null, snoozed_until: null },
      { severity: 'info', resolved_at: null, accepted_at: null, snoozed_until: null },
    ];
    expect(overallVerdict(good({ alerts }))).toEqual({
      level: 'risk',
      accepted: 0,
      reasons: [
        { level: 'risk', code: 'critical_alerts', count: 2 },
        { level: 'attention', code: 'warning_alerts', count: 1 },
      ],
    });
    expect(
      overallVerdict(
        good({
          alerts: [
            { severity: 'info', resolved_at: null, accepted_at: null, snoozed_until: null },
            { severity: 'warning', resolved_at: NOW, accepted_at: null, snoozed_until: null },
          ],
        }),
      ).level,
    ).toBe('protected');
  });

  test('a warning accepted or snoozed is counted apart: listed and said, no longer a reason; a critical one always counts', () => {
    const open = { resolved_at: null, accepted_at: null, snoozed_until: null };
    const accepted = { severity: 'warning', ...open, accepted_at: NOW - 60 } as const;
    const snoozed = { severity: 'warning', ...open, snoozed_until: NOW + 3600 } as const;
    expect(overallVerdict(good({ alerts: [accepted, snoozed] }))).toEqual({ level: 'protected', accepted: 2, reasons: [] });
    expect(overallVerdict(good({ alerts: [accepted, { severity: 'warning', ...open }] }))).toEqual({
      level: 'attention',
      accepted: 1,
      reasons: [{ level: 'attention', code: 'warning_alerts', count: 1 }],
    });
    const criticalSnoozed = { severity: 'critical', ...open, snoozed_until: NOW + 3600 } as const;
    expect(overallVerdict(good({ alerts: [criticalSnoozed] }))).toEqual({
      level: 'risk',
      accepted: 0,
      reasons: [{ level: 'risk', code: 'critical_alerts', count: 1 }],
    });
  });

  test('an unconfirmed recovery kit and paused schedules need attention', () => {
    expect(overallVerdict(good({ recoveryKitConfirmed: false }))).toEqual({
      level: 'attention',
      accepted: 0,
      reasons: [{ level: 'attention', code: 'kit_unconfirmed' }],
    });
    expect(codes(good({ backupsPaused: true, drillsPaused: true }))).toEqual(['backups_paused', 'drills_paused']);
  });

  test('risk and attention together: the level is risk and risk reasons come first', () => {
    const input = good({
      recoveryKitConfirmed: false,
      alerts: [{ severity: 'critical', resolved_at: null, accepted_at: null, snoozed_until: null }],
      drills: { daily: null, deep: null },
      repositories: [{ name: 'local', enabled: true, last_ok_at: NOW - 100 * H, failing: false }],
    });
    const v = overallVerdict(input);
    expect(v.level).toBe('risk');
    expect(v.reasons.map((r) => r.code)).toEqual(['critical_alerts', 'backup_stale', 'drill_never', 'kit_unconfirmed']);
  });
});

describe('backup age and latest drill', () => {
  test('backupAge: never, fresh, stale (strictly older than two intervals)', () => {
    expect(backupAge(null, NOW, 6)).toEqual({ state: 'never' });
    expect(backupAge(NOW - 10, NOW, 6)).toEqual({ state: 'fresh', ageS: 10 });
    expect(backupAge(NOW - 12 * H, NOW, 6)).toEqual({ state: 'fresh', ageS: 12 * H });
    expect(backupAge(NOW - 12 * H - 1, NOW, 6)).toEqual({ state: 'stale', ageS: 12 * H + 1 });
    // A clock behind the server never makes a negative age.
    expect(backupAge(NOW + 30, NOW, 6)).toEqual({ state: 'fresh', ageS: 0 });
  });

  test('latestDrill picks the newest finished of the two kinds', () => {
    const daily: Drill = { verdict: 'PASS', finished_at: NOW - 10 };
    const deep: Drill = { verdict: 'FAIL', finished_at: NOW - 5 };
    expect(latestDrill({ daily, deep })).toBe(deep);
    expect(latestDrill({ daily, deep: null })).toBe(daily);
    expect(latestDrill({ daily: null, deep: null })).toBeNull();
  });
});
