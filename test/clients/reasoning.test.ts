// A reasoning model through the clients people use, unchanged and with their defaults: the openai
// SDK's Responses (reasoning items, the stream helper's reasoning events, a conversation continued
// after a thinking turn) and Chat Completions (`reasoning_content`), the AI SDK's reasoning parts
// through `@ai-sdk/openai-compatible`, and LangChain. The model is the generated thinker: it thinks
// "Why?Plan", then answers "OK,demo!".
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI, { BadRequestError } from 'openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, streamText } from 'ai';
import { ChatOpenAI } from '@langchain/openai';
import { HumanMessage } from '@langchain/core/messages';
import { TINY_MODEL_ANSWER } from '../../src/demo/tiny-model.js';
import { THINKING_MODEL_THOUGHT } from '../../src/demo/thinking-model.js';
import { DEMO, THINKER, startClientService, type ClientService } from './client-kit.js';

let svc: ClientService;
let client: OpenAI;

before(async () => {
  svc = await startClientService();
  client = new OpenAI({ baseURL: svc.baseURL, apiKey: svc.token });
});

/** The output items an app sends back as input (all of this model's). */
function sentBack(o: OpenAI.Responses.ResponseOutputItem): o is OpenAI.Responses.ResponseReasoningItem | OpenAI.Responses.ResponseOutputMessage {
  return o.type === 'reasoning' || o.type === 'message';
}

function reasoningTextOf(output: OpenAI.Responses.ResponseOutputItem[]): string | null {
  const item = output.find((o) => o.type === 'reasoning');
  if (!item || item.type !== 'reasoning') return null;
  return (item.content ?? []).map((c) => c.text).join('');
}

test('responses.create: a reasoning item with the thought comes before the message; usage counts it', async () => {
  const r = await client.responses.create({ model: THINKER, input: 'Hello' });
  assert.equal(r.status, 'completed');
  assert.deepEqual(
    r.output.map((o) => o.type),
    ['reasoning', 'message'],
  );
  assert.equal(reasoningTextOf(r.output), THINKING_MODEL_THOUGHT);
  const first = r.output[0];
  assert.ok(first?.type === 'reasoning');
  assert.deepEqual(first.summary, []);
  assert.equal(r.output_text, TINY_MODEL_ANSWER);
  assert.ok(r.usage && r.usage.output_tokens_details.reasoning_tokens >= THINKING_MODEL_THOUGHT.length - 1, JSON.stringify(r.usage));
  assert.ok(r.usage.output_tokens > r.usage.output_tokens_details.reasoning_tokens);
  // The same, read back from the store.
  const again = await client.responses.retrieve(r.id);
  assert.equal(reasoningTextOf(again.output), THINKING_MODEL_THOUGHT);
});

test('the stream helper sees the reasoning item, its reasoning_text deltas and done, then the text', async () => {
  const stream = client.responses.stream({ model: THINKER, input: 'Stream it', reasoning: { effort: 'high' } });
  const types: string[] = [];
  let thought = '';
  stream.on('event', (e) => {
    types.push(e.type);
    if (e.type === 'response.reasoning_text.delta') thought += e.delta;
  });
  const final = await stream.finalResponse();
  assert.equal(thought, THINKING_MODEL_THOUGHT);
  assert.equal(reasoningTextOf(final.output), THINKING_MODEL_THOUGHT);
  assert.equal(final.output_text, TINY_MODEL_ANSWER);
  assert.equal(final.reasoning?.effort, 'high');
  const at = (t: string): number => types.indexOf(t);
  assert.ok(at('response.output_item.added') < at('response.reasoning_text.delta'), types.join(','));
  assert.ok(at('response.reasoning_text.done') < at('response.output_text.delta'), types.join(','));
  assert.ok(types.includes('response.content_part.added'));
});

test('a conversation goes on after a thinking turn: by previous_response_id, and with the output sent back', async () => {
  const first = await client.responses.create({ model: THINKER, input: 'First' });
  const second = await client.responses.create({ model: THINKER, input: 'Second', previous_response_id: first.id });
  assert.equal(second.output_text, TINY_MODEL_ANSWER);
  assert.equal(reasoningTextOf(second.output), THINKING_MODEL_THOUGHT);
  // Stateless, as the Agents SDK and many apps do: the reasoning item goes back as input.
  const third = await client.responses.create({
    model: THINKER,
    store: false,
    input: [{ role: 'user', content: 'First' }, ...first.output.filter(sentBack), { role: 'user', content: 'Third' }],
  });
  assert.equal(third.output_text, TINY_MODEL_ANSWER);
  // Or by reference: the reasoning item and the message of a stored answer, by their ids.
  const thoughtId = first.output.find((o) => o.type === 'reasoning')?.id ?? '';
  assert.match(thoughtId, /^rs_/);
  const fourth = await client.responses.create({
    model: THINKER,
    input: [
      { role: 'user', content: 'First' },
      { type: 'item_reference', id: thoughtId },
      { type: 'item_reference', id: first.output.find((o) => o.type === 'message')?.id ?? '' },
      { role: 'user', content: 'Fourth' },
    ],
  });
  assert.equal(fourth.output_text, TINY_MODEL_ANSWER);
  const kept = await client.responses.inputItems.list(fourth.id, { order: 'asc' });
  assert.deepEqual(
    kept.data.map((i) => [i.type, i.id === thoughtId]),
    [
      ['message', false],
      ['reasoning', true],
      ['message', false],
      ['message', false],
    ],
  );
});

