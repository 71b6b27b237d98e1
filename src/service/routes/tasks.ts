// The LMSP task resource: read, list, cancel, and the event log as JSON pages or SSE.
import type { FastifyInstance } from 'fastify';
import { MODEL_ID_PATTERN } from '../../engine/registry.js';
import { cancelTask } from '../../tasks/cancel.js';
import { eventRowsAfter, listTasks, toTaskEvent } from '../../tasks/queries.js';
import { isTaskStatus } from '../../tasks/types.js';
import { cancellableTask, canCancel, principalOf, readableTask } from '../access.js';
import { clientIdOf, hasScope, principalKey } from '../auth.js';
import { ApiError, badRequest } from '../errors.js';
import { streamTaskEvents } from '../sse.js';
import { toAdminTaskList, toAdminTaskObject, toTaskObject } from '../task-object.js';
import { wholeNumber } from '../paging.js';
import { secured, type RouteKit } from './route-kit.js';

type IdParams = { id: string };

// The shape of a task id (ids.ts): a cursor of any other shape can match nothing, so it is a
// mistake worth naming rather than an empty page (the same for a model id).
const TASK_ID = /^task_[0-9a-z]{1,64}$/;

export function registerTaskRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  const readers = secured(kit, ['tasks:read', 'responses:write']);

  app.get<{ Querystring: { status?: string; limit?: string; after?: string; model?: string } }>('/v1/tasks', { preHandler: readers }, async (req) => {
    const principal = principalOf(req);
    const { status, after, model } = req.query;
    if (status !== undefined && !isTaskStatus(status))
      throw badRequest(`status must be one of queued, loading, running, cancelling, completed, failed, cancelled.`, 'status');
    if (model !== undefined && model !== '' && !MODEL_ID_PATTERN.test(model))
      throw badRequest('model must be a registered model id (letters, digits, . _ : -, up to 128).', 'model');
    if (after !== undefined && after !== '' && !TASK_ID.test(after)) throw badRequest('after must be a task id from an earlier page (task_…).', 'after');
    const limit = wholeNumber(req.query.limit, 'limit', 20, 1, 100);
    // Without tasks:read a client lists only its own tasks.
    const own = hasScope(principal, 'tasks:read') ? undefined : (clientIdOf(principal) ?? undefined);
    const page = listTasks(ctx.db, {
      limit,
      ...(status !== undefined && isTaskStatus(status) ? { status } : {}),
      ...(after ? { after } : {}),
      ...(model ? { model } : {}),
      ...(own ? { clientId: own } : {}),
    });
    const data = hasScope(principal, 'admin') ? toAdminTaskList(ctx.db, page.data) : page.data.map(toTaskObject);
    return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: page.has_more };
  });

  app.get<{ Params: IdParams }>('/v1/tasks/:id', { preHandler: readers }, async (req) => {
    const principal = principalOf(req);
    const task = readableTask(ctx, principal, req.params.id);
    return hasScope(principal, 'admin') ? toAdminTaskObject(ctx.db, task) : toTaskObject(task);
  });

  app.post<{ Params: IdParams }>('/v1/tasks/:id/cancel', { preHandler: secured(kit, ['tasks:write', 'responses:write']) }, async (req, reply) => {
    const principal = principalOf(req);
    const task = cancellableTask(ctx, principal, req.params.id);
    if (!canCancel(principal, task)) throw new ApiError('insufficient_scope', 'This token may not cancel this task (tasks:write is needed).');
    const result = cancelTask(ctx.writer, ctx.ledger, ctx.runner, task.id);
    if (result.outcome === 'not_found') throw new ApiError('task_not_found', `Task ${task.id} was not found.`);
    if (result.outcome === 'not_cancellable') {
      throw new ApiError('task_not_cancellable', `The task is already ${result.task.status} and cannot be cancelled.`, null);
    }
    return reply.code(result.outcome === 'cancelled' ? 200 : 202).send(toTaskObject(result.task));
  });

  app.get<{ Params: IdParams; Querystring: { after?: string; limit?: string } }>('/v1/tasks/:id/events', { preHandler: readers }, async (req, reply) => {
    const task = readableTask(ctx, principalOf(req), req.params.id);
    const lastEventId = req.headers['last-event-id'];
    const fromHeader = typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : undefined;
    const after = wholeNumber(fromHeader ?? req.query.after, fromHeader ? 'Last-Event-ID' : 'after', 0, 0, Number.MAX_SAFE_INTEGER);
    if ((req.headers.accept ?? '').includes('text/event-stream')) {
      await streamTaskEvents(ctx, reply, task, { after, owner: principalKey(principalOf(req)) });
      return reply;
    }
    const limit = wholeNumber(req.query.limit, 'limit', 100, 1, 1000);
    const rows = eventRowsAfter(ctx.db, task.id, after, limit + 1);
    return { object: 'list', data: rows.slice(0, limit).map((r) => toTaskEvent(r, task.response_id)), has_more: rows.length > limit };
  });
}
