// The drill's line in /health/ready: the last verdict of a drill of every repository, with its date.
// No drill yet, an UNVERIFIED one, or a PASS older than two days is a warning; a FAIL makes the
// service unready, because the backups it would restore from are damaged.
import { unixSeconds } from '../clock.js';
import { lastFinishedRun } from '../drill/drill-runs.js';
import type { ServiceContext } from '../service/context.js';
import type { HealthCheck } from '../service/health-check.js';

const STALE_S = 48 * 3600;

export function drillHealthChecks(ctx: ServiceContext): HealthCheck[] {
  return [
    {
      name: 'drill',
      run: () => {
        const last = lastFinishedRun(ctx.db);
        if (last === null || last.finished_at === null) {
          return { ok: false, severity: 'warning', detail: 'no drill has run yet, so no backup is verified; run `sanad drill`' };
        }
        const when = new Date(last.finished_at * 1000).toISOString();
        const what = `the last ${last.kind} drill (${when})`;
        const notPassed = last.checks
          .filter((c) => c.status !== 'pass')
          .map((c) => c.name)
          .join(', ');
        if (last.verdict === 'FAIL') return { ok: false, detail: `${what} FAILED: ${notPassed}` };
        if (last.verdict !== 'PASS') return { ok: false, severity: 'warning', detail: `${what} is UNVERIFIED: ${notPassed}` };
        const age = unixSeconds(ctx.clock) - last.finished_at;
        if (age > STALE_S) return { ok: false, severity: 'warning', detail: `${what} PASSED, but that is ${Math.round(age / 3600)} h ago` };
        return { ok: true, detail: `${what} PASSED` };
      },
    },
  ];
}
