// The JSON Schemas clients send for structured output and function parameters, as zod 4, Pydantic,
// the AI SDK and the OpenAI SDKs write them. Each keyword falls in one of three kinds, and
// docs/api.md has the same table (test/docs checks it):
// - enforced while generating: node-llama-cpp turns it into the grammar, so the model cannot break it;
// - checked after: the grammar cannot hold it (a number's bounds, a pattern, most formats), so the
//   finished answer is validated against the whole schema (tasks/schema-check.ts) and one that
//   breaks it fails, naming the JSON path, instead of ending `completed`;
// - refused: nothing can make an answer honour it (a reference outside the schema, `not`, branches
//   the grammar has no shape for), so the request is a 400 naming the keyword's path.
// node-llama-cpp never refuses a schema; it silently reads what it does not know as "any value".
// So the grammar is made from `grammar` below, which holds only what it enforces, and the answer is
// checked against `full`. `anyOf` is read as `oneOf` in the grammar (generating one alternative
// satisfies both), `definitions` as `$defs`, and OpenAPI's `nullable` as "or null"; `allOf` gives the
// grammar what its parts enforce (when they agree) and is checked after as a whole.
import { closest } from './closest-word.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonSchemaObject = { [key: string]: JsonValue };

export type SchemaCheck = { ok: true; grammar: JsonSchemaObject; full: JsonSchemaObject } | { ok: false; path: string; reason: string };

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
/** Formats the grammar writes itself; the others are checked after generation. */
export const GRAMMAR_FORMATS = ['date-time', 'time', 'date'] as const;
/** Every format an answer can be checked against (ajv-formats' names). */
export const CHECKED_FORMATS = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid', 'uri', 'uri-reference', 'regex'] as const;

/** The keyword table of docs/api.md: what the grammar enforces, what is checked after, what is refused. */
export const SCHEMA_KEYWORDS = {
  enforced: [
    'type',
    'properties',
    'required',
    'additionalProperties',
    'items',
    'prefixItems',
    'minItems',
    'maxItems',
    'minLength',
    'maxLength',
    'minProperties',
    'maxProperties',
    'enum',
    'const',
    'anyOf',
    'oneOf',
    '$ref',
    '$defs',
    'definitions',
    'nullable',
    'format',
  ],
  checked: [
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'multipleOf',
    'pattern',
    'format',
    'uniqueItems',
    'propertyNames',
    'contains',
    'minContains',
    'maxContains',
    'allOf',
  ],
  ignored: ['title', 'description', 'default', 'examples', '$schema', '$id', '$comment', 'deprecated', 'readOnly', 'writeOnly', 'strict', 'discriminator'],
  refused: [
    'not',
    'if',
    'then',
    'else',
    'patternProperties',
    'dependentSchemas',
    'dependentRequired',
    'unevaluatedProperties',
    'unevaluatedItems',
    '$dynamicRef',
    '$anchor',
  ],
} as const;

const ENFORCED = new Set<string>(SCHEMA_KEYWORDS.enforced);
const REFUSED = new Set<string>(SCHEMA_KEYWORDS.refused);
const CHECKABLE_FORMATS = new Set<string>(CHECKED_FORMATS);
const GRAMMAR_FORMAT_SET = new Set<string>(GRAMMAR_FORMATS);
const CHECKED = new Set<string>(SCHEMA_KEYWORDS.checked);
const IGNORED = new Set<string>(SCHEMA_KEYWORDS.ignored);
const COUNTS = new Set(['minProperties', 'maxProperties', 'minItems', 'maxItems', 'minLength', 'maxLength', 'minContains', 'maxContains']);
const NUMBERS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']);
/** Nesting deeper than this is a mistake or an attack, not a schema. */
const MAX_DEPTH = 32;
/**
 * Subschemas in one schema, at most. Checking an answer compiles the schema once (Ajv, on the
 * main thread): measured here at about 0.4–0.6 ms a part, so 256 parts hold the event loop ~100 ms
 * once per new schema, while 1,500 parts overflowed the validator's stack. A model's answer needing
 * more is not a schema a local grammar should run either.
 */
export const MAX_SCHEMA_PARTS = 256;
/**
 * Enum values in one schema, at most, and the text of one long enum: OpenAI's own limits for
 * Structured Outputs. Each value is an alternative the grammar checks at every step, so a
 * 25,000-value enum held a sequence for over a minute per answer.
 */
export const MAX_ENUM_VALUES = 1000;
const LONG_ENUM = 250;
const MAX_LONG_ENUM_CHARS = 15_000;
let parts = 0;
let enumValues = 0;

class Refusal extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(reason);
  }
}

function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value that came from JSON.parse (the request body), checked all the same. */
function jsonValue(value: unknown, path: string): JsonValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (Array.isArray(value)) return value.map((v, i) => jsonValue(v, `${path}[${i}]`));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonValue(v, `${path}.${k}`)]));
  throw new Refusal(path, 'is not a JSON value');
}

