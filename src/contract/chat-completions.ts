// POST /v1/chat/completions on the wire: OpenAI's Chat Completions request (strict, like the
// Responses API's: an unknown field or a value Sanad does not honour is a 400 naming it) and the
// chat.completion / chat.completion.chunk objects. It runs on the same tasks and store as
// /v1/responses; src/service/chat-request.ts turns a request into a response's input.
import { z } from 'zod/v3';
import { GenerationSchema, MAX_OUTPUT_TOKENS_BOUND, Metadata, NAME } from './responses.js';
import { REASONING_EFFORTS } from './reasoning.js';

const refusedValue = (message: string) => z.unknown().superRefine((_, ctx) => ctx.addIssue({ code: z.ZodIssueCode.custom, message }));

/** Parses with `schema`, passing its issues (with their paths) on to the enclosing schema's context. */
function parseWithin<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, value: unknown, ctx: z.RefinementCtx): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue(issue);
  return z.NEVER;
}

const TextPart = z.object({ type: z.literal('text'), text: z.string() }).strict();
const UserPart = z.unknown().transform((value, ctx): z.infer<typeof TextPart> => {
  const type = typeof value === 'object' && value !== null && 'type' in value ? value.type : undefined;
  if (type === 'text') return parseWithin(TextPart, value, ctx);
  const why =
    type === 'image_url'
      ? 'images are not supported: Sanad runs text models'
      : type === 'input_audio'
        ? 'audio is not supported: Sanad runs text models'
        : type === 'file'
          ? 'files are not supported; send their text as a text part'
          : `"${String(type)}" is not a known content part type (text)`;
  ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['type'], message: why });
  return z.NEVER;
});
const Content = z.union([z.string(), z.array(UserPart)]);

const LEGACY_FUNCTIONS = 'the older functions API is not available here; use tools';

const ToolCall = z
  .object({
    id: z.string().min(1).max(200),
    type: z.literal('function'),
    function: z.object({ name: z.string().min(1).max(64), arguments: z.string() }).strict(),
  })
  .strict();
export type ChatToolCall = z.infer<typeof ToolCall>;

const SystemMessage = z
  .object({ role: z.enum(['system', 'developer']), content: z.union([z.string(), z.array(TextPart)]), name: z.string().optional() })
  .strict();
const UserMessage = z.object({ role: z.literal('user'), content: Content, name: z.string().optional() }).strict();
const AssistantMessage = z
  .object({
    role: z.literal('assistant'),
    content: z
      .union([z.string(), z.array(z.union([TextPart, z.object({ type: z.literal('refusal'), refusal: z.string() }).strict()]))])
      .nullable()
      .optional(),
    name: z.string().optional(),
    refusal: z.string().nullable().optional(),
    tool_calls: z.array(ToolCall).nullable().optional(),
    // A reasoning model's thinking, sent back as clients received it (kept as a reasoning item).
    reasoning_content: z.string().nullable().optional(),
    function_call: z.null().optional(),
    audio: z.null().optional(),
    annotations: z.array(z.unknown()).optional(),
  })
  .strict();

const ToolMessage = z.object({ role: z.literal('tool'), tool_call_id: z.string().min(1).max(200), content: z.union([z.string(), z.array(TextPart)]) }).strict();

const ChatMessage = z.unknown().transform((value, ctx): ChatRequestMessage => {
  const role = typeof value === 'object' && value !== null && 'role' in value ? value.role : undefined;
  const schema =
    role === 'system' || role === 'developer'
      ? SystemMessage
      : role === 'user'
        ? UserMessage
        : role === 'assistant'
          ? AssistantMessage
          : role === 'tool'
            ? ToolMessage
            : null;
  if (role === 'function') {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['role'], message: `function: ${LEGACY_FUNCTIONS}` });
    return z.NEVER;
  }
  if (!schema) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['role'], message: 'must be one of system, developer, user, assistant, tool' });
    return z.NEVER;
  }
  return parseWithin<ChatRequestMessage>(schema, value, ctx);
});
export type ChatRequestMessage = z.infer<typeof SystemMessage> | z.infer<typeof UserMessage> | z.infer<typeof AssistantMessage> | z.infer<typeof ToolMessage>;

const ChatTool = z
  .object({
    type: z.literal('function', { errorMap: () => ({ message: 'only function tools (type "function") are available here' }) }),
    function: z
      .object({ name: NAME, description: z.string().optional(), parameters: GenerationSchema.optional(), strict: z.boolean().nullable().optional() })
      .strict(),
  })
  .strict();
export type ChatTool = z.infer<typeof ChatTool>;
const ChatToolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1).max(64) }).strict() }).strict(),
]);
export type ChatToolChoice = z.infer<typeof ChatToolChoice>;

const ResponseFormat = z.unknown().transform((value, ctx): ChatResponseFormat => {
  const type = typeof value === 'object' && value !== null && 'type' in value ? value.type : undefined;
  const schema =
    type === 'text'
      ? z.object({ type: z.literal('text') }).strict()
      : type === 'json_object'
        ? z.object({ type: z.literal('json_object') }).strict()
        : type === 'json_schema'
          ? z
              .object({
                type: z.literal('json_schema'),
                json_schema: z
                  .object({ name: NAME, schema: GenerationSchema, description: z.string().optional(), strict: z.boolean().nullable().optional() })
                  .strict(),
              })
              .strict()
          : null;
  if (!schema) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['type'], message: 'must be one of text, json_object, json_schema' });
    return z.NEVER;
  }
  return parseWithin<ChatResponseFormat>(schema, value, ctx);
});
export type ChatResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      json_schema: { name: string; schema: Record<string, unknown>; description?: string | undefined; strict?: boolean | null | undefined };
    };

