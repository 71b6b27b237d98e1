// The body of POST /v1/messages (Anthropic's Messages API), validated by the contract
// (src/contract/anthropic-messages.ts), turned into what a response keeps: `system` is a system
// message first; a message's blocks become the Responses API's items in their order (text runs
// join into one message, `tool_use` is a function_call, `tool_result` its output, `thinking` a
// reasoning item); `tools` are function tools; `thinking` and `output_config.effort` the effort.
import {
  createMessageBody,
  isCustomTool,
  type AnthropicBlock,
  type AnthropicMessageParam,
  type AnthropicThinking,
  type AnthropicToolChoice,
  type CountTokensBody,
  type CreateMessageBody,
} from '../contract/anthropic-messages.js';
import type { ReasoningEffort } from '../contract/reasoning.js';
import type { FunctionTool, InputItem, OutputFormat, StoredItem, ToolChoice } from '../contract/responses.js';
import type { ResponseRequest } from '../tasks/types.js';
import type { TurnAsk } from '../turns/turns.js';
import { changerOf, readerOf } from './access.js';
import { clientIdOf, type Principal } from './auth.js';
import { checkTools } from './response-request.js';
import { parseBody } from './validate.js';
import { THOUGHT_BUDGET } from '../engine/reasoning.js';

export interface ParsedMessages {
  model: string;
  input: InputItem[];
  stream: boolean;
  body: CreateMessageBody;
}

function blockText(blocks: ReadonlyArray<{ text: string }>): string {
  return blocks.map((b) => b.text).join('');
}

/** A tool's result as the model reads it: its text, said to be an error when it was one. */
function resultText(block: Extract<AnthropicBlock, { type: 'tool_result' }>): string {
  const text = block.content === undefined ? '' : typeof block.content === 'string' ? block.content : blockText(block.content);
  return block.is_error ? `Error: ${text}` : text;
}

/** One message's blocks as items, in order; runs of text join into one message of its role. */
function toItems(m: AnthropicMessageParam): InputItem[] {
  if (typeof m.content === 'string') return [{ type: 'message', role: m.role, content: m.content }];
  const out: InputItem[] = [];
  let text: string | null = null;
  const flush = (): void => {
    if (text !== null) out.push({ type: 'message', role: m.role, content: text });
    text = null;
  };
  for (const block of m.content) {
    if (block.type === 'text') {
      text = (text ?? '') + block.text;
      continue;
    }
    flush();
    if (block.type === 'tool_use') out.push({ type: 'function_call', call_id: block.id, name: block.name, arguments: JSON.stringify(block.input) });
    else if (block.type === 'tool_result') out.push({ type: 'function_call_output', call_id: block.tool_use_id, output: resultText(block) });
    else if (block.type === 'thinking') out.push({ type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: block.thinking }] });
    // redacted_thinking: Anthropic's sealed thought, which no local model can read.
  }
  flush();
  return out;
}

function systemItems(system: CreateMessageBody['system']): InputItem[] {
  if (system === undefined) return [];
  const text = typeof system === 'string' ? system : blockText(system);
  return text === '' ? [] : [{ type: 'message', role: 'system', content: text }];
}

/** The custom tools as function tools; Anthropic's own (server) tools are not offered. */
function tools(b: Pick<CreateMessageBody, 'tools'>): FunctionTool[] {
  return (b.tools ?? []).filter(isCustomTool).map((t) => ({
    type: 'function',
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    parameters: t.input_schema,
    ...(t.strict !== undefined ? { strict: t.strict } : {}),
  }));
}

function toolChoice(choice: AnthropicToolChoice | undefined): ToolChoice | null {
  if (choice === undefined) return null;
  if (choice.type === 'auto') return 'auto';
  if (choice.type === 'any') return 'required';
  if (choice.type === 'none') return 'none';
  return { type: 'function', name: choice.name };
}

/** The efforts with a thought budget, smallest first. */
const BUDGETED_EFFORTS: readonly ReasoningEffort[] = ['minimal', 'low', 'medium'];

