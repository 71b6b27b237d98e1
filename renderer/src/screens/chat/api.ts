// What the Chat screen reads and changes, all through the public LMSP API (the same routes any
// client uses, nothing private): /v1/conversations and its items, /v1/responses for each turn,
// /v1/tasks for the turn's state, /v1/models for the picker. Keys start with 'conversations', so one
// invalidation refreshes every view of them.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { z } from 'zod/v3';
import { api } from '../../api/http';
import { Conversation, ConversationList } from '../../../../src/contract/conversation-object';
import { ModelList } from '../../../../src/contract/tasks';

export { Conversation, ModelList };

const Part = z.object({ type: z.string(), text: z.string().optional() }).passthrough();

/** An item as the Conversations API lists it: messages, and the function calls other clients made. */
export const ChatItem = z
  .object({
    id: z.string(),
    type: z.string(),
    role: z.string().optional(),
    status: z.string().optional(),
    content: z.union([z.string(), z.array(Part)]).optional(),
    name: z.string().optional(),
    arguments: z.string().optional(),
    output: z.string().optional(),
  })
  .passthrough();
export type ChatItem = z.infer<typeof ChatItem>;

const ItemPage = z.object({
  object: z.literal('list'),
  data: z.array(ChatItem),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  has_more: z.boolean(),
});

/** The messages a page of a conversation shows at a time: the newest first, older ones on demand. */
export const ITEMS_PAGE = 30;
const LIST_PAGE = 30;

export const conversationsKey = ['conversations'] as const;
export const conversationKey = (id: string) => ['conversations', 'one', id] as const;
export const itemsKey = (id: string) => ['conversations', 'items', id] as const;

/** The text of a message's content (a string, or its parts' text). */
export function textOf(item: Pick<ChatItem, 'content'>): string {
  const c = item.content;
  if (c === undefined) return '';
  if (typeof c === 'string') return c;
  return c.map((p) => p.text ?? '').join('');
}

export const useConversationList = (q: string) =>
  useInfiniteQuery({
    queryKey: ['conversations', 'list', q],
    initialPageParam: '',
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({
        limit: String(LIST_PAGE),
        ...(q.trim() === '' ? {} : { q: q.trim() }),
        ...(pageParam === '' ? {} : { after: pageParam }),
      });
      return api('GET', `/v1/conversations?${params.toString()}`, ConversationList);
    },
    getNextPageParam: (last) => (last.has_more && last.last_id !== null ? last.last_id : undefined),
  });

/** A conversation (none for a draft, which has no id yet). */
export const useConversation = (id: string | null) =>
  useQuery({
    queryKey: conversationKey(id ?? ''),
    queryFn: () => api('GET', `/v1/conversations/${encodeURIComponent(id ?? '')}`, Conversation),
    enabled: id !== null,
  });

/** Pages of items, newest first (each page in the API's `desc` order); the view puts them in order. */
export const useItems = (id: string | null) =>
  useInfiniteQuery({
    queryKey: itemsKey(id ?? ''),
    enabled: id !== null,
    initialPageParam: '',
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ order: 'desc', limit: String(ITEMS_PAGE), ...(pageParam === '' ? {} : { after: pageParam }) });
      return api('GET', `/v1/conversations/${encodeURIComponent(id ?? '')}/items?${params.toString()}`, ItemPage);
    },
    getNextPageParam: (last) => (last.has_more && last.last_id !== null ? last.last_id : undefined),
  });

/** Every item of a conversation, oldest first (for "continue in a new conversation from here"). */
export async function allItems(id: string): Promise<ChatItem[]> {
  const out: ChatItem[] = [];
  let after = '';
  for (;;) {
    const params = new URLSearchParams({ order: 'asc', limit: '100', ...(after === '' ? {} : { after }) });
    const page = await api('GET', `/v1/conversations/${encodeURIComponent(id)}/items?${params.toString()}`, ItemPage);
    out.push(...page.data);
    if (!page.has_more || page.last_id === null) return out;
    after = page.last_id;
  }
}

export const useChatModels = () => useQuery({ queryKey: ['models', 'chat-screen'], queryFn: () => api('GET', '/v1/models', ModelList) });

export const Deleted = z.object({ id: z.string(), deleted: z.boolean() });
