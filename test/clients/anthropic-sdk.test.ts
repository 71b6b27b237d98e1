// The Messages API through the real Anthropic SDK (`@anthropic-ai/sdk`), unchanged and with its
// defaults, against a real `sanad serve`: create, the stream helper and its events, a tool round
// trip with `tool_result`, a thinking model's `thinking` block, count_tokens, and errors in
// Anthropic's shape raised as the SDK's own classes. The demo model answers "OK,demo!"; the
// generated thinker thinks "Why?Plan" first.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic, { AuthenticationError, BadRequestError, NotFoundError } from '@anthropic-ai/sdk';
import { TINY_MODEL_ANSWER } from '../../src/demo/tiny-model.js';
import { THINKING_MODEL_THOUGHT } from '../../src/demo/thinking-model.js';
import { str } from '../harness/api.js';
import { DEMO, THINKER, startClientService, type ClientService } from './client-kit.js';

let svc: ClientService;
let client: Anthropic;

before(async () => {
  svc = await startClientService();
  // The SDK adds /v1/messages to its base URL, so the base is the service itself.
  client = new Anthropic({ baseURL: svc.service.url, apiKey: svc.token });
});

const WEATHER: Anthropic.Tool = {
  name: 'get_weather',
  description: 'The weather in a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

function textOf(message: Anthropic.Message): string {
  return message.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

test('messages.create: a message as Anthropic makes it, kept as a response', async () => {
  const m = await client.messages.create({ model: DEMO, max_tokens: 64, system: 'Be brief.', messages: [{ role: 'user', content: 'Hello' }] });
  assert.equal(m.type, 'message');
  assert.equal(m.role, 'assistant');
  assert.equal(m.model, DEMO);
  assert.match(m.id, /^msg_/);
  assert.deepEqual(
    m.content.map((b) => b.type),
    ['text'],
  );
  assert.equal(textOf(m), TINY_MODEL_ANSWER);
  assert.equal(m.stop_reason, 'end_turn');
  assert.equal(m.stop_sequence, null);
  assert.ok(m.usage.input_tokens + (m.usage.cache_read_input_tokens ?? 0) > 0 && m.usage.output_tokens > 0, JSON.stringify(m.usage));
  // Underneath it is a stored response, in every backup (its id is the message's, as a response's).
  const kept = await svc.service.api.get(`/v1/responses/resp_${m.id.slice('msg_'.length)}`);
  assert.equal(kept.status, 200, kept.text);
  assert.equal(str(kept.body, 'output', 0, 'content', 0, 'text'), TINY_MODEL_ANSWER);

  const cut = await client.messages.create({ model: DEMO, max_tokens: 1, messages: [{ role: 'user', content: 'Hello' }] });
  assert.equal(cut.stop_reason, 'max_tokens');
  assert.equal(cut.usage.output_tokens, 1);

  // A stop sequence ends the answer before it, and says which one did.
  const stopped = await client.messages.create({ model: DEMO, max_tokens: 64, stop_sequences: ['zz', ','], messages: [{ role: 'user', content: 'Hello' }] });
  assert.equal(textOf(stopped), TINY_MODEL_ANSWER.slice(0, TINY_MODEL_ANSWER.indexOf(',')));
  assert.equal(stopped.stop_reason, 'stop_sequence');
  assert.equal(stopped.stop_sequence, ',');
  const streamed = await client.messages
    .stream({ model: DEMO, max_tokens: 64, stop_sequences: [','], messages: [{ role: 'user', content: 'Hello' }] })
    .finalMessage();
  assert.deepEqual([streamed.stop_reason, streamed.stop_sequence], ['stop_sequence', ',']);
});

test('messages.stream(): text events, the final message, and every event one the SDK knows, in order', async () => {
  const stream = client.messages.stream({ model: DEMO, max_tokens: 64, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
  let text = '';
  const types: string[] = [];
  stream.on('text', (delta) => {
    text += delta;
  });
  stream.on('streamEvent', (e) => types.push(e.type));
  const final = await stream.finalMessage();
  assert.equal(text, TINY_MODEL_ANSWER);
  assert.equal(textOf(final), TINY_MODEL_ANSWER);
  assert.equal(final.stop_reason, 'end_turn');
  assert.ok(final.usage.output_tokens > 0);
  assert.equal(types[0], 'message_start');
  assert.equal(types.at(-1), 'message_stop');
  assert.equal(types.at(-2), 'message_delta');
  assert.ok(types.indexOf('content_block_start') < types.indexOf('content_block_delta'));
  assert.ok(types.lastIndexOf('content_block_delta') < types.indexOf('content_block_stop'));
  // And with stream: true, the raw events.
  const raw = await client.messages.create({ model: DEMO, max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }], stream: true });
  let deltas = '';
  for await (const e of raw) if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') deltas += e.delta.text;
  assert.equal(deltas, TINY_MODEL_ANSWER);
});

test('tools: a forced call is a tool_use block whose input satisfies the schema; its tool_result goes back and the model answers', async () => {
  const first = await client.messages.create({
    model: DEMO,
    max_tokens: 200,
    tools: [WEATHER],
    tool_choice: { type: 'tool', name: 'get_weather' },
    messages: [{ role: 'user', content: 'Weather in Paris?' }],
  });
  assert.equal(first.stop_reason, 'tool_use');
  const use = first.content.find((b) => b.type === 'tool_use');
  assert.ok(use && use.type === 'tool_use', JSON.stringify(first.content));
  assert.equal(use.name, 'get_weather');
  assert.match(use.id, /\S/);
  assert.match(str(use.input, 'city'), /\S/);
  const second = await client.messages.create({
    model: DEMO,
    max_tokens: 64,
    tools: [WEATHER],
    messages: [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'Sunny, 21 C' }] },
    ],
  });
  assert.equal(second.stop_reason, 'end_turn');
  assert.equal(textOf(second), TINY_MODEL_ANSWER);

  // Streamed: the input arrives as input_json_delta, which the helper assembles.
  const stream = client.messages.stream({
    model: DEMO,
    max_tokens: 200,
    tools: [WEATHER],
    tool_choice: { type: 'any' },
    messages: [{ role: 'user', content: 'Weather in Rome?' }],
  });
  let json = '';
  stream.on('inputJson', (partial) => {
    json += partial;
  });
  const final = await stream.finalMessage();
  const streamed = final.content.find((b) => b.type === 'tool_use');
  assert.ok(streamed && streamed.type === 'tool_use');
  assert.deepEqual(streamed.input, JSON.parse(json));
  assert.equal(final.stop_reason, 'tool_use');
});

