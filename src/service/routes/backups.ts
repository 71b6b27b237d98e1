// /admin routes for backups, repositories and alerts (what the GUI's Backups and Offsite screens use).
import { assertRemoteConfigured, RcloneError } from '../../repository/rclone.js';
import { RcloneDestinationError } from '../../repository/rclone-destination.js';
import type { BackupRuns, BackupStarted, BackupStatus, OffsiteCatchUp } from '../../contract/backups.js';
import type { ProbeResult, Repository as ShownRepository } from '../../contract/repositories.js';
import { recentBackupRuns } from '../../repository/backup-runs.js';
import { isAbsolute } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { allAlerts, repositoryErrorSaid, withAcks } from '../../store/alerts.js';
import { AlertAckRequest } from '../../contract/alerts.js';
import { acceptAlertKey, clearAlertAck, snoozeAlertKey } from '../../store/alert-acks.js';
import { backupDepsFor } from '../../backup/backup-deps.js';
import { folderAbsence } from '../../repository/folder-target.js';
import { probeRepository } from '../../repository/repo-probe.js';
import {
  addRepository,
  getRepository,
  hasRepositorySecret,
  listRepositories,
  LOCAL,
  moveLocalRepository,
  removeRepository,
  RepositoryError,
  updateRepository,
  type Repository,
} from '../../repository/repositories.js';
import { toResticRepo } from '../../repository/restic-target.js';
import { BackupBusyError } from '../../backup/run-backup.js';
import { unixSeconds } from '../../clock.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { noteOffsiteTested } from './first-run.js';
import { secured, type RouteKit } from './route-kit.js';
import { parseOptionalBody } from '../validate.js';
import { AddRepositoryRequest, EmptyRequest, MoveLocalRepositoryRequest, RepositoryPatchRequest, StartBackupRequest } from '../../contract/admin-requests.js';

