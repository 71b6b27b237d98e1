// The Conversations API on the wire: request bodies (strict, like every body) and the objects.
// A conversation's items are the messages of its turns, in order, each with the id it was made with.
import { z } from 'zod/v3';
import { InputItem, Metadata, type StoredItem } from './responses.js';

export { Conversation, ConversationList } from './conversation-object.js';

/** OpenAI's limit: items a conversation is created with, or added in one call. */
export const MAX_ITEMS_PER_CALL = 20;

export const CreateConversationBody = z
  .object({
    items: z
      .array(InputItem)
      .max(MAX_ITEMS_PER_CALL, { message: `at most ${MAX_ITEMS_PER_CALL} items at a time` })
      .nullable()
      .optional(),
    metadata: Metadata.nullable().optional(),
  })
  .strict();

export const UpdateConversationBody = z.object({ metadata: Metadata }).strict();

export const AddItemsBody = z
  .object({
    items: z
      .array(InputItem)
      .min(1)
      .max(MAX_ITEMS_PER_CALL, { message: `at most ${MAX_ITEMS_PER_CALL} items at a time` }),
  })
  .strict();

export interface ItemList {
  object: 'list';
  data: StoredItem[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}
