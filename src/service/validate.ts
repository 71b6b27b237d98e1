// The one validation step for request bodies: a body is parsed by its schema from src/contract/,
// and the first thing wrong with it is a 400 in the contract's shape that names it as `param`
// (OpenAI's spelling: `input[2].content[0].type`), with `x-should-retry: false` (errors.ts).
import type { z } from 'zod';
import { badRequest } from './errors.js';

/** `input[2].content` from zod's path ['input', 2, 'content']. */
export function paramOf(path: ReadonlyArray<string | number>): string | null {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`;
  return out === '' ? null : out;
}

function sentenceOf(issue: z.ZodIssue): { param: string | null; why: string } {
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return { param: paramOf([...issue.path, key]), why: 'is not a parameter Sanad knows; remove it (docs/api.md lists every parameter)' };
  }
  const param = paramOf(issue.path);
  if (issue.code === 'invalid_type' && issue.received === 'undefined') return { param, why: 'is required' };
  if (issue.code === 'invalid_type') return { param, why: `must be ${issue.expected}, not ${issue.received}` };
  if (issue.code === 'invalid_enum_value') return { param, why: `must be one of ${issue.options.map((o) => JSON.stringify(o)).join(', ')}` };
  return { param, why: issue.message };
}

/** The parsed body, or a 400 naming the first field that is wrong. */
export function parseBody<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, body: unknown): T {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('The request body must be a JSON object.');
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const { param, why } = first ? sentenceOf(first) : { param: null, why: 'is invalid' };
  throw badRequest(`Invalid value for ${param ?? 'the body'}: ${why}.`, param);
}
