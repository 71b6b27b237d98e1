// Task and response records as stored, and the event shape every client sees.
import type { TaskEventType } from '../contract/events.js';
import type { FunctionTool, MessageRole, OutputFormat, StoredItem, ToolChoice, Truncation } from '../contract/responses.js';
import type { ReasoningEffort } from '../contract/reasoning.js';

export const TASK_STATUSES = ['queued', 'loading', 'running', 'cancelling', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TERMINAL: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];
export const UNFINISHED: readonly TaskStatus[] = ['queued', 'loading', 'running', 'cancelling'];

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.includes(status);
}

export function isTaskStatus(value: string): value is TaskStatus {
  return TASK_STATUSES.some((s) => s === value);
}

export type OnRestart = 'fail' | 'retry' | 'resume';

export interface TaskRow {
  id: string;
  response_id: string;
  client_id: string | null;
  model: string;
  status: TaskStatus;
  on_restart: OnRestart;
  last_sequence_number: number;
  output_tokens: number;
  error_code: string | null;
  error_message: string | null;
  created_at: number;
  updated_at: number;
}

/** A message as stores before conversations kept it (no id, text only); still read. */
export interface LegacyMessage {
  role: MessageRole;
  content: string;
}

/** Parameters that only select OpenAI's defaults: kept to be echoed back as they were sent. */
export interface EchoedParams {
  parallel_tool_calls?: boolean;
  max_tool_calls?: number | null;
  user?: string | null;
  safety_identifier?: string | null;
  prompt_cache_key?: string | null;
}

/** What the client asked for, kept so a task can be (re)run after a restart. */
export interface ResponseRequest {
  /** This turn's own input, resolved: item references replaced by the items they named (ids kept). */
  input: string | Array<StoredItem | LegacyMessage>;
  instructions: string | null;
  max_output_tokens: number | null;
  temperature: number | null;
  top_p: number | null;
  /** Absent in stores before conversations: "disabled", OpenAI's default. */
  truncation?: Truncation;
  echo?: EchoedParams;
  /** How the answer is made (`text.format`); absent: free text. */
  format?: OutputFormat;
  /** Function tools the model may call, and how (absent: none, `auto`). */
  tools?: FunctionTool[];
  tool_choice?: ToolChoice;
  /** Chat Completions' `stop`: the answer ends before the first of these. */
  stop?: string[];
  /** Chat Completions' `seed`: sampling is repeatable with the same seed. */
  seed?: number;
  /** How hard a thinking model thinks (`reasoning.effort`, `reasoning_effort`); absent: the model's default. */
  reasoning_effort?: ReasoningEffort;
  /** Anthropic's `top_k` (the Messages API): sample from the k likeliest tokens only. */
  top_k?: number;
  /** A raw completion (`POST /v1/completions`): the prompt as it is, and a suffix to fill in before. */
  completion?: { prompt: string; suffix?: string };
  /** Which API created it: a chat completion, a message and a completion are responses underneath. Absent: the Responses API. */
  api?: 'chat.completions' | 'anthropic.messages' | 'completions';
}

export interface ResponseRow {
  id: string;
  /** The response this one continues (its context comes first), or null. */
  previous_response_id: string | null;
  /** The conversation this turn belongs to: its items are the context, and the turn is added on completion. */
  conversation_id: string | null;
  /** How many of the oldest context items `truncation: "auto"` left out. */
  truncated_items: number;
  /** The function calls the answer made (JSON, FunctionCallItem[]), or null for none. */
  output_items: string | null;
  client_id: string | null;
  model: string;
  item_id: string;
  request: string;
  metadata: string | null;
  background: number;
  store: number;
  output_text: string | null;
  incomplete_reason: string | null;
  input_tokens: number | null;
  /** Of the input, tokens a kept sequence already held (null: not counted, before migration 22). */
  cached_tokens: number | null;
  /** Of output_tokens, those spent thinking; null before migration 23. */
  reasoning_tokens: number | null;
  /** The stop text that ended the answer (null: none did, or before migration 25). */
  stop_sequence: string | null;
  output_tokens: number | null;
  created_at: number;
}

export interface EventRow {
  task_id: string;
  sequence_number: number;
  type: string;
  data: string;
  created_at: number;
}

/** Declared once, in the contract (the GUI reads the same list). */
export type EventType = TaskEventType;

export const TERMINAL_EVENTS: readonly string[] = ['response.completed', 'response.failed', 'response.cancelled'];

/** An event as clients receive it. */
export interface TaskEvent {
  type: string;
  sequence_number: number;
  task_id: string;
  response_id: string;
  created_at: number;
  [field: string]: unknown;
}

export interface TaskError {
  code: string;
  message: string;
}