/** The smallest effort whose thought budget holds Anthropic's `budget_tokens` (else `high`, unbudgeted). */
function effortOfBudget(budget: number): ReasoningEffort {
  return BUDGETED_EFFORTS.find((effort) => budget <= (THOUGHT_BUDGET[effort] ?? Infinity)) ?? 'high';
}

function effortOf(thinking: AnthropicThinking | undefined, effort: CreateMessageBody['output_config']): ReasoningEffort | null {
  if (thinking?.type === 'disabled') return 'none';
  const asked = effort?.effort;
  if (asked === 'low' || asked === 'medium' || asked === 'high') return asked;
  if (asked === 'xhigh' || asked === 'max') return 'high';
  if (thinking?.type === 'enabled') return effortOfBudget(thinking.budget_tokens);
  return null;
}

export function parseMessages(body: unknown): ParsedMessages {
  const b = parseBody(createMessageBody, body);
  checkTools(tools(b), toolChoice(b.tool_choice), 'tool_choice');
  return { model: b.model, input: promptItems(b), stream: b.stream ?? false, body: b };
}

/** The conversation a request (or a count_tokens body) gives the model, as items. */
export function promptItems(b: Pick<CountTokensBody, 'system' | 'messages'>): InputItem[] {
  return [...systemItems(b.system), ...b.messages.flatMap(toItems)];
}

/** What count_tokens renders besides the messages: the tools offered (their signatures are prompt too). */
export function countedTools(b: CountTokensBody): Pick<ResponseRequest, 'tools' | 'tool_choice'> {
  const offered = tools(b);
  const choice = toolChoice(b.tool_choice);
  return { ...(offered.length > 0 ? { tools: offered } : {}), ...(choice !== null ? { tool_choice: choice } : {}) };
}

/** The request as the ledger keeps it (a message is a response underneath). */
export function storedMessagesRequest(parsed: ParsedMessages, input: StoredItem[]): ResponseRequest {
  const b = parsed.body;
  const choice = toolChoice(b.tool_choice);
  const offered = tools(b);
  const effort = effortOf(b.thinking, b.output_config);
  const schema = b.output_config?.format?.schema;
  const format: OutputFormat | null = schema ? { type: 'json_schema', name: 'output', schema } : null;
  const serial = b.tool_choice !== undefined && 'disable_parallel_tool_use' in b.tool_choice && b.tool_choice.disable_parallel_tool_use === true;
  return {
    api: 'anthropic.messages',
    input,
    instructions: null,
    max_output_tokens: b.max_tokens,
    temperature: b.temperature ?? null,
    top_p: b.top_p ?? null,
    truncation: 'disabled',
    ...(b.top_k !== undefined ? { top_k: b.top_k } : {}),
    ...(format ? { format } : {}),
    ...(b.stop_sequences && b.stop_sequences.length > 0 ? { stop: b.stop_sequences } : {}),
    ...(effort !== null ? { reasoning_effort: effort } : {}),
    ...(offered.length > 0 ? { tools: offered } : {}),
    ...(choice !== null ? { tool_choice: choice } : {}),
    echo: {
      ...(serial ? { parallel_tool_calls: false } : {}),
      ...(b.metadata?.user_id ? { user: b.metadata.user_id } : {}),
    },
  };
}

/**
 * The turn this message asks for, on the one path. A message is kept like a stored response (in
 * every backup, until retention or DELETE /v1/responses/resp_…): the Messages API has no `store`.
 */
export function messagesTurnAsk(parsed: ParsedMessages, principal: Principal, onRestart: TurnAsk['onRestart']): Omit<TurnAsk, 'inCommit'> {
  return {
    clientId: clientIdOf(principal),
    mayRead: readerOf(principal),
    mayChange: changerOf(principal),
    model: parsed.model,
    input: parsed.input,
    keep: (input) => storedMessagesRequest(parsed, input),
    maxOutputTokens: parsed.body.max_tokens,
    maxOutputParam: 'max_tokens',
    capToContext: true,
    metadata: null,
    previousResponseId: null,
    conversationId: null,
    background: false,
    store: true,
    onRestart,
  };
}
