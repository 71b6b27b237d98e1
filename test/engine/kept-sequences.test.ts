// Kept sequences, several at once and several models, on the real engine with the generated model:
// a conversation's next turn evaluates only its new tokens and says the same as a cold start; N
// seeded generations batched together say what they say one after another; a burst loads a model
// once; two models that fit stay loaded; a generation slower than its budget per token fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage, EngineOptions, GenerateRequest } from '../../src/engine/engine.js';
import { CompletionFailure } from '../../src/engine/engine.js';
import { LlamaEngine } from '../../src/engine/llama-engine.js';
import { tinyModelPath } from '../fixtures/tiny-model.js';

function engine(options: Partial<EngineOptions> = {}): LlamaEngine {
  return new LlamaEngine({ concurrency: 1, threads: 1, gpu: false, idleUnloadMs: 60_000, ...options });
}

async function request(messages: ChatMessage[], overrides: Partial<GenerateRequest> = {}): Promise<GenerateRequest> {
  return {
    modelId: 'tiny',
    modelPath: await tinyModelPath(),
    messages,
    maxTokens: 24,
    temperature: 0.8,
    seed: 7,
    signal: new AbortController().signal,
    onText: () => undefined,
    ...overrides,
  };
}

/** About `n` tokens of text (one printable byte is one token of this model). */
function words(n: number, salt: string): string {
  let text = '';
  for (let i = 0; text.length < n; i++) text += `${salt}${i} `;
  return text.slice(0, n);
}

test('turn 2 of a conversation evaluates only its new tokens, and says what a cold start says', async (t) => {
  const warm = engine();
  const cold = engine();
  t.after(() => Promise.all([warm.close(), cold.close()]));
  const turn1: ChatMessage[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: words(1600, 'story') },
  ];
  const first = await warm.generate(await request(turn1));
  assert.ok(first.inputTokens > 1500, `turn 1 is long (${first.inputTokens} tokens)`);
  assert.equal(first.cachedTokens, 0);
  assert.ok((first.evaluatedTokens ?? 0) >= first.inputTokens - 1, `turn 1 evaluated ${first.evaluatedTokens} of ${first.inputTokens}`);

  const turn2: ChatMessage[] = [...turn1, { role: 'assistant', content: first.text }, { role: 'user', content: 'And then?' }];
  const second = await warm.generate(await request(turn2));
  const grown = second.inputTokens - first.inputTokens;
  assert.ok((second.cachedTokens ?? 0) >= first.inputTokens, `turn 2 reused ${second.cachedTokens} tokens`);
  // The meter counts what llama.cpp evaluated: the answer and the new message, not the long turn 1.
  assert.ok((second.evaluatedTokens ?? Infinity) <= grown + 8, `turn 2 evaluated ${second.evaluatedTokens} tokens; it grew by ${grown}`);

  const fresh = await cold.generate(await request(turn2));
  assert.equal(fresh.cachedTokens, 0);
  assert.ok((fresh.evaluatedTokens ?? 0) >= fresh.inputTokens - 1);
  assert.equal(second.text, fresh.text, 'a warm turn says what a cold one says (same seed)');
});

test('a sequence kept for one conversation is found again after another conversation ran', async (t) => {
  const e = engine({ concurrency: 2 });
  t.after(() => e.close());
  const a: ChatMessage[] = [{ role: 'user', content: words(800, 'alpha') }];
  const b: ChatMessage[] = [{ role: 'user', content: words(800, 'beta') }];
  const a1 = await e.generate(await request(a));
  await e.generate(await request(b));
  const a2 = await e.generate(await request([...a, { role: 'assistant', content: a1.text }, { role: 'user', content: 'more' }]));
  assert.ok((a2.cachedTokens ?? 0) >= a1.inputTokens, `conversation a reused ${a2.cachedTokens} tokens`);
});

