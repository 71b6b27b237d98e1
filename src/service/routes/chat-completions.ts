// POST /v1/chat/completions: OpenAI's older API, which most tools still speak, on the one path of
// model requests (turns/): parse this door's shape, hand the turn over, render its answer as a
// chat completion. A completion is a response underneath (its id is the response's in OpenAI's
// spelling); `store: false` (OpenAI's default here) keeps nothing once it is answered.
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../access.js';
import { principalKey } from '../auth.js';
import { buildChatCompletion, chatChunkRenderer } from '../chat-object.js';
import { chatTurnAsk, parseChatCompletion } from '../chat-request.js';
import { ApiError } from '../errors.js';
import { assertStreamRoom } from '../flood-limits.js';
import { releaseReservation } from '../idempotency.js';
import { streamTaskEvents } from '../sse.js';
import { cancelWhenGone, startedOrError } from '../turn-door.js';
import { isErrorCode } from '../../contract/error-codes.js';
import type { RouteKit } from './route-kit.js';
import { secured } from './route-kit.js';

export function registerChatCompletionRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;

  app.post('/v1/chat/completions', { preHandler: secured(kit, 'responses:write') }, async (req, reply) => {
    const parsed = parseChatCompletion(req.body);
    const principal = principalOf(req);
    if (parsed.stream) assertStreamRoom(ctx, principalKey(principal));
    // store: false (the default here): a replay must not hold the answer the store does not keep.
    if (req.idempotency && !parsed.store) req.idempotency.unstored = true;
    const turn = await ctx.turns.accept(chatTurnAsk(parsed, principal, ctx.settings().default_on_restart));
    cancelWhenGone(ctx, req, reply, turn);
    await startedOrError(req, turn, { input: 'messages', 'reasoning.effort': 'reasoning_effort' });

    if (parsed.stream) {
      // A stream is not replayed (its chunks are not kept as one answer): a retry with the same
      // key makes a new completion instead of waiting for a reservation that never completes.
      if (req.idempotency) releaseReservation(ctx.writer, req.idempotency);
      await streamTaskEvents(ctx, reply, turn.task, {
        after: 0,
        owner: principalKey(principal),
        render: chatChunkRenderer(turn.response, parsed.includeUsage),
      });
      void turn.finished();
      return reply;
    }

    const finished = await turn.finished();
    if (finished.status === 'completed' || finished.status === 'incomplete') return reply.code(200).send(buildChatCompletion(finished));
    if (finished.status === 'cancelled') throw new ApiError('cancelled', 'The completion was cancelled before it finished.');
    const error = finished.error;
    const code = error && isErrorCode(error.code) ? error.code : 'engine_error';
    throw new ApiError(code, error?.message ?? 'The completion failed; see the service log.', null);
  });
}
