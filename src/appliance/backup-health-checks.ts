// Readiness checks for backups: restic is there, and the last good backup is not older than its
// target (twice the schedule's interval). No backup yet, or a failing offsite, is a warning.
import { backupTargetHours } from '../contract/backups.js';
import { findRestic } from '../repository/restic/index.js';
import { unixSeconds } from '../clock.js';
import type { ServiceContext } from '../service/context.js';
import type { HealthCheck } from '../service/health-check.js';

export function backupHealthChecks(ctx: ServiceContext): HealthCheck[] {
  return [
    {
      name: 'restic',
      run: async () => {
        const binary = await findRestic(process.env.SANAD_RESTIC ? { configuredPath: process.env.SANAD_RESTIC } : {});
        return { ok: true, detail: `restic ${binary.version.join('.')} at ${binary.path}` };
      },
    },
    {
      name: 'backup',
      run: () => {
        const status = ctx.backups.status();
        const target = backupTargetHours(status.interval_hours) * 3600;
        if (status.last_ok_at === null) return { ok: false, severity: 'warning', detail: 'no backup has completed yet; run `sanad backup now`' };
        const age = unixSeconds(ctx.clock) - status.last_ok_at;
        const failing = status.repositories.filter((r) => r.failing).map((r) => r.name);
        if (age > target)
          return { ok: false, severity: 'warning', detail: `the last good backup is ${Math.round(age / 3600)} h old (target ${target / 3600} h)` };
        if (failing.length > 0) return { ok: false, severity: 'warning', detail: `failing repositories: ${failing.join(', ')}` };
        return { ok: true, detail: `last good backup ${Math.round(age / 60)} min ago` };
      },
    },
  ];
}
