// /admin/runs: the one record of every backup, maintenance, offsite copy, drill, restore and model
// download (jobs/runs.ts), newest first, a person's cancel of any of them,
// and one run with its kind's details. A client that started a run follows it by the id its start
// route answered: here, or on GET /admin/events?run={id}.
import type { FastifyInstance } from 'fastify';
import { backupRunDetails } from '../../repository/backup-runs.js';
import type { RunDetails } from '../../contract/run-details.js';
import { type Runs } from '../../contract/runs.js';
import { getDrillRun } from '../../drill/drill-runs.js';
import { getRun, listRuns } from '../../jobs/runs.js';
import { ApiError, badRequest, notFound } from '../errors.js';
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

  // A person's cancel of any run: a running one stops (restic gets SIGINT and drops its lock; what
  // it leaves is its kind's, see docs/backup-and-restore.md), a queued one never starts, and the
  // run ends `cancelled`. A download's partial file is deleted with it, as its own cancel does.
  app.post<{ Params: { id: string } }>('/admin/runs/:id/cancel', { preHandler: admin }, async (req, reply) => {
    const id = runIdParam(req.params.id);
    const row = getRun(ctx.db, id);
    if (!row) throw notFound(`Run ${req.params.id}`, 'run_not_found');
    if (row.status !== 'queued' && row.status !== 'running') {
      throw new ApiError('run_not_open', `Run ${id} has already ended (${row.status}); there is nothing to cancel.`);
    }
    const pull = row.kind === 'pull' ? ctx.pulls.ofRun(id) : null;
    const asked = pull !== null ? ctx.pulls.cancel(pull) : ctx.jobs.cancelRun(id);
    if (!asked) {
      throw new ApiError('run_elsewhere', `Run ${id} is carried out by another Sanad process (a \`sanad\` command in a terminal); stop it there with Ctrl-C.`);
    }
    const now = getRun(ctx.db, id);
    return reply.code(202).send(now ? ctx.jobs.shown(now) : ctx.jobs.shown(row));
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