test('N seeded generations batched together give the texts they give one after another', async (t) => {
  // Prompts of different lengths, some longer than a batch: the case where llama.cpp reorders a
  // batch's outputs and node-llama-cpp's samplers raced over them (src/engine/serial-sampling.ts).
  const prompts = [900, 40, 600, 300].map((n, i) => [{ role: 'user' as const, content: words(n, `p${i}-`) }]);
  const one = engine();
  const four = engine({ concurrency: 4 });
  t.after(() => Promise.all([one.close(), four.close()]));
  const expected: string[] = [];
  for (const [i, p] of prompts.entries()) expected.push((await one.generate(await request(p, { seed: 40 + i, maxTokens: 12 }))).text);
  for (let round = 0; round < 12; round++) {
    // A fresh start each round: the first tokens of prompts evaluated together are what raced.
    await four.unload('tiny');
    const got = await Promise.all(prompts.map(async (p, i) => (await four.generate(await request(p, { seed: 40 + i, maxTokens: 12 }))).text));
    assert.deepEqual(got, expected, `round ${round}`);
  }
});

test('a burst of 10 requests for a model not loaded loads it once', async (t) => {
  const e = engine({ concurrency: 4 });
  t.after(() => e.close());
  const results = await Promise.all(
    Array.from({ length: 10 }, async (_, i) => e.generate(await request([{ role: 'user', content: `hello ${i}` }], { maxTokens: 4 }))),
  );
  assert.ok(results.every((r) => r.outputTokens === 4));
  assert.equal(e.loads(), 1);
  assert.deepEqual(
    e.loadedModels().map((m) => [m.id, m.sequences]),
    [['tiny', 4]],
  );
});

test('two models that fit stay loaded: alternating between them loads each once', async (t) => {
  const e = engine({ concurrency: 2 });
  t.after(() => e.close());
  const other = await tinyModelPath(2);
  const ask = async (model: string, path: string): Promise<void> => {
    const r = await e.generate(await request([{ role: 'user', content: 'hi' }], { modelId: model, modelPath: path, maxTokens: 4 }));
    assert.equal(r.outputTokens, 4);
  };
  for (let i = 0; i < 3; i++) {
    await ask('tiny', await tinyModelPath());
    await ask('other', other);
  }
  assert.equal(e.loads(), 2);
  assert.deepEqual(
    e
      .loadedModels()
      .map((m) => m.id)
      .sort(),
    ['other', 'tiny'],
  );
  assert.ok(e.loadedModels().every((m) => m.lastTokensPerSecond !== null && m.lastTokensPerSecond > 0 && m.memoryBytes > 0));
  // An unload is honoured, and the next request loads the model again.
  assert.equal(await e.unload('other'), true);
  assert.deepEqual(
    e.loadedModels().map((m) => m.id),
    ['tiny'],
  );
  await ask('other', other);
  assert.equal(e.loads(), 3);
});

test('a generation slower than its budget per token fails with generation_too_slow, and the one waiting is served', async (t) => {
  // One sequence, as when a hostile schema held the only slot for over a minute. The schema has
  // 5,000 choices (more than the API admits, contract/json-schema.ts; the engine is the second
  // line): about 130 ms a token here, against under 1 ms for a plain answer.
  const e = engine({ concurrency: 1, tokenBudgetMs: 40 });
  t.after(() => e.close());
  const choices = Array.from({ length: 5000 }, (_, i) => `c${i}`);
  const format = { type: 'json_schema' as const, schema: { type: 'array', items: { enum: choices }, minItems: 50 } };
  let failedAt = 0;
  const slow = e.generate(await request([{ role: 'user', content: 'pick' }], { maxTokens: 400, format })).finally(() => (failedAt = performance.now()));
  const plain = e.generate(await request([{ role: 'user', content: 'hi' }], { maxTokens: 20 }));
  const [s, p] = await Promise.allSettled([slow, plain]);
  const servedAt = performance.now();
  assert.equal(s.status, 'rejected');
  assert.ok(s.reason instanceof CompletionFailure && s.reason.code === 'generation_too_slow', String(s.reason));
  assert.match(String(s.reason.message), /budget of 0.04 s per output token/);
  assert.equal(p.status, 'fulfilled');
  assert.equal(p.value.outputTokens, 20);
  assert.ok(servedAt - failedAt < 5000, `the waiting request was served ${Math.round(servedAt - failedAt)} ms after the slow one failed`);
});
