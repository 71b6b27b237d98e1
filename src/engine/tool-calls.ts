// Function calls, done by node-llama-cpp: with `auto` the chat template's own function-calling
// syntax (LlamaChat `functions`), so a model trained to call decides when to; with `required` or a
// named function, a grammar that admits only the call's JSON, so even a small model makes one
// whose arguments satisfy the function's parameters.
import type { ChatModelFunctions } from 'node-llama-cpp';
import type { JsonSchemaObject, JsonValue } from '../contract/json-schema.js';
import type { ToolUse } from './engine.js';

const ANY_OBJECT: JsonSchemaObject = { type: 'object' };

/**
 * A schema placed inside another: its \`$defs\` move up to the top (the only place a grammar reads
 * them), renamed with \`prefix\` so two functions' definitions never meet.
 */
function nested(schema: JsonSchemaObject, prefix: string, defs: Record<string, JsonValue>): JsonSchemaObject {
  const rename = (value: JsonValue): JsonValue => {
    if (Array.isArray(value)) return value.map(rename);
    if (typeof value !== 'object' || value === null) return value;
    const out: JsonSchemaObject = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out[k] = v.replace('#/$defs/', `#/$defs/${prefix}`);
      else if (k !== '$defs') out[k] = rename(v);
    }
    return out;
  };
  const own = schema.$defs;
  if (typeof own === 'object' && own !== null && !Array.isArray(own)) for (const [name, def] of Object.entries(own)) defs[`${prefix}${name}`] = rename(def);
  const body = rename(schema);
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
}

/** One JSON shape for a call to any of the functions: \`{"name", "arguments"}\`. */
function callShapes(functions: ToolUse['functions'], defs: Record<string, JsonValue>): JsonSchemaObject[] {
  return functions.map((f, i) => ({
    type: 'object',
    properties: { name: { const: f.name }, arguments: nested(f.parameters ?? ANY_OBJECT, `f${i}_`, defs) },
    required: ['name', 'arguments'],
    additionalProperties: false,
  }));
}

function withDefs(schema: JsonSchemaObject, defs: Record<string, JsonValue>): JsonSchemaObject {
  return Object.keys(defs).length > 0 ? { ...schema, $defs: defs } : schema;
}

/** The one function a forced call must be to (a named one, or the only tool), if there is one. */
function onlyTarget({ choice, functions }: ToolUse): ToolUse['functions'][number] | undefined {
  if (choice === 'auto') return undefined;
  if (choice === 'required') return functions.length === 1 ? functions[0] : undefined;
  return functions.find((f) => f.name === choice.name);
}

/** The schema of a forced call's JSON, or null when the model may answer freely (`auto`). */
export function forcedCallSchema(tools: ToolUse): JsonSchemaObject | null {
  const { choice, functions } = tools;
  if (choice === 'auto') return null;
  const only = onlyTarget(tools);
  if (only) return only.parameters ?? ANY_OBJECT;
  // Any one of several: the name, then that function's arguments.
  const defs: Record<string, JsonValue> = {};
  return withDefs({ oneOf: callShapes(functions, defs) }, defs);
}

/**
 * Tools with \`auto\` and an answer format together: one grammar that admits either calls
 * (\`{"tool_calls": [{"name", "arguments"}, …]}\`) or the answer (\`{"answer": …}\`), so the model
 * either calls or answers in the format, never in free text.
 */
export function callsOrAnswerSchema(tools: ToolUse, answer: JsonSchemaObject): JsonSchemaObject {
  const defs: Record<string, JsonValue> = {};
  const calls: JsonSchemaObject = {
    type: 'object',
    properties: { tool_calls: { type: 'array', items: { oneOf: callShapes(tools.functions, defs) }, minItems: 1, maxItems: tools.parallel ? 8 : 1 } },
    required: ['tool_calls'],
    additionalProperties: false,
  };
  const answered: JsonSchemaObject = { type: 'object', properties: { answer: nested(answer, 'a_', defs) }, required: ['answer'], additionalProperties: false };
  return withDefs({ oneOf: [calls, answered] }, defs);
}

/** What a completion under callsOrAnswerSchema's grammar made: calls, or the answer's JSON text. */
export function callsOrAnswer(text: string): { calls: Array<{ name: string; arguments: string }> } | { answer: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && 'tool_calls' in value && Array.isArray(value.tool_calls)) {
      const calls = value.tool_calls.flatMap((c: unknown) =>
        typeof c === 'object' && c !== null && 'name' in c && typeof c.name === 'string' && 'arguments' in c
          ? [{ name: c.name, arguments: JSON.stringify(c.arguments) }]
          : [],
      );
      return { calls };
    }
    if (typeof value === 'object' && value !== null && 'answer' in value) return { answer: JSON.stringify(value.answer) };
  } catch {
    // Cut short by the token limit: what came is kept as the (incomplete) answer.
  }
  return { answer: text };
}

/** The call a forced completion made, from the JSON it wrote under forcedCallSchema's grammar. */
export function forcedCall(tools: ToolUse, text: string): { name: string; arguments: string } {
  const only = onlyTarget(tools);
  if (only) return { name: only.name, arguments: text.trim() };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && 'name' in value && typeof value.name === 'string' && 'arguments' in value) {
      return { name: value.name, arguments: JSON.stringify(value.arguments) };
    }
  } catch {
    // Cut short by the token limit: the call is incomplete, its text kept as it came.
  }
  return { name: tools.functions[0]?.name ?? '', arguments: text };
}

/** The functions as LlamaChat offers them to the chat template. */
export function chatFunctions(tools: ToolUse): ChatModelFunctions {
  const out: Record<string, ChatModelFunctions[string]> = {};
  for (const f of tools.functions) {
    // contract/json-schema.ts admitted these parameters: GbnfJsonSchema's subset.
    out[f.name] = {
      ...(f.description ? { description: f.description } : {}),
      // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- see above
      ...(f.parameters ? { params: f.parameters as ChatModelFunctions[string]['params'] } : {}),
    };
  }
  return out;
}
