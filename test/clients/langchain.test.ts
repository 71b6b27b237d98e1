// LangChain's ChatOpenAI with the Responses API (`useResponsesApi: true`), unchanged, against a real
// `sanad serve`: invoke, stream, and a conversation carried by the app as messages.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { TINY_MODEL_ANSWER } from '../../src/demo/tiny-model.js';
import { DEMO, startClientService, type ClientService } from './client-kit.js';

let svc: ClientService;
let chat: ChatOpenAI;

before(async () => {
  svc = await startClientService();
  chat = new ChatOpenAI({ model: DEMO, apiKey: svc.token, configuration: { baseURL: svc.baseURL }, useResponsesApi: true, maxRetries: 0 });
});

function textOf(m: BaseMessage): string {
  return typeof m.content === 'string' ? m.content : m.content.map((c) => ('text' in c && typeof c.text === 'string' ? c.text : '')).join('');
}

test('invoke and stream', async () => {
  const m = await chat.invoke('Hello');
  assert.equal(textOf(m), TINY_MODEL_ANSWER);
  let streamed = '';
  for await (const chunk of await chat.stream('Hello')) streamed += textOf(chunk);
  assert.equal(streamed, TINY_MODEL_ANSWER);
});

test('multi-turn: the app sends the history back, the answer it got included, and Sanad takes it', async () => {
  const history: BaseMessage[] = [new HumanMessage('My name is Sanad.')];
  const first = await chat.invoke(history);
  assert.ok(first instanceof AIMessage);
  history.push(first, new HumanMessage('What is my name?'));
  const second = await chat.invoke(history);
  assert.equal(textOf(second), TINY_MODEL_ANSWER);
  const inputTokens = (m: BaseMessage): number => (m instanceof AIMessage ? (m.usage_metadata?.input_tokens ?? 0) : 0);
  assert.ok(inputTokens(second) > inputTokens(first) + 10, `${inputTokens(second)} vs ${inputTokens(first)}`);
});

test('the default ChatOpenAI (Chat Completions): invoke, stream, multi-turn', async () => {
  const plain = new ChatOpenAI({ model: DEMO, apiKey: svc.token, configuration: { baseURL: svc.baseURL }, maxRetries: 0 });
  const m = await plain.invoke('Hello');
  assert.equal(textOf(m), TINY_MODEL_ANSWER);
  let streamed = '';
  for await (const chunk of await plain.stream('Hello')) streamed += textOf(chunk);
  assert.equal(streamed, TINY_MODEL_ANSWER);
  const history: BaseMessage[] = [new HumanMessage('My name is Sanad.'), m, new HumanMessage('What is my name?')];
  const second = await plain.invoke(history);
  assert.equal(textOf(second), TINY_MODEL_ANSWER);
  const inputTokens = (x: BaseMessage): number => (x instanceof AIMessage ? (x.usage_metadata?.input_tokens ?? 0) : 0);
  assert.ok(inputTokens(second) > inputTokens(m) + 5, `${inputTokens(second)} vs ${inputTokens(m)}`);
});

test('withStructuredOutput: on Chat Completions and on the Responses API', async () => {
  const schema = z.object({ answer: z.string(), sure: z.boolean() });
  const plain = new ChatOpenAI({ model: DEMO, apiKey: svc.token, configuration: { baseURL: svc.baseURL }, maxRetries: 0 });
  for (const model of [plain, chat]) {
    const out = await model.withStructuredOutput(schema, { name: 'answer', method: 'jsonSchema' }).invoke('Answer as an object.');
    assert.equal(schema.parse(out).answer, TINY_MODEL_ANSWER);
  }
});

test('bindTools: a forced call, the ToolMessage back, the answer (Chat Completions and the Responses API)', async () => {
  const getWeather = {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      description: 'The weather in a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  };
  const plain = new ChatOpenAI({ model: DEMO, apiKey: svc.token, configuration: { baseURL: svc.baseURL }, maxRetries: 0 });
  for (const model of [plain, chat]) {
    const history: BaseMessage[] = [new HumanMessage('Weather in Kuwait?')];
    const asked = await model.bindTools([getWeather], { tool_choice: 'get_weather' }).invoke(history);
    assert.ok(asked instanceof AIMessage);
    const call = asked.tool_calls?.[0];
    assert.equal(call?.name, 'get_weather');
    assert.equal(typeof call.args.city, 'string');
    history.push(asked, new ToolMessage({ tool_call_id: call.id ?? '', content: '{"temp": 31}' }));
    const answer = await model.bindTools([getWeather]).invoke(history);
    assert.equal(textOf(answer), TINY_MODEL_ANSWER);
  }
});
