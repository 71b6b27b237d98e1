// The Responses-API object for a response, derived from its stored row and its task's state.
// Every field of OpenAI's Response is there (strict typed clients validate the whole object);
// parameters Sanad only echoes show the defaults they selected.
import { errorEntry, isErrorCode } from '../contract/error-codes.js';
import type { ErrorDetail, ResponseObject, ResponseStatus } from '../contract/responses.js';
import { answersWithMessage, itemNames, outputCalls, outputMessage, outputReasoning, reasoningItem } from './items.js';
import type { ResponseRequest, ResponseRow, TaskRow, TaskStatus } from './types.js';

export type { ResponseObject, ResponseStatus } from '../contract/responses.js';

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
export function parseRequest(row: Pick<ResponseRow, 'request'>): ResponseRequest {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- written by TaskLedger.create from a typed value
  const parsed: ResponseRequest = JSON.parse(row.request);
  return parsed;
}

/** Stored metadata (a JSON object of strings), as the API shows it. */
export function parseMetadata(text: string | null): Record<string, string> {
  if (!text) return {};
  const value: unknown = JSON.parse(text);
  const out: Record<string, string> = {};
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  }
  return out;
}

/** The error type and param each failure code goes with (the contract's error shape). */
function errorOf(code: string, message: string): ErrorDetail {
  switch (code) {
    case 'context_length_exceeded':
      return { type: 'invalid_request_error', code, message, param: 'input' };
    case 'previous_response_not_found':
      return { type: 'invalid_request_error', code, message, param: 'previous_response_id' };
    case 'invalid_json_schema':
      return { type: 'invalid_request_error', code, message, param: 'text.format.schema' };
    case 'conversation_not_found':
      return { type: 'invalid_request_error', code, message, param: 'conversation' };
    case 'infill_not_supported':
      return { type: 'invalid_request_error', code, message, param: 'suffix' };
    case 'reasoning_not_supported':
      return { type: 'invalid_request_error', code, message, param: 'reasoning.effort' };
    case 'model_not_found':
    case 'model_missing':
    case 'model_changed':
      return { type: 'invalid_request_error', code, message, param: 'model' };
    default:
      // Any other code has the type the contract's catalog gives it.
      return { type: isErrorCode(code) ? errorEntry(code).type : 'server_error', code, message, param: null };
  }
}

/**
 * `text` is the output so far (the stored output once terminal, else the emitted deltas); `thought`
 * the thinking so far of an answer not stored yet (a stored answer keeps its reasoning item).
 */
export function buildResponseObject(row: ResponseRow, task: TaskRow, text: string, thought = ''): ResponseObject {
  const status = responseStatus(task.status, row.incomplete_reason);
  const req = parseRequest(row);
  const echo = req.echo ?? {};
  const itemStatus = status === 'completed' ? 'completed' : status === 'in_progress' || status === 'queued' ? 'in_progress' : 'incomplete';
  const calls = outputCalls(row);
  // The message is there from its first text on, or once finished (empty, if the model only called);
  // an answer that is a forced call has none.
  const withMessage = answersWithMessage(req) && (text.length > 0 || status === 'completed' || status === 'incomplete');
  const reasoning = outputReasoning(row) ?? (thought !== '' ? reasoningItem(itemNames(row.id).reasoning, thought, 'in_progress') : null);
  const output: ResponseObject['output'] = [...(reasoning ? [reasoning] : []), ...(withMessage ? [outputMessage(row, text, itemStatus)] : []), ...calls];
  const usage =
    row.input_tokens !== null && row.output_tokens !== null
      ? {
          input_tokens: row.input_tokens,
          input_tokens_details: { cached_tokens: row.cached_tokens ?? 0 },
          output_tokens: row.output_tokens,
          output_tokens_details: { reasoning_tokens: row.reasoning_tokens ?? 0 },
          total_tokens: row.input_tokens + row.output_tokens,
        }
      : null;
  return {
    id: row.id,
    object: 'response',
    created_at: row.created_at,
    completed_at: task.status === 'completed' ? task.updated_at : null,
    status,
    background: row.background === 1,
    model: row.model,
    output,
    usage,
    error: task.error_code ? errorOf(task.error_code, task.error_message ?? '') : null,
    incomplete_details: status === 'incomplete' && row.incomplete_reason ? { reason: row.incomplete_reason } : null,
    instructions: req.instructions,
    max_output_tokens: req.max_output_tokens,
    max_tool_calls: echo.max_tool_calls ?? null,
    temperature: req.temperature,
    top_p: req.top_p,
    top_logprobs: 0,
    metadata: parseMetadata(row.metadata),
    store: row.store === 1,
    previous_response_id: row.previous_response_id ?? null,
    conversation: row.conversation_id ? { id: row.conversation_id } : null,
    truncation: req.truncation ?? 'disabled',
    parallel_tool_calls: echo.parallel_tool_calls ?? true,
    tool_choice: req.tool_choice ?? 'auto',
    tools: req.tools ?? [],
    text: { format: req.format ?? { type: 'text' }, verbosity: 'medium' },
    reasoning: { effort: req.reasoning_effort ?? null, summary: null },
    service_tier: 'default',
    prompt_cache_key: echo.prompt_cache_key ?? null,
    safety_identifier: echo.safety_identifier ?? null,
    user: echo.user ?? null,
    task_id: task.id,
    on_restart: task.on_restart,
    truncated_items: row.truncated_items ?? 0,
  };
}