test('a thinking model: a thinking block before the text, streamed as thinking deltas; thinking disabled leaves it out', async () => {
  const m = await client.messages.create({ model: THINKER, max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] });
  assert.deepEqual(
    m.content.map((b) => b.type),
    ['thinking', 'text'],
  );
  const thought = m.content[0];
  assert.ok(thought?.type === 'thinking');
  assert.equal(thought.thinking, THINKING_MODEL_THOUGHT);
  assert.equal(textOf(m), TINY_MODEL_ANSWER);

  const stream = client.messages.stream({
    model: THINKER,
    max_tokens: 64,
    thinking: { type: 'enabled', budget_tokens: 1024 },
    messages: [{ role: 'user', content: 'Hi' }],
  });
  let thinking = '';
  stream.on('thinking', (delta) => {
    thinking += delta;
  });
  const final = await stream.finalMessage();
  assert.equal(thinking, THINKING_MODEL_THOUGHT);
  assert.equal(textOf(final), TINY_MODEL_ANSWER);
  // The thought goes back as Claude Code sends it, signature and all, and the conversation goes on.
  const next = await client.messages.create({
    model: THINKER,
    max_tokens: 64,
    messages: [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: final.content },
      { role: 'user', content: 'And then?' },
    ],
  });
  assert.equal(textOf(next), TINY_MODEL_ANSWER);

  const off = await client.messages.create({ model: THINKER, max_tokens: 64, thinking: { type: 'disabled' }, messages: [{ role: 'user', content: 'Quick' }] });
  assert.deepEqual(
    off.content.map((b) => b.type),
    ['text'],
  );
  // A model that does not think answers without, as a model without extended thinking would.
  const plain = await client.messages.create({
    model: DEMO,
    max_tokens: 64,
    thinking: { type: 'enabled', budget_tokens: 2048 },
    messages: [{ role: 'user', content: 'Hi' }],
  });
  assert.equal(textOf(plain), TINY_MODEL_ANSWER);
});

test('count_tokens: the prompt as the model reads it, counted with its template', async () => {
  const short = await client.messages.countTokens({ model: DEMO, messages: [{ role: 'user', content: 'Hi' }] });
  const long = await client.messages.countTokens({
    model: DEMO,
    system: 'You are a careful assistant.',
    messages: [{ role: 'user', content: 'Hi there, how are you today?' }],
  });
  assert.ok(short.input_tokens > 0);
  assert.ok(long.input_tokens > short.input_tokens, `${long.input_tokens} > ${short.input_tokens}`);
  // The tools the model is offered are part of its prompt.
  const withTools = await client.messages.countTokens({ model: DEMO, tools: [WEATHER], messages: [{ role: 'user', content: 'Hi' }] });
  assert.ok(withTools.input_tokens > short.input_tokens + 10, `${withTools.input_tokens} with a tool, ${short.input_tokens} without`);
  // The same count the message itself reports.
  const m = await client.messages.create({ model: DEMO, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] });
  assert.equal(m.usage.input_tokens + (m.usage.cache_read_input_tokens ?? 0), short.input_tokens);
});

test("errors come in Anthropic's shape and as the SDK's classes, not retried", async () => {
  await assert.rejects(
    client.messages.create({ model: 'no-such-model', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }),
    (err: unknown) => err instanceof NotFoundError && str(err.error, 'type') === 'error' && str(err.error, 'error', 'type') === 'not_found_error',
  );
  await assert.rejects(
    // The SDK's types cannot spell a body without max_tokens: it goes through its generic post.
    client.post('/v1/messages', { body: { model: DEMO, messages: [{ role: 'user', content: 'x' }] } }),
    (err: unknown) => err instanceof BadRequestError && str(err.error, 'error', 'type') === 'invalid_request_error' && /max_tokens/.test(err.message),
  );
  await assert.rejects(
    client.messages.create({
      model: DEMO,
      max_tokens: 8,
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://x/y.png' } }] }],
    }),
    (err: unknown) => err instanceof BadRequestError && /images are not supported/.test(err.message),
  );
  const stranger = new Anthropic({ baseURL: svc.service.url, apiKey: 'sk-not-a-token', maxRetries: 0 });
  await assert.rejects(stranger.messages.create({ model: DEMO, max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }), AuthenticationError);
});
