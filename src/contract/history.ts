// The answers about the history inside generations, written once (server types, GUI schemas, CLI
// --json): GET /admin/generations/{g}, …/responses, …/diff, POST …/bring-back, GET /admin/bring-backs.
import { z } from 'zod/v3';

export const GenerationCounts = z.object({
  tasks: z.number(),
  responses: z.number(),
  events: z.number(),
  clients: z.number(),
  clients_revoked: z.number(),
  models: z.number(),
  conversations: z.number().default(0),
});
export type GenerationCounts = z.infer<typeof GenerationCounts>;

export const GenerationSummary = z.object({
  generation: z.number(),
  repo: z.string(),
  snapshot_id: z.string(),
  /** When the generation's data was taken (ISO, from its manifest). */
  created_at: z.string(),
  host: z.string(),
  app_version: z.string(),
  /** The store's schema version as backed up (older ones are migrated in the scratch copy only). */
  store_version: z.number(),
  counts: GenerationCounts,
  settings: z.record(z.string(), z.unknown()),
  /** Deletions the generation's own journal holds. */
  journal_entries: z.number(),
});
export type GenerationSummary = z.infer<typeof GenerationSummary>;

export const GenerationResponse = z.object({
  id: z.string(),
  task_id: z.string().nullable(),
  status: z.string().nullable(),
  model: z.string(),
  client_id: z.string().nullable(),
  /** Unix seconds. */
  created_at: z.number(),
  input_preview: z.string(),
  output_preview: z.string(),
  events: z.number(),
  /** Where it stands in the live data: `present` (same id there), `deleted` (in the deletion journal), or `absent`. */
  live: z.enum(['present', 'deleted', 'absent']),
});
export type GenerationResponse = z.infer<typeof GenerationResponse>;

export const GenerationResponsePage = z.object({
  object: z.literal('list'),
  data: z.array(GenerationResponse),
  has_more: z.boolean(),
  /** How many responses match the search in all. */
  total: z.number(),
});
export type GenerationResponsePage = z.infer<typeof GenerationResponsePage>;

export const GenerationConversation = z.object({
  id: z.string(),
  /** The conversation's `title` metadata (the GUI names its conversations so), or null. */
  title: z.string().nullable(),
  /** The model of its last response (or its `model` metadata), or null before its first turn. */
  model: z.string().nullable(),
  /** Unix seconds. */
  created_at: z.number(),
  /** When its last item was added, Unix seconds. */
  updated_at: z.number(),
  items: z.number(),
  /** The text of its last message, shortened. */
  last_preview: z.string(),
  responses: z.number(),
  live: z.enum(['present', 'deleted', 'absent']),
});
export type GenerationConversation = z.infer<typeof GenerationConversation>;

export const GenerationConversationPage = z.object({
  object: z.literal('list'),
  data: z.array(GenerationConversation),
  has_more: z.boolean(),
  total: z.number(),
});
export type GenerationConversationPage = z.infer<typeof GenerationConversationPage>;

const Changes = z.object({ added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()) });
export const GenerationDiff = z.object({
  from: z.number(),
  /** A generation number, or "live" for the data Sanad uses now. */
  to: z.union([z.number(), z.literal('live')]),
  responses: Changes,
  tasks: Changes,
  clients: z.object({ added: z.array(z.string()), revoked: z.array(z.string()), removed: z.array(z.string()) }),
  models: Changes,
  conversations: Changes.default({ added: [], removed: [], changed: [] }),
  settings: z.object({ changed: z.array(z.object({ key: z.string(), from: z.unknown(), to: z.unknown() })) }),
  /** id → what a person knows the item by (a response's or task's prompt, a conversation's first
   *  message, a client's name), for the first 200 items of each list. */
  names: z.record(z.string()).default({}),
});
export type GenerationDiff = z.infer<typeof GenerationDiff>;

export const SkipReason = z.enum(['exists', 'deleted', 'not_in_generation', 'unfinished']);
export type SkipReason = z.infer<typeof SkipReason>;

export const BringBackResult = z.object({
  generation: z.number(),
  repo: z.string(),
  brought_back: z.array(z.string()),
  skipped: z.array(z.object({ id: z.string(), reason: SkipReason })),
});
export type BringBackResult = z.infer<typeof BringBackResult>;

export const BringBackEntry = z.object({
  response_id: z.string(),
  generation: z.number(),
  repo: z.string(),
  snapshot_id: z.string(),
  /** Who asked: an admin client's name, "gui" (a signed-in GUI) or "cli" (the command without a service). */
  by: z.string(),
  undeleted: z.boolean(),
  /** Unix seconds. */
  at: z.number(),
});
export type BringBackEntry = z.infer<typeof BringBackEntry>;

/** Progress of reading a generation's store out of its repository. */
export const InspectProgress = z.object({
  phase: z.enum(['manifest', 'downloading', 'verifying', 'opening']),
  bytes_done: z.number().optional(),
  bytes_total: z.number().optional(),
});
export type InspectProgress = z.infer<typeof InspectProgress>;
