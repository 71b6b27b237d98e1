// Each schema read twice: what the grammar keeps an answer to, and the whole schema the answer is
// checked against after; each refusal naming where and why; the rewrites clients' schemas need
// (anyOf, definitions, nullable, draft 7's tuple items).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkJsonSchema } from '../../src/contract/json-schema.js';

function refusal(schema: unknown): { path: string; reason: string } {
  const checked = checkJsonSchema(schema);
  assert.equal(checked.ok, false, JSON.stringify(schema));
  return checked.ok ? { path: '', reason: '' } : checked;
}

test('a schema inside the subset comes back as the grammar is made from it; annotations go', () => {
  const checked = checkJsonSchema({
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'T',
    type: 'object',
    properties: {
      a: { type: 'string', description: 'kept', default: 'x' },
      b: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      c: { $ref: '#/definitions/C' },
    },
    required: ['a', 'b'],
    additionalProperties: false,
    definitions: { C: { type: 'array', items: { enum: ['x', 'y'] }, maxItems: 3 } },
  });
  assert.ok(checked.ok);
  assert.deepEqual(checked.grammar, {
    type: 'object',
    properties: { a: { type: 'string', description: 'kept' }, b: { oneOf: [{ type: 'integer' }, { type: 'null' }] }, c: { $ref: '#/$defs/C' } },
    required: ['a', 'b'],
    additionalProperties: false,
    $defs: { C: { type: 'array', items: { enum: ['x', 'y'] }, maxItems: 3 } },
  });
});

test('OpenAPI\'s nullable becomes "or null"', () => {
  const checked = checkJsonSchema({ type: 'object', properties: { n: { type: 'string', nullable: true } } });
  assert.ok(checked.ok);
  assert.deepEqual(checked.grammar.properties, { n: { oneOf: [{ type: 'string' }, { type: 'null' }] } });
  assert.deepEqual(checked.full.properties, { n: { anyOf: [{ type: 'string' }, { type: 'null' }] } });
});

test('what the grammar cannot hold is kept for the check after, not refused (zod 4, Pydantic)', () => {
  const checked = checkJsonSchema({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      n: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
      p: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5 },
      e: { type: 'string', format: 'email', pattern: '^[^@]+@[^@]+$' },
      d: { type: 'string', format: 'date-time' },
      r: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } },
      t: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
    },
    required: ['n'],
    additionalProperties: false,
  });
  assert.ok(checked.ok, JSON.stringify(checked));
  assert.deepEqual(checked.grammar.properties, {
    n: { type: 'integer' },
    p: { type: 'number' },
    e: { type: 'string' },
    d: { type: 'string', format: 'date-time' },
    r: { type: 'object', additionalProperties: { type: 'number' } },
    t: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] },
  });
  const full = checked.full.properties;
  assert.ok(typeof full === 'object' && full !== null && !Array.isArray(full));
  assert.deepEqual(full.n, { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 });
  assert.deepEqual(full.e, { type: 'string', format: 'email', pattern: '^[^@]+@[^@]+$' });
  assert.deepEqual(full.r, { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } });
});

test('allOf (zod 4 writes two checks of one string this way): the grammar takes what its parts enforce, the whole is checked after', () => {
  const checked = checkJsonSchema({
    type: 'object',
    properties: {
      to: { type: 'string', allOf: [{ pattern: '^[^\\n\\r]*$' }, { pattern: '^[\\s\\S]{0,300}$' }] },
      n: { allOf: [{ type: 'integer' }, { minimum: 1 }] },
    },
  });
  assert.ok(checked.ok, JSON.stringify(checked));
  assert.deepEqual(checked.grammar.properties, { to: { type: 'string' }, n: { type: 'integer' } });
  const full = checked.full.properties;
  assert.ok(typeof full === 'object' && full !== null && !Array.isArray(full));
  assert.deepEqual(full.n, { allOf: [{ type: 'integer' }, { minimum: 1 }] });
});

test('what nothing can honour is refused, naming where', () => {
  assert.deepEqual(refusal({ type: 'object', properties: { age: { not: { type: 'integer' } } } }).path, '.properties.age.not');
  assert.match(refusal({ type: 'string', pattern: '([' }).reason, /not a regular expression/);
  assert.match(refusal({ type: 'strin' }).reason, /"strin" is not a JSON Schema type/);
  assert.match(refusal({ type: 'string', format: 'binary' }).reason, /not a format Sanad can check/);
  assert.match(refusal({ type: 'string', minLenght: 2 }).reason, /not a JSON Schema keyword Sanad knows; did you mean minLength\?/);
  assert.match(refusal({ properties: { a: { $ref: '#/$defs/missing' } } }).reason, /does not define/);
  assert.match(refusal({ $ref: 'https://example.com/s.json' }).reason, /own definitions/);
  assert.match(refusal({ if: { type: 'string' } }).reason, /"if"/);
  assert.match(refusal('x').reason, /JSON Schema object/);
  assert.match(refusal({ enum: [] }).reason, /non-empty/);
  assert.match(refusal({ type: 'array', minItems: -1 }).reason, /whole number/);
  let deep: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < 40; i++) deep = { type: 'array', items: deep };
  assert.match(refusal(deep).reason, /deeper than/);
  // Wide: past the parts an answer can be checked against without holding the event loop.
  const wide = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p${i}`, { type: 'string', format: 'email' }]));
  assert.match(refusal({ type: 'object', properties: wide }).reason, /larger than 256 parts/);
  assert.ok(checkJsonSchema({ type: 'object', properties: Object.fromEntries(Object.entries(wide).slice(0, 200)) }).ok);
  // Enums: the values of the whole schema together, and the text of one long enum, are capped
  // before a grammar is made; the refusal names the keyword's path.
  const values = (n: number, width = 4): string[] => Array.from({ length: n }, (_, i) => String(i).padStart(width, '0'));
  assert.ok(checkJsonSchema({ enum: values(1000) }).ok);
  const huge = checkJsonSchema({ type: 'object', properties: { city: { enum: values(25_000, 6) } } });
  assert.ok(!huge.ok && huge.path === '.properties.city.enum' && /more than 1000 in all/.test(huge.reason), JSON.stringify(huge).slice(0, 200));
  const split = checkJsonSchema({ type: 'object', properties: { a: { enum: values(600) }, b: { enum: values(600) } } });
  assert.ok(!split.ok && split.path === '.properties.b.enum', 'the values of all enums count together');
  const long = checkJsonSchema({ enum: values(300, 60) });
  assert.ok(!long.ok && /15000 characters/.test(long.reason));
});
