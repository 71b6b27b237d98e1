// The LMSP answers the GUI reads (GET /v1/tasks, /v1/tasks/{id}, /v1/models, POST /v1/responses),
// written once: the server builds them with these types, the GUI parses them with these schemas.
import { z } from 'zod/v3';
import { listOf } from './list.js';

export const TASK_STATUSES = ['queued', 'loading', 'running', 'cancelling', 'completed', 'failed', 'cancelled'] as const;
export const TaskStatus = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof TaskStatus>;

/** The states a cancel is accepted in (POST /v1/tasks/{id}/cancel). */
export const CANCELLABLE: readonly TaskStatus[] = ['queued', 'loading', 'running'];
export const TERMINAL: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

export const ON_RESTART = ['fail', 'retry', 'resume'] as const;
export const OnRestart = z.enum(ON_RESTART);
export type OnRestart = z.infer<typeof OnRestart>;

export const Task = z.object({
  id: z.string(),
  object: z.literal('task'),
  status: TaskStatus,
  response_id: z.string(),
  model: z.string(),
  on_restart: OnRestart,
  created_at: z.number(),
  updated_at: z.number(),
  last_sequence_number: z.number(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** Sanad's additions, admin only (the GUI): what the user last said (whole on GET /v1/tasks/{id},
   *  a one-line preview in lists), the tokens generated (counted once generation ends: null while it
   *  runs, or when it was cancelled), and when generation last began. */
  prompt: z.string().optional(),
  output_tokens: z.number().nullable().optional(),
  generation_started_at: z.number().nullable().optional(),
});
export type Task = z.infer<typeof Task>;

export const TaskPage = z.object({
  data: z.array(Task),
  has_more: z.boolean(),
});
export type TaskPage = z.infer<typeof TaskPage>;

export const ModelStatus = z.enum(['available', 'missing', 'changed']);

/** A model in memory: what it takes, how many generations it runs at once, how fast it last ran. */
export const ModelInMemory = z.object({
  memory_bytes: z.number(),
  context_size: z.number(),
  sequences: z.number(),
  busy: z.number(),
  last_tokens_per_second: z.number().nullable(),
  loaded_at: z.number(),
});
export type ModelInMemory = z.infer<typeof ModelInMemory>;

export const Model = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number(),
  owned_by: z.literal('local'),
  format: z.string(),
  size_bytes: z.number(),
  sha256: z.string(),
  // Parsed as any string by the GUI, so a newer core's word still shows.
  status: z.string(),
  /** Sanad's addition: what the model makes. `embedding` (its file declares a pooling type) and
   *  `rerank` models make vectors or scores, not text. Absent from an older core: generation. */
  kind: z.string().optional(),
  /** Where the file is on this machine: shown to admin only (the GUI), never to other clients. */
  path: z.string().optional(),
  /** Sanad's additions, admin only: where a pulled model came from (null: added from a file),
   *  whether backups carry its bytes or only that source, and its run settings (null: default). */
  source: z.object({ uri: z.string(), revision: z.string().nullable() }).nullable().optional(),
  backup: z.enum(['include', 'source']).optional(),
  settings: z
    .object({
      context_size: z.number().nullable(),
      gpu_layers: z.union([z.literal('auto'), z.number()]).nullable(),
      temperature: z.number().nullable(),
      max_output_tokens: z.number().nullable(),
      /** The model's own trained context (its GGUF metadata), the upper bound of context_size. */
      trained_context: z.number().nullable(),
    })
    .optional(),
  /** Sanad's addition, admin only: the model in memory now (null: not loaded). */
  loaded: ModelInMemory.nullable().optional(),
});
export type Model = z.infer<typeof Model>;
export type ModelSettingsShown = NonNullable<Model['settings']>;
export const ModelList = listOf(Model);

/** The 202 answer of POST /v1/responses with background: true (the GUI reads these two fields of
 *  the response object, src/contract/responses.ts; declared here so the GUI's bundle stays small). */
export const CreatedResponse = z.object({ id: z.string(), task_id: z.string() });
