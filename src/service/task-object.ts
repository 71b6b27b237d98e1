// The LMSP task resource as clients see it.
import type { TaskRow } from '../tasks/types.js';

export interface TaskObject {
  id: string;
  object: 'task';
  status: TaskRow['status'];
  response_id: string;
  model: string;
  on_restart: TaskRow['on_restart'];
  created_at: number;
  updated_at: number;
  last_sequence_number: number;
  error: { code: string; message: string } | null;
}

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
