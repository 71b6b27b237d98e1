// What the Tasks screen reads from the LMSP API (/v1/tasks, /v1/models, /v1/responses), checked.
import { z } from 'zod';
import { listOf } from '../../api/http';

export const TASK_STATUSES = ['queued', 'loading', 'running', 'cancelling', 'completed', 'failed', 'cancelled'] as const;
export const TaskStatus = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof TaskStatus>;

/** The states a cancel is accepted in (lmsp-api.md, POST /v1/tasks/{id}/cancel). */
export const CANCELLABLE: readonly TaskStatus[] = ['queued', 'loading', 'running'];
export const TERMINAL: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

export const Task = z.object({
  id: z.string(),
  status: TaskStatus,
  response_id: z.string(),
  model: z.string(),
  on_restart: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
  last_sequence_number: z.number(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type Task = z.infer<typeof Task>;

export const TaskPage = z.object({
  data: z.array(Task),
  has_more: z.boolean(),
});
export type TaskPage = z.infer<typeof TaskPage>;

export const Model = z.object({ id: z.string(), status: z.string() });
export const ModelList = listOf(Model);

/** The 202 answer of POST /v1/responses with background: true. */
export const CreatedResponse = z.object({ id: z.string(), task_id: z.string() });