const zeroOnly = (what: string) => z.number().refine((n) => n === 0, { message: `${what} is not available here; leave it out or send 0` });

/** What each OpenAI parameter gets here; docs/api.md lists the same (test/docs checks it). */
export const CHAT_PARAMETERS = {
  honoured: [
    'model',
    'messages',
    'max_tokens',
    'max_completion_tokens',
    'temperature',
    'top_p',
    'stop',
    'stream',
    'stream_options',
    'response_format',
    'store',
    'metadata',
    'seed',
    'n',
    'tools',
    'tool_choice',
    'parallel_tool_calls',
    'reasoning_effort',
  ],
  echoed: ['user', 'safety_identifier', 'prompt_cache_key', 'service_tier', 'logprobs', 'frequency_penalty', 'presence_penalty', 'verbosity', 'modalities'],
  refused: ['top_logprobs', 'logit_bias', 'functions', 'function_call', 'audio', 'prediction', 'web_search_options'],
} as const;

const tokens = z.number().int().min(1).max(MAX_OUTPUT_TOKENS_BOUND).nullable().optional();
export const createChatCompletionBody = z
  .object({
    model: z.string().min(1).max(256),
    messages: z.array(ChatMessage).min(1),
    max_tokens: tokens,
    max_completion_tokens: tokens,
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().gt(0).max(1).nullable().optional(),
    stop: z
      .union([z.string().min(1), z.array(z.string().min(1)).max(4)])
      .nullable()
      .optional(),
    stream: z.boolean().nullable().optional(),
    stream_options: z
      .object({
        include_usage: z.boolean().optional(),
        include_obfuscation: z.literal(false, { errorMap: () => ({ message: 'streams are never obfuscated here; leave it out or set false' }) }).optional(),
      })
      .strict()
      .nullable()
      .optional(),
    response_format: ResponseFormat.nullable().optional(),
    store: z.boolean().nullable().optional(),
    metadata: Metadata.nullable().optional(),
    seed: z.number().int().nullable().optional(),
    n: z
      .literal(1, { errorMap: () => ({ message: 'only one choice (n: 1) is generated here' }) })
      .nullable()
      .optional(),
    user: z.string().max(256).nullable().optional(),
    safety_identifier: z.string().max(256).nullable().optional(),
    prompt_cache_key: z.string().max(256).nullable().optional(),
    service_tier: z.enum(['auto', 'default']).nullable().optional(),
    parallel_tool_calls: z.boolean().nullable().optional(),
    tool_choice: ChatToolChoice.nullable().optional(),
    tools: z.array(ChatTool).max(128).nullable().optional(),
    logprobs: z
      .literal(false, { errorMap: () => ({ message: 'log probabilities are not available' }) })
      .nullable()
      .optional(),
    frequency_penalty: zeroOnly('a frequency penalty').nullable().optional(),
    presence_penalty: zeroOnly('a presence penalty').nullable().optional(),
    // Whether the model can think is known once it is loaded: one that cannot refuses more than none then.
    reasoning_effort: z.enum(REASONING_EFFORTS).nullable().optional(),
    verbosity: z
      .literal('medium', { errorMap: () => ({ message: 'only the default verbosity (medium) is available' }) })
      .nullable()
      .optional(),
    modalities: z
      .array(z.literal('text', { errorMap: () => ({ message: 'only text is generated here' }) }))
      .nullable()
      .optional(),
    top_logprobs: refusedValue('log probabilities are not available').optional(),
    logit_bias: refusedValue('logit bias is not available here').optional(),
    functions: refusedValue(LEGACY_FUNCTIONS).optional(),
    function_call: refusedValue(LEGACY_FUNCTIONS).optional(),
    audio: refusedValue('audio is not supported: Sanad runs text models').optional(),
    prediction: refusedValue('predicted outputs are not available here').optional(),
    web_search_options: refusedValue('web search is not available: Sanad runs offline').optional(),
  })
  .strict();
export type CreateChatCompletionBody = z.infer<typeof createChatCompletionBody>;

// ---- The objects ------------------------------------------------------------------------------

export type ChatFinishReason = 'stop' | 'length' | 'tool_calls';

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    message: {
      role: 'assistant';
      content: string | null;
      /** What a reasoning model thought (llama-server's, LM Studio's and DeepSeek's field). */
      reasoning_content?: string;
      refusal: null;
      annotations: unknown[];
      tool_calls?: ChatToolCall[];
    };
    logprobs: null;
    finish_reason: ChatFinishReason;
  }>;
  usage: ChatUsage;
  service_tier: 'default';
  system_fingerprint: null;
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{ index: 0; delta: ChunkDelta; logprobs: null; finish_reason: ChatFinishReason | null }>;
  service_tier: 'default';
  system_fingerprint: null;
  usage?: ChatUsage | null;
}

export interface ChunkDelta {
  role?: 'assistant';
  content?: string;
  reasoning_content?: string;
  refusal?: null;
  tool_calls?: Array<{ index: number; id?: string; type?: 'function'; function: { name?: string; arguments: string } }>;
}
