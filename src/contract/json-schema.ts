// The JSON Schemas Sanad can generate under (structured output, function parameters): the subset
// node-llama-cpp turns into a grammar. node-llama-cpp never refuses a schema; it silently reads
// what it does not know as "any value" (an unknown `type`, a `pattern`, a dangling `$ref`). Then
// the output would not satisfy the schema the client sent, so everything outside the subset is
// refused here, naming where it is and why, before a task exists. `anyOf` is read as `oneOf`
// (generating one alternative satisfies both), `definitions` as `$defs` and OpenAPI's `nullable`
// as "or null", because the schemas clients send (zod through the openai SDK, the AI SDK,
// pydantic) use them.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonSchemaObject = { [key: string]: JsonValue };

export type SchemaCheck = { ok: true; schema: JsonSchemaObject } | { ok: false; path: string; reason: string };

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
const FORMATS = new Set(['date-time', 'time', 'date']);
/** Words that describe and constrain nothing: kept out of the grammar, never refused. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', '$schema', '$id', '$comment', 'deprecated', 'readOnly', 'writeOnly', 'strict']);
const STRUCTURE = new Set([
  'type',
  'const',
  'enum',
  'oneOf',
  'anyOf',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'format',
  '$ref',
  '$defs',
  'definitions',
  'nullable',
]);
const COUNTS = ['minProperties', 'maxProperties', 'minItems', 'maxItems', 'minLength', 'maxLength'];
/** Nesting deeper than this is a mistake or an attack, not a schema. */
const MAX_DEPTH = 32;

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

/** Checks `schema` against the subset and returns it as the grammar is made from it. */
export function checkJsonSchema(schema: unknown): SchemaCheck {
  try {
    if (!isObject(schema)) throw new Refusal('', 'must be a JSON Schema object');
    const defs = { ...asDefs(schema.definitions, 'definitions'), ...asDefs(schema.$defs, '$defs') };
    const names = new Set(Object.keys(defs));
    const out = node(schema, '', names, 0, true);
    if (names.size > 0) {
      out.$defs = Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, node(def, `.$defs.${name}`, names, 1, false)]));
    }
    return { ok: true, schema: out };
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

function node(schema: unknown, path: string, defs: ReadonlySet<string>, depth: number, root: boolean): JsonSchemaObject {
  if (depth > MAX_DEPTH) throw new Refusal(path, `nests deeper than ${MAX_DEPTH} levels`);
  // `true` / `{}` mean any value, which the grammar can make.
  if (schema === true) return {};
  if (!isObject(schema)) throw new Refusal(path, 'must be a schema object');
  const out: JsonSchemaObject = {};
  const sub = (value: unknown, at: string): JsonSchemaObject => node(value, `${path}${at}`, defs, depth + 1, false);
  for (const [key, value] of Object.entries(schema)) {
    const at = `${path}.${key}`;
    if (ANNOTATIONS.has(key)) {
      if (key === 'description' && typeof value === 'string') out.description = value;
      continue;
    }
    if (!STRUCTURE.has(key)) throw new Refusal(at, `"${key}" cannot be enforced while generating; leave it out or check it after`);
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
        out.type = jsonValue(value, at);
        break;
      }
      case 'const':
        out.const = jsonValue(value, at);
        break;
      case 'enum':
        if (!Array.isArray(value) || value.length === 0) throw new Refusal(at, 'must be a non-empty array');
        out.enum = jsonValue(value, at);
        break;
      case 'oneOf':
      case 'anyOf':
        if (!Array.isArray(value) || value.length === 0) throw new Refusal(at, 'must be a non-empty array of schemas');
        out.oneOf = value.map((v, i) => sub(v, `.${key}[${i}]`));
        break;
      case 'properties':
        if (!isObject(value)) throw new Refusal(at, 'must be an object of schemas');
        out.properties = Object.fromEntries(Object.entries(value).map(([name, v]) => [name, sub(v, `.properties.${name}`)]));
        break;
      case 'required':
        if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Refusal(at, 'must be an array of property names');
        out.required = jsonValue(value, at);
        break;
      case 'additionalProperties':
        out.additionalProperties = typeof value === 'boolean' ? value : sub(value, '.additionalProperties');
        break;
      case 'items':
        if (value === false) {
          out.maxItems = 0;
          break;
        }
        out.items = sub(value, '.items');
        break;
      case 'prefixItems':
        if (!Array.isArray(value)) throw new Refusal(at, 'must be an array of schemas');
        out.prefixItems = value.map((v, i) => sub(v, `.prefixItems[${i}]`));
        break;
      case 'format':
        if (typeof value !== 'string' || !FORMATS.has(value))
          throw new Refusal(at, `only the formats ${[...FORMATS].join(', ')} can be enforced while generating`);
        out.format = value;
        break;
      case '$ref': {
        const name = typeof value === 'string' ? /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(value)?.[1] : undefined;
        if (name === undefined) throw new Refusal(at, "only references to the schema's own definitions (#/$defs/name) can be followed");
        if (!defs.has(name)) throw new Refusal(at, `points to "${name}", which the schema does not define`);
        out.$ref = `#/$defs/${name}`;
        break;
      }
      default:
        if (COUNTS.includes(key)) {
          if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new Refusal(at, 'must be a whole number of at least 0');
          out[key] = value;
        }
    }
  }
  return schema.nullable === true ? { oneOf: [out, { type: 'null' }] } : out;
}
