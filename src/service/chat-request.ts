// The body of POST /v1/chat/completions, validated by the contract (src/contract/chat-completions.ts),
// turned into what a response keeps: the messages become the response's input items (system and
// developer messages stay messages, as the Responses API keeps them), `response_format` becomes
// `text.format`, `max_tokens`/`max_completion_tokens` the output limit.
import { createChatCompletionBody, type ChatRequestMessage, type ChatResponseFormat, type CreateChatCompletionBody } from '../contract/chat-completions.js';
import type { FunctionTool, InputItem, OutputFormat, StoredItem, ToolChoice } from '../contract/responses.js';
import { checkTools } from './response-request.js';
import type { ResponseRequest } from '../tasks/types.js';
import { badRequest } from './errors.js';
import { parseBody } from './validate.js';
import { clientIdOf, type Principal } from './auth.js';
import { changerOf, readerOf } from './access.js';
import type { TurnAsk } from '../turns/turns.js';

export interface ParsedChat {
  model: string;
  input: InputItem[];
  stream: boolean;
  includeUsage: boolean;
  store: boolean;
  metadata: Record<string, string> | null;
  body: CreateChatCompletionBody;
}

function textOf(content: ChatRequestMessage['content']): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : part.refusal)).join('');
}

/** One chat message as the Responses API's items: an assistant's tool calls are function_call items, a tool message their output. */
function toItems(m: ChatRequestMessage): InputItem[] {
  if (m.role === 'tool') return [{ type: 'function_call_output', call_id: m.tool_call_id, output: textOf(m.content) }];
  const text = textOf(m.content);
  if (m.role !== 'assistant') return [{ type: 'message', role: m.role, content: text }];
  const calls = (m.tool_calls ?? []).map((c): InputItem => ({ type: 'function_call', call_id: c.id, name: c.function.name, arguments: c.function.arguments }));
  const thought: InputItem[] = m.reasoning_content
    ? [{ type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: m.reasoning_content }] }]
    : [];
  return [...thought, ...(text !== '' || calls.length === 0 ? [{ type: 'message' as const, role: 'assistant' as const, content: text }] : []), ...calls];
}

function tools(b: CreateChatCompletionBody): FunctionTool[] {
  return (b.tools ?? []).map((t) => ({
    type: 'function',
    name: t.function.name,
    ...(t.function.description !== undefined ? { description: t.function.description } : {}),
    ...(t.function.parameters !== undefined ? { parameters: t.function.parameters } : {}),
    ...(t.function.strict != null ? { strict: t.function.strict } : {}),
  }));
}

function toolChoice(b: CreateChatCompletionBody): ToolChoice | null {
  const c = b.tool_choice;
  if (c == null) return null;
  return typeof c === 'string' ? c : { type: 'function', name: c.function.name };
}

export function parseChatCompletion(body: unknown): ParsedChat {
  const b = parseBody(createChatCompletionBody, body);
  if (b.max_tokens != null && b.max_completion_tokens != null && b.max_tokens !== b.max_completion_tokens) {
    throw badRequest('Send max_completion_tokens or max_tokens, not two different limits (max_tokens is its older name).', 'max_tokens');
  }
  const input = b.messages.flatMap(toItems);
  checkTools(tools(b), toolChoice(b), 'tool_choice');
  return {
    model: b.model,
    input,
    stream: b.stream ?? false,
    includeUsage: b.stream_options?.include_usage ?? false,
    // OpenAI keeps chat completions only when asked (the Responses API's default is the other way).
    store: b.store ?? false,
    metadata: b.metadata ?? null,
    body: b,
  };
}

function formatOf(format: ChatResponseFormat | null | undefined): OutputFormat | null {
  if (!format || format.type === 'text') return null;
  if (format.type === 'json_object') return { type: 'json_object' };
  const { name, schema, description, strict } = format.json_schema;
  return { type: 'json_schema', name, schema, ...(description !== undefined ? { description } : {}), ...(strict != null ? { strict } : {}) };
}

/** The request as the ledger keeps it (a chat completion is a response underneath). */
export function storedChatRequest(parsed: ParsedChat, input: StoredItem[]): ResponseRequest {
  const b = parsed.body;
  const format = formatOf(b.response_format);
  const stop = b.stop == null ? [] : typeof b.stop === 'string' ? [b.stop] : b.stop;
  return {
    api: 'chat.completions',
    input,
    instructions: null,
    max_output_tokens: b.max_completion_tokens ?? b.max_tokens ?? null,
    temperature: b.temperature ?? null,
    top_p: b.top_p ?? null,
    truncation: 'disabled',
    ...(format ? { format } : {}),
    ...(stop.length > 0 ? { stop } : {}),
    ...(b.seed != null ? { seed: b.seed } : {}),
    ...(b.reasoning_effort != null ? { reasoning_effort: b.reasoning_effort } : {}),
    ...(b.tools && b.tools.length > 0 ? { tools: tools(b) } : {}),
    ...(toolChoice(b) !== null ? { tool_choice: toolChoice(b) ?? 'auto' } : {}),
    echo: {
      ...(b.parallel_tool_calls != null ? { parallel_tool_calls: b.parallel_tool_calls } : {}),
      ...(b.user != null ? { user: b.user } : {}),
      ...(b.safety_identifier != null ? { safety_identifier: b.safety_identifier } : {}),
      ...(b.prompt_cache_key != null ? { prompt_cache_key: b.prompt_cache_key } : {}),
    },
  };
}

/** The turn this completion asks for: a chat completion is a response underneath, on the one path. */
export function chatTurnAsk(parsed: ParsedChat, principal: Principal, onRestart: TurnAsk['onRestart']): Omit<TurnAsk, 'inCommit'> {
  const b = parsed.body;
  return {
    clientId: clientIdOf(principal),
    mayRead: readerOf(principal),
    mayChange: changerOf(principal),
    model: parsed.model,
    input: parsed.input,
    keep: (input) => storedChatRequest(parsed, input),
    maxOutputTokens: b.max_completion_tokens ?? b.max_tokens ?? null,
    maxOutputParam: b.max_completion_tokens != null ? 'max_completion_tokens' : 'max_tokens',
    metadata: parsed.metadata,
    previousResponseId: null,
    conversationId: null,
    background: false,
    store: parsed.store,
    onRestart,
  };
}
