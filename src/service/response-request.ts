// The body of POST /v1/responses, validated. A bad field is a 400 that names it as `param`.
import { z } from 'zod';
import type { OnRestart, ResponseRequest } from '../tasks/types.js';
import { badRequest } from './errors.js';

const TextPart = z.object({ type: z.enum(['input_text', 'output_text', 'text']), text: z.string() }).passthrough();

const Message = z
  .object({
    type: z.literal('message').optional(),
    role: z.enum(['system', 'developer', 'user', 'assistant']),
    content: z.union([z.string(), z.array(TextPart).min(1)]),
  })
  .passthrough();

const Metadata = z
  .record(z.string().max(64), z.string().max(512))
  .refine((m) => Object.keys(m).length <= 16, { message: 'metadata can have at most 16 keys' });

// Built once per limit (the setting rarely changes): building it per request was a tenth of the
// accept path's CPU (bench/load.ts).
const schemas = new Map<number, ReturnType<typeof buildSchema>>();

export function createResponseSchema(maxOutputTokens: number): ReturnType<typeof buildSchema> {
  let schema = schemas.get(maxOutputTokens);
  if (!schema) {
    schema = buildSchema(maxOutputTokens);
    schemas.set(maxOutputTokens, schema);
  }
  return schema;
}

function buildSchema(maxOutputTokens: number) {
  return z
    .object({
      model: z.string().min(1).max(256),
      input: z.union([z.string().min(1), z.array(Message).min(1)]),
      instructions: z.string().nullable().optional(),
      max_output_tokens: z.number().int().min(1).max(maxOutputTokens).nullable().optional(),
      temperature: z.number().min(0).max(2).nullable().optional(),
      top_p: z.number().gt(0).max(1).nullable().optional(),
      stream: z.boolean().nullable().optional(),
      background: z.boolean().nullable().optional(),
      store: z.boolean().nullable().optional(),
      metadata: Metadata.nullable().optional(),
      on_restart: z.enum(['fail', 'retry', 'resume']).optional(),
      tools: z.array(z.unknown()).max(0, { message: 'tools are not supported by this service' }).optional(),
    })
    .passthrough();
}

export interface ParsedCreate {
  model: string;
  request: ResponseRequest;
  stream: boolean;
  background: boolean;
  store: boolean;
  metadata: Record<string, string> | null;
  onRestart: OnRestart | null;
}

export function parseCreateResponse(body: unknown, maxOutputTokens: number): ParsedCreate {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('The request body must be a JSON object.');
  }
  const parsed = createResponseSchema(maxOutputTokens).safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = issue && issue.path.length > 0 ? issue.path.join('.') : null;
    const why = issue?.code === 'invalid_type' && issue.received === 'undefined' ? 'is required' : issue?.message ?? 'is invalid';
    throw badRequest(`Invalid value for ${param ?? 'the body'}: ${why}.`, param);
  }
  const b = parsed.data;
  const background = b.background ?? false;
  const store = b.store ?? true;
  if (background && !store) throw badRequest('Background responses must be stored; drop store: false.', 'store');
  const input =
    typeof b.input === 'string'
      ? b.input
      : b.input.map((m) => ({
          role: m.role,
          content: typeof m.content === 'string' ? m.content : m.content.map((p) => p.text).join(''),
        }));
  return {
    model: b.model,
    request: {
      input,
      instructions: b.instructions ?? null,
      max_output_tokens: b.max_output_tokens ?? null,
      temperature: b.temperature ?? null,
      top_p: b.top_p ?? null,
    },
    stream: b.stream ?? false,
    background,
    store,
    metadata: b.metadata ?? null,
    onRestart: b.on_restart ?? null,
  };
}
