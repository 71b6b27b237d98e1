// POST/GET/DELETE /v1/responses and cancel: the Responses-API surface over LMSP tasks.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unixSeconds } from '../../clock.js';
import { cancelTask } from '../../tasks/cancel.js';
import { deleteTerminalResponse } from '../../tasks/retention.js';
import { buildResponseObject, parseRequest } from '../../tasks/response-object.js';
import { LMSP_EVENTS_HEADER } from '../../contract/responses.js';
import { inputItems } from '../../tasks/items.js';
import { cancellableResponse, canCancel, canDelete, principalOf, readableResponse } from '../access.js';
import { assertStreamRoom, checkQueuedTasks } from '../flood-limits.js';
import { clientIdOf, principalKey } from '../auth.js';
import { ApiError, badRequest } from '../errors.js';
import { completeReservation, type Replay } from '../idempotency.js';
import { parseJsonObject } from '../json-object.js';
import { cursorPage, orderOf, wholeNumber, type CursorPage } from '../paging.js';
import { parseCreateResponse, turnAsk } from '../response-request.js';
import { streamTaskEvents, type StreamOptions } from '../sse.js';
import { currentResponse } from '../../turns/current-response.js';
import { cancelWhenGone, startedOrError } from '../turn-door.js';
import type { RouteKit } from './route-kit.js';
import { secured } from './route-kit.js';

type IdParams = { id: string };

function parseAfter(value: unknown, param: string): number {
  if (value === undefined || value === '') return 0;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw badRequest(`${param} must be a whole number of at least 0.`, param);
  return n;
}

/** The Responses stream's view: OpenAI's events, or the task's whole log when the client asks for LMSP's. */
function responsesView(req: FastifyRequest): NonNullable<StreamOptions['view']> {
  const asked = req.headers[LMSP_EVENTS_HEADER];
  return typeof asked === 'string' && asked.trim().toLowerCase() === 'all' ? 'task' : 'responses';
}

/** A page of a list in memory: OpenAI's `after` (an id), `limit` and `order` (newest first by default). */
function pageOf<T extends { id: string }>(all: readonly T[], query: { after?: string; limit?: string; order?: string }): CursorPage<T> {
  const limit = wholeNumber(query.limit, 'limit', 20, 1, 100);
  const ordered = orderOf(query.order) === 'asc' ? [...all] : [...all].reverse();
  let from = 0;
  if (query.after !== undefined && query.after !== '') {
    const at = ordered.findIndex((x) => x.id === query.after);
    if (at < 0) throw badRequest(`No item ${query.after} is in this list; pass the last id of the page before.`, 'after');
    from = at + 1;
  }
  return cursorPage(ordered.slice(from, from + limit), from + limit < ordered.length);
}

