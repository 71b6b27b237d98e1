// What a request's `text.format` and `tools` ask of the engine (the grammar side of each schema),
// and what the finished answer is checked against afterwards (the whole schema the client sent):
// an answer or a call whose JSON breaks its schema fails with the path, never ends `completed`.
import { checkJsonSchema, type JsonSchemaObject } from '../contract/json-schema.js';
import type { GenerateRequest, GenerateResult } from '../engine/engine.js';
import { schemaMismatch } from './schema-check.js';
import { TurnFailure } from './turn-context.js';
import type { ResponseRequest } from './types.js';

export interface CompletionShape {
  engine: Pick<GenerateRequest, 'format' | 'tools'>;
  /** The whole schema of the answer's text, and of each function's arguments, to check after. */
  answerSchema: JsonSchemaObject | null;
  callSchemas: Map<string, JsonSchemaObject>;
}

function checked(schema: unknown, what: string): { grammar: JsonSchemaObject; full: JsonSchemaObject } {
  const result = checkJsonSchema(schema);
  if (!result.ok) throw new TurnFailure('invalid_json_schema', `The schema of ${what} cannot be used: at ${result.path || 'its top'}, ${result.reason}.`);
  return result;
}

export function completionShape(request: ResponseRequest): CompletionShape {
  const shape: CompletionShape = { engine: {}, answerSchema: null, callSchemas: new Map() };
  const format = request.format;
  if (format?.type === 'json_object') shape.engine.format = { type: 'json_object' };
  if (format?.type === 'json_schema') {
    const s = checked(format.schema, 'text.format');
    shape.engine.format = { type: 'json_schema', schema: s.grammar };
    shape.answerSchema = s.full;
  }
  const tools = request.tools ?? [];
  const choice = request.tool_choice ?? 'auto';
  if (tools.length === 0 || choice === 'none') return shape;
  const functions = tools.map((t) => {
    const s = t.parameters ? checked(t.parameters, `the parameters of tool ${t.name}`) : null;
    if (s) shape.callSchemas.set(t.name, s.full);
    return { name: t.name, ...(t.description ? { description: t.description } : {}), ...(s ? { parameters: s.grammar } : {}) };
  });
  shape.engine.tools = { functions, choice: typeof choice === 'object' ? { name: choice.name } : choice, parallel: request.echo?.parallel_tool_calls ?? true };
  return shape;
}

/** Why a finished answer breaks its schema (one sentence with the JSON path), or null when it keeps it. */
export function shapeBroken(shape: CompletionShape, result: Pick<GenerateResult, 'text' | 'calls'>): string | null {
  for (const call of result.calls ?? []) {
    const schema = shape.callSchemas.get(call.name);
    const wrong = schema ? schemaMismatch(schema, call.arguments) : null;
    if (wrong) return `The model called ${call.name} with arguments that break its parameters: at ${wrong.path}, ${wrong.reason}.`;
  }
  const hasCalls = (result.calls ?? []).length > 0;
  if (shape.answerSchema && !hasCalls) {
    const wrong = schemaMismatch(shape.answerSchema, result.text);
    if (wrong) return `The model's answer breaks the schema of text.format: at ${wrong.path}, ${wrong.reason}.`;
  }
  return null;
}
