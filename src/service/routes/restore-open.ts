// The two restore routes the GUI needs around the click: whether a folder would be accepted as a
// restore target (asked while the user types, so a refusal is said before the click, with the very
// check the restore itself makes), and "open the restored data": restart this service on a
// restore's verified target. The restart is the host's job (appliance/data-dir-switch.ts); this
// route checks that it can work, makes the next instance's login code, answers 202 with its login
// URL, and only once that answer is sent asks the host to switch.
import type { OpenRestored, TargetAnswer } from '../../contract/restore.js';
import { runIdParam } from './run-id-param.js';
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inspectTarget, proveTarget } from '../../restore/target-dir.js';
import { tryFileLock } from '../../store/file-lock.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import type { ErrorCode } from '../../contract/error-codes.js';
import { serviceBaseUrl } from '../base-url.js';
import { newLoginCode } from '../login-codes.js';
import { secured, type RouteKit } from './route-kit.js';
import { instanceLockPath, storePath } from '../../files/data-dir-layout.js';
import { RestoreTargetCheckRequest } from '../../contract/admin-requests.js';

const conflict = (code: ErrorCode, message: string): ApiError => new ApiError(code, message);

export function registerRestoreOpenRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  const admin = secured(kit, 'admin');
  let switching = false;

  // 200 either way: a refusal is an answer to the question, not a failed request.
  app.post('/admin/restore/check-target', { preHandler: admin }, async (req): Promise<TargetAnswer> => {
    const body = RestoreTargetCheckRequest.safeParse(req.body ?? {});
    if (!body.success) throw badRequest('Send {"target": "/absolute/path"}.', 'target');
    const { target } = body.data;
    if (!isAbsolute(target)) {
      return {
        ok: false,
        target,
        path: null,
        state: null,
        refusal: 'not_absolute',
        reason: 'The target must be an absolute path to an empty or absent folder.',
        checks: [],
      };
    }
    const inspection = await proveTarget(await inspectTarget(target, ctx.dataDir));
    const refused = inspection.checks.find((c) => !c.ok);
    return {
      ok: inspection.state !== null,
      target,
      path: inspection.path,
      state: inspection.state,
      refusal: inspection.refusal ?? null,
      reason: refused?.detail ?? null,
      checks: inspection.checks,
    };
  });

  app.post<{ Params: { id: string } }>('/admin/restore/:id/open', { preHandler: admin }, async (req, reply) => {
    const job = ctx.restores.get(runIdParam(req.params.id));
    if (!job) throw notFound(`Restore ${req.params.id}`, 'restore_not_found');
    if (job.status !== 'ok' || job.result?.ok !== true) {
      throw conflict('restore_not_succeeded', 'Only a restore that succeeded and was verified can be opened; run the restore again.');
    }
    const target = job.target;
    const switchDataDir = ctx.switchDataDir;
    if (!switchDataDir) {
      throw conflict('switch_unavailable', `This Sanad cannot restart itself on other data; stop it and run \`sanad serve --data-dir ${target}\`.`);
    }
    if (switching) throw conflict('switch_in_progress', 'Sanad is already switching to other data; wait for it to come back.');
    if (ctx.restores.running) throw conflict('restore_running', 'A restore is running; open the restored data when it has finished.');
    if (ctx.backups.busy) throw conflict('backup_running', 'A backup is running; open the restored data when it has finished.');
    if (ctx.drills.running) throw conflict('drill_running', 'A drill is running; open the restored data when it has finished.');
    if (!existsSync(storePath(target))) {
      throw conflict('restored_data_missing', `${target} no longer holds the restored data; restore again into an empty folder.`);
    }
    // The same lock the next instance takes: if another Sanad serves the folder, say so now rather
    // than after this one has stopped.
    const lock = tryFileLock(instanceLockPath(target));
    if (!lock) throw conflict('restored_data_in_use', `Another Sanad is already running on ${target}; stop it first.`);
    lock.release();

    switching = true;
    const loginCode = newLoginCode();
    // Only after the answer has left: closing the server earlier would cut it off.
    reply.raw.once('finish', () => {
      ctx.logger.info('switching data dir', { from: ctx.dataDir, to: target, restore: job.id });
      switchDataDir({ dataDir: target, loginCode });
    });
    // An answer that never arrived switches nothing, and the user may ask again.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) switching = false;
    });
    const answer: OpenRestored = { restore_id: job.id, data_dir: target, login_url: `${serviceBaseUrl(ctx)}/login?code=${loginCode}` };
    return reply.code(202).send(answer);
  });
}
