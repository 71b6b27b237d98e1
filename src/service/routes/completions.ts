// POST /v1/completions: OpenAI's legacy Completions API (code-completion tools; `suffix` fills in
// the middle on a model with FIM tokens), on the one path of model requests like Chat Completions.
// The prompt goes to the model as it is, without a chat template. Nothing is kept once answered.
import type { FastifyInstance } from 'fastify';
import { createCompletionBody } from '../../contract/completions.js';
import { isErrorCode } from '../../contract/error-codes.js';
import { principalOf } from '../access.js';
import { principalKey } from '../auth.js';
import { buildCompletion, completionChunkRenderer, completionTurnAsk } from '../completions.js';
import { ApiError } from '../errors.js';
import { assertStreamRoom } from '../flood-limits.js';
import { releaseReservation } from '../idempotency.js';
import { streamTaskEvents } from '../sse.js';
import { cancelWhenGone, startedOrError } from '../turn-door.js';
import { parseBody } from '../validate.js';
import type { RouteKit } from './route-kit.js';
import { secured } from './route-kit.js';

export function registerCompletionRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  app.post('/v1/completions', { preHandler: secured(kit, 'responses:write') }, async (req, reply) => {
    const body = parseBody(createCompletionBody, req.body);
    const principal = principalOf(req);
    const stream = body.stream ?? false;
    if (stream) assertStreamRoom(ctx, principalKey(principal));
    if (req.idempotency) req.idempotency.unstored = true;
    const turn = await ctx.turns.accept(completionTurnAsk(body, principal, ctx.settings().default_on_restart));
    cancelWhenGone(ctx, req, reply, turn);
    await startedOrError(req, turn, { input: 'prompt', max_output_tokens: 'max_tokens' });
    if (stream) {
      if (req.idempotency) releaseReservation(ctx.writer, req.idempotency);
      await streamTaskEvents(ctx, reply, turn.task, {
        after: 0,
        owner: principalKey(principal),
        render: completionChunkRenderer(turn.response, body.stream_options?.include_usage ?? false),
      });
      void turn.finished();
      return reply;
    }
    const finished = await turn.finished();
    if (finished.status === 'completed' || finished.status === 'incomplete') return reply.code(200).send(buildCompletion(finished));
    if (finished.status === 'cancelled') throw new ApiError('cancelled', 'The completion was cancelled before it finished.');
    const error = finished.error;
    throw new ApiError(error && isErrorCode(error.code) ? error.code : 'engine_error', error?.message ?? 'The completion failed; see the service log.', null);
  });
}
