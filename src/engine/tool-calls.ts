// Function calls, done by node-llama-cpp: with `auto` the chat template's own function-calling
// syntax (LlamaChat `functions`), so a model trained to call decides when to; with `required` or a
// named function, a grammar that admits only the call's JSON, so even a small model makes one
// whose arguments satisfy the function's parameters.
import type { ChatModelFunctions } from 'node-llama-cpp';
import type { JsonSchemaObject } from '../contract/json-schema.js';
import type { ToolUse } from './engine.js';

const ANY_OBJECT: JsonSchemaObject = { type: 'object' };

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
  return {
    oneOf: functions.map((f) => ({
      type: 'object',
      properties: { name: { const: f.name }, arguments: f.parameters ?? ANY_OBJECT },
      required: ['name', 'arguments'],
      additionalProperties: false,
    })),
  };
}

/** The call a forced generation made, from the JSON it wrote under forcedCallSchema's grammar. */
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
