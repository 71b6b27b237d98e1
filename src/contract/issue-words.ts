// What is wrong with a value, said the way Sanad says things: "must not be empty", "must be a
// whole number from 0 to 1000", not zod's "String must contain at least 1 character(s)". Every
// layer that validates with the contract's schemas words its refusals here, so the API, the CLI
// and the GUI read the same sentence for the same mistake.
import type { z } from 'zod/v3';

/** `input[2].content` from zod's path ['input', 2, 'content'] (OpenAI's spelling of a param). */
export function paramOf(path: ReadonlyArray<string | number>): string | null {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`;
  return out === '' ? null : out;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
  float: 'a fraction',
};
const typeWord = (t: string): string => TYPE_WORDS[t] ?? t;

/** "3 characters", "1 item": the unit a size limit counts. */
function counted(n: number, kind: string): string {
  if (kind === 'string') return `${n} character${n === 1 ? '' : 's'}`;
  if (kind === 'array' || kind === 'set') return `${n} item${n === 1 ? '' : 's'}`;
  return String(n);
}

function tooSmall(issue: z.ZodTooSmallIssue): string {
  const min = Number(issue.minimum);
  if ((issue.type === 'string' || issue.type === 'array') && min === 1 && issue.inclusive)
    return issue.type === 'string' ? 'must not be empty' : 'must list at least one item';
  if (issue.exact) return `must be exactly ${counted(min, issue.type)}`;
  if (issue.type === 'number') return issue.inclusive ? `must be at least ${min}` : `must be more than ${min}`;
  return `must be at least ${counted(issue.inclusive ? min : min + 1, issue.type)}`;
}

function tooBig(issue: z.ZodTooBigIssue): string {
  const max = Number(issue.maximum);
  if (issue.exact) return `must be exactly ${counted(max, issue.type)}`;
  if (issue.type === 'number') return issue.inclusive ? `must be at most ${max}` : `must be less than ${max}`;
  return `must be at most ${counted(issue.inclusive ? max : max - 1, issue.type)}`;
}

/**
 * Why the value is refused, as the end of a sentence ("… must not be empty"). A message the
 * schema wrote itself (a refinement's) is already Sanad's words and is kept; zod's defaults are
 * replaced.
 */
export function whyOf(issue: z.ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.received === 'undefined') return 'is required';
      if (issue.expected === 'integer') return 'must be a whole number';
      return `must be ${typeWord(issue.expected)}, not ${typeWord(issue.received)}`;
    case 'too_small':
      return tooSmall(issue);
    case 'too_big':
      return tooBig(issue);
    case 'invalid_enum_value':
      return `must be one of ${issue.options.map((o) => JSON.stringify(o)).join(', ')}`;
    case 'invalid_literal':
      return `must be ${JSON.stringify(issue.expected)}`;
    case 'unrecognized_keys':
      // Said of the key itself (refusalOf names it as the param).
      return 'is not a parameter Sanad knows; remove it (docs/api.md lists every parameter)';
    case 'invalid_string':
      // zod's defaults start "Invalid"; a schema's own message says what form is expected.
      return issue.message.startsWith('Invalid') ? 'is not in the expected form' : issue.message;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.multipleOf)}`;
    case 'not_finite':
      return 'must be a finite number';
    case 'invalid_union':
    case 'invalid_union_discriminator':
      return 'is not one of the accepted forms';
    case 'custom':
      return issue.message;
    default:
      return issue.message.startsWith('Invalid') ? 'is not valid' : issue.message;
  }
}

/** The whole sentence for one refused value: "Invalid value for name: must not be empty." */
export function refusalOf(issue: z.ZodIssue | undefined, prefix: ReadonlyArray<string | number> = []): { param: string | null; message: string } {
  if (issue === undefined) return { param: null, message: 'Invalid request body.' };
  const path = issue.code === 'unrecognized_keys' ? [...prefix, ...issue.path, ...issue.keys.slice(0, 1)] : [...prefix, ...issue.path];
  const param = paramOf(path);
  return { param, message: `Invalid value for ${param ?? 'the body'}: ${whyOf(issue)}.` };
}
