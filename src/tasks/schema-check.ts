// Checking a finished answer against the whole schema the client sent: what the grammar could not
// hold (a number's bounds, a pattern, an email) is checked here, with Ajv (JSON Schema 2020-12, the
// draft zod 4 writes) and ajv-formats. An answer that breaks its schema fails with the JSON path
// that failed; it never ends `completed`.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchemaObject } from '../contract/json-schema.js';

// ajv-formats is CommonJS: its default export arrives as the module object under Node's ESM.
const addFormats = 'default' in addFormatsModule ? addFormatsModule.default : addFormatsModule;

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv);

/** Compiled validators by schema text: compiling is the costly part, and clients reuse their schemas. */
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 256;

function validatorFor(schema: JsonSchemaObject): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value ?? '');
    compiled.set(key, validate);
  }
  return validate;
}

/** null when `text` is JSON that satisfies `schema`; else where and why it does not. */
export function schemaMismatch(schema: JsonSchemaObject, text: string): { path: string; reason: string } | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { path: '$', reason: 'is not complete JSON' };
  }
  const validate = validatorFor(schema);
  if (validate(value)) return null;
  const first = validate.errors?.[0];
  const path = `$${(first?.instancePath ?? '').replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.')}`;
  return { path, reason: first?.message ?? 'does not satisfy the schema' };
}
