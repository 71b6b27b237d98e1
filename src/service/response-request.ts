// The body of POST /v1/responses, validated by the contract's schema (src/contract/responses.ts):
// a bad or unknown field is a 400 that names it as `param`. What is left is this module's: the
// rules between fields, and the request as the ledger keeps it.
import { createResponseBody, type CreateResponseBody, type FunctionTool, type InputItem, type StoredItem, type ToolChoice } from '../contract/responses.js';
import type { OnRestart, ResponseRequest } from '../tasks/types.js';
import { badRequest } from './errors.js';
import { parseBody } from './validate.js';
import { clientIdOf, type Principal } from './auth.js';
import { changerOf, readerOf } from './access.js';
import type { TurnAsk } from '../turns/turns.js';

export interface ParsedCreate {
  model: string;
  input: string | InputItem[];
  stream: boolean;
  background: boolean;
  store: boolean;
  metadata: Record<string, string> | null;
  onRestart: OnRestart | null;
  previousResponseId: string | null;
  conversationId: string | null;
  body: CreateResponseBody;
}

export function parseCreateResponse(body: unknown): ParsedCreate {
  const b = parseBody(createResponseBody, body);
  const background = b.background ?? false;
  const store = b.store ?? true;
  if (background && !store) throw badRequest('Background responses must be stored; drop store: false.', 'store');
  const conversation = b.conversation ?? null;
  const conversationId = conversation === null ? null : typeof conversation === 'string' ? conversation : conversation.id;
  const previousResponseId = b.previous_response_id ?? null;
  checkTools(b.tools ?? [], b.tool_choice ?? null);
  if (conversationId !== null && previousResponseId !== null) {
    throw badRequest('Send either previous_response_id or conversation, not both: a conversation already holds its earlier turns.', 'conversation');
  }
  return {
    model: b.model,
    input: b.input,
    stream: b.stream ?? false,
    background,
    store,
    metadata: b.metadata ?? null,
    onRestart: b.on_restart ?? null,
    previousResponseId,
    conversationId,
    body: b,
  };
}

/** The request as the ledger keeps it: this turn's resolved input and what the response echoes. */
export function storedRequest(parsed: ParsedCreate, input: StoredItem[]): ResponseRequest {
  const b = parsed.body;
  return {
    input,
    instructions: b.instructions ?? null,
    max_output_tokens: b.max_output_tokens ?? null,
    temperature: b.temperature ?? null,
    top_p: b.top_p ?? null,
    truncation: b.truncation ?? 'disabled',
    ...(b.reasoning?.effort != null ? { reasoning_effort: b.reasoning.effort } : {}),
    ...(b.text?.format && b.text.format.type !== 'text' ? { format: b.text.format } : {}),
    ...(b.tools && b.tools.length > 0 ? { tools: b.tools } : {}),
    ...(b.tool_choice != null ? { tool_choice: b.tool_choice } : {}),
    echo: {
      ...(b.parallel_tool_calls != null ? { parallel_tool_calls: b.parallel_tool_calls } : {}),
      ...(b.max_tool_calls != null ? { max_tool_calls: b.max_tool_calls } : {}),
      ...(b.user != null ? { user: b.user } : {}),
      ...(b.safety_identifier != null ? { safety_identifier: b.safety_identifier } : {}),
      ...(b.prompt_cache_key != null ? { prompt_cache_key: b.prompt_cache_key } : {}),
    },
  };
}

/** The turn this create asks for, as the one path of model requests takes it (turns/). */
export function turnAsk(parsed: ParsedCreate, principal: Principal): Omit<TurnAsk, 'inCommit'> {
  return {
    clientId: clientIdOf(principal),
    mayRead: readerOf(principal),
    mayChange: changerOf(principal),
    model: parsed.model,
    input: parsed.input,
    keep: (input) => storedRequest(parsed, input),
    maxOutputTokens: parsed.body.max_output_tokens ?? null,
    maxOutputParam: 'max_output_tokens',
    metadata: parsed.metadata,
    previousResponseId: parsed.previousResponseId,
    conversationId: parsed.conversationId,
    background: parsed.background,
    store: parsed.store,
    onRestart: parsed.onRestart,
  };
}

/** The rules between tools and tool_choice (each is valid alone by the schema). */
export function checkTools(tools: readonly FunctionTool[], choice: ToolChoice | null, param = 'tool_choice'): void {
  const names = new Set<string>();
  tools.forEach((t, i) => {
    if (names.has(t.name)) throw badRequest(`Two tools are named ${t.name}; give each function its own name.`, `tools[${i}].name`);
    names.add(t.name);
  });
  if (choice === 'required' && tools.length === 0) throw badRequest('tool_choice "required" needs at least one tool in tools.', param);
  if (typeof choice === 'object' && choice !== null && !names.has(choice.name)) {
    throw badRequest(`tool_choice names the function ${choice.name}, which is not in tools (${[...names].join(', ') || 'none'}).`, param);
  }
}
