// A chat completion is a response underneath: these build OpenAI's chat.completion object from
// the response object, and its stream of chat.completion.chunk objects from the task's events.
import type { ChatCompletion, ChatCompletionChunk, ChatFinishReason, ChatToolCall, ChatUsage } from '../contract/chat-completions.js';
import type { ErrorDetail, ResponseObject } from '../contract/responses.js';
import type { TaskEvent } from '../tasks/types.js';
import { answerTextOf } from './turn-door.js';

const RESPONSE_PREFIX = 'resp_';
const CHAT_PREFIX = 'chatcmpl-';

/** The completion's id is its response's, in OpenAI's spelling (one id, no second column). */
export function chatCompletionId(responseId: string): string {
  return CHAT_PREFIX + responseId.slice(RESPONSE_PREFIX.length);
}

function finishReason(response: ResponseObject): ChatFinishReason {
  if (response.status === 'incomplete' && response.incomplete_details?.reason === 'max_output_tokens') return 'length';
  return toolCalls(response).length > 0 ? 'tool_calls' : 'stop';
}

/** The answer's function calls as Chat Completions spells them (the call_id is the tool call's id). */
function toolCalls(response: ResponseObject): ChatToolCall[] {
  return response.output.flatMap((item) =>
    item.type === 'function_call' ? [{ id: item.call_id, type: 'function' as const, function: { name: item.name, arguments: item.arguments } }] : [],
  );
}

function usageOf(response: ResponseObject): ChatUsage {
  const input = response.usage?.input_tokens ?? 0;
  const output = response.usage?.output_tokens ?? 0;
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    prompt_tokens_details: { cached_tokens: response.usage?.input_tokens_details.cached_tokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: response.usage?.output_tokens_details.reasoning_tokens ?? 0 },
  };
}

/** What a reasoning model thought, or null when it did not think. */
function reasoningOf(response: ResponseObject): string | null {
  const items = response.output.filter((item) => item.type === 'reasoning');
  return items.length === 0 ? null : items.flatMap((item) => item.content.map((part) => part.text)).join('');
}

function messageOf(response: ResponseObject): ChatCompletion['choices'][number]['message'] {
  const calls = toolCalls(response);
  const text = answerTextOf(response);
  const reasoning = reasoningOf(response);
  // OpenAI's content is null when the answer is only calls.
  return {
    role: 'assistant',
    content: calls.length > 0 && text === '' ? null : text,
    ...(reasoning !== null ? { reasoning_content: reasoning } : {}),
    refusal: null,
    annotations: [],
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
  };
}

export function buildChatCompletion(response: ResponseObject): ChatCompletion {
  return {
    id: chatCompletionId(response.id),
    object: 'chat.completion',
    created: response.created_at,
    model: response.model,
    choices: [{ index: 0, message: messageOf(response), logprobs: null, finish_reason: finishReason(response) }],
    usage: usageOf(response),
    service_tier: 'default',
    system_fingerprint: null,
  };
}

function isResponseObject(value: unknown): value is ResponseObject {
  return typeof value === 'object' && value !== null && 'object' in value && value.object === 'response';
}

function sse(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

/**
 * A renderer for streamTaskEvents: the role first, then each text delta, then the finish reason,
 * the usage when asked for (`stream_options.include_usage`, every other chunk then has
 * `usage: null`, as OpenAI sends), and `[DONE]`. A failed or cancelled completion ends with an
 * `error` object instead, which the SDKs raise as an error.
 */
export function chatChunkRenderer(response: { id: string; model: string; created_at: number }, includeUsage: boolean): (event: TaskEvent) => string | null {
  const id = chatCompletionId(response.id);
  const chunk = (choices: ChatCompletionChunk['choices'], usage?: ChatUsage): ChatCompletionChunk => ({
    id,
    object: 'chat.completion.chunk',
    created: response.created_at,
    model: response.model,
    choices,
    service_tier: 'default',
    system_fingerprint: null,
    ...(includeUsage ? { usage: usage ?? null } : {}),
  });
  let started = false;
  // Tool calls are numbered from 0 in the stream, in the order they come.
  const callIndex = new Map<string, number>();
  const start = (): string => {
    if (started) return '';
    started = true;
    return sse(chunk([{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }]));
  };
  return (event) => {
    switch (event.type) {
      case 'response.created':
        return start();
      case 'response.output_text.delta': {
        const delta = typeof event.delta === 'string' ? event.delta : '';
        return start() + sse(chunk([{ index: 0, delta: { content: delta }, logprobs: null, finish_reason: null }]));
      }
      case 'response.reasoning_text.delta': {
        // llama-server's, LM Studio's and DeepSeek's field for thinking, which the AI SDK and LangChain read.
        const delta = typeof event.delta === 'string' ? event.delta : '';
        return start() + sse(chunk([{ index: 0, delta: { reasoning_content: delta }, logprobs: null, finish_reason: null }]));
      }
      case 'response.output_item.added': {
        const item = event.item;
        if (typeof item !== 'object' || item === null || !('type' in item) || item.type !== 'function_call') return null;
        const id = 'id' in item && typeof item.id === 'string' ? item.id : '';
        const callId = 'call_id' in item && typeof item.call_id === 'string' ? item.call_id : '';
        const name = 'name' in item && typeof item.name === 'string' ? item.name : '';
        callIndex.set(id, callIndex.size);
        const index = callIndex.size - 1;
        return (
          start() +
          sse(
            chunk([
              {
                index: 0,
                delta: { tool_calls: [{ index, id: callId, type: 'function', function: { name, arguments: '' } }] },
                logprobs: null,
                finish_reason: null,
              },
            ]),
          )
        );
      }
      case 'response.function_call_arguments.delta': {
        const index = typeof event.item_id === 'string' ? callIndex.get(event.item_id) : undefined;
        if (index === undefined || typeof event.delta !== 'string') return null;
        return sse(chunk([{ index: 0, delta: { tool_calls: [{ index, function: { arguments: event.delta } }] }, logprobs: null, finish_reason: null }]));
      }
      case 'response.completed': {
        const done = event.response;
        if (!isResponseObject(done)) return start() + 'data: [DONE]\n\n';
        const finish = sse(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finishReason(done) }]));
        const usage = includeUsage ? sse(chunk([], usageOf(done))) : '';
        return start() + finish + usage + 'data: [DONE]\n\n';
      }
      case 'response.failed':
      case 'response.cancelled': {
        const error: ErrorDetail =
          isResponseObject(event.response) && event.response.error
            ? event.response.error
            : {
                type: 'server_error',
                code: event.type === 'response.cancelled' ? 'cancelled' : 'engine_error',
                message: event.type === 'response.cancelled' ? 'The completion was cancelled before it finished.' : 'The completion failed.',
                param: null,
              };
        return sse({ error });
      }
      default:
        return null;
    }
  };
}
