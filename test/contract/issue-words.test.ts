// Refusals read as Sanad's sentences for the contract's real schemas: each zod issue kind that a
// request can hit is worded, and a schema's own message (a refinement's) is kept as written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod/v3';
import { refusalOf } from '../../src/contract/issue-words.js';

function refusal(schema: z.ZodTypeAny, value: unknown): string {
  const parsed = schema.safeParse(value);
  assert.equal(parsed.success, false, `${JSON.stringify(value)} is refused`);
  return parsed.success ? '' : refusalOf(parsed.error.issues[0]).message;
}

test('zod issues are worded as one sentence naming the field', () => {
  const Body = z
    .object({
      name: z.string().trim().min(1).max(5),
      keep: z.number().int().min(0).max(1000),
      scopes: z.array(z.string()).min(1),
      kind: z.enum(['a', 'b']),
      code: z.string().regex(/^\d{4}$/),
      exact: z.string().length(3),
      items: z.array(z.object({ on: z.boolean() })).optional(),
    })
    .strict();
  const good = { name: 'n', keep: 1, scopes: ['x'], kind: 'a', code: '1234', exact: 'abc' };
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ ...good, name: '  ' }, 'Invalid value for name: must not be empty.'],
    [{ ...good, name: 'too long' }, 'Invalid value for name: must be at most 5 characters.'],
    [{ ...good, keep: -1 }, 'Invalid value for keep: must be at least 0.'],
    [{ ...good, keep: 1001 }, 'Invalid value for keep: must be at most 1000.'],
    [{ ...good, keep: 1.5 }, 'Invalid value for keep: must be a whole number.'],
    [{ ...good, keep: 'ten' }, 'Invalid value for keep: must be a number, not text.'],
    [{ ...good, scopes: [] }, 'Invalid value for scopes: must list at least one item.'],
    [{ ...good, kind: 'c' }, 'Invalid value for kind: must be one of "a", "b".'],
    [{ ...good, code: '12' }, 'Invalid value for code: is not in the expected form.'],
    [{ ...good, exact: 'ab' }, 'Invalid value for exact: must be exactly 3 characters.'],
    [{ ...good, items: [{ on: 'yes' }] }, 'Invalid value for items[0].on: must be true or false, not text.'],
    [{ name: 'n', keep: 1, scopes: ['x'], kind: 'a', code: '1234' }, 'Invalid value for exact: is required.'],
    [{ ...good, colour: 'red' }, 'Invalid value for colour: is not a parameter Sanad knows; remove it (docs/api.md lists every parameter).'],
  ];
  for (const [value, sentence] of cases) assert.equal(refusal(Body, value), sentence);
});

test("a schema's own message is kept as written", () => {
  const Even = z.number().refine((n) => n % 2 === 0, { message: 'must be even; send 2, 4 or 6' });
  assert.equal(refusal(z.object({ n: Even }), { n: 3 }), 'Invalid value for n: must be even; send 2, 4 or 6.');
  const Code = z.string().regex(/^[A-Z]{4}$/, 'must be four capital letters');
  assert.equal(refusal(z.object({ c: Code }), { c: 'ab' }), 'Invalid value for c: must be four capital letters.');
});
