// What a grammar can keep an answer to: the JSON Schema subset, each refusal naming where and why,
// and the rewrites clients' schemas need (anyOf, definitions, nullable).
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
  assert.deepEqual(checked.schema, {
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
  assert.deepEqual(checked.schema.properties, { n: { oneOf: [{ type: 'string' }, { type: 'null' }] } });
});

test('what a grammar cannot enforce is refused, naming where', () => {
  assert.deepEqual(refusal({ type: 'object', properties: { age: { type: 'integer', minimum: 0 } } }).path, '.properties.age.minimum');
  assert.match(refusal({ type: 'string', pattern: '^a$' }).reason, /"pattern" cannot be enforced/);
  assert.match(refusal({ type: 'strin' }).reason, /"strin" is not a JSON Schema type/);
  assert.match(refusal({ type: 'string', format: 'email' }).reason, /only the formats/);
  assert.match(refusal({ properties: { a: { $ref: '#/$defs/missing' } } }).reason, /does not define/);
  assert.match(refusal({ $ref: 'https://example.com/s.json' }).reason, /own definitions/);
  assert.match(refusal({ allOf: [{ type: 'string' }] }).reason, /"allOf"/);
  assert.match(refusal('x').reason, /JSON Schema object/);
  assert.match(refusal({ enum: [] }).reason, /non-empty/);
  assert.match(refusal({ type: 'array', minItems: -1 }).reason, /whole number/);
  let deep: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < 40; i++) deep = { type: 'array', items: deep };
  assert.match(refusal(deep).reason, /deeper than/);
});
