// The Conversations API: /v1/conversations, its items, and (Sanad's extension) a list of them.
// A client reads and changes its own; tasks:read reads every one, admin changes every one.
// Every change is committed before it is answered (tasks/conversations.ts is the writer).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AddItemsBody, CreateConversationBody, UpdateConversationBody, type ItemList } from '../../contract/conversations.js';
import type { StoredItem } from '../../contract/responses.js';
import { unixSeconds } from '../../clock.js';
import { newId } from '../../ids.js';
import {
  addItems,
  conversationObject,
  createConversation,
  deleteConversation,
  deleteItem,
  getConversation,
  getItem,
  itemPage,
  listConversations,
  updateConversationMetadata,
  type ConversationRow,
} from '../../tasks/conversations.js';
import { resolveInput } from '../../turns/resolve.js';
import { changerOf, principalOf, readerOf } from '../access.js';
import { clientIdOf, hasScope } from '../auth.js';
import { ApiError, badRequest } from '../errors.js';
import { cursorPage, orderOf, wholeNumber } from '../paging.js';
import { parseBody } from '../validate.js';
import { secured, type RouteKit } from './route-kit.js';
import { SearchTooSlow, type ConversationSearch } from '../../tasks/conversation-search.js';

type IdParams = { id: string };
type ItemParams = { id: string; item: string };
type PageQuery = { after?: string; limit?: string; order?: string };

const READ = ['responses:write', 'tasks:read'] as const;
/** Search words (`q`) are a few words, not a document. */
const MAX_SEARCH = 200;

const limitOf = (value: string | undefined): number => wholeNumber(value, 'limit', 20, 1, 100);
const listOf = (data: StoredItem[], hasMore: boolean): ItemList => cursorPage(data, hasMore);

const notFound = (id: string): ApiError =>
  new ApiError('conversation_not_found', `No conversation ${id} was found; see GET /v1/conversations.`, 'conversation_id');

