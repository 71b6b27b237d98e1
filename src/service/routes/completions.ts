// POST /v1/completions: OpenAI's legacy Completions API (code-completion tools; `suffix` fills in
// the middle on a model with FIM tokens), on the one path of model requests like Chat Completions.
// The prompt goes to the model as it is, without a chat template. Nothing is kept once answered.
import type { FastifyInstance } from 'fastify';
import { createCompletionBody } from '../../contract/completions.js';
import { principalOf } from '../access.js';
import { principalKey } from '../auth.js';
import { buildCompletion, completionChunkRenderer, completionTurnAsk } from '../completions.js';
import { assertStreamRoom } from '../flood-limits.js';
import { cancelWhenGone, finishedOrError, startedOrError, streamTurn } from '../turn-door.js';
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
    if (stream)
      return streamTurn(ctx, req, reply, turn, principalKey(principal), completionChunkRenderer(turn.response, body.stream_options?.include_usage ?? false));
    return reply.code(200).send(buildCompletion(await finishedOrError(turn, 'completion')));
  });
}
