// From the core's own status objects (what GET /admin/backups/status and the drill status return)
// and its open runs (GET /admin/runs?open=true: what runs now, and how far) to the tray's input. Kept apart from trayModel so the model's table test can enumerate plain
// flags, while this mapping is tested against a real running core.
import { backupTargetHours } from '../../src/contract/backups.js';
import type { BackupStatus } from '../../src/contract/backups.js';
import type { DrillStatus, DrillSummary } from '../../src/contract/drills.js';
import type { Run } from '../../src/contract/runs.js';
import { isQuietWarning } from '../../src/contract/alerts.js';
import {
  BACKUP_FAILED,
  DISK_FULL_ALERT,
  DISK_LOW_ALERT,
  KEYCHAIN_ALERT,
  SECRETS_IN_FILE_ALERT,
  DRILL_FAILED,
  DRILL_UNVERIFIED,
  isKnownAlert,
  offsiteTargetOf,
} from './alert-keys.js';
import type { TrayInput } from './tray-model.js';

export interface CoreSnapshot {
  backups: BackupStatus;
  drills: DrillStatus;
  /** The runs asked for and not ended (Jobs.openRuns). */
  openRuns: readonly Run[];
  recoveryKitConfirmedAt: number | null;
  nowS: number;
  openAtLogin: boolean;
  /** Alerts the shell holds back (SleepWake.held): its own interruption of a backup. */
  held: ReadonlySet<string>;
}

/** The drill that finished last, of either kind. */
function lastDrill(d: DrillStatus['last']): DrillSummary | null {
  const { daily, deep } = d;
  if (daily === null || deep === null) return daily ?? deep;
  return (deep.finished_at ?? deep.started_at) >= (daily.finished_at ?? daily.started_at) ? deep : daily;
}

export function trayInputFrom(s: CoreSnapshot): TrayInput {
  const { backups: status, drills } = s;
  // A warning the person accepted or snoozed does not turn the tray amber (a critical one always counts).
  const backups = { ...status, alerts: status.alerts.filter((a) => !isQuietWarning(a)) };
  const keys = new Set(backups.alerts.map((a) => a.key));
  const offsite = new Set<string>();
  for (const r of backups.repositories) if (r.enabled && r.type !== 'local' && r.failing) offsite.add(r.name);
  for (const a of backups.alerts) {
    const target = offsiteTargetOf(a.key);
    if (target !== null) offsite.add(target);
  }
  const backupRun = s.openRuns.find((r) => r.kind === 'backup' || r.kind === 'maintenance');
  const progress = backupRun?.progress;
  const drill = lastDrill(drills.last);
  return {
    nowS: s.nowS,
    backupRunning: backupRun !== undefined,
    backupPercent:
      progress && 'percent' in progress && progress.phase === 'upload' ? Math.min(100, Math.max(0, Math.floor((progress.percent ?? 0) * 100))) : null,
    backupPaused: backups.paused,
    backupFailed: keys.has(BACKUP_FAILED) && !s.held.has(BACKUP_FAILED),
    backupInterrupted: keys.has(BACKUP_FAILED) && s.held.has(BACKUP_FAILED),
    lastOkAt: backups.last_ok_at,
    backupTargetS: backupTargetHours(backups.interval_hours) * 3600,
    offsiteFailing: [...offsite].sort(),
    drillRunning: s.openRuns.some((r) => r.kind === 'drill'),
    lastDrill: drill && { verdict: drill.verdict, kind: drill.kind, finishedAt: drill.finished_at },
    drillFailed: keys.has(DRILL_FAILED),
    drillUnverified: keys.has(DRILL_UNVERIFIED),
    recoveryKitConfirmed: s.recoveryKitConfirmedAt !== null,
    otherAlerts: backups.alerts.filter((a) => !isKnownAlert(a.key)).map((a) => ({ severity: a.severity })),
    openAtLogin: s.openAtLogin,
    ...diskOf(keys),
    ...(keys.has(KEYCHAIN_ALERT) ? { keychainDown: true } : {}),
    ...(keys.has(SECRETS_IN_FILE_ALERT) ? { secretsInFile: true } : {}),
  };
}

function diskOf(keys: ReadonlySet<string>): Pick<TrayInput, 'disk'> {
  if (keys.has(DISK_FULL_ALERT)) return { disk: 'full' };
  if (keys.has(DISK_LOW_ALERT)) return { disk: 'low' };
  return {};
}
