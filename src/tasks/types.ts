// Task and response records as stored, and the event shape every client sees.

export const TASK_STATUSES = ['queued', 'loading', 'running', 'cancelling', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TERMINAL: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];
export const UNFINISHED: readonly TaskStatus[] = ['queued', 'loading', 'running', 'cancelling'];

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.includes(status);
}

export function isTaskStatus(value: string): value is TaskStatus {
  return TASK_STATUSES.some((s) => s === value);
}

export type OnRestart = 'fail' | 'retry' | 'resume';

export interface TaskRow {
  id: string;
  response_id: string;
  client_id: string | null;
  model: string;
  status: TaskStatus;
  on_restart: OnRestart;
  last_sequence_number: number;
  output_tokens: number;
  error_code: string | null;
  error_message: string | null;
  created_at: number;
  updated_at: number;
}

/** What the client asked for, kept so a task can be (re)run after a restart. */
export interface ResponseRequest {
  input: string | Array<{ role: 'system' | 'developer' | 'user' | 'assistant'; content: string }>;
  instructions: string | null;
  max_output_tokens: number | null;
  temperature: number | null;
  top_p: number | null;
}

export interface ResponseRow {
  id: string;
  client_id: string | null;
  model: string;
  item_id: string;
  request: string;
  metadata: string | null;
  background: number;
  store: number;
  output_text: string | null;
  incomplete_reason: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  created_at: number;
}

export interface EventRow {
  task_id: string;
  sequence_number: number;
  type: string;
  data: string;
  created_at: number;
}

export type EventType =
  | 'response.created'
  | 'response.queued'
  | 'response.loading'
  | 'response.in_progress'
  | 'response.output_text.delta'
  | 'response.output_text.done'
  | 'response.output_item.added'
  | 'response.content_part.added'
  | 'response.content_part.done'
  | 'response.output_item.done'
  | 'response.cancelling'
  | 'response.completed'
  | 'response.failed'
  | 'response.cancelled';

export const TERMINAL_EVENTS: readonly string[] = ['response.completed', 'response.failed', 'response.cancelled'];

/** An event as clients receive it. */
export interface TaskEvent {
  type: string;
  sequence_number: number;
  task_id: string;
  response_id: string;
  created_at: number;
  [field: string]: unknown;
}

export interface TaskError {
  code: string;
  message: string;
}
