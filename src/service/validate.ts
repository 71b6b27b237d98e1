// The one validation step for request bodies: a body is parsed by its schema from src/contract/,
// and the first thing wrong with it is a 400 in the contract's shape that names it as `param`
// (OpenAI's spelling: `input[2].content[0].type`), with `x-should-retry: false` (errors.ts).
import { ZodObject, type z } from 'zod/v3';
import { closest } from '../contract/closest-word.js';
import { paramOf, whyOf } from '../contract/issue-words.js';
import { badRequest } from './errors.js';

function sentenceOf(issue: z.ZodIssue, topLevel: readonly string[]): { param: string | null; why: string } {
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const meant = issue.path.length === 0 ? closest(key, topLevel) : null;
    // A near miss gets "did you mean"; anything else the common wording.
    return { param: paramOf([...issue.path, key]), why: meant ? `is not a parameter Sanad knows; did you mean ${meant}?` : whyOf(issue) };
  }
  return { param: paramOf(issue.path), why: whyOf(issue) };
}

/** The parsed body (an absent one read as `{}`), or a 400 naming the first field that is wrong. */
export function parseOptionalBody<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, body: unknown): T {
  return parseBody(schema, body ?? {});
}

/** The parsed body, or a 400 naming the first field that is wrong. */
export function parseBody<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, body: unknown): T {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('The request body must be a JSON object.');
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  // A misspelt field shows up twice: as unknown, and as the field it meant, missing. Naming the
  // misspelling (with "did you mean") says what to fix; "messages is required" would not.
  const issues = parsed.error.issues;
  const first = issues.find((i) => i.code === 'unrecognized_keys' && i.path.length === 0) ?? issues[0];
  const shape: unknown = schema instanceof ZodObject ? schema.shape : null;
  const topLevel = typeof shape === 'object' && shape !== null ? Object.keys(shape) : [];
  const { param, why } = first ? sentenceOf(first, topLevel) : { param: null, why: 'is invalid' };
  throw badRequest(`Invalid value for ${param ?? 'the body'}: ${why}.`, param);
}
