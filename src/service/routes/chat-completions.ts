// POST /v1/chat/completions: OpenAI's older API, which most tools still speak, on the same tasks,
// store, limits and scopes as POST /v1/responses. A completion is a response underneath (its id is
// the response's in OpenAI's spelling); `store: false` (OpenAI's default here) keeps nothing once
// it is answered.
import type { FastifyInstance } from 'fastify';
import { unixSeconds } from '../../clock.js';
import { cancelTask } from '../../tasks/cancel.js';
import { deleteTerminalResponse } from '../../tasks/retention.js';
import { resolveInput } from '../../tasks/turn-context.js';
import { principalOf, readerOf } from '../access.js';
import { clientIdOf, principalKey } from '../auth.js';
import { buildChatCompletion, chatChunkRenderer } from '../chat-object.js';
import { parseChatCompletion, storedChatRequest } from '../chat-request.js';
import { ApiError } from '../errors.js';
import { assertStreamRoom } from '../flood-limits.js';
import { releaseReservation } from '../idempotency.js';
import { waitForTerminal } from '../response-wait.js';
import { streamTaskEvents } from '../sse.js';
import type { RouteKit } from './route-kit.js';
import { secured } from './route-kit.js';

export function registerChatCompletionRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;

  app.post('/v1/chat/completions', { preHandler: secured(kit, 'responses:write') }, async (req, reply) => {
    const settings = ctx.settings();
    const parsed = parseChatCompletion(req.body, settings.max_output_tokens_limit);
    if (!ctx.models.exists(parsed.model)) {
      throw new ApiError(404, 'not_found_error', 'model_not_found', `The model "${parsed.model}" is not registered here; see GET /v1/models.`, 'model');
    }
    const principal = principalOf(req);
    const input = resolveInput(ctx.db, parsed.input, readerOf(principal));
    if (parsed.stream) assertStreamRoom(ctx, principalKey(principal));
    // store: false (the default here): a replay must not hold the answer the store does not keep.
    if (req.idempotency && !parsed.store) req.idempotency.unstored = true;
    const { task, response } = await ctx.creates.create(
      {
        clientId: clientIdOf(principal),
        model: parsed.model,
        request: storedChatRequest(parsed, input),
        metadata: parsed.metadata,
        previousResponseId: null,
        conversationId: null,
        background: false,
        store: parsed.store,
        onRestart: settings.default_on_restart,
      },
      () => undefined,
    );
    const forget = (): void => {
      if (!parsed.store) deleteTerminalResponse(ctx.writer, response.id, ctx.deletions, unixSeconds(ctx.clock), 'unstored');
    };
    const cancel = (): void => void cancelTask(ctx.writer, ctx.ledger, ctx.runner, task.id);

    if (parsed.stream) {
      const waiter = waitForTerminal(ctx, task);
      ctx.runner.enqueue(task);
      // A stream is not replayed (its chunks are not kept as one answer): a retry with the same
      // key makes a new completion instead of waiting for a reservation that never completes.
      if (req.idempotency) releaseReservation(ctx.writer, req.idempotency);
      await streamTaskEvents(ctx, reply, task, {
        after: 0,
        owner: principalKey(principal),
        render: chatChunkRenderer(response, parsed.includeUsage),
        onClientGone: cancel,
      });
      void waiter.done.then(forget);
      return reply;
    }

    const waiter = waitForTerminal(ctx, task);
    ctx.runner.enqueue(task);
    const onGone = (): void => {
      if (!reply.sent) cancel();
    };
    req.raw.once('close', onGone);
    reply.raw.once('close', onGone);
    const finished = await waiter.done;
    forget();
    if (finished.status === 'completed' || finished.status === 'incomplete') return reply.code(200).send(buildChatCompletion(finished));
    const error = finished.error;
    if (error?.code === 'context_length_exceeded') throw new ApiError(400, 'invalid_request_error', error.code, error.message, 'messages');
    if (finished.status === 'cancelled') throw new ApiError(499, 'invalid_request_error', 'cancelled', 'The completion was cancelled before it finished.');
    throw new ApiError(500, 'server_error', error?.code ?? 'engine_error', error?.message ?? 'The completion failed; see the service log.');
  });
}
