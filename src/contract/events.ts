// The event types of a task's stream (GET /v1/tasks/{id}/events), in the order a task emits them.
// A file of its own, without zod, so the GUI's bundle can import it for nothing.

export const TASK_EVENT_TYPES = [
  'response.created',
  'response.queued',
  'response.loading',
  'response.in_progress',
  'response.output_item.added',
  'response.content_part.added',
  'response.reasoning_text.delta',
  'response.reasoning_text.done',
  'response.output_text.delta',
  'response.output_text.done',
  'response.content_part.done',
  'response.output_item.done',
  'response.function_call_arguments.delta',
  'response.function_call_arguments.done',
  'response.cancelling',
  'response.completed',
  'response.failed',
  'response.cancelled',
] as const;
export type TaskEventType = (typeof TASK_EVENT_TYPES)[number];
