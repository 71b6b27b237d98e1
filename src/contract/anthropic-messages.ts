// POST /v1/messages and /v1/messages/count_tokens on the wire: Anthropic's Messages API, which the
// Anthropic SDKs and Claude Code speak. The request is read as Anthropic reads it (an unknown field
// is a 400 naming it); what only Anthropic's service can do is refused by name, and what only tunes
// it (prompt-cache marks, service tier, region) is taken and has no effect. It runs on the same
// tasks and store as /v1/responses; src/service/messages-request.ts turns a request into a
// response's input, src/service/messages-object.ts the response into a message.
import { z } from 'zod/v3';
import { GenerationSchema, MAX_OUTPUT_TOKENS_BOUND, NAME } from './responses.js';

const refused = (message: string) => z.unknown().superRefine((_, ctx) => ctx.addIssue({ code: z.ZodIssueCode.custom, message }));

/** A prompt-cache mark: a kept sequence already reuses every shared prefix, so it changes nothing. */
const CacheControl = z
  .object({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() })
  .strict()
  .nullable()
  .optional();

const TextBlock = z
  .object({ type: z.literal('text'), text: z.string(), cache_control: CacheControl, citations: z.array(z.unknown()).nullable().optional() })
  .strict();
const ToolUseBlock = z
  .object({
    type: z.literal('tool_use'),
    id: z.string().min(1).max(200),
    name: z.string().min(1).max(200),
    input: z.record(z.unknown()),
    cache_control: CacheControl,
    caller: z.unknown().optional(),
  })
  .strict();
const ToolResultBlock = z
  .object({
    type: z.literal('tool_result'),
    tool_use_id: z.string().min(1).max(200),
    content: z.union([z.string(), z.array(TextBlock)]).optional(),
    is_error: z.boolean().optional(),
    cache_control: CacheControl,
  })
  .strict();
/** A thought sent back (Claude Code returns them): its signature is Anthropic's and means nothing here. */
const ThinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().optional() }).strict();
const RedactedThinkingBlock = z.object({ type: z.literal('redacted_thinking'), data: z.string() }).strict();

export type AnthropicTextBlock = z.infer<typeof TextBlock>;

const NOT_HERE: Record<string, string> = {
  image: 'images are not supported: Sanad runs text models',
  document: 'documents are not supported; send their text in a text block',
  search_result: 'search results are not supported; send their text in a text block',
  container_upload: 'files in a container are not supported here',
};

/** One block of a message's content: the kinds a local text model can take, each refusal named. */
const Block = z.unknown().transform((value, ctx) => {
  const type = typeof value === 'object' && value !== null && 'type' in value ? value.type : undefined;
  const schema =
    type === 'text'
      ? TextBlock
      : type === 'tool_use'
        ? ToolUseBlock
        : type === 'tool_result'
          ? ToolResultBlock
          : type === 'thinking'
            ? ThinkingBlock
            : type === 'redacted_thinking'
              ? RedactedThinkingBlock
              : null;
  if (schema === null) {
    const why = typeof type === 'string' ? NOT_HERE[type] : undefined;
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['type'],
      message: why ?? `"${String(type)}" is not a content block type Sanad takes (text, tool_use, tool_result, thinking)`,
    });
    return z.NEVER;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue(issue);
  return z.NEVER;
});
export type AnthropicBlock = z.infer<typeof Block>;

const Content = z.union([z.string(), z.array(Block)]);
/** A message; `system` ones (Claude Code sends them mid-conversation) hold text only. */
const MessageParam = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: Content }).strict(),
  z.object({ role: z.literal('assistant'), content: Content }).strict(),
  z.object({ role: z.literal('system'), content: z.union([z.string(), z.array(TextBlock)]) }).strict(),
]);
export type AnthropicMessageParam = z.infer<typeof MessageParam>;

/**
 * A tool: a custom one (name, description, input_schema) the model may call. Anthropic's own tools
 * (web search, code execution, the text editor, …) run on Anthropic's servers; they are left out of
 * what the model is offered (see `serverTools`), so a client that lists them still works.
 */
const CustomTool = z
  .object({
    type: z.literal('custom').optional(),
    name: NAME,
    description: z.string().optional(),
    input_schema: GenerationSchema,
    cache_control: CacheControl,
    strict: z.boolean().optional(),
    eager_input_streaming: z.boolean().nullable().optional(),
    defer_loading: z.boolean().optional(),
    input_examples: z.array(z.unknown()).optional(),
    allowed_callers: z.array(z.string()).optional(),
  })
  .strict();
export type AnthropicCustomTool = z.infer<typeof CustomTool>;
/** One of Anthropic's own tools (`web_search_20250305`, …): named, never offered to a local model. */
export interface AnthropicServerTool {
  type: string;
  name: string;
  server: true;
}