test('effort none: no thinking, no reasoning item; a model that cannot think refuses more than none', async () => {
  const off = await client.responses.create({ model: THINKER, input: 'Quick', reasoning: { effort: 'none' } });
  assert.deepEqual(
    off.output.map((o) => o.type),
    ['message'],
  );
  assert.equal(off.output_text, TINY_MODEL_ANSWER);
  assert.equal(off.usage?.output_tokens_details.reasoning_tokens, 0);
  await assert.rejects(
    client.responses.create({ model: DEMO, input: 'Think', reasoning: { effort: 'low' } }),
    (err: unknown) =>
      err instanceof BadRequestError && err.code === 'reasoning_not_supported' && err.param === 'reasoning.effort' && /does not think/.test(err.message),
  );
  const plain = await client.responses.create({ model: DEMO, input: 'Plain', reasoning: { effort: 'none' } });
  assert.equal(plain.output_text, TINY_MODEL_ANSWER);
});

test('chat completions: message.reasoning_content, delta.reasoning_content, reasoning_effort', async () => {
  const done = await client.chat.completions.create({ model: THINKER, messages: [{ role: 'user', content: 'Hi' }] });
  const message: unknown = done.choices[0]?.message;
  assert.ok(typeof message === 'object' && message !== null && 'reasoning_content' in message);
  assert.equal(message.reasoning_content, THINKING_MODEL_THOUGHT);
  assert.equal(done.choices[0]?.message.content, TINY_MODEL_ANSWER);
  assert.ok((done.usage?.completion_tokens_details?.reasoning_tokens ?? 0) > 0);
  const stream = await client.chat.completions.create({ model: THINKER, messages: [{ role: 'user', content: 'Hi' }], stream: true });
  let thought = '';
  let text = '';
  for await (const chunk of stream) {
    const delta: unknown = chunk.choices[0]?.delta;
    if (typeof delta === 'object' && delta !== null && 'reasoning_content' in delta && typeof delta.reasoning_content === 'string')
      thought += delta.reasoning_content;
    text += chunk.choices[0]?.delta.content ?? '';
  }
  assert.deepEqual([thought, text], [THINKING_MODEL_THOUGHT, TINY_MODEL_ANSWER]);
  const off = await client.chat.completions.create({ model: THINKER, messages: [{ role: 'user', content: 'Hi' }], reasoning_effort: 'none' });
  assert.ok(!('reasoning_content' in (off.choices[0]?.message ?? {})));
  await assert.rejects(
    client.chat.completions.create({ model: DEMO, messages: [{ role: 'user', content: 'Hi' }], reasoning_effort: 'high' }),
    (err: unknown) => err instanceof BadRequestError && err.code === 'reasoning_not_supported' && err.param === 'reasoning_effort',
  );
});

test('the AI SDK (openai-compatible, defaults): reasoning parts apart from the text, streamed and not', async () => {
  const provider = createOpenAICompatible({ name: 'sanad', baseURL: svc.baseURL, apiKey: svc.token });
  const r = await generateText({ model: provider(THINKER), prompt: 'Hi' });
  assert.equal(r.reasoningText, THINKING_MODEL_THOUGHT);
  assert.equal(r.text, TINY_MODEL_ANSWER);
  const s = streamText({ model: provider(THINKER), prompt: 'Hi' });
  let reasoning = '';
  for await (const part of s.fullStream) if (part.type === 'reasoning-delta') reasoning += part.text;
  assert.equal(reasoning, THINKING_MODEL_THOUGHT);
  assert.equal(await s.text, TINY_MODEL_ANSWER);
});

test('LangChain (ChatOpenAI, chat completions): the thought in additional_kwargs, the answer as content', async () => {
  const chat = new ChatOpenAI({ model: THINKER, apiKey: svc.token, configuration: { baseURL: svc.baseURL }, maxRetries: 0 });
  const r = await chat.invoke([new HumanMessage('Hi')]);
  assert.equal(r.content, TINY_MODEL_ANSWER);
  assert.equal(r.additional_kwargs.reasoning_content, THINKING_MODEL_THOUGHT);
  let thought = '';
  for await (const chunk of await chat.stream([new HumanMessage('Hi')])) {
    const piece = chunk.additional_kwargs.reasoning_content;
    if (typeof piece === 'string') thought += piece;
  }
  assert.equal(thought, THINKING_MODEL_THOUGHT);
});
