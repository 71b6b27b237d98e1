// POST /v1/messages: Anthropic's Messages API (the Anthropic SDKs, Claude Code), on the one path of
// model requests (turns/): parse this door's shape, hand the turn over, render its answer as a
// message. A message is a stored response underneath (its id is its answer item's), so it is in
// every backup. POST /v1/messages/count_tokens counts a request's prompt with the model's own
// template. Errors on these routes come in Anthropic's shape (service/errors.ts).
import type { FastifyInstance } from 'fastify';
import { countTokensBody } from '../../contract/anthropic-messages.js';
import type { StoredItem } from '../../contract/responses.js';
import { keptItem, toChatMessages } from '../../tasks/items.js';
import { principalOf } from '../access.js';
import { principalKey } from '../auth.js';
import { assertStreamRoom } from '../flood-limits.js';
import { buildMessage, messagesEventRenderer } from '../messages-object.js';
import { countedTools, messagesTurnAsk, parseMessages, promptItems } from '../messages-request.js';
import { completionShape } from '../../tasks/completion-shape.js';
import { getResponseRow } from '../../tasks/queries.js';
import { withModelLoaded } from '../model-load-error.js';
import { cancelWhenGone, finishedOrError, startedOrError, streamTurn } from '../turn-door.js';
import { parseBody } from '../validate.js';
import type { RouteKit } from './route-kit.js';
import { secured } from './route-kit.js';

export function registerMessagesRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;

  app.post('/v1/messages', { preHandler: secured(kit, 'responses:write') }, async (req, reply) => {
    const parsed = parseMessages(req.body);
    const principal = principalOf(req);
    if (parsed.stream) assertStreamRoom(ctx, principalKey(principal));
    const turn = await ctx.turns.accept(messagesTurnAsk(parsed, principal, ctx.settings().default_on_restart));
    cancelWhenGone(ctx, req, reply, turn);
    await startedOrError(req, turn, { input: 'messages', 'reasoning.effort': 'thinking', max_output_tokens: 'max_tokens' });

    // Which stop text ended the answer is kept on the response row (OpenAI's object has no place for it).
    const stopSequenceOf = (): string | null => getResponseRow(ctx.db, turn.response.id)?.stop_sequence ?? null;
    if (parsed.stream) return streamTurn(ctx, req, reply, turn, principalKey(principal), messagesEventRenderer(turn.response, stopSequenceOf));
    const finished = await finishedOrError(turn, 'message');
    return reply.code(200).send(buildMessage(finished, stopSequenceOf()));
  });

  app.post('/v1/messages/count_tokens', { preHandler: secured(kit, 'responses:write') }, async (req) => {
    const body = parseBody(countTokensBody, req.body);
    // Messages never hold item references: each item is kept as sent.
    const items = promptItems(body).flatMap((item): StoredItem[] => (item.type === 'item_reference' ? [] : [keptItem(item)]));
    const shape = completionShape({ input: [], instructions: null, max_output_tokens: null, temperature: null, top_p: null, ...countedTools(body) }).engine;
    const tokens = await withModelLoaded(body.model, () => ctx.inMemory.promptTokens(body.model, toChatMessages(null, items), shape));
    return { input_tokens: tokens };
  });
}