export function registerResponseRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;

  // A replayed streamed create streams the same task's events again; a replayed 202 keeps its Location.
  const replayCreate = async (req: FastifyRequest, reply: FastifyReply, replay: Replay): Promise<boolean> => {
    const body = parseJsonObject(replay.body);
    if (typeof body?.stream_response_id === 'string') {
      const { task } = readableResponse(ctx, principalOf(req), body.stream_response_id);
      await streamTaskEvents(ctx, reply, task, {
        after: 0,
        owner: principalKey(principalOf(req)),
        headers: { 'idempotent-replayed': 'true' },
        view: responsesView(req),
      });
      return true;
    }
    if (replay.status === 202 && typeof body?.task_id === 'string') void reply.header('location', `/v1/tasks/${body.task_id}`);
    return false;
  };

  app.post('/v1/responses', { preHandler: secured(kit, 'responses:write', replayCreate) }, async (req, reply) => {
    const parsed = parseCreateResponse(req.body);
    const principal = principalOf(req);
    // A background task waits in the queue: one client may not fill it (a foreground one is the
    // client's own open request, held by its connection).
    if (parsed.background) checkQueuedTasks(ctx, clientIdOf(principal));
    // A streamed create that could not stream must not leave a task behind: refuse it first.
    if (parsed.stream) assertStreamRoom(ctx, principalKey(principal));
    const idem = req.idempotency;
    // store: false: a replay must not hold the answer the store itself does not keep.
    if (idem && !parsed.store) idem.unstored = true;
    const turn = await ctx.turns.accept({
      ...turnAsk(parsed, principal),
      // The answer to an idempotent create is committed with the task itself (LMSP §11.2).
      inCommit: (t, r) => {
        if (!idem) return;
        idem.subjectId = r.id;
        if (parsed.stream) completeReservation(ctx.writer, idem, 200, JSON.stringify({ stream_response_id: r.id }));
        else if (parsed.background) completeReservation(ctx.writer, idem, 202, JSON.stringify(buildResponseObject(r, t, '')));
      },
    });
    if (parsed.background && !parsed.stream) {
      return reply.code(202).header('location', `/v1/tasks/${turn.task.id}`).type('application/json').send(JSON.stringify(turn.accepted));
    }
    if (!parsed.background) {
      cancelWhenGone(ctx, req, reply, turn);
      // Whatever fails before the model begins (too long for it, a model that will not load) is an
      // HTTP error, before any stream header. A background task is the client's to follow: it is kept.
      await startedOrError(req, turn);
    }
    if (parsed.stream) {
      await streamTaskEvents(ctx, reply, turn.task, { after: 0, owner: principalKey(principal), view: responsesView(req) });
      // A foreground store: false answer is forgotten once its task ended.
      if (!parsed.background) void turn.finished();
      return reply;
    }
    return reply.code(200).send(await turn.finished());
  });

  app.get<{ Params: IdParams; Querystring: { stream?: string; starting_after?: string } }>(
    '/v1/responses/:id',
    { preHandler: secured(kit, ['responses:write', 'tasks:read']) },
    async (req, reply) => {
      const { id } = req.params;
      const query = req.query;
      const { task } = readableResponse(ctx, principalOf(req), id);
      if (query.stream === 'true') {
        await streamTaskEvents(ctx, reply, task, {
          after: parseAfter(query.starting_after, 'starting_after'),
          owner: principalKey(principalOf(req)),
          view: responsesView(req),
        });
        return reply;
      }
      return currentResponse(ctx.db, task);
    },
  );

  // The items of a response's own input, as kept (referenced items resolved).
  app.get<{ Params: IdParams; Querystring: { after?: string; limit?: string; order?: string } }>(
    '/v1/responses/:id/input_items',
    { preHandler: secured(kit, ['responses:write', 'tasks:read']) },
    async (req) => {
      const { response } = readableResponse(ctx, principalOf(req), req.params.id);
      const items = inputItems(parseRequest(response)).filter((item) => item.id !== '');
      return pageOf(items, req.query);
    },
  );

  app.post<{ Params: IdParams }>('/v1/responses/:id/cancel', { preHandler: secured(kit, ['responses:write', 'tasks:write']) }, async (req, reply) => {
    const { id } = req.params;
    const principal = principalOf(req);
    const task = cancellableResponse(ctx, principal, id);
    if (!canCancel(principal, task)) throw new ApiError('insufficient_scope', 'This token may not cancel this response.');
    const result = cancelTask(ctx.writer, ctx.ledger, ctx.runner, task.id);
    if (result.outcome === 'not_found') throw new ApiError('response_not_found', `Response ${id} was not found.`);
    if (result.outcome === 'not_cancellable') {
      throw new ApiError('task_not_cancellable', `This response's task is already ${result.task.status} and cannot be cancelled.`);
    }
    return reply.code(result.outcome === 'cancelled' ? 200 : 202).send(currentResponse(ctx.db, result.task));
  });

  app.delete<{ Params: IdParams }>('/v1/responses/:id', { preHandler: secured(kit, 'responses:write') }, async (req) => {
    const { id } = req.params;
    const principal = principalOf(req);
    const { task } = readableResponse(ctx, principal, id);
    if (!canDelete(principal, task)) throw new ApiError('insufficient_scope', 'Only the client that created this response (or admin) may delete it.');
    const outcome = deleteTerminalResponse(ctx.writer, id, ctx.deletions, unixSeconds(ctx.clock));
    if (outcome === 'not_terminal') {
      throw new ApiError('response_not_terminal', 'This response is still being generated; cancel it first, then delete it.');
    }
    if (outcome === 'not_found') throw new ApiError('response_not_found', `Response ${id} was not found.`);
    return { id, object: 'response.deleted', deleted: true };
  });
}