/** One schema, as the grammar is made from it and as the answer is checked against it. */
interface Pair {
  grammar: JsonSchemaObject;
  full: JsonSchemaObject;
}

/** Checks `schema` and returns its two readings, or where and why it cannot be honoured. */
export function checkJsonSchema(schema: unknown): SchemaCheck {
  try {
    if (!isObject(schema)) throw new Refusal('', 'must be a JSON Schema object');
    parts = 0;
    enumValues = 0;
    const defs = { ...asDefs(schema.definitions, 'definitions'), ...asDefs(schema.$defs, '$defs') };
    const names = new Set(Object.keys(defs));
    const out = node(schema, '', names, 0, true);
    if (names.size > 0) {
      const read = Object.entries(defs).map(([name, def]) => [name, node(def, `.$defs.${name}`, names, 1, false)] as const);
      out.grammar.$defs = Object.fromEntries(read.map(([name, pair]) => [name, pair.grammar]));
      out.full.$defs = Object.fromEntries(read.map(([name, pair]) => [name, pair.full]));
    }
    return { ok: true, grammar: out.grammar, full: out.full };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, path: err.path, reason: err.message };
    throw err;
  }
}

function asDefs(value: unknown, key: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new Refusal(`.${key}`, 'must be an object of named schemas');
  return value;
}

const KNOWN_KEYWORDS = [...SCHEMA_KEYWORDS.enforced, ...SCHEMA_KEYWORDS.checked, ...SCHEMA_KEYWORDS.ignored];

/** "did you mean minLength?" for a typo, else what to do. */
function meant(key: string): string {
  const near = closest(key, KNOWN_KEYWORDS);
  return near ? `did you mean ${near}?` : 'leave it out';
}

function wholeNumber(value: unknown, at: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new Refusal(at, 'must be a whole number of at least 0');
  return value;
}

