// The conversation object and its list, in a file of their own (only zod): the GUI's chat screen
// parses them without bundling the whole request contract (responses.ts).
import { z } from 'zod/v3';

export const Conversation = z.object({
  id: z.string(),
  object: z.literal('conversation'),
  created_at: z.number(),
  /** Sanad's addition: when its last item was added (or it was made), Unix seconds. */
  updated_at: z.number(),
  metadata: z.record(z.string()),
});
export type Conversation = z.infer<typeof Conversation>;

export const ConversationList = z.object({
  object: z.literal('list'),
  data: z.array(Conversation),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  has_more: z.boolean(),
});
