// The official `openai` Node SDK, unchanged, on structured output and Chat Completions: the calls
// an integrator makes once the first answer works (responses.parse and chat.completions.parse with
// a zod schema, JSON mode, a chat completion plain and streamed, with usage), and what is refused.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI, { BadRequestError } from 'openai';
import { zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import { TINY_MODEL_ANSWER } from '../../src/demo/tiny-model.js';
import { DEMO, startClientService, type ClientService } from './client-kit.js';

let svc: ClientService;
let client: OpenAI;

before(async () => {
  svc = await startClientService();
  client = new OpenAI({ baseURL: svc.baseURL, apiKey: svc.token, maxRetries: 0 });
});

const Answer = z.object({ answer: z.string(), sure: z.boolean(), tags: z.array(z.string()), kind: z.enum(['fact', 'guess']), note: z.string().nullable() });

test('responses.parse with a zod schema: the answer is JSON that satisfies it, and text.format is echoed', async () => {
  const r = await client.responses.parse({ model: DEMO, input: 'Answer as JSON.', text: { format: zodTextFormat(Answer, 'answer') }, max_output_tokens: 300 });
  assert.equal(r.status, 'completed', JSON.stringify(r.output));
  const parsed = Answer.parse(r.output_parsed);
  assert.equal(parsed.answer, TINY_MODEL_ANSWER);
  assert.equal(r.text?.format?.type, 'json_schema');
  assert.ok(r.text.format.type === 'json_schema' && r.text.format.name === 'answer');
});

test('json_object on the Responses API: one JSON object', async () => {
  const r = await client.responses.create({ model: DEMO, input: 'Reply in JSON.', text: { format: { type: 'json_object' } }, max_output_tokens: 100 });
  assert.equal(r.status, 'completed');
  const value: unknown = JSON.parse(r.output_text);
  assert.ok(typeof value === 'object' && value !== null && !Array.isArray(value), r.output_text);
});

test('a schema Sanad cannot keep to is a 400 naming text.format.schema and the keyword, before anything runs', async () => {
  await assert.rejects(
    client.responses.create({
      model: DEMO,
      input: 'x',
      text: { format: { type: 'json_schema', name: 'age', schema: { type: 'object', properties: { age: { type: 'integer', not: { const: 0 } } } } } },
    }),
    (err: unknown) => err instanceof BadRequestError && err.param === 'text.format.schema' && /not/.test(err.message),
  );
  await assert.rejects(
    client.responses.create({
      model: DEMO,
      input: 'x',
      text: { format: { type: 'json_schema', name: 'bad', schema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } } } },
    }),
    (err: unknown) => err instanceof BadRequestError && err.param === 'text.format.schema' && /missing/.test(err.message),
  );
});

test('chat.completions.create: the chat.completion object as OpenAI makes it', async () => {
  const c = await client.chat.completions.create({
    model: DEMO,
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello' },
    ],
  });
  assert.equal(c.object, 'chat.completion');
  assert.match(c.id, /^chatcmpl-/);
  assert.equal(c.choices.length, 1);
  assert.equal(c.choices[0]?.message.role, 'assistant');
  assert.equal(c.choices[0]?.message.content, TINY_MODEL_ANSWER);
  assert.equal(c.choices[0]?.finish_reason, 'stop');
  assert.ok(c.usage && c.usage.prompt_tokens > 0 && c.usage.completion_tokens > 0);
  assert.equal(c.usage.total_tokens, c.usage.prompt_tokens + c.usage.completion_tokens);
  // A longer history is a longer prompt: the assistant turn went into the model's input.
  const c2 = await client.chat.completions.create({
    model: DEMO,
    messages: [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: TINY_MODEL_ANSWER },
      { role: 'user', content: 'And again, please.' },
    ],
  });
  assert.ok((c2.usage?.prompt_tokens ?? 0) > c.usage.prompt_tokens, `${c2.usage?.prompt_tokens} vs ${c.usage.prompt_tokens}`);
});

test('max_tokens cuts the answer short: finish_reason length; stop ends it before the stop text', async () => {
  const short = await client.chat.completions.create({ model: DEMO, messages: [{ role: 'user', content: 'Hello' }], max_tokens: 3 });
  assert.equal(short.choices[0]?.finish_reason, 'length');
  assert.equal(short.choices[0]?.message.content, TINY_MODEL_ANSWER.slice(0, 3));
  const stopped = await client.chat.completions.create({ model: DEMO, messages: [{ role: 'user', content: 'Hello' }], stop: [','] });
  assert.equal(stopped.choices[0]?.message.content, TINY_MODEL_ANSWER.slice(0, TINY_MODEL_ANSWER.indexOf(',')));
  assert.equal(stopped.choices[0]?.finish_reason, 'stop');
});

