// What a person does to a conversation, each through the public Conversations API: make one (with
// its settings in metadata), change its metadata, delete it, delete the two items of a cut-off turn
// before it is sent again, and copy its messages up to one into a new conversation.
import { z } from 'zod/v3';
import { api } from '../../api/http';
import { allItems, Conversation, textOf } from './api';
import { metadataFor, type ChatSettings } from './chat-settings';

/** OpenAI's limit of items a conversation is made with, or given, in one call. */
const ITEMS_PER_CALL = 20;
const Anything = z.unknown();

export function createConversation(
  settings: ChatSettings,
  items: ReadonlyArray<{ type: 'message'; role: string; content: string }> = [],
): Promise<Conversation> {
  return api('POST', '/v1/conversations', Conversation, { metadata: metadataFor(settings), items: items.slice(0, ITEMS_PER_CALL) });
}

export function saveMetadata(id: string, settings: ChatSettings, previous: Readonly<Record<string, string>>): Promise<Conversation> {
  return api('POST', `/v1/conversations/${encodeURIComponent(id)}`, Conversation, { metadata: metadataFor(settings, previous) });
}

export async function deleteConversation(id: string): Promise<void> {
  await api('DELETE', `/v1/conversations/${encodeURIComponent(id)}`, Anything);
}

export async function deleteItems(id: string, itemIds: readonly string[]): Promise<void> {
  for (const item of itemIds) await api('DELETE', `/v1/conversations/${encodeURIComponent(id)}/items/${encodeURIComponent(item)}`, Anything);
}

/**
 * A new conversation holding copies of this one's messages up to and including `lastItemId` (by
 * value: its own items, so deleting either conversation leaves the other whole), with `settings`.
 */
export async function continueFrom(id: string, lastItemId: string, settings: ChatSettings): Promise<Conversation> {
  const items = await allItems(id);
  const end = items.findIndex((i) => i.id === lastItemId);
  const copies = items
    .slice(0, end < 0 ? items.length : end + 1)
    .filter((i) => i.type === 'message' && i.role !== undefined)
    .map((i) => ({ type: 'message' as const, role: i.role ?? 'user', content: textOf(i) }));
  const made = await createConversation(settings, copies);
  for (let at = ITEMS_PER_CALL; at < copies.length; at += ITEMS_PER_CALL) {
    await api('POST', `/v1/conversations/${encodeURIComponent(made.id)}/items`, Anything, { items: copies.slice(at, at + ITEMS_PER_CALL) });
  }
  return made;
}
