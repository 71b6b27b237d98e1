// Function tools with the official `openai` Node SDK, unchanged: a forced call whose arguments
// satisfy the function's parameters (grammar-constrained, so the tiny demo model makes a valid
// one), its stream events in OpenAI's order, the tool's output sent back (previous_response_id and
// inline), and the answer; `auto`, where the demo model answers in text as a model that chose not
// to call does; and the refusals.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI, { BadRequestError } from 'openai';
import type { FunctionTool } from 'openai/resources/responses/responses';
import { TINY_MODEL_ANSWER } from '../../src/demo/tiny-model.js';
import { DEMO, startClientService, type ClientService } from './client-kit.js';

let svc: ClientService;
let client: OpenAI;

before(async () => {
  svc = await startClientService();
  client = new OpenAI({ baseURL: svc.baseURL, apiKey: svc.token, maxRetries: 0 });
});

const weather: FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
    required: ['city', 'unit'],
    additionalProperties: false,
  },
  strict: true,
};
const time: FunctionTool = {
  type: 'function',
  name: 'get_time',
  description: 'The time now.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  strict: true,
};

test('a forced call: one function_call whose arguments satisfy the parameters; the output goes back and the model answers', async () => {
  const r = await client.responses.create({
    model: DEMO,
    input: 'Weather in Kuwait?',
    tools: [weather, time],
    tool_choice: { type: 'function', name: 'get_weather' },
  });
  assert.equal(r.status, 'completed');
  assert.equal(r.output.length, 1, JSON.stringify(r.output));
  const call = r.output[0];
  assert.ok(call?.type === 'function_call');
  assert.equal(call.name, 'get_weather');
  assert.match(call.call_id, /^call_/);
  const args: unknown = JSON.parse(call.arguments);
  assert.ok(
    typeof args === 'object' && args !== null && 'city' in args && typeof args.city === 'string' && 'unit' in args && ['c', 'f'].includes(String(args.unit)),
    call.arguments,
  );
  assert.deepEqual(
    r.tools.map((t) => (t.type === 'function' ? t.name : t.type)),
    ['get_weather', 'get_time'],
  );
  assert.deepEqual(r.tool_choice, { type: 'function', name: 'get_weather' });

  // The client runs the function and continues; the model sees the call and its output.
  const next = await client.responses.create({
    model: DEMO,
    previous_response_id: r.id,
    input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"temp": 31}' }],
    tools: [weather, time],
  });
  assert.equal(next.status, 'completed');
  assert.equal(next.output_text, TINY_MODEL_ANSWER);
  assert.ok((next.usage?.input_tokens ?? 0) > (r.usage?.input_tokens ?? 0), 'the call and its output are in the prompt');
  // The same turn sent inline, the call as the SDK got it: the same prompt.
  const inline = await client.responses.create({
    model: DEMO,
    input: [{ role: 'user', content: 'Weather in Kuwait?' }, call, { type: 'function_call_output', call_id: call.call_id, output: '{"temp": 31}' }],
    tools: [weather, time],
  });
  assert.equal(inline.usage?.input_tokens, next.usage?.input_tokens);
  // And by reference: the call is a stored item.
  const byRef = await client.responses.create({
    model: DEMO,
    input: [
      { role: 'user', content: 'Weather in Kuwait?' },
      { type: 'item_reference', id: call.id ?? '' },
      { type: 'function_call_output', call_id: call.call_id, output: '{"temp": 31}' },
    ],
    tools: [weather, time],
  });
  assert.equal(byRef.usage?.input_tokens, next.usage?.input_tokens);
});

test('tool_choice required with several tools: one call to one of them, valid for that one', async () => {
  const r = await client.responses.create({ model: DEMO, input: 'Anything', tools: [weather, time], tool_choice: 'required' });
  const call = r.output[0];
  assert.ok(call?.type === 'function_call', JSON.stringify(r.output));
  assert.ok(['get_weather', 'get_time'].includes(call.name));
  assert.equal(typeof JSON.parse(call.arguments), 'object');
});