const Tool = z.unknown().transform((value, ctx): AnthropicCustomTool | AnthropicServerTool => {
  const type = typeof value === 'object' && value !== null && 'type' in value ? value.type : undefined;
  if (typeof type === 'string' && /_\d{8}$/.test(type)) {
    const name = typeof value === 'object' && value !== null && 'name' in value && typeof value.name === 'string' ? value.name : type;
    return { type, name, server: true };
  }
  const parsed = CustomTool.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue(issue);
  return z.NEVER;
});

export function isCustomTool(tool: AnthropicCustomTool | AnthropicServerTool): tool is AnthropicCustomTool {
  return !('server' in tool);
}

const ToolChoice = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }).strict(),
  z.object({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }).strict(),
  z.object({ type: z.literal('tool'), name: z.string(), disable_parallel_tool_use: z.boolean().optional() }).strict(),
  z.object({ type: z.literal('none') }).strict(),
]);
export type AnthropicToolChoice = z.infer<typeof ToolChoice>;

const Thinking = z.discriminatedUnion('type', [
  z.object({ type: z.literal('enabled'), budget_tokens: z.number().int().min(0), display: z.enum(['summarized', 'omitted']).nullable().optional() }).strict(),
  z.object({ type: z.literal('disabled') }).strict(),
  z.object({ type: z.literal('adaptive'), display: z.enum(['summarized', 'omitted']).nullable().optional() }).strict(),
]);
export type AnthropicThinking = z.infer<typeof Thinking>;

const OutputConfig = z
  .object({
    effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).nullable().optional(),
    format: z
      .object({ type: z.literal('json_schema'), schema: GenerationSchema })
      .strict()
      .nullable()
      .optional(),
  })
  .strict();

const System = z.union([z.string(), z.array(TextBlock)]);

/** What both routes read: the conversation, the tools, the system prompt. */
const promptFields = {
  model: z.string().min(1).max(256),
  messages: z.array(MessageParam).min(1).max(100_000),
  system: System.optional(),
  tools: z.array(Tool).max(128).optional(),
  tool_choice: ToolChoice.optional(),
  thinking: Thinking.optional(),
  output_config: OutputConfig.optional(),
  // Tunes Anthropic's own service: taken, with no effect on a local model.
  cache_control: CacheControl,
  context_management: z.unknown().optional(),
  mcp_servers: refused('MCP servers are not supported: connect them to the client, which calls their tools').optional(),
};

export const createMessageBody = z
  .object({
    ...promptFields,
    max_tokens: z.number().int().min(1).max(MAX_OUTPUT_TOKENS_BOUND),
    stop_sequences: z.array(z.string().min(1)).max(16).optional(),
    stream: z.boolean().optional(),
    temperature: z.number().min(0).max(1).optional(),
    top_p: z.number().gt(0).max(1).optional(),
    top_k: z.number().int().min(1).optional(),
    metadata: z
      .object({ user_id: z.string().max(256).nullable().optional() })
      .strict()
      .optional(),
    service_tier: z.enum(['auto', 'standard_only']).optional(),
    inference_geo: z.string().nullable().optional(),
    speed: z.enum(['standard', 'fast']).nullable().optional(),
    diagnostics: z.unknown().optional(),
    container: refused('containers are not supported: Sanad runs no code for the model').optional(),
    user_profile_id: z.string().optional(),
    workspace_id: z.string().optional(),
  })
  .strict();
export type CreateMessageBody = z.infer<typeof createMessageBody>;

export const countTokensBody = z.object(promptFields).strict();
export type CountTokensBody = z.infer<typeof countTokensBody>;

// ---- The answer ----

export type AnthropicStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use';

export type AnthropicContentBlock =
  | { type: 'text'; text: string; citations: null }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: null;
  server_tool_use: null;
  service_tier: 'standard';
}

export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicContentBlock[];
  stop_reason: AnthropicStopReason | null;
  stop_sequence: string | null;
  usage: AnthropicUsage;
  container: null;
}

/** The stream's events, as Anthropic names them (`event: <type>` and the same `type` in the data). */
export type AnthropicStreamEvent =
  | { type: 'message_start'; message: AnthropicMessage }
  | { type: 'content_block_start'; index: number; content_block: AnthropicContentBlock }
  | {
      type: 'content_block_delta';
      index: number;
      delta:
        | { type: 'text_delta'; text: string }
        | { type: 'thinking_delta'; thinking: string }
        | { type: 'signature_delta'; signature: string }
        | { type: 'input_json_delta'; partial_json: string };
    }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason: AnthropicStopReason | null; stop_sequence: string | null }; usage: AnthropicUsage }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'error'; error: AnthropicErrorDetail };

export type AnthropicErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'api_error'
  | 'overloaded_error';

export interface AnthropicErrorDetail {
  type: AnthropicErrorType;
  message: string;
}

export interface AnthropicError {
  type: 'error';
  error: AnthropicErrorDetail;
  request_id: string | null;
}
