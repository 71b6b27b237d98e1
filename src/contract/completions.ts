// POST /v1/completions on the wire: OpenAI's legacy Completions API, which code-completion tools
// still speak (and llama-server's infill through `suffix`). Strict like the other doors: an unknown
// field, or a value Sanad does not honour, is a 400 naming it. It runs on the same tasks and store
// as /v1/responses; src/service/completions.ts turns a request into a response and back.
import { z } from 'zod/v3';
import { MAX_OUTPUT_TOKENS_BOUND } from './responses.js';

const only = <T extends z.ZodTypeAny>(schema: T) => schema.optional();

export const createCompletionBody = z
  .object({
    model: z.string().min(1).max(256),
    prompt: z.union([z.string(), z.array(z.string()).length(1, 'must hold one prompt: Sanad makes one completion per request')]),
    suffix: z.string().nullable().optional(),
    /** OpenAI's default is 16. */
    max_tokens: z.number().int().min(1).max(MAX_OUTPUT_TOKENS_BOUND).nullable().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().gt(0).max(1).nullable().optional(),
    n: only(z.literal(1, { errorMap: () => ({ message: 'must be 1: Sanad makes one completion per request' }) }).nullable()),
    best_of: only(z.literal(1, { errorMap: () => ({ message: 'must be 1' }) }).nullable()),
    stream: z.boolean().nullable().optional(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).strict().nullable().optional(),
    stop: z
      .union([z.string(), z.array(z.string()).max(4)])
      .nullable()
      .optional(),
    seed: z.number().int().nullable().optional(),
    echo: only(z.literal(false, { errorMap: () => ({ message: 'must be false: the prompt is not sent back' }) }).nullable()),
    logprobs: only(z.literal(0, { errorMap: () => ({ message: 'is not available here' }) }).nullable()),
    frequency_penalty: only(z.literal(0, { errorMap: () => ({ message: 'must be 0' }) }).nullable()),
    presence_penalty: only(z.literal(0, { errorMap: () => ({ message: 'must be 0' }) }).nullable()),
    user: z.string().optional(),
  })
  .strict();
export type CreateCompletionBody = z.infer<typeof createCompletionBody>;

export type CompletionFinishReason = 'stop' | 'length';

export interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface CompletionChoice {
  text: string;
  index: number;
  logprobs: null;
  finish_reason: CompletionFinishReason | null;
}

export interface TextCompletion {
  id: string;
  object: 'text_completion';
  created: number;
  model: string;
  choices: CompletionChoice[];
  usage?: CompletionUsage | null;
  system_fingerprint: null;
}
