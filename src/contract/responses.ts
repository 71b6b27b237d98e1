// The Responses API on the wire, declared once: the request body of POST /v1/responses (strict: an
// unknown field, or a value Sanad does not honour, is a 400 naming it), the input items, the
// response object, the event types of both streams and the error body. The routes validate with
// these schemas, the GUI parses with them, and docs/api.md's parameter table follows them.
import { z } from 'zod/v3';
import { checkJsonSchema } from './json-schema.js';
import { REASONING_EFFORTS, type ReasoningEffort } from './reasoning.js';
import { MaxOutputTokens, Temperature } from './sampling.js';

// ---- Input items ------------------------------------------------------------------------------

/** A schema that accepts nothing: a thing OpenAI defines that a local model cannot do. */
const refused = (message: string): z.ZodEffects<z.ZodUnknown> => z.unknown().superRefine((_, ctx) => ctx.addIssue({ code: z.ZodIssueCode.custom, message }));

/**
 * An object told apart by its `type`: each known type parsed by its own schema (whose issues keep
 * their paths), each refused type a 400 with its reason, any other type a 400 naming `type`.
 * zod 3's discriminatedUnion cannot hold refusals, nor say which types there are.
 */
function byType<T>(options: Record<string, z.ZodType<T, z.ZodTypeDef, unknown>>, refusals: Record<string, string>): z.ZodType<T, z.ZodTypeDef, unknown> {
  return z.unknown().transform((value, ctx): T => {
    const type = typeof value === 'object' && value !== null && 'type' in value ? value.type : undefined;
    const known = Object.keys(options);
    const fail = (message: string): T => {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['type'], message });
      return z.NEVER;
    };
    if (typeof type !== 'string') return fail(`is required (one of ${known.join(', ')})`);
    const refusal = refusals[type];
    if (refusal !== undefined) return fail(`${type}: ${refusal}`);
    const schema = options[type];
    if (!schema) return fail(`"${type}" is not a known type (one of ${known.join(', ')})`);
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue(issue);
    return z.NEVER;
  });
}

const InputText = z.object({ type: z.literal('input_text'), text: z.string() }).strict();
// An earlier answer sent back as input (LangChain and others echo what they got).
const OutputText = z
  .object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.unknown()).optional(), logprobs: z.array(z.unknown()).optional() })
  .strict();
const Refusal = z.object({ type: z.literal('refusal'), refusal: z.string() }).strict();

const ContentPart = byType<ContentPart>(
  { input_text: InputText, output_text: OutputText, refusal: Refusal },
  {
    input_image: 'images are not supported: Sanad runs text models',
    input_file: 'files are not supported as input; send their text as input_text',
    input_audio: 'audio is not supported: Sanad runs text models',
  },
);
export type ContentPart = z.infer<typeof InputText> | z.infer<typeof OutputText> | z.infer<typeof Refusal>;