export function registerBackupRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  const admin = secured(kit, 'admin');
  const repoError = (err: unknown): never => {
    if (err instanceof RepositoryError) throw badRequest(err.message, err.param);
    throw err;
  };

  app.get('/admin/backups', { preHandler: admin }, async () => {
    const { runs, copies } = recentBackupRuns(ctx.db, 50);
    const answer: BackupRuns = { object: 'list', data: runs, copies };
    return answer;
  });

  // Started, not awaited: the answer names the run (GET /admin/runs/{id}, /admin/events?run=id);
  // progress is also in GET /admin/backups/status. While one runs, the answer
  // attaches to it (the GUI follows that run), or with {"queue": true} one more runs right after it.
  app.post('/admin/backups', { preHandler: admin }, async (req, reply) => {
    const body = StartBackupRequest.safeParse(req.body ?? {});
    if (!body.success) throw badRequest('Send {} to back up now, or {"queue": true} to run one more after the running backup.', 'queue');
    const failed = (err: unknown): void => {
      if (!(err instanceof BackupBusyError)) ctx.logger.warn('manual backup failed', { error: err instanceof Error ? err.message : String(err) });
    };
    const running = ctx.backups.attach();
    let answer: BackupStarted;
    if (running && body.data.queue !== true) {
      answer = { run_id: running.runId, started: false, attached: true, queued: false };
    } else {
      try {
        const started = ctx.backups.start('manual', undefined, body.data.queue === true);
        started.done.catch(failed);
        answer = { run_id: started.runId, started: !started.queued, attached: false, queued: started.queued };
      } catch (err) {
        if (err instanceof BackupBusyError) throw new ApiError('backup_running', err.message, null);
        throw err;
      }
    }
    return reply.code(202).send(answer);
  });

  // "Copy to offsite now": answered when the copies have ended (they reuse what each target has, so
  // a target that is only one generation behind takes about as long as a backup to it). Meanwhile
  // GET /admin/backups/status says running, with the target being copied to.
  app.post('/admin/backups/offsite-copy', { preHandler: admin }, async (req): Promise<OffsiteCatchUp> => {
    parseOptionalBody(EmptyRequest, req.body);
    try {
      return await ctx.backups.copyOffsite();
    } catch (err) {
      if (err instanceof BackupBusyError)
        throw new ApiError(
          'backup_running',
          'A backup is running; it sends the newest generation to every offsite target itself. Wait for it to finish, then copy again if a target is still behind.',
          null,
        );
      throw err;
    }
  });

  app.get('/admin/backups/status', { preHandler: admin }, async (): Promise<BackupStatus> => ctx.backups.status());

  // A full disk cannot be written to the alert table: its alert is live (store/disk-state.ts).
  app.get('/admin/alerts', { preHandler: admin }, async () => ({
    object: 'list',
    data: withAcks(ctx.db, [...ctx.backups.liveAlerts(), ...allAlerts(ctx.db)], unixSeconds(ctx.clock)),
  }));

  // Accept a warning as known, snooze an alert, or undo either. Only an open alert can be
  // acknowledged; a critical one can be snoozed (no notifications) but never accepted.
  app.post<{ Params: { key: string } }>('/admin/alerts/:key/acknowledge', { preHandler: admin }, async (req) => {
    const body = parseOptionalBody(AlertAckRequest, req.body);
    const alert = ctx.backups.openAlerts().find((a) => a.key === req.params.key);
    if (!alert) throw notFound(`An open alert "${req.params.key}"`, 'alert_not_found');
    const now = unixSeconds(ctx.clock);
    if (body.action === 'accept') {
      if (alert.severity === 'critical')
        throw badRequest(
          'A critical alert cannot be accepted: it means a backup may not be usable. Fix what it says, or snooze it to stop the notifications for a while.',
          'action',
          'alert_critical',
        );
      acceptAlertKey(ctx.writer, alert.key, now);
    } else if (body.action === 'snooze') {
      snoozeAlertKey(ctx.writer, alert.key, now + body.hours * 3600, now);
    } else {
      clearAlertAck(ctx.writer, alert.key);
    }
    ctx.backups.publishAlerts();
    return ctx.backups.openAlerts().find((a) => a.key === alert.key) ?? alert;
  });

  // has_secret says whether a secret is in the vault; the secret itself is never sent back.
  const shown = (repo: Repository): ShownRepository => ({
    ...repo,
    has_secret: hasRepositorySecret(ctx.secrets.vault, repo.name),
    last_error_said: repositoryErrorSaid(ctx.db, repo.name, repo.name === LOCAL),
    ...(repo.type === 'folder' ? { connected: folderAbsence(repo) === null } : {}),
  });

  app.get('/admin/repositories', { preHandler: admin }, async () => ({ object: 'list', data: listRepositories(ctx.db).map(shown) }));

  app.post('/admin/repositories', { preHandler: admin }, async (req, reply) => {
    const { name, type, location, options, secret } = parseOptionalBody(AddRepositoryRequest, req.body);
    try {
      // An rclone repository names a remote rclone has configured: said now, not at the first backup.
      if (type === 'rclone') await assertRemoteConfigured(location, options?.rclone_config ? { config: options.rclone_config } : {});
      const repo = addRepository(
        ctx.writer,
        ctx.secrets.vault,
        { name, type, location, ...(options ? { options } : {}), ...(secret ? { secret } : {}) },
        ctx.clock,
      );
      return await reply.code(201).send(shown(repo));
    } catch (err) {
      if (err instanceof RcloneDestinationError || err instanceof RcloneError) throw badRequest(err.message, 'remote', 'rclone_remote_unknown');
      return repoError(err);
    }
  });

  // Moving the local repository (to another disk, an external drive): later backups go there; the
  // snapshots already made stay where they are until the user copies or deletes them.
  app.patch('/admin/repositories/local', { preHandler: admin }, async (req) => {
    const body = MoveLocalRepositoryRequest.safeParse(req.body);
    if (!body.success || !isAbsolute(body.data.location)) throw badRequest('Send {"location": "/absolute/path"} for the local repository.', 'location');
    if (ctx.backups.busy) throw new ApiError('backup_running', 'A backup is running; move the repository when it has finished.');
    moveLocalRepository(ctx.writer, body.data.location);
    return getRepository(ctx.db, 'local');
  });

  // Editing an offsite target (the local one has the route above). Refused while a backup runs,
  // which reads the targets and their secrets as it goes.
  app.patch<{ Params: { name: string } }>('/admin/repositories/:name', { preHandler: admin }, async (req) => {
    const body = parseOptionalBody(RepositoryPatchRequest, req.body);
    if (ctx.backups.busy) throw new ApiError('backup_running', 'A backup is running; change the target when it has finished.');
    const { location, options, enabled, secret } = body;
    try {
      const repo = updateRepository(ctx.writer, ctx.secrets.vault, req.params.name, {
        ...(location !== undefined ? { location } : {}),
        ...(options !== undefined ? { options } : {}),
        ...(enabled !== undefined ? { enabled } : {}),
        ...(secret !== undefined ? { secret } : {}),
      });
      if (!repo) throw notFound(`Repository ${req.params.name}`, 'repository_not_found');
      return shown(repo);
    } catch (err) {
      return repoError(err);
    }
  });

  app.delete<{ Params: { name: string } }>('/admin/repositories/:name', { preHandler: admin }, async (req) => {
    try {
      if (!removeRepository(ctx.writer, ctx.secrets.vault, req.params.name)) throw notFound(`Repository ${req.params.name}`, 'repository_not_found');
    } catch (err) {
      return repoError(err);
    }
    return { name: req.params.name, removed: true };
  });

  app.post<{ Params: { name: string } }>('/admin/repositories/:name/test', { preHandler: admin }, async (req) => {
    const repo = getRepository(ctx.db, req.params.name);
    if (!repo) throw notFound(`Repository ${req.params.name}`, 'repository_not_found');
    // A folder whose disk is away is said as such: restic would create a repository in its place.
    const absent = folderAbsence(repo);
    if (absent)
      return {
        name: repo.name,
        ok: false,
        initialized: false,
        detail: absent.detail,
        said: { code: absent.code, params: absent.params },
      } satisfies ProbeResult;
    const deps = await backupDepsFor({ db: ctx.writer, dataDir: ctx.dataDir, clock: ctx.clock, logger: ctx.logger, store: ctx.secrets.store });
    const result = await probeRepository(deps.restic, toResticRepo(repo, deps.vault, deps.passphrase));
    if (result.ok && repo.type !== 'local') noteOffsiteTested(ctx.writer, unixSeconds(ctx.clock));
    const answer: ProbeResult = { name: repo.name, ...result };
    return answer;
  });
}
