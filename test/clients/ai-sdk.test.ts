// The Vercel AI SDK (`ai` + `@ai-sdk/openai`), unchanged, against a real `sanad serve`: a chat app's
// first and second message, the way useChat builds them (UI messages → model messages, store on,
// so the earlier answer goes back as an item_reference).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createOpenAI } from '@ai-sdk/openai';
import { convertToModelMessages, generateObject, generateText, readUIMessageStream, stepCountIs, streamText, tool, type UIMessage } from 'ai';
import { z } from 'zod';
import { TINY_MODEL_ANSWER } from '../../src/demo/tiny-model.js';
import { copyFileSync, rmSync } from 'node:fs';
import { Api } from '../harness/api.js';
import { finishingModelPath, scratchPath } from '../fixtures/tiny-model.js';
import { DEMO, startClientService, type ClientService } from './client-kit.js';

let svc: ClientService;
/** The bodies the provider sent, to see what the SDK put on the wire. */
const bodies: unknown[] = [];

function provider(): ReturnType<typeof createOpenAI> {
  return createOpenAI({
    baseURL: svc.baseURL,
    apiKey: svc.token,
    fetch: (url, init) => {
      if (typeof init?.body === 'string') bodies.push(JSON.parse(init.body));
      return fetch(url, init);
    },
  });
}

before(async () => {
  svc = await startClientService();
});

const user = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });

test('generateText and streamText answer with the demo model, finished', async () => {
  const openai = provider();
  const g = await generateText({ model: openai.responses(DEMO), prompt: 'Hello' });
  assert.equal(g.text, TINY_MODEL_ANSWER);
  assert.equal(g.finishReason, 'stop');
  const s = streamText({ model: openai.responses(DEMO), prompt: 'Hello again' });
  assert.equal(await s.text, TINY_MODEL_ANSWER);
  assert.equal(await s.finishReason, 'stop');
});

test('the chat flow: the second message carries the first answer as an item_reference, and it resolves', async () => {
  const openai = provider();
  const first = user('u1', 'My name is Sanad.');
  const r1 = streamText({ model: openai.responses(DEMO), messages: await convertToModelMessages([first]) });
  let answer: UIMessage | undefined;
  for await (const m of readUIMessageStream({ stream: r1.toUIMessageStream() })) answer = m;
  assert.ok(answer);
  const usage1 = await r1.usage;

  const sentBefore = bodies.length;
  const r2 = streamText({ model: openai.responses(DEMO), messages: await convertToModelMessages([first, answer, user('u2', 'What is my name?')]) });
  assert.equal(await r2.text, TINY_MODEL_ANSWER);
  const body = JSON.stringify(bodies.slice(sentBefore));
  assert.match(body, /"type":"item_reference"/, body);
  // The referenced answer is in the model's input: the prompt grew by more than the new question.
  assert.ok(((await r2.usage).inputTokens ?? 0) > (usage1.inputTokens ?? 0) + 10);
});

test('a response that failed reaches the app as its real sentence, not "Invalid JSON response"', async () => {
  const openai = provider();
  // A model whose file went away after it was registered: the response is accepted and fails.
  const path = await scratchPath('gone.gguf');
  copyFileSync(await finishingModelPath(), path);
  const added = await new Api(svc.service.url, svc.adminToken).post('/admin/models', { path, id: 'gone' });
  assert.equal(added.status, 201, added.text);
  rmSync(path);
  await assert.rejects(
    generateText({ model: openai.responses('gone'), prompt: 'x', maxRetries: 0 }),
    (err: unknown) => err instanceof Error && !/Invalid JSON/.test(err.message) && /gone/.test(err.message),
  );
});

test('a refused request reaches the app as its real sentence', async () => {
  const openai = provider();
  await assert.rejects(
    generateText({ model: openai.responses(DEMO), prompt: 'x', providerOptions: { openai: { previousResponseId: 'resp_doesnotexist' } }, maxRetries: 0 }),
    (err: unknown) => err instanceof Error && /No response resp_doesnotexist was found/.test(err.message),
  );
});

test('generateObject on the Responses API: an object that satisfies the schema', async () => {
  const openai = provider();
  const { object, finishReason } = await generateObject({
    model: openai.responses(DEMO),
    schema: z.object({ answer: z.string(), sure: z.boolean() }),
    prompt: 'Answer as an object.',
    maxRetries: 0,
  });
  assert.equal(finishReason, 'stop');
  assert.equal(object.answer, TINY_MODEL_ANSWER);
  assert.equal(typeof object.sure, 'boolean');
});

test('.chat(): generateText, streamText and generateObject over Chat Completions', async () => {
  const openai = provider();
  const sentBefore = bodies.length;
  const g = await generateText({ model: openai.chat(DEMO), prompt: 'Hello', maxRetries: 0 });
  assert.equal(g.text, TINY_MODEL_ANSWER);
  assert.equal(g.finishReason, 'stop');
  assert.ok((g.usage.inputTokens ?? 0) > 0);
  const s = streamText({ model: openai.chat(DEMO), prompt: 'Hello again', maxRetries: 0 });
  assert.equal(await s.text, TINY_MODEL_ANSWER);
  assert.equal(await s.finishReason, 'stop');
  const { object } = await generateObject({ model: openai.chat(DEMO), schema: z.object({ answer: z.string() }), prompt: 'As an object.', maxRetries: 0 });
  assert.equal(object.answer, TINY_MODEL_ANSWER);
  assert.ok(
    bodies.slice(sentBefore).every((b) => typeof b === 'object' && b !== null && 'messages' in b),
    'all three went to /chat/completions',
  );
});

test('tools: the SDK runs the call the model was made to make, sends its result back, and gets the answer (Responses and .chat())', async () => {
  const openai = provider();
  for (const model of [openai.responses(DEMO), openai.chat(DEMO)]) {
    const seen: string[] = [];
    const result = await generateText({
      model,
      prompt: 'Weather in Kuwait?',
      tools: {
        get_weather: tool({
          description: 'The weather in a city.',
          inputSchema: z.object({ city: z.string() }),
          execute: ({ city }) => {
            seen.push(city);
            return Promise.resolve({ temp: 31 });
          },
        }),
      },
      // The demo model was not trained to call: the first step forces the call, the next lets it answer.
      prepareStep: ({ stepNumber }) => ({ toolChoice: stepNumber === 0 ? 'required' : 'none' }),
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    assert.equal(seen.length, 1, `${model.provider}: the tool ran once`);
    assert.equal(typeof seen[0], 'string');
    assert.equal(result.text, TINY_MODEL_ANSWER, model.provider);
    assert.equal(result.steps.length, 2);
  }
});
