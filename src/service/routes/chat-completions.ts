// POST /v1/chat/completions: OpenAI's older API, which most tools still speak, on the one path of
// model requests (turns/): parse this door's shape, hand the turn over, render its answer as a
// chat completion. A completion is a response underneath (its id is the response's in OpenAI's
// spelling); `store: false` (OpenAI's default here) keeps nothing once it is answered.
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../access.js';
import { principalKey } from '../auth.js';
import { buildChatCompletion, chatChunkRenderer } from '../chat-object.js';
import { chatTurnAsk, parseChatCompletion } from '../chat-request.js';
import { assertStreamRoom } from '../flood-limits.js';
import { cancelWhenGone, finishedOrError, startedOrError, streamTurn } from '../turn-door.js';
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

    if (parsed.stream) return streamTurn(ctx, req, reply, turn, principalKey(principal), chatChunkRenderer(turn.response, parsed.includeUsage));
    return reply.code(200).send(buildChatCompletion(await finishedOrError(turn, 'completion')));
  });
}
