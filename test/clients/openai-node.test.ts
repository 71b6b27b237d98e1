// The official `openai` Node SDK, unchanged, against a real `sanad serve`: what an integrator does
// on their first day. Every call goes through the SDK's own parsing and its stream helpers.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI, { BadRequestError, ConflictError, NotFoundError } from 'openai';
import { TINY_MODEL_ANSWER } from '../../src/demo/tiny-model.js';
import { waitFor } from '../harness/api.js';
import { DEMO, startClientService, type ClientService } from './client-kit.js';

let svc: ClientService;
let client: OpenAI;
/** Every request the SDK sent (to see that a refusal is not retried). */
const sent: string[] = [];

before(async () => {
  svc = await startClientService();
  client = new OpenAI({
    baseURL: svc.baseURL,
    apiKey: svc.token,
    fetch: (url, init) => {
      sent.push(`${init?.method ?? 'GET'} ${typeof url === 'string' ? url : url instanceof URL ? url.href : url.url}`);
      return fetch(url, init);
    },
  });
});

test('create: the demo model ends its answer by itself, and the object has every field OpenAI has', async () => {
  const r = await client.responses.create({ model: DEMO, input: 'Hello', max_output_tokens: 64 });
  assert.equal(r.status, 'completed');
  assert.equal(r.output_text, TINY_MODEL_ANSWER);
  assert.equal(r.incomplete_details, null);
  assert.equal(r.error, null);
  assert.deepEqual(r.tools, []);
  assert.equal(r.tool_choice, 'auto');
  assert.equal(r.parallel_tool_calls, true);
  assert.deepEqual(r.text, { format: { type: 'text' }, verbosity: 'medium' });
  assert.equal(r.previous_response_id, null);
  assert.equal(r.truncation, 'disabled');
  assert.ok(r.usage && r.usage.input_tokens > 0 && r.usage.output_tokens > 0);
  assert.deepEqual(r.usage.input_tokens_details, { cached_tokens: 0 });
  assert.deepEqual(r.usage.output_tokens_details, { reasoning_tokens: 0 });
  assert.equal(typeof r.completed_at, 'number');
});

test('responses.stream() helper: finalResponse() and every event is one the SDK knows', async () => {
  const stream = client.responses.stream({ model: DEMO, input: 'Stream it' });
  const types: string[] = [];
  stream.on('event', (e) => types.push(e.type));
  const final = await stream.finalResponse();
  assert.equal(final.output_text, TINY_MODEL_ANSWER);
  assert.equal(types[0], 'response.created');
  assert.equal(types.at(-1), 'response.completed');
  assert.ok(!types.some((t) => t === 'response.loading' || t === 'response.cancelling'), types.join(','));
  assert.ok(types.includes('response.output_text.delta') && types.includes('response.output_text.done'));
});

test('stream: true iterates OpenAI events with logprobs on text events; the cut-short answer ends response.incomplete', async () => {
  const stream = await client.responses.create({ model: 'tiny', input: 'Go', max_output_tokens: 5, stream: true });
  const seen: string[] = [];
  let text = '';
  for await (const event of stream) {
    seen.push(event.type);
    if (event.type === 'response.output_text.delta') {
      assert.deepEqual(event.logprobs, []);
      text += event.delta;
    }
    if (event.type === 'response.incomplete') assert.equal(event.response.incomplete_details?.reason, 'max_output_tokens');
  }
  assert.equal(seen.at(-1), 'response.incomplete');
  assert.ok(text.length > 0);
});

test('background: 202, retrieve until done, delete; cancel of a finished one is not retried', async () => {
  const accepted = await client.responses.create({ model: DEMO, input: 'later', background: true });
  assert.equal(accepted.status, 'queued');
  const done = await waitFor(async () => {
    const r = await client.responses.retrieve(accepted.id);
    return r.status === 'completed' ? r : undefined;
  });
  assert.equal(done.output_text, TINY_MODEL_ANSWER);
  const before = sent.length;
  await assert.rejects(client.responses.cancel(accepted.id), (err: unknown) => err instanceof ConflictError && err.headers.get('x-should-retry') === 'false');
  assert.equal(sent.length - before, 1, 'the SDK asked once, not three times');
  // Typed void by the SDK; the body says what went.
  const deleted: unknown = await client.responses.delete(accepted.id);
  assert.equal(Reflect.get(Object(deleted), 'deleted'), true);
  await assert.rejects(client.responses.retrieve(accepted.id), NotFoundError);
});

test('background cancel of a long answer: cancelled, and its stream ends with an event the helper knows', async () => {
  const accepted = await client.responses.create({ model: 'tiny', input: 'long', background: true, max_output_tokens: 4000 });
  const stream = client.responses.stream({ response_id: accepted.id });
  let deltas = 0;
  stream.on('response.output_text.delta', () => {
    if (++deltas === 1) void client.responses.cancel(accepted.id);
  });
  const final = await stream.finalResponse();
  assert.equal(final.status, 'cancelled');
  assert.equal((await client.responses.retrieve(accepted.id)).status, 'cancelled');
});