export function registerConversationRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  const now = (): number => unixSeconds(ctx.clock);

  const readable = (req: FastifyRequest, id: string): ConversationRow => {
    const row = getConversation(ctx.db, id);
    if (!row || !readerOf(principalOf(req))(row.client_id)) throw notFound(id);
    return row;
  };
  // Changing one is its owner's, or admin's: reading every one (tasks:read) is not enough.
  const writable = (req: FastifyRequest, id: string): ConversationRow => {
    const row = readable(req, id);
    if (!changerOf(principalOf(req))(row.client_id)) {
      throw new ApiError('insufficient_scope', 'Only the client that created this conversation (or admin) may change it.');
    }
    return row;
  };
  // New messages get their own id here (a response's are named after it by the ledger).
  const itemsOf = (req: FastifyRequest, input: Parameters<typeof resolveInput>[1]): StoredItem[] =>
    resolveInput(ctx.db, input, readerOf(principalOf(req))).map((item) => (item.id === '' ? { ...item, id: newId('msg') } : item));

  app.post('/v1/conversations', { preHandler: secured(kit, 'responses:write') }, async (req) => {
    const body = parseBody(CreateConversationBody, req.body ?? {});
    const items = body.items && body.items.length > 0 ? itemsOf(req, body.items) : [];
    const row = createConversation(ctx.writer, { clientId: clientIdOf(principalOf(req)), metadata: body.metadata ?? null, items }, now());
    return conversationObject(row);
  });

  const searched = async (query: Parameters<typeof listConversations>[1]): ReturnType<ConversationSearch['search']> => {
    try {
      return await ctx.conversationSearch.search(query);
    } catch (err) {
      if (err instanceof SearchTooSlow) throw new ApiError('search_too_slow', err.message, 'q');
      throw err;
    }
  };

  app.get<{ Querystring: PageQuery & { q?: string } }>('/v1/conversations', { preHandler: secured(kit, [...READ]) }, async (req) => {
    const p = principalOf(req);
    const { after, q } = req.query;
    if (q !== undefined && q.length > MAX_SEARCH) throw badRequest(`q can be at most ${MAX_SEARCH} characters.`, 'q');
    const query = {
      clientId: hasScope(p, 'tasks:read') ? null : (clientIdOf(p) ?? ''),
      limit: limitOf(req.query.limit),
      ...(after ? { after } : {}),
      ...(q ? { q } : {}),
    };
    // Words are looked for off the event loop; a plain page is one indexed read here.
    const page = q ? await searched(query) : listConversations(ctx.db, query);
    if ('unknownCursor' in page) throw badRequest(`No conversation ${after ?? ''} is in this list; pass the last id of the page before.`, 'after');
    return cursorPage(page.data.map(conversationObject), page.has_more);
  });

  app.get<{ Params: IdParams }>('/v1/conversations/:id', { preHandler: secured(kit, [...READ]) }, async (req) =>
    conversationObject(readable(req, req.params.id)),
  );

  app.post<{ Params: IdParams }>('/v1/conversations/:id', { preHandler: secured(kit, 'responses:write') }, async (req) => {
    writable(req, req.params.id);
    const body = parseBody(UpdateConversationBody, req.body);
    const row = updateConversationMetadata(ctx.writer, req.params.id, body.metadata);
    if (!row) throw notFound(req.params.id);
    return conversationObject(row);
  });

  app.delete<{ Params: IdParams }>('/v1/conversations/:id', { preHandler: secured(kit, 'responses:write') }, async (req) => {
    writable(req, req.params.id);
    const deleted = deleteConversation(ctx.writer, req.params.id, ctx.deletions, now());
    if (deleted === 'not_found') throw notFound(req.params.id);
    if (deleted === 'busy') {
      throw new ApiError(
        'response_not_terminal',
        'A reply in this conversation is still being written; stop it (or wait for it), then delete the conversation.',
      );
    }
    return { id: req.params.id, object: 'conversation.deleted', deleted: true };
  });

  app.get<{ Params: IdParams; Querystring: PageQuery & { include?: unknown } }>(
    '/v1/conversations/:id/items',
    { preHandler: secured(kit, [...READ]) },
    async (req) => {
      readable(req, req.params.id);
      if (req.query.include !== undefined) throw badRequest('No include value is available from a local model; leave include out.', 'include');
      const page = itemPage(ctx.db, req.params.id, {
        limit: limitOf(req.query.limit),
        order: orderOf(req.query.order),
        ...(req.query.after ? { after: req.query.after } : {}),
      });
      if ('unknownCursor' in page) throw badRequest(`No item ${req.query.after ?? ''} is in this conversation; pass the last id of the page before.`, 'after');
      return listOf(page.data, page.has_more);
    },
  );

  app.post<{ Params: IdParams }>('/v1/conversations/:id/items', { preHandler: secured(kit, 'responses:write') }, async (req) => {
    writable(req, req.params.id);
    const body = parseBody(AddItemsBody, req.body);
    // The answer lists the items' text: deleting the conversation or an item forgets it.
    if (req.idempotency) req.idempotency.subjectId = req.params.id;
    const added = addItems(ctx.writer, req.params.id, itemsOf(req, body.items), now());
    return listOf(added, false);
  });

  app.get<{ Params: ItemParams }>('/v1/conversations/:id/items/:item', { preHandler: secured(kit, [...READ]) }, async (req) => {
    readable(req, req.params.id);
    const item = getItem(ctx.db, req.params.id, req.params.item);
    if (!item) throw new ApiError('item_not_found', `No item ${req.params.item} is in conversation ${req.params.id}.`, 'item_id');
    return item;
  });

  app.delete<{ Params: ItemParams }>('/v1/conversations/:id/items/:item', { preHandler: secured(kit, 'responses:write') }, async (req) => {
    const row = writable(req, req.params.id);
    if (!deleteItem(ctx.writer, req.params.id, req.params.item, ctx.deletions, now())) {
      throw new ApiError('item_not_found', `No item ${req.params.item} is in conversation ${req.params.id}.`, 'item_id');
    }
    return conversationObject(row);
  });
}