test('streamed: output_item.added, function_call_arguments.delta/.done, output_item.done, and the helper builds the call', async () => {
  const stream = client.responses.stream({ model: DEMO, input: 'Weather?', tools: [weather], tool_choice: 'required' });
  const types: string[] = [];
  stream.on('event', (e) => types.push(e.type));
  const final = await stream.finalResponse();
  const call = final.output[0];
  assert.ok(call?.type === 'function_call');
  const own = types.filter((t) => t.startsWith('response.output_item') || t.startsWith('response.function_call'));
  assert.deepEqual(own, [
    'response.output_item.added',
    'response.function_call_arguments.delta',
    'response.function_call_arguments.done',
    'response.output_item.done',
  ]);
  assert.ok(!types.includes('response.output_text.delta'), 'a forced call writes no text');
});

test('auto: the demo model answers in text (it was not trained to call), tools echoed', async () => {
  const r = await client.responses.create({ model: DEMO, input: 'Hello', tools: [weather] });
  assert.equal(r.output_text, TINY_MODEL_ANSWER);
  assert.equal(r.tool_choice, 'auto');
  assert.ok(r.output.every((o) => o.type === 'message'));
});

test('refusals name the parameter: unknown tool types, a choice not in tools, a schema a grammar cannot keep', async () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ tools: [{ type: 'web_search' }] }, 'tools[0].type'],
    [{ tools: [weather], tool_choice: { type: 'function', name: 'nope' } }, 'tool_choice'],
    [{ tool_choice: 'required' }, 'tool_choice'],
    [{ tools: [{ ...weather, parameters: { type: 'object', properties: { n: { type: 'number', not: { const: 1 } } } } }] }, 'tools[0].parameters'],
    [{ tools: [weather, weather] }, 'tools[1].name'],
  ];
  for (const [extra, param] of cases) {
    await assert.rejects(
      client.post('/responses', { body: { model: DEMO, input: 'x', ...extra } }),
      (err: unknown) => err instanceof BadRequestError && err.param === param,
      JSON.stringify(extra),
    );
  }
});

test('Chat Completions: a forced tool call, finish_reason tool_calls, the tool message back, the answer', async () => {
  const tools = [{ type: 'function' as const, function: { name: 'get_weather', description: 'The weather in a city.', parameters: weather.parameters ?? {} } }];
  const c = await client.chat.completions.create({
    model: DEMO,
    messages: [{ role: 'user', content: 'Weather in Kuwait?' }],
    tools,
    tool_choice: { type: 'function', function: { name: 'get_weather' } },
  });
  const choice = c.choices[0];
  assert.equal(choice?.finish_reason, 'tool_calls');
  assert.equal(choice.message.content, null);
  const call = choice.message.tool_calls?.[0];
  assert.ok(call?.type === 'function');
  assert.equal(call.function.name, 'get_weather');
  assert.equal(typeof JSON.parse(call.function.arguments), 'object');
  const answer = await client.chat.completions.create({
    model: DEMO,
    messages: [{ role: 'user', content: 'Weather in Kuwait?' }, choice.message, { role: 'tool', tool_call_id: call.id, content: '{"temp": 31}' }],
    tools,
  });
  assert.equal(answer.choices[0]?.message.content, TINY_MODEL_ANSWER);
  assert.equal(answer.choices[0]?.finish_reason, 'stop');
  assert.ok((answer.usage?.prompt_tokens ?? 0) > (c.usage?.prompt_tokens ?? 0));
});

test('Chat Completions streamed: the tool call arrives in chunks the SDK assembles', async () => {
  const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: weather.parameters ?? {} } }];
  const stream = client.chat.completions.stream({ model: DEMO, messages: [{ role: 'user', content: 'Weather?' }], tools, tool_choice: 'required' });
  const final = await stream.finalChatCompletion();
  const call = final.choices[0]?.message.tool_calls?.[0];
  assert.ok(call?.type === 'function');
  assert.equal(call.function.name, 'get_weather');
  assert.equal(typeof JSON.parse(call.function.arguments), 'object');
  assert.equal(final.choices[0]?.finish_reason, 'tool_calls');
});