test('a streamed chat completion: role first, the text in chunks, finish_reason, usage last when asked', async () => {
  const stream = await client.chat.completions.create({
    model: DEMO,
    messages: [{ role: 'user', content: 'Hello' }],
    stream: true,
    stream_options: { include_usage: true },
  });
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  assert.equal(chunks[0]?.choices[0]?.delta.role, 'assistant');
  assert.equal(chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''), TINY_MODEL_ANSWER);
  const finishes = chunks.flatMap((c) => c.choices.map((ch) => ch.finish_reason)).filter((f) => f !== null);
  assert.deepEqual(finishes, ['stop']);
  const last = chunks.at(-1);
  assert.deepEqual(last?.choices, []);
  assert.ok(last?.usage && last.usage.completion_tokens > 0);
  assert.ok(
    chunks.slice(0, -1).every((c) => c.usage === null),
    'usage: null on every other chunk',
  );
  assert.ok(new Set(chunks.map((c) => c.id)).size === 1);
  // The SDK's own stream helper reads the same stream to its final completion.
  const helper = client.chat.completions.stream({ model: DEMO, messages: [{ role: 'user', content: 'Hello' }] });
  const final = await helper.finalChatCompletion();
  assert.equal(final.choices[0]?.message.content, TINY_MODEL_ANSWER);
});

test('chat.completions.parse with a zod schema, and json_object', async () => {
  const c = await client.chat.completions.parse({
    model: DEMO,
    messages: [{ role: 'user', content: 'JSON please' }],
    response_format: zodResponseFormat(Answer, 'answer'),
    max_completion_tokens: 300,
  });
  const parsed = Answer.parse(c.choices[0]?.message.parsed);
  assert.equal(parsed.answer, TINY_MODEL_ANSWER);
  const j = await client.chat.completions.create({
    model: DEMO,
    messages: [{ role: 'user', content: 'JSON please' }],
    response_format: { type: 'json_object' },
  });
  assert.equal(typeof JSON.parse(j.choices[0]?.message.content ?? ''), 'object');
});

test('store: false (the default) keeps nothing; store: true is a response like any other', async () => {
  const kept = await client.chat.completions.create({
    model: DEMO,
    messages: [{ role: 'user', content: 'Keep this' }],
    store: true,
    metadata: { app: 'test' },
  });
  const responseId = `resp_${kept.id.slice('chatcmpl-'.length)}`;
  const r = await client.responses.retrieve(responseId);
  assert.equal(r.output_text, TINY_MODEL_ANSWER);
  assert.deepEqual(r.metadata, { app: 'test' });
  const gone = await client.chat.completions.create({ model: DEMO, messages: [{ role: 'user', content: 'Forget this' }] });
  await assert.rejects(client.responses.retrieve(`resp_${gone.id.slice('chatcmpl-'.length)}`), (err: unknown) => err instanceof OpenAI.NotFoundError);
});

test('what Chat Completions refuses is a 400 naming it', async () => {
  const refused: Array<[Record<string, unknown>, string]> = [
    [{ n: 2 }, 'n'],
    [{ logit_bias: { '1': 5 } }, 'logit_bias'],
    [{ frequency_penalty: 0.5 }, 'frequency_penalty'],
    [{ tools: [{ type: 'custom', custom: { name: 'f' } }] }, 'tools[0].type'],
    [
      { response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'string', not: { const: 'a' } } } } },
      'response_format.json_schema.schema',
    ],
    [{ temprature: 1 }, 'temprature'],
  ];
  for (const [extra, param] of refused) {
    await assert.rejects(
      client.chat.completions.create({ model: DEMO, messages: [{ role: 'user', content: 'x' }], ...extra }),
      (err: unknown) => err instanceof BadRequestError && err.param === param,
      param,
    );
  }
  // A misspelt required field is named as the misspelling, with what it meant.
  await assert.rejects(
    client.post('/chat/completions', { body: { model: DEMO, mesages: [{ role: 'user', content: 'x' }] } }),
    (err: unknown) => err instanceof BadRequestError && err.param === 'mesages' && /did you mean messages\?/.test(err.message),
  );
  await assert.rejects(
    client.chat.completions.create({ model: DEMO, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:,' } }] }] }),
    (err: unknown) => err instanceof BadRequestError && err.param === 'messages[0].content[0].type' && /images/.test(err.message),
  );
});
