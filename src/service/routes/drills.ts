// /admin routes for drills (the GUI's Drills screen): start one (202 with its id; its progress and
// end arrive on GET /admin/events as drill.progress / drill.finished), its status, the history.
import type { DrillStarted, DrillStatus } from '../../contract/drills.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/v3';
import { getDrillRun, KEEP_RUNS, listDrillRuns } from '../../drill/drill-runs.js';
import { DrillBusyError, UnknownRepositoryError } from '../../drill/run-drill.js';
import { KeychainUnavailableError, MissingSecretError } from '../../secrets/errors.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { secured, type RouteKit } from './route-kit.js';
import { StartDrillRequest } from '../../contract/admin-requests.js';
import { getRepository } from '../../repository/repositories.js';

const ListQuery = z.object({ limit: z.coerce.number().int().min(1).max(KEEP_RUNS).default(50) });

const busy = (): ApiError => new ApiError('drill_running', 'A drill is already running; wait for it to finish.');

export function registerDrillRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  const admin = secured(kit, 'admin');

  app.get('/admin/drills', { preHandler: admin }, async (req) => {
    const query = ListQuery.safeParse(req.query);
    if (!query.success) throw badRequest(`limit is a whole number from 1 to ${KEEP_RUNS}.`, 'limit');
    return { object: 'list', data: listDrillRuns(ctx.db, query.data.limit) };
  });

  app.post('/admin/drills', { preHandler: admin }, async (req, reply) => {
    const body = StartDrillRequest.safeParse(req.body ?? {});
    if (!body.success) {
      const issue = body.error.issues[0];
      throw badRequest('Send {"deep": true|false, "repo": "NAME"} (both optional).', issue?.path.join('.') || null);
    }
    // Said now, not as a run that vanishes: the id answered must be one a client can follow.
    if (body.data.repo !== undefined && getRepository(ctx.db, body.data.repo) === null) throw notFound(`Repository ${body.data.repo}`, 'repository_not_found');
    try {
      const kind = body.data.deep === true ? 'deep' : 'daily';
      const started = await ctx.drills.begin(kind, 'api', body.data.repo);
      // Not awaited: the drill reports through the store, alerts and the event bus.
      started.done.catch((err: unknown) =>
        ctx.logger.warn('drill failed to finish', { id: started.id, error: err instanceof Error ? err.message : String(err) }),
      );
      // A drill asked for during a backup waits for it: the status shows it waiting, by its id.
      const answer: DrillStarted = { id: started.id, kind, waiting_for: ctx.jobs.waitingFor(started.id) };
      return await reply.code(202).send(answer);
    } catch (err) {
      if (err instanceof DrillBusyError) throw busy();
      if (err instanceof UnknownRepositoryError) throw notFound(`Repository ${body.data.repo ?? ''}`, 'repository_not_found');
      // The keychain went away after start: the drill cannot read the backups, say so plainly.
      if (err instanceof MissingSecretError || err instanceof KeychainUnavailableError) throw new ApiError('drill_unavailable', err.message);
      throw err;
    }
  });

  app.get('/admin/drills/status', { preHandler: admin }, async (): Promise<DrillStatus> => ctx.drills.status());

  app.get<{ Params: { id: string } }>('/admin/drills/:id', { preHandler: admin }, async (req) => {
    const id = /^[1-9][0-9]{0,15}$/.test(req.params.id) ? Number(req.params.id) : null;
    const run = id === null ? null : getDrillRun(ctx.db, id);
    if (!run) throw notFound(`Drill ${req.params.id}`, 'drill_not_found');
    return run;
  });
}
