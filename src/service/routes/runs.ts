// /admin/runs: the one record of every backup, drill and restore (jobs/runs.ts), newest first,
// and one run with its kind's details. A client that started a run follows it by the id its start
// route answered: here, or on GET /admin/events?run={id}.
import type { FastifyInstance } from 'fastify';
import { backupRunDetails } from '../../repository/backup-runs.js';
import type { RunDetails } from '../../contract/run-details.js';
import { type Runs } from '../../contract/runs.js';
import { getDrillRun } from '../../drill/drill-runs.js';
import { getRun, listRuns } from '../../jobs/runs.js';
import { badRequest, notFound } from '../errors.js';
import { runIdParam } from './run-id-param.js';
import { secured, type RouteKit } from './route-kit.js';
import { RunsQuery } from '../../contract/admin-requests.js';

export function registerRunRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  const admin = secured(kit, 'admin');

  app.get('/admin/runs', { preHandler: admin }, async (req): Promise<Runs> => {
    const query = RunsQuery.safeParse(req.query);
    if (!query.success) {
      const issue = query.error.issues[0];
      throw badRequest(
        'Ask for ?kind=backup|drill|restore|maintenance|offsite-copy|pull, ?open=true, ?limit=1..500 and ?before=ID (all optional).',
        issue?.path.join('.') || null,
      );
    }
    const { kind, limit, before, open } = query.data;
    const rows = listRuns(ctx.db, { limit, open: open === 'true', ...(kind ? { kind } : {}), ...(before !== undefined ? { before } : {}) });
    return { object: 'list', data: rows.map((r) => ctx.jobs.shown(r)) };
  });

  app.get<{ Params: { id: string } }>('/admin/runs/:id', { preHandler: admin }, async (req): Promise<RunDetails> => {
    const id = runIdParam(req.params.id);
    const row = getRun(ctx.db, id);
    if (!row) throw notFound(`Run ${req.params.id}`, 'run_not_found');
    const run = ctx.jobs.shown(row);
    if (run.kind === 'backup') return { ...run, backup: backupRunDetails(ctx.db, id) };
    if (run.kind === 'drill') {
      const drill = getDrillRun(ctx.db, id);
      return drill ? { ...run, drill } : run;
    }
    if (run.kind !== 'restore') return run;
    const restore = ctx.restores.get(id);
    return restore ? { ...run, restore } : run;
  });
}