function node(schema: unknown, path: string, defs: ReadonlySet<string>, depth: number, root: boolean): Pair {
  if (depth > MAX_DEPTH) throw new Refusal(path, `nests deeper than ${MAX_DEPTH} levels`);
  if (++parts > MAX_SCHEMA_PARTS)
    throw new Refusal(path, `makes the schema larger than ${MAX_SCHEMA_PARTS} parts (subschemas); split what you ask for over several requests`);
  // `true` / `{}` mean any value, which the grammar can make.
  if (schema === true) return { grammar: {}, full: {} };
  if (!isObject(schema)) throw new Refusal(path, 'must be a schema object');
  const grammar: JsonSchemaObject = {};
  const full: JsonSchemaObject = {};
  const both = (key: string, value: JsonValue): void => {
    grammar[key] = value;
    full[key] = value;
  };
  const sub = (value: unknown, at: string): Pair => node(value, `${path}${at}`, defs, depth + 1, false);
  const subs = (value: unknown, key: string): Pair[] => {
    if (!Array.isArray(value) || value.length === 0) throw new Refusal(`${path}.${key}`, 'must be a non-empty array of schemas');
    return value.map((v, i) => sub(v, `.${key}[${i}]`));
  };
  for (const [key, value] of Object.entries(schema)) {
    const at = `${path}.${key}`;
    if (IGNORED.has(key) || key.startsWith('x-')) {
      if (key === 'description' && typeof value === 'string') both('description', value);
      continue;
    }
    if (!ENFORCED.has(key) && !CHECKED.has(key)) {
      const known = REFUSED.has(key);
      throw new Refusal(
        at,
        known
          ? `"${key}" cannot be honoured: the grammar has no shape for it and an answer would satisfy it only by chance; leave it out`
          : `"${key}" is not a JSON Schema keyword Sanad knows; ${meant(key)}`,
      );
    }
    if ((key === '$defs' || key === 'definitions') && !root) throw new Refusal(at, 'definitions are read only at the top of the schema');
    switch (key) {
      case '$defs':
      case 'definitions':
        break;
      case 'nullable':
        // OpenAPI's spelling of "or null" (the openai SDK's zod helper writes it).
        if (typeof value !== 'boolean') throw new Refusal(at, 'must be true or false');
        break;
      case 'type': {
        const types = Array.isArray(value) ? value : [value];
        for (const t of types)
          if (typeof t !== 'string' || !TYPES.has(t)) throw new Refusal(at, `"${String(t)}" is not a JSON Schema type (${[...TYPES].join(', ')})`);
        both('type', jsonValue(value, at));
        break;
      }
      case 'const':
        both('const', jsonValue(value, at));
        break;
      case 'enum':
        if (!Array.isArray(value) || value.length === 0) throw new Refusal(at, 'must be a non-empty array');
        enumValues += value.length;
        if (enumValues > MAX_ENUM_VALUES)
          throw new Refusal(
            at,
            `makes the schema's enum values more than ${MAX_ENUM_VALUES} in all; ask for fewer choices, or for a plain string you check yourself`,
          );
        if (value.length > LONG_ENUM && JSON.stringify(value).length > MAX_LONG_ENUM_CHARS)
          throw new Refusal(at, `has ${value.length} values of more than ${MAX_LONG_ENUM_CHARS} characters together; ask for fewer or shorter choices`);
        both('enum', jsonValue(value, at));
        break;
      case 'oneOf':
      case 'anyOf': {
        const alternatives = subs(value, key);
        grammar.oneOf = alternatives.map((a) => a.grammar);
        full[key] = alternatives.map((a) => a.full);
        break;
      }
      case 'allOf': {
        // zod 4 writes two checks of one string as allOf of two patterns. The grammar takes what
        // the parts enforce where the schema has not said it already; the whole is checked after.
        const members = subs(value, key);
        full.allOf = members.map((m) => m.full);
        for (const p of members) for (const [k, v] of Object.entries(p.grammar)) if (!(k in grammar) && !(k in schema)) grammar[k] = v;
        break;
      }
      case 'properties': {
        if (!isObject(value)) throw new Refusal(at, 'must be an object of schemas');
        const props = Object.entries(value).map(([name, v]) => [name, sub(v, `.properties.${name}`)] as const);
        grammar.properties = Object.fromEntries(props.map(([name, p]) => [name, p.grammar]));
        full.properties = Object.fromEntries(props.map(([name, p]) => [name, p.full]));
        break;
      }
      case 'required':
        if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Refusal(at, 'must be an array of property names');
        both('required', jsonValue(value, at));
        break;
      case 'additionalProperties':
        if (typeof value === 'boolean') both(key, value);
        else {
          const p = sub(value, '.additionalProperties');
          grammar[key] = p.grammar;
          full[key] = p.full;
        }
        break;
      case 'items': {
        if (value === false) {
          both('maxItems', 0);
          break;
        }
        // Draft 7's tuple form (an array of schemas) is 2020-12's prefixItems.
        if (Array.isArray(value)) {
          const tuple = subs(value, 'items');
          grammar.prefixItems = tuple.map((t) => t.grammar);
          full.prefixItems = tuple.map((t) => t.full);
          break;
        }
        const p = sub(value, '.items');
        grammar.items = p.grammar;
        full.items = p.full;
        break;
      }
      case 'prefixItems': {
        const tuple = subs(value, 'prefixItems');
        grammar.prefixItems = tuple.map((t) => t.grammar);
        full.prefixItems = tuple.map((t) => t.full);
        break;
      }
      case 'format':
        if (typeof value !== 'string' || !CHECKABLE_FORMATS.has(value))
          throw new Refusal(at, `"${String(value)}" is not a format Sanad can check (${CHECKED_FORMATS.join(', ')})`);
        full.format = value;
        if (GRAMMAR_FORMAT_SET.has(value)) grammar.format = value;
        break;
      case '$ref': {
        const name = typeof value === 'string' ? /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(value)?.[1] : undefined;
        if (value === '#') throw new Refusal(at, 'a schema that refers to itself as a whole cannot be made into a grammar; name the recursive part in $defs');
        if (name === undefined) throw new Refusal(at, "only references to the schema's own definitions (#/$defs/name) can be followed");
        if (!defs.has(name)) throw new Refusal(at, `points to "${name}", which the schema does not define`);
        both('$ref', `#/$defs/${name}`);
        break;
      }
      case 'pattern':
        if (typeof value !== 'string') throw new Refusal(at, 'must be a regular expression');
        try {
          new RegExp(value, 'u');
        } catch {
          throw new Refusal(at, 'is not a regular expression that can be checked');
        }
        full.pattern = value;
        break;
      case 'uniqueItems':
        if (typeof value !== 'boolean') throw new Refusal(at, 'must be true or false');
        full.uniqueItems = value;
        break;
      case 'propertyNames':
      case 'contains':
        full[key] = sub(value, `.${key}`).full;
        break;
      default:
        if (NUMBERS.has(key)) {
          if (typeof value !== 'number' || !Number.isFinite(value) || (key === 'multipleOf' && value <= 0))
            throw new Refusal(at, key === 'multipleOf' ? 'must be a number above 0' : 'must be a number');
          full[key] = value;
        } else if (COUNTS.has(key)) {
          const n = wholeNumber(value, at);
          full[key] = n;
          if (ENFORCED.has(key)) grammar[key] = n;
        }
    }
  }
  if (schema.nullable !== true) return { grammar, full };
  return { grammar: { oneOf: [grammar, { type: 'null' }] }, full: { anyOf: [full, { type: 'null' }] } };
}
