// The LMSP task resource as clients see it.
import type { Task } from '../contract/tasks.js';
import type { TaskRow } from '../tasks/types.js';

/** The task resource is the wire contract's (src/contract/tasks.ts). */
export type TaskObject = Task;

export function toTaskObject(t: TaskRow): TaskObject {
  return {
    id: t.id,
    object: 'task',
    status: t.status,
    response_id: t.response_id,
    model: t.model,
    on_restart: t.on_restart,
    created_at: t.created_at,
    updated_at: t.updated_at,
    last_sequence_number: t.last_sequence_number,
    error: t.error_code ? { code: t.error_code, message: t.error_message ?? '' } : null,
  };
}
