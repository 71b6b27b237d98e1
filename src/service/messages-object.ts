// A message (Anthropic's Messages API) is a response underneath: these build Anthropic's message
// object from the response object, and its stream (message_start, content blocks, message_delta,
// message_stop) from the task's events. The thought comes as a `thinking` block first, the answer
// as a `text` block, each call as a `tool_use` block.
import type {
  AnthropicContentBlock,
  AnthropicErrorDetail,
  AnthropicErrorType,
  AnthropicMessage,
  AnthropicStopReason,
  AnthropicStreamEvent,
  AnthropicUsage,
} from '../contract/anthropic-messages.js';
import { ERROR_TYPES, type ErrorType } from '../contract/error-codes.js';
import type { ResponseObject } from '../contract/responses.js';
import type { TaskEvent } from '../tasks/types.js';

/** The message's id is its answer item's: `resp_<S>` answers as `msg_<S>` (tasks/items.ts). */
export function messageId(responseId: string): string {
  return `msg_${responseId.slice('resp_'.length)}`;
}

function stopReason(response: ResponseObject, stopSequence: string | null): AnthropicStopReason {
  if (response.status === 'incomplete' && response.incomplete_details?.reason === 'max_output_tokens') return 'max_tokens';
  if (response.output.some((item) => item.type === 'function_call')) return 'tool_use';
  return stopSequence !== null ? 'stop_sequence' : 'end_turn';
}

function usageOf(response: Pick<ResponseObject, 'usage'>): AnthropicUsage {
  const input = response.usage?.input_tokens ?? 0;
  const cached = Math.min(input, response.usage?.input_tokens_details.cached_tokens ?? 0);
  // Anthropic counts the input read from a cache apart from the rest.
  return {
    input_tokens: input - cached,
    output_tokens: response.usage?.output_tokens ?? 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    cache_creation: null,
    server_tool_use: null,
    service_tier: 'standard',
  };
}

/** A call's arguments as the object Anthropic's `input` is (the grammar made them JSON). */
function inputOf(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? Object.fromEntries(Object.entries(parsed)) : {};
  } catch {
    return {};
  }
}

function contentOf(response: ResponseObject): AnthropicContentBlock[] {
  const calls = response.output.some((item) => item.type === 'function_call');
  return response.output.flatMap((item): AnthropicContentBlock[] => {
    if (item.type === 'reasoning') return [{ type: 'thinking', thinking: item.content.map((p) => p.text).join(''), signature: '' }];
    if (item.type === 'function_call') return [{ type: 'tool_use', id: item.call_id, name: item.name, input: inputOf(item.arguments) }];
    if (item.type !== 'message') return [];
    const text = item.content.map((p) => p.text).join('');
    // An answer that is only calls has no text block (as Anthropic answers).
    return text === '' && calls ? [] : [{ type: 'text', text, citations: null }];
  });
}

function shell(response: Pick<ResponseObject, 'id' | 'model'>, content: AnthropicContentBlock[], usage: AnthropicUsage): AnthropicMessage {
  return {
    id: messageId(response.id),
    type: 'message',
    role: 'assistant',
    model: response.model,
    content,
    stop_reason: null,
    stop_sequence: null,
    usage,
    container: null,
  };
}

/** `stopSequence`: the stop text that ended the answer (the response row's `stop_sequence`). */
export function buildMessage(response: ResponseObject, stopSequence: string | null): AnthropicMessage {
  const reason = stopReason(response, stopSequence);
  return { ...shell(response, contentOf(response), usageOf(response)), stop_reason: reason, stop_sequence: reason === 'stop_sequence' ? stopSequence : null };
}

/** Anthropic's error type for a contract error type (its SDKs pick the error class by status). */
export function anthropicErrorType(type: ErrorType, status: number): AnthropicErrorType {
  if (status === 413) return 'request_too_large';
  switch (type) {
    case 'invalid_request_error':
    case 'conflict_error':
      return 'invalid_request_error';
    case 'authentication_error':
      return 'authentication_error';
    case 'permission_error':
      return 'permission_error';
    case 'not_found_error':
      return 'not_found_error';
    case 'rate_limit_error':
      return 'rate_limit_error';
    case 'service_unavailable_error':
      return 'overloaded_error';
    default:
      return 'api_error';
  }
}

