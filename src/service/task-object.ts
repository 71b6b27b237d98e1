// The LMSP task resource as clients see it, and the admin's view of it (the GUI's task list and
// page), which adds the prompt, the tokens generated and when generation began.
import type { Task } from '../contract/tasks.js';
import type { ReadableDB } from '../store/open.js';
import { completionStartedAt, getResponseRow, requestsOf } from '../tasks/queries.js';
import { inputText, preview } from '../tasks/request-text.js';
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

/** One task for the admin: the whole prompt, the tokens generated, when generation began. */
export function toAdminTaskObject(db: ReadableDB, t: TaskRow): TaskObject {
  // The response's count, not the task's: the engine counts tokens when a generation ends.
  const response = getResponseRow(db, t.response_id);
  return {
    ...toTaskObject(t),
    prompt: response === undefined ? '' : inputText(response.request),
    output_tokens: response?.output_tokens ?? null,
    generation_started_at: completionStartedAt(db, t.id),
  };
}

/** A page of tasks for the admin: each with its prompt's preview line (one query for the page). */
export function toAdminTaskList(db: ReadableDB, tasks: readonly TaskRow[]): TaskObject[] {
  const requests = requestsOf(
    db,
    tasks.map((t) => t.response_id),
  );
  return tasks.map((t) => ({ ...toTaskObject(t), prompt: preview(inputText(requests.get(t.response_id) ?? '')) }));
}