export const MESSAGE_ROLES = ['user', 'assistant', 'system', 'developer'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

const InputMessage = z
  .object({
    type: z.literal('message'),
    role: z.enum(MESSAGE_ROLES),
    content: z.union([z.string(), z.array(ContentPart)]),
    id: z.string().min(1).max(200).optional(),
    status: z.enum(['in_progress', 'completed', 'incomplete']).optional(),
    // OpenAI's label of an assistant message (commentary or final answer); kept as it came.
    phase: z.string().nullable().optional(),
  })
  .strict();

const ItemReference = z.object({ type: z.literal('item_reference'), id: z.string().min(1).max(200) }).strict();

const CallId = z.string().min(1).max(200);
const ItemStatus = z.enum(['in_progress', 'completed', 'incomplete']);

/** A call the model made earlier, sent back by the client (with its output, which follows it). */
const FunctionCallInput = z
  .object({
    type: z.literal('function_call'),
    call_id: CallId,
    name: z.string().min(1).max(64),
    arguments: z.string(),
    id: z.string().min(1).max(200).optional(),
    status: ItemStatus.optional(),
  })
  .strict();
/** What the client's function returned for a call. */
const FunctionCallOutputInput = z
  .object({
    type: z.literal('function_call_output'),
    call_id: CallId,
    output: z.union([z.string(), z.array(z.object({ type: z.literal('input_text'), text: z.string() }).strict())]),
    id: z.string().min(1).max(200).optional(),
    status: ItemStatus.optional(),
  })
  .strict();

/** The model's thinking from an earlier answer, sent back by the client (OpenAI's reasoning item). */
const ReasoningInput = z
  .object({
    type: z.literal('reasoning'),
    id: z.string().min(1).max(200).optional(),
    summary: z.array(z.object({ type: z.literal('summary_text'), text: z.string() }).strict()),
    content: z
      .array(z.object({ type: z.literal('reasoning_text'), text: z.string() }).strict())
      .nullable()
      .optional(),
    // Only OpenAI can read what it encrypted; a local model has none to give or take.
    encrypted_content: z.string().nullable().optional(),
    status: ItemStatus.optional(),
  })
  .strict();

/** An input item as sent: a message (its `type` may be left out), or a reference to a stored item. */
export const InputItem = z.preprocess(
  (value) => (typeof value === 'object' && value !== null && !('type' in value) && 'role' in value ? { ...value, type: 'message' } : value),
  byType<InputItem>(
    {
      message: InputMessage,
      item_reference: ItemReference,
      function_call: FunctionCallInput,
      function_call_output: FunctionCallOutputInput,
      reasoning: ReasoningInput,
    },
    {
      custom_tool_call: 'only function tools are available here',
      custom_tool_call_output: 'only function tools are available here',
    },
  ),
);
export type InputMessage = z.infer<typeof InputMessage>;
export type FunctionCallInput = z.infer<typeof FunctionCallInput>;
export type FunctionCallOutputInput = z.infer<typeof FunctionCallOutputInput>;
export type ReasoningInput = z.infer<typeof ReasoningInput>;
export type InputItem = InputMessage | z.infer<typeof ItemReference> | FunctionCallInput | FunctionCallOutputInput | ReasoningInput;

// ---- Stored items (what a response's input and output, and a conversation, hold) ---------------

export interface TextPart {
  type: 'input_text' | 'output_text';
  text: string;
}
export interface OutputTextPart {
  type: 'output_text';
  text: string;
  annotations: unknown[];
  logprobs: unknown[];
}

/** A message as Sanad keeps it, with its id: `input_text` parts from people, `output_text` from the model. */
export interface MessageItem {
  type: 'message';
  id: string;
  status: 'in_progress' | 'completed' | 'incomplete';
  role: MessageRole;
  content: TextPart[];
}

/** A function call the model made: its `arguments` are JSON text that satisfies the tool's parameters. */
export interface FunctionCallItem {
  type: 'function_call';
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: 'in_progress' | 'completed' | 'incomplete';
}

/** The output of a call, as the client's function returned it. */
export interface FunctionCallOutputItem {
  type: 'function_call_output';
  id: string;
  call_id: string;
  output: string;
  status: 'in_progress' | 'completed' | 'incomplete';
}

/**
 * A model's thinking before its answer, as OpenAI returns it for open-weight models: the text in
 * `content` (`reasoning_text`), no summary (a local model writes none).
 */
export interface ReasoningItem {
  type: 'reasoning';
  id: string;
  summary: Array<{ type: 'summary_text'; text: string }>;
  content: Array<{ type: 'reasoning_text'; text: string }>;
  status: 'in_progress' | 'completed' | 'incomplete';
}

/** Any item a response's input and output, and a conversation, hold. */
export type StoredItem = MessageItem | FunctionCallItem | FunctionCallOutputItem | ReasoningItem;

// ---- The request body ---------------------------------------------------------------------------

const Metadata = z.record(z.string().max(64), z.string().max(512)).refine((m) => Object.keys(m).length <= 16, { message: 'metadata can have at most 16 keys' });
export { Metadata };

const ConversationParam = z.union([z.string().min(1).max(200), z.object({ id: z.string().min(1).max(200) }).strict()]);

/**
 * A JSON Schema the engine can generate under (json-schema.ts). Kept as sent, so the response
 * echoes what the client gave; the runner reads it through checkJsonSchema again.
 */
export const GenerationSchema = z.record(z.unknown()).superRefine((value, ctx) => {
  const checked = checkJsonSchema(value);
  if (!checked.ok) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${checked.path === '' ? '' : `at ${checked.path.slice(1)}: `}${checked.reason}` });
});

/** OpenAI's rule for the names of formats and functions. */
export const NAME = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, { message: 'must be 1 to 64 letters, digits, _ or -' });

const JsonSchemaFormat = z
  .object({
    type: z.literal('json_schema'),
    name: NAME,
    schema: GenerationSchema,
    description: z.string().optional(),
    strict: z.boolean().nullable().optional(),
  })
  .strict();
const TextFormat = byType<OutputFormat>(
  { text: z.object({ type: z.literal('text') }).strict(), json_schema: JsonSchemaFormat, json_object: z.object({ type: z.literal('json_object') }).strict() },
  {},
);
/** How the answer's text is made: free text, JSON under a schema, or any JSON object. */
export type OutputFormat = { type: 'text' } | { type: 'json_object' } | z.infer<typeof JsonSchemaFormat>;

const FunctionTool = z
  .object({
    type: z.literal('function'),
    name: NAME,
    description: z.string().nullable().optional(),
    parameters: GenerationSchema.nullable().optional(),
    strict: z.boolean().nullable().optional(),
  })
  .strict();
export type FunctionTool = z.infer<typeof FunctionTool>;

const OFFLINE = 'is not available: Sanad runs offline, with function tools only';
const Tool = byType<FunctionTool>(
  { function: FunctionTool },
  {
    web_search: OFFLINE,
    web_search_preview: OFFLINE,
    file_search: OFFLINE,
    computer_use_preview: OFFLINE,
    code_interpreter: OFFLINE,
    image_generation: OFFLINE,
    mcp: OFFLINE,
    local_shell: OFFLINE,
    custom: 'only function tools (type "function") are available here',
  },
);

const ToolChoice = z.union([z.enum(['none', 'auto', 'required']), z.object({ type: z.literal('function'), name: z.string().min(1).max(64) }).strict()]);
/** `auto`: the model may call; `required`: it calls one of the tools; `{type: "function", name}`: that one. */
export type ToolChoice = z.infer<typeof ToolChoice>;

export const TRUNCATION = ['disabled', 'auto'] as const;
export type Truncation = (typeof TRUNCATION)[number];

/** What each OpenAI parameter gets here; docs/api.md lists the same (test/docs checks it). */
export const PARAMETERS = {
  honoured: [
    'model',
    'input',
    'instructions',
    'max_output_tokens',
    'temperature',
    'top_p',
    'stream',
    'background',
    'store',
    'metadata',
    'previous_response_id',
    'conversation',
    'truncation',
    'text',
    'tools',
    'tool_choice',
    'parallel_tool_calls',
    'on_restart',
    'reasoning',
  ],
  echoed: ['include', 'service_tier', 'top_logprobs', 'max_tool_calls', 'user', 'safety_identifier', 'prompt_cache_key', 'stream_options'],
  refused: ['prompt', 'prompt_cache_retention', 'context_management'],
} as const;

export { MAX_OUTPUT_TOKENS_BOUND } from './sampling.js';

export const createResponseBody = z
  .object({
    model: z.string().min(1).max(256),
    input: z.union([z.string().min(1), z.array(InputItem).min(1)]),
    instructions: z.string().nullable().optional(),
    max_output_tokens: MaxOutputTokens.nullable().optional(),
    temperature: Temperature.nullable().optional(),
    top_p: z.number().gt(0).max(1).nullable().optional(),
    stream: z.boolean().nullable().optional(),
    background: z.boolean().nullable().optional(),
    store: z.boolean().nullable().optional(),
    metadata: Metadata.nullable().optional(),
    on_restart: z.enum(['fail', 'retry', 'resume']).optional(),
    previous_response_id: z.string().min(1).max(200).nullable().optional(),
    conversation: ConversationParam.nullable().optional(),
    truncation: z.enum(TRUNCATION).nullable().optional(),
    // Only the defaults, echoed back (tools come with function calling).
    include: z.array(z.string()).max(0, { message: 'no include value is available from a local model' }).nullable().optional(),
    parallel_tool_calls: z.boolean().nullable().optional(),
    tool_choice: ToolChoice.nullable().optional(),
    tools: z.array(Tool).max(128).nullable().optional(),
    text: z
      .object({
        format: TextFormat.optional(),
        verbosity: z
          .literal('medium', { errorMap: () => ({ message: 'only the default verbosity (medium) is available' }) })
          .nullable()
          .optional(),
      })
      .strict()
      .nullable()
      .optional(),
    reasoning: z
      .object({
        // Whether the model can think is known once it is loaded: one that cannot refuses more than none then.
        effort: z.enum(REASONING_EFFORTS).nullable().optional(),
        summary: z.null({ errorMap: () => ({ message: 'a local model writes no reasoning summary; the reasoning itself is in the output' }) }).optional(),
      })
      .strict()
      .nullable()
      .optional(),
    service_tier: z.enum(['auto', 'default']).nullable().optional(),
    top_logprobs: z
      .literal(0, { errorMap: () => ({ message: 'log probabilities are not available' }) })
      .nullable()
      .optional(),
    max_tool_calls: z.number().int().min(1).nullable().optional(),
    user: z.string().max(256).nullable().optional(),
    safety_identifier: z.string().max(256).nullable().optional(),
    prompt_cache_key: z.string().max(256).nullable().optional(),
    stream_options: z
      .object({
        include_obfuscation: z.literal(false, { errorMap: () => ({ message: 'streams are never obfuscated here; leave it out or set false' }) }).optional(),
      })
      .strict()
      .nullable()
      .optional(),
    prompt: refused('stored prompts are not available here; send the text as input').optional(),
    prompt_cache_retention: refused('prompt cache retention is not available here').optional(),
  })
  .strict();
export type CreateResponseBody = z.infer<typeof createResponseBody>;

// ---- The response object -------------------------------------------------------------------------

export type ResponseStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'incomplete';

export interface OutputMessage {
  type: 'message';
  id: string;
  status: 'in_progress' | 'completed' | 'incomplete';
  role: 'assistant';
  content: OutputTextPart[];
}

export interface ErrorDetail {
  type: string;
  code: string;
  message: string;
  param: string | null;
}

export interface Usage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** Every field of OpenAI's Response, plus LMSP's `task_id`, `on_restart` and `truncated_items`. */
export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  completed_at: number | null;
  status: ResponseStatus;
  background: boolean;
  model: string;
  output: Array<ReasoningItem | OutputMessage | FunctionCallItem>;
  usage: Usage | null;
  error: ErrorDetail | null;
  incomplete_details: { reason: string } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  max_tool_calls: number | null;
  temperature: number | null;
  top_p: number | null;
  top_logprobs: number;
  metadata: Record<string, string>;
  store: boolean;
  previous_response_id: string | null;
  conversation: { id: string } | null;
  truncation: Truncation;
  parallel_tool_calls: boolean;
  tool_choice: ToolChoice;
  tools: FunctionTool[];
  text: { format: OutputFormat; verbosity: 'medium' };
  reasoning: { effort: ReasoningEffort | null; summary: null };
  service_tier: 'default';
  prompt_cache_key: string | null;
  safety_identifier: string | null;
  user: string | null;
  /** LMSP: the task that generates this response. */
  task_id: string;
  on_restart: string;
  /** Sanad: how many of the oldest input items `truncation: "auto"` left out to fit the context. */
  truncated_items: number;
}

// ---- Events ----------------------------------------------------------------------------------------

export { TASK_EVENT_TYPES, type TaskEventType } from './events.js';

/** LMSP's own lifecycle: on the Responses stream only when the client asks (header `LMSP-Events: all`). */
export const LMSP_ONLY_EVENT_TYPES: readonly string[] = ['response.loading', 'response.cancelling', 'response.cancelled'];

/** The header a client sends to see LMSP's lifecycle events on the Responses stream too. */
export const LMSP_EVENTS_HEADER = 'lmsp-events';

// ---- Errors ------------------------------------------------------------------------------------------

export interface ErrorBody {
  error: ErrorDetail;
}
