// The Overview's one-line answer to "is my data safe?", computed from what the admin API reports.
// Pure (time is an argument) so every combination is unit-tested. Three levels:
// - risk: data could be lost or backups may not restore (no good backup at all, a failed drill,
//   a critical alert);
// - attention: something is behind, failing or unproven (a backup older than its target, a
//   repository whose last attempt failed, no drill yet or an unverified one, a warning alert, the
//   recovery kit not confirmed, schedules paused); a warning the person accepted or snoozed is
//   counted apart (`accepted`): still listed and said, no longer a reason;
// - protected: none of that.
// Reasons are codes with values; the screen words them in the user's language.
import { isQuietWarning } from '../../../../src/contract/alerts';
import { backupTargetHours } from '../../../../src/contract/backups';
import type { Alert, DrillSummary, RepositoryStatus } from './api';

export type Level = 'protected' | 'attention' | 'risk';

export type Reason =
  | { level: 'risk'; code: 'no_repository' }
  | { level: 'risk'; code: 'no_backup' }
  | { level: 'risk'; code: 'drill_failed'; kind: 'daily' | 'deep' }
  | { level: 'risk'; code: 'critical_alerts'; count: number }
  | { level: 'attention'; code: 'backup_never'; repo: string }
  | { level: 'attention'; code: 'backup_failing'; repo: string }
  | { level: 'attention'; code: 'backup_stale'; repo: string; ageS: number }
  | { level: 'attention'; code: 'backups_paused' }
  | { level: 'attention'; code: 'drill_never' }
  | { level: 'attention'; code: 'drill_unverified' }
  | { level: 'attention'; code: 'drills_paused' }
  | { level: 'attention'; code: 'warning_alerts'; count: number }
  | { level: 'attention'; code: 'kit_unconfirmed' };

export interface Verdict {
  level: Level;
  /** Risk reasons first, then attention, each in a stable order. */
  reasons: Reason[];
  /** Open warnings the person accepted or snoozed: listed, said, but not a reason. */
  accepted: number;
}

export interface VerdictInputs {
  nowS: number;
  intervalHours: number;
  backupsPaused: boolean;
  repositories: ReadonlyArray<Pick<RepositoryStatus, 'name' | 'enabled' | 'last_ok_at' | 'failing'>>;
  drills: { daily: Pick<DrillSummary, 'verdict' | 'finished_at'> | null; deep: Pick<DrillSummary, 'verdict' | 'finished_at'> | null };
  drillsPaused: boolean;
  alerts: ReadonlyArray<Pick<Alert, 'severity' | 'resolved_at' | 'accepted_at' | 'snoozed_until'>>;
  recoveryKitConfirmed: boolean;
}

export type BackupAge = { state: 'never' } | { state: 'fresh' | 'stale'; ageS: number };

/** A repository's last good backup against the target (two intervals, as the tray and the doctor say). */
export function backupAge(lastOkAt: number | null, nowS: number, intervalHours: number): BackupAge {
  if (lastOkAt === null) return { state: 'never' };
  const ageS = Math.max(0, nowS - lastOkAt);
  return { state: ageS > backupTargetHours(intervalHours) * 3600 ? 'stale' : 'fresh', ageS };
}

/** The newest finished drill of either kind (what "last drill" shows). */
export function latestDrill<D extends Pick<DrillSummary, 'finished_at'>>(drills: { daily: D | null; deep: D | null }): D | null {
  const { daily, deep } = drills;
  if (!daily || !deep) return daily ?? deep;
  return (deep.finished_at ?? 0) > (daily.finished_at ?? 0) ? deep : daily;
}

function backupReasons(input: VerdictInputs): Reason[] {
  const enabled = input.repositories.filter((r) => r.enabled);
  if (enabled.length === 0) return [{ level: 'risk', code: 'no_repository' }];
  if (enabled.every((r) => r.last_ok_at === null)) return [{ level: 'risk', code: 'no_backup' }];
  const out: Reason[] = [];
  for (const repo of enabled) {
    const age = backupAge(repo.last_ok_at, input.nowS, input.intervalHours);
    if (age.state === 'never') out.push({ level: 'attention', code: 'backup_never', repo: repo.name });
    else if (repo.failing) out.push({ level: 'attention', code: 'backup_failing', repo: repo.name });
    else if (age.state === 'stale') out.push({ level: 'attention', code: 'backup_stale', repo: repo.name, ageS: age.ageS });
  }
  return out;
}

// The latest drill of each kind counts: a later daily PASS does not re-read the data a deep drill
// found damaged, so a deep FAIL stays a risk until a deep drill passes.
function drillReasons(input: VerdictInputs): Reason[] {
  const { daily, deep } = input.drills;
  if (!daily && !deep) return [{ level: 'attention', code: 'drill_never' }];
  const out: Reason[] = [];
  if (daily?.verdict === 'FAIL') out.push({ level: 'risk', code: 'drill_failed', kind: 'daily' });
  if (deep?.verdict === 'FAIL') out.push({ level: 'risk', code: 'drill_failed', kind: 'deep' });
  const unproven = [daily, deep].some((d) => d !== null && d.verdict !== 'PASS' && d.verdict !== 'FAIL');
  if (out.length === 0 && unproven) out.push({ level: 'attention', code: 'drill_unverified' });
  return out;
}

function alertReasons(input: VerdictInputs): Reason[] {
  const open = input.alerts.filter((a) => a.resolved_at === null);
  const critical = open.filter((a) => a.severity === 'critical').length;
  const warning = open.filter((a) => a.severity === 'warning' && !isQuietWarning(a)).length;
  const out: Reason[] = [];
  if (critical > 0) out.push({ level: 'risk', code: 'critical_alerts', count: critical });
  if (warning > 0) out.push({ level: 'attention', code: 'warning_alerts', count: warning });
  return out;
}

export function overallVerdict(input: VerdictInputs): Verdict {
  const all: Reason[] = [
    ...backupReasons(input),
    ...drillReasons(input),
    ...alertReasons(input),
    ...(input.recoveryKitConfirmed ? [] : [{ level: 'attention', code: 'kit_unconfirmed' } as const]),
    ...(input.backupsPaused ? [{ level: 'attention', code: 'backups_paused' } as const] : []),
    ...(input.drillsPaused ? [{ level: 'attention', code: 'drills_paused' } as const] : []),
  ];
  const risk = all.filter((r) => r.level === 'risk');
  const attention = all.filter((r) => r.level === 'attention');
  const accepted = input.alerts.filter((a) => a.resolved_at === null && isQuietWarning(a)).length;
  return { level: risk.length > 0 ? 'risk' : attention.length > 0 ? 'attention' : 'protected', reasons: [...risk, ...attention], accepted };
}
