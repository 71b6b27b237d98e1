// POST /v1/completions: a completion is a response underneath, its prompt kept as the response's one
// input message and its text as the answer. These turn the request into the turn it asks for, and
// the response back into OpenAI's text_completion object and its stream.
import type { CompletionFinishReason, CompletionUsage, CreateCompletionBody, TextCompletion } from '../contract/completions.js';
import type { ResponseObject } from '../contract/responses.js';
import type { ResponseRequest, TaskEvent } from '../tasks/types.js';
import type { TurnAsk } from '../turns/turns.js';
import { changerOf, readerOf } from './access.js';
import { clientIdOf, type Principal } from './auth.js';
import { answerTextOf } from './turn-door.js';

/** OpenAI's default output limit on this API. */
const DEFAULT_MAX_TOKENS = 16;

export function completionId(responseId: string): string {
  return `cmpl-${responseId.slice('resp_'.length)}`;
}

function promptOf(b: CreateCompletionBody): string {
  return typeof b.prompt === 'string' ? b.prompt : (b.prompt[0] ?? '');
}

export function storedCompletionRequest(b: CreateCompletionBody): ResponseRequest {
  const prompt = promptOf(b);
  const stop = b.stop == null ? [] : typeof b.stop === 'string' ? [b.stop] : b.stop;
  return {
    api: 'completions',
    completion: { prompt, ...(b.suffix != null ? { suffix: b.suffix } : {}) },
    input: [{ type: 'message', id: '', status: 'completed', role: 'user', content: [{ type: 'input_text', text: prompt }] }],
    instructions: null,
    max_output_tokens: b.max_tokens ?? DEFAULT_MAX_TOKENS,
    temperature: b.temperature ?? null,
    top_p: b.top_p ?? null,
    truncation: 'disabled',
    ...(stop.length > 0 ? { stop } : {}),
    ...(b.seed != null ? { seed: b.seed } : {}),
    echo: { ...(b.user != null ? { user: b.user } : {}) },
  };
}

/** The turn a completion asks for; like Chat Completions' default, nothing is kept once answered. */
export function completionTurnAsk(b: CreateCompletionBody, principal: Principal, onRestart: TurnAsk['onRestart']): Omit<TurnAsk, 'inCommit'> {
  const request = storedCompletionRequest(b);
  return {
    clientId: clientIdOf(principal),
    mayRead: readerOf(principal),
    mayChange: changerOf(principal),
    model: b.model,
    input: promptOf(b),
    keep: (input) => ({ ...request, input }),
    maxOutputTokens: b.max_tokens ?? DEFAULT_MAX_TOKENS,
    maxOutputParam: 'max_tokens',
    metadata: null,
    previousResponseId: null,
    conversationId: null,
    background: false,
    store: false,
    onRestart,
  };
}

function finishReason(response: ResponseObject): CompletionFinishReason {
  return response.status === 'incomplete' && response.incomplete_details?.reason === 'max_output_tokens' ? 'length' : 'stop';
}

function usageOf(response: ResponseObject): CompletionUsage {
  const input = response.usage?.input_tokens ?? 0;
  const output = response.usage?.output_tokens ?? 0;
  return { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
}

export function buildCompletion(response: ResponseObject): TextCompletion {
  return {
    id: completionId(response.id),
    object: 'text_completion',
    created: response.created_at,
    model: response.model,
    choices: [{ text: answerTextOf(response), index: 0, logprobs: null, finish_reason: finishReason(response) }],
    usage: usageOf(response),
    system_fingerprint: null,
  };
}

function isResponseObject(value: unknown): value is ResponseObject {
  return typeof value === 'object' && value !== null && 'object' in value && value.object === 'response';
}

const sse = (data: unknown): string => `data: ${JSON.stringify(data)}\n\n`;

/** A renderer for streamTaskEvents: each text delta as a chunk, then the finish reason, the usage when asked, and [DONE]. */
export function completionChunkRenderer(
  response: { id: string; model: string; created_at: number },
  includeUsage: boolean,
): (event: TaskEvent) => string | null {
  const chunk = (choices: TextCompletion['choices'], usage?: CompletionUsage): TextCompletion => ({
    id: completionId(response.id),
    object: 'text_completion',
    created: response.created_at,
    model: response.model,
    choices,
    system_fingerprint: null,
    ...(includeUsage ? { usage: usage ?? null } : {}),
  });
  return (event) => {
    if (event.type === 'response.output_text.delta') {
      const text = typeof event.delta === 'string' ? event.delta : '';
      return sse(chunk([{ text, index: 0, logprobs: null, finish_reason: null }]));
    }
    if (event.type === 'response.completed') {
      if (!isResponseObject(event.response)) return 'data: [DONE]\n\n';
      const done = event.response;
      const finish = sse(chunk([{ text: '', index: 0, logprobs: null, finish_reason: finishReason(done) }]));
      return finish + (includeUsage ? sse(chunk([], usageOf(done))) : '') + 'data: [DONE]\n\n';
    }
    if (event.type === 'response.failed' || event.type === 'response.cancelled') {
      const error = isResponseObject(event.response) ? event.response.error : null;
      return sse({
        error: error ?? {
          type: 'server_error',
          code: event.type === 'response.cancelled' ? 'cancelled' : 'engine_error',
          message: 'The completion did not finish.',
          param: null,
        },
      });
    }
    return null;
  };
}