test('previous_response_id: the earlier turns are the model input, echoed back, and an unknown id is refused', async () => {
  const first = await client.responses.create({ model: DEMO, input: 'My name is Sanad.' });
  const second = await client.responses.create({ model: DEMO, input: 'What is my name?', previous_response_id: first.id });
  assert.equal(second.previous_response_id, first.id);
  // The first turn's question and answer are in the second's prompt.
  assert.ok((second.usage?.input_tokens ?? 0) > (first.usage?.input_tokens ?? 0) + 20, `${second.usage?.input_tokens} vs ${first.usage?.input_tokens}`);
  const third = await client.responses.create({ model: DEMO, input: 'And again?', previous_response_id: second.id });
  assert.ok((third.usage?.input_tokens ?? 0) > (second.usage?.input_tokens ?? 0));
  const items = await client.responses.inputItems.list(second.id);
  assert.deepEqual(
    items.data.map((i) => (i.type === 'message' ? i.role : i.type)),
    ['user'],
  );
  await assert.rejects(
    client.responses.create({ model: DEMO, input: 'x', previous_response_id: 'resp_doesnotexist' }),
    (err: unknown) => err instanceof NotFoundError && err.param === 'previous_response_id',
  );
});

test('store: false answers once and cannot be continued', async () => {
  const r = await client.responses.create({ model: DEMO, input: 'forget me', store: false });
  assert.equal(Reflect.get(r, 'store'), false);
  await assert.rejects(
    client.responses.create({ model: DEMO, input: 'next', previous_response_id: r.id }),
    (err: unknown) => err instanceof BadRequestError && err.code === 'previous_response_not_stored' && /store: false/.test(err.message),
  );
});

test('conversations: a turn is added to its conversation, in order, and the next turn sees it', async () => {
  const conv = await client.conversations.create({ metadata: { topic: 'demo' }, items: [{ type: 'message', role: 'user', content: 'Remember: blue.' }] });
  assert.deepEqual(conv.metadata, { topic: 'demo' });
  const one = await client.responses.create({ model: DEMO, input: 'What colour?', conversation: conv.id });
  assert.deepEqual(one.conversation, { id: conv.id });
  const two = await client.responses.create({ model: DEMO, input: 'Again?', conversation: { id: conv.id } });
  assert.ok((two.usage?.input_tokens ?? 0) > (one.usage?.input_tokens ?? 0));
  const items = await client.conversations.items.list(conv.id, { order: 'asc' });
  const texts = items.data.map((i) => (i.type === 'message' ? i.content.map((c) => ('text' in c ? c.text : '')).join('') : i.type));
  assert.deepEqual(texts, ['Remember: blue.', 'What colour?', TINY_MODEL_ANSWER, 'Again?', TINY_MODEL_ANSWER]);
  // The answer keeps the id it has in the response.
  assert.equal(items.data[2]?.id, one.output[0]?.id);
  const updated = await client.conversations.update(conv.id, { metadata: { topic: 'colours' } });
  assert.deepEqual(updated.metadata, { topic: 'colours' });
  const first = items.data[0]?.id ?? '';
  await client.conversations.items.delete(first, { conversation_id: conv.id });
  assert.equal((await client.conversations.items.list(conv.id)).data.length, 4);
  const gone = await client.conversations.delete(conv.id);
  assert.equal(gone.deleted, true);
  await assert.rejects(client.conversations.retrieve(conv.id), NotFoundError);
  await assert.rejects(
    client.responses.create({ model: DEMO, input: 'x', conversation: conv.id }),
    (err: unknown) => err instanceof NotFoundError && err.param === 'conversation',
  );
});

test('strict on the way in: an unknown parameter, or one Sanad does not honour, is a 400 naming it, asked once', async () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ truncation: 'bogus' }, 'truncation'],
    [{ frobnicate: 1 }, 'frobnicate'],
    [{ include: ['message.output_text.logprobs'] }, 'include'],
    [{ reasoning: { effort: 'high' } }, 'reasoning.effort'],
    [{ input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'x' }] }] }, 'input[0].content[0].type'],
    [{ text: { format: { type: 'json_schema', name: 'x', schema: { type: 'string', not: { const: '' } } } } }, 'text.format.schema'],
    [{ text: { format: { type: 'yaml' } } }, 'text.format.type'],
  ];
  for (const [extra, param] of cases) {
    const before = sent.length;
    const body = { model: DEMO, input: 'x', ...extra };
    // The SDK's types cannot spell a wrong body: it goes through its generic post, as bytes do.
    await assert.rejects(
      client.post('/responses', { body }),
      (err: unknown) => err instanceof BadRequestError && err.param === param && err.headers.get('x-should-retry') === 'false',
      JSON.stringify(extra),
    );
    assert.equal(sent.length - before, 1);
  }
  // Parameters that only select the defaults are taken and echoed.
  const echoed = await client.responses.create({
    model: DEMO,
    input: 'x',
    truncation: 'disabled',
    include: [],
    parallel_tool_calls: false,
    tool_choice: 'none',
    tools: [],
    text: { format: { type: 'text' } },
    user: 'u-1',
  });
  assert.equal(echoed.parallel_tool_calls, false);
  assert.equal(echoed.tool_choice, 'none');
  assert.equal(echoed.user, 'u-1');
});

test('models: a client sees no file path of this machine; admin does', async () => {
  const models = await client.models.list();
  assert.ok(models.data.length >= 2);
  for (const m of models.data) assert.ok(!('path' in m), JSON.stringify(m));
  const admin = new OpenAI({ baseURL: svc.baseURL, apiKey: svc.adminToken });
  const seen = await admin.models.list();
  assert.ok(seen.data.every((m) => 'path' in m));
});
