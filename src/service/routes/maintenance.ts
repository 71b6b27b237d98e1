// GET /admin/maintenance: the maintenance log of each repository (the GUI's Backups screen), with
// the retention policy it applies (Settings). Maintenance runs after a backup once it is due, so
// `due_after` is the time from which the next backup will also run it (null: it never ran, the
// next backup runs it).
import { folderAbsence } from '../../repository/folder-target.js';
import { ResticError } from '../../repository/restic/index.js';
import type { FastifyInstance } from 'fastify';
import { MAINTENANCE_EVERY_MS, maintenanceRecord } from '../../backup/maintenance.js';
import { maintenanceLog } from '../../backup/maintenance-log.js';
import { listRepositories } from '../../repository/repositories.js';
import { backupDepsFor } from '../../backup/backup-deps.js';
import { previewRetention } from '../../backup/retention.js';
import { toResticRepo } from '../../repository/restic-target.js';
import { RetentionPreviewRequest, type RetentionPreview } from '../../contract/backups.js';
import { parseOptionalBody } from '../validate.js';
import { secured, type RouteKit } from './route-kit.js';

export function registerMaintenanceRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  app.get('/admin/maintenance', { preHandler: secured(kit, 'admin') }, async () => {
    const settings = ctx.settings();
    return {
      object: 'list',
      retention: {
        hourly: settings.retention_keep_hourly,
        daily: settings.retention_keep_daily,
        weekly: settings.retention_keep_weekly,
        monthly: settings.retention_keep_monthly,
      },
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

  // Asked before a change is saved: the Settings screen shows what the proposed counts would remove.
  app.post('/admin/retention/preview', { preHandler: secured(kit, 'admin') }, async (req): Promise<RetentionPreview> => {
    const settings = ctx.settings();
    const policy = {
      retention_keep_hourly: settings.retention_keep_hourly,
      retention_keep_daily: settings.retention_keep_daily,
      retention_keep_weekly: settings.retention_keep_weekly,
      retention_keep_monthly: settings.retention_keep_monthly,
      ...parseOptionalBody(RetentionPreviewRequest, req.body),
    };
    const deps = await backupDepsFor({ db: ctx.writer, dataDir: ctx.dataDir, clock: ctx.clock, logger: ctx.logger, store: ctx.secrets.store });
    const repositories: RetentionPreview['repositories'] = [];
    for (const repo of listRepositories(ctx.db).filter((r) => r.enabled)) {
      // A disk that is not connected is not asked: restic would look at the empty mount point.
      const absent = folderAbsence(repo);
      if (absent) {
        repositories.push({ name: repo.name, remove: [], keep: 0, error: absent.detail, error_said: { code: absent.code, params: absent.params } });
        continue;
      }
      try {
        const preview = await previewRetention(deps.restic, toResticRepo(repo, deps.vault, deps.passphrase), policy);
        repositories.push({ name: repo.name, ...preview, error: null });
      } catch (err) {
        repositories.push({
          name: repo.name,
          remove: [],
          keep: 0,
          error: err instanceof Error ? err.message : String(err),
          error_said: err instanceof ResticError ? err.said : null,
        });
      }
    }
    return { policy, repositories };
  });
}
