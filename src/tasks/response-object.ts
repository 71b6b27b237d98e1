// The Responses-API object for a response, derived from its stored row and its task's state.
import type { ResponseRequest, ResponseRow, TaskRow, TaskStatus } from './types.js';

export type ResponseStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'incomplete';

export function responseStatus(task: TaskStatus, incompleteReason: string | null): ResponseStatus {
  switch (task) {
    case 'queued':
      return 'queued';
    case 'loading':
    case 'running':
    case 'cancelling':
      return 'in_progress';
    case 'completed':
      return incompleteReason ? 'incomplete' : 'completed';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
  }
}

/** The stored request. Only the ledger writes it, from a validated ResponseRequest. */
export function parseRequest(row: ResponseRow): ResponseRequest {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- written by TaskLedger.create from a typed value
  const parsed: ResponseRequest = JSON.parse(row.request);
  return parsed;
}

function parseMetadata(text: string | null): Record<string, string> {
  if (!text) return {};
  const value: unknown = JSON.parse(text);
  const out: Record<string, string> = {};
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  }
  return out;
}

export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  model: string;
  output: unknown[];
  output_text?: string;
  usage: { input_tokens: number; output_tokens: number; total_tokens: number } | null;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: string } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  temperature: number | null;
  top_p: number | null;
  metadata: Record<string, string>;
  background: boolean;
  store: boolean;
  task_id: string;
  on_restart: string;
}

/** `text` is the output so far (the stored output once terminal, else the emitted deltas). */
export function buildResponseObject(row: ResponseRow, task: TaskRow, text: string): ResponseObject {
  const status = responseStatus(task.status, row.incomplete_reason);
  const req = parseRequest(row);
  const itemStatus = status === 'completed' ? 'completed' : status === 'in_progress' || status === 'queued' ? 'in_progress' : 'incomplete';
  const output =
    text.length > 0 || status === 'completed' || status === 'incomplete'
      ? [
          {
            type: 'message',
            id: row.item_id,
            status: itemStatus,
            role: 'assistant',
            content: [{ type: 'output_text', text, annotations: [] }],
          },
        ]
      : [];
  const usage =
    row.input_tokens !== null && row.output_tokens !== null
      ? { input_tokens: row.input_tokens, output_tokens: row.output_tokens, total_tokens: row.input_tokens + row.output_tokens }
      : null;
  const metadata = parseMetadata(row.metadata);
  return {
    id: row.id,
    object: 'response',
    created_at: row.created_at,
    status,
    model: row.model,
    output,
    usage,
    error: task.error_code ? { code: task.error_code, message: task.error_message ?? '' } : null,
    incomplete_details: status === 'incomplete' && row.incomplete_reason ? { reason: row.incomplete_reason } : null,
    instructions: req.instructions,
    max_output_tokens: req.max_output_tokens,
    temperature: req.temperature,
    top_p: req.top_p,
    metadata,
    background: row.background === 1,
    store: row.store === 1,
    task_id: task.id,
    on_restart: task.on_restart,
  };
}
