// GET /admin/maintenance: the maintenance log of each repository (the GUI's Backups screen), with
// the fixed retention policy it applies. Maintenance runs after a backup once it is due, so
// `due_after` is the time from which the next backup will also run it (null: it never ran, the
// next backup runs it).
import type { FastifyInstance } from 'fastify';
import { MAINTENANCE_EVERY_MS, maintenanceRecord, RETENTION_POLICY } from '../../backup/maintenance.js';
import { maintenanceLog } from '../../backup/maintenance-log.js';
import { listRepositories } from '../../backup/repositories.js';
import { secured, type RouteKit } from './kit.js';

export function registerMaintenanceRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  app.get('/admin/maintenance', { preHandler: secured(kit, 'admin') }, async () => {
    const { keepHourly, keepDaily, keepWeekly, keepMonthly } = RETENTION_POLICY;
    return {
      object: 'list',
      retention: { hourly: keepHourly, daily: keepDaily, weekly: keepWeekly, monthly: keepMonthly },
      every_hours: MAINTENANCE_EVERY_MS / 3_600_000,
      data: listRepositories(ctx.db).map((repo) => {
        const { okAt, failedAt } = maintenanceRecord(ctx.db, repo.name);
        const last = okAt === null && failedAt === null ? null : Math.max(okAt ?? 0, failedAt ?? 0);
        const log = maintenanceLog(ctx.db, repo.name);
        return {
          repository: repo.name,
          enabled: repo.enabled,
          ok_at: okAt,
          failed_at: failedAt,
          due_after: last === null ? null : last + MAINTENANCE_EVERY_MS / 1000,
          last: log[0] ?? null,
          log,
        };
      }),
    };
  });
}
