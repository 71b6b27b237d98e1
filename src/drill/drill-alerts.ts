// Alerts from drill verdicts: FAIL raises `drill.failed` (critical), UNVERIFIED raises
// `drill.unverified` (warning), and a PASS clears them, but only a pass that covers what raised
// them: a daily pass does not clear damage a deep drill found (it never reads those packs), and a
// drill of one repository does not clear what another repository or a whole drill found.
import { raiseAlert, resolveAlert } from '../store/alerts.js';
import type { Clock } from '../clock.js';
import { say } from '../contract/said/index.js';
import type { Said } from '../contract/said.js';
import type { Db } from '../store/open.js';
import { finishedScopes } from './drill-runs.js';
import type { DrillCheck, DrillKind, Verdict } from './verdict.js';

export const DRILL_FAILED = 'drill.failed';
export const DRILL_UNVERIFIED = 'drill.unverified';

interface Scope {
  kind: DrillKind;
  repo: string | null;
}

/** Whether a pass of `run` proves at least what `earlier` looked at. */
export function covers(run: Scope, earlier: Scope): boolean {
  return (run.kind === 'deep' || earlier.kind === 'daily') && (run.repo === null || run.repo === earlier.repo);
}

/** The checks that did not pass, by name, and the first one's saying. */
function summary(checks: readonly DrillCheck[], status: DrillCheck['status']): { checks: string; first: Said[] } {
  const hit = checks.filter((c) => c.status === status);
  return { checks: hit.map((c) => c.name).join(', '), first: hit.slice(0, 1).map(({ code, params }) => ({ code, params })) };
}

export function applyDrillAlerts(db: Db, clock: Clock, run: Scope & { id: number; verdict: Verdict; checks: readonly DrillCheck[] }): void {
  if (run.verdict === 'FAIL') {
    raiseAlert(db, clock, DRILL_FAILED, 'critical', say('alert.drill_failed', { kind: [say(`drill.kind_${run.kind}`)], ...summary(run.checks, 'fail') }));
    return;
  }
  if (run.verdict === 'UNVERIFIED') {
    raiseAlert(
      db,
      clock,
      DRILL_UNVERIFIED,
      'warning',
      say('alert.drill_unverified', { kind: [say(`drill.kind_${run.kind}`)], ...summary(run.checks, 'unverified') }),
    );
    return;
  }
  // History is bounded (drill-runs.ts), so this reads a few hundred small rows at most.
  // This run is still open in `runs` (its owner ends it after the drill returns): it counts too.
  const history = [...finishedScopes(db).filter((r) => r.id !== run.id), run].sort((a, b) => a.id - b.id);
  for (const [key, verdict] of [
    [DRILL_FAILED, 'FAIL'],
    [DRILL_UNVERIFIED, 'UNVERIFIED'],
  ] as const) {
    if (outstanding(history, verdict).length === 0) resolveAlert(db, clock, key);
  }
}

/** Runs with `verdict` that no later pass covers: what an alert still stands for. */
export function outstanding<T extends Scope & { id: number; verdict: Verdict | null }>(history: readonly T[], verdict: Verdict): T[] {
  return history.filter((r) => r.verdict === verdict && !history.some((p) => p.id > r.id && p.verdict === 'PASS' && covers(p, r)));
}