function isResponseObject(value: unknown): value is ResponseObject {
  return typeof value === 'object' && value !== null && 'object' in value && value.object === 'response';
}

function frame(event: AnthropicStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && key in value ? Object.entries(value).find(([k]) => k === key)?.[1] : undefined;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * A renderer for streamTaskEvents, in Anthropic's stream: message_start (and a ping), then each
 * output item as a content block, numbered from 0 in the order they open, then message_delta with
 * the stop reason and usage, and message_stop. The answer's text block opens with its first text,
 * so an answer that is only calls has none. A failed or cancelled message ends with an `error`
 * event, which the SDKs raise.
 */
export function messagesEventRenderer(response: { id: string; model: string }, stopSequenceOf: () => string | null): (event: TaskEvent) => string | null {
  const blocks = new Map<string, number>();
  /** The answer's message item, opened on the ledger but not yet as a block (no text so far). */
  let waitingText: string | null = null;
  let started = false;
  const open = (itemId: string, block: AnthropicContentBlock): string => {
    const index = blocks.size;
    blocks.set(itemId, index);
    return frame({ type: 'content_block_start', index, content_block: block });
  };
  const start = (): string => {
    if (started) return '';
    started = true;
    return frame({ type: 'message_start', message: shell(response, [], usageOf({ usage: null })) }) + frame({ type: 'ping' });
  };
  return (event) => {
    const itemId = text(event.item_id);
    switch (event.type) {
      case 'response.created':
        return start();
      case 'response.output_item.added': {
        const item = event.item;
        const type = field(item, 'type');
        const id = text(field(item, 'id'));
        if (type === 'reasoning') return start() + open(id, { type: 'thinking', thinking: '', signature: '' });
        if (type === 'function_call')
          return start() + open(id, { type: 'tool_use', id: text(field(item, 'call_id')), name: text(field(item, 'name')), input: {} });
        if (type === 'message') waitingText = id;
        return start();
      }
      case 'response.reasoning_text.delta': {
        const index = blocks.get(itemId);
        return index === undefined ? null : frame({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: text(event.delta) } });
      }
      case 'response.output_text.delta': {
        const opening = waitingText === itemId && !blocks.has(itemId) ? open(itemId, { type: 'text', text: '', citations: null }) : '';
        const index = blocks.get(itemId);
        if (index === undefined) return null;
        return start() + opening + frame({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: text(event.delta) } });
      }
      case 'response.function_call_arguments.delta': {
        const index = blocks.get(itemId);
        return index === undefined ? null : frame({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: text(event.delta) } });
      }
      case 'response.output_item.done': {
        const id = text(field(event.item, 'id'));
        const index = blocks.get(id);
        if (index === undefined) return null;
        const signature =
          field(event.item, 'type') === 'reasoning' ? frame({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: '' } }) : '';
        return signature + frame({ type: 'content_block_stop', index });
      }
      case 'response.completed': {
        const done = event.response;
        if (!isResponseObject(done)) return start() + frame({ type: 'message_stop' });
        const stopped = stopSequenceOf();
        const reason = stopReason(done, stopped);
        const delta = { stop_reason: reason, stop_sequence: reason === 'stop_sequence' ? stopped : null };
        return start() + frame({ type: 'message_delta', delta, usage: usageOf(done) }) + frame({ type: 'message_stop' });
      }
      case 'response.failed':
      case 'response.cancelled': {
        const failed = isResponseObject(event.response) ? event.response.error : null;
        const error: AnthropicErrorDetail =
          failed !== null
            ? { type: anthropicErrorType(ERROR_TYPES.find((t) => t === failed.type) ?? 'server_error', 400), message: failed.message }
            : { type: 'api_error', message: event.type === 'response.cancelled' ? 'The message was cancelled before it finished.' : 'The message failed.' };
        return frame({ type: 'error', error });
      }
      default:
        return null;
    }
  };
}
