// The generated thinking model on the real engine: node-llama-cpp picks Qwen's chat wrapper for it,
// its thought comes out apart from its answer, and the effort a request asks for is honoured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLlama, resolveChatWrapper } from 'node-llama-cpp';
import { TINY_MODEL_ANSWER } from '../../src/demo/tiny-model.js';
import { THINKING_MODEL_THOUGHT } from '../../src/demo/thinking-model.js';
import { LlamaEngine } from '../../src/engine/llama-engine.js';
import type { GenerateRequest } from '../../src/engine/engine.js';
import { endlessThinkerPath, finishingModelPath, thinkingModelPath } from '../fixtures/tiny-model.js';

function engine(t: { after: (fn: () => Promise<void>) => void }): LlamaEngine {
  const e = new LlamaEngine({ concurrency: 2, threads: 1, gpu: false, idleUnloadMs: 60_000 });
  t.after(() => e.close());
  return e;
}

async function run(
  e: LlamaEngine,
  modelPath: string,
  extra: Partial<GenerateRequest> = {},
): Promise<{ text: string; thought: string; reasoning: string | undefined; reasoningTokens: number | undefined; stop: string; order: string }> {
  let text = '';
  let thought = '';
  let order = '';
  const r = await e.generate({
    modelId: modelPath,
    modelPath,
    messages: [{ role: 'user', content: 'Hello' }],
    maxTokens: 64,
    temperature: 0,
    signal: new AbortController().signal,
    onText: (d) => {
      text += d;
      if (!order.endsWith('T')) order += 'T';
    },
    onReasoning: (d) => {
      thought += d;
      if (!order.endsWith('R')) order += 'R';
    },
    ...extra,
  });
  return { text, thought, reasoning: r.reasoning, reasoningTokens: r.reasoningTokens, stop: r.stopReason, order };
}

test('node-llama-cpp reads the generated thinking model as Qwen, by its template alone', async () => {
  const llama = await getLlama({ gpu: false, build: 'never' });
  const model = await llama.loadModel({ modelPath: await thinkingModelPath() });
  try {
    assert.equal(model.fileInfo.metadata.general.architecture, 'qwen3');
    assert.equal(resolveChatWrapper(model).wrapperName, 'Qwen');
  } finally {
    await model.dispose();
  }
});

test('the thought comes before the answer and apart from it; its tokens are counted', async (t) => {
  const e = engine(t);
  const path = await thinkingModelPath();
  const r = await run(e, path);
  assert.equal(e.thinks(path), true);
  assert.equal(r.thought, THINKING_MODEL_THOUGHT);
  assert.equal(r.reasoning, THINKING_MODEL_THOUGHT);
  assert.equal(r.text, TINY_MODEL_ANSWER);
  assert.equal(r.order, 'RT');
  assert.equal(r.stop, 'eos');
  assert.ok((r.reasoningTokens ?? 0) >= THINKING_MODEL_THOUGHT.length - 1, `${r.reasoningTokens} reasoning tokens`);
});

test('effort none switches the thinking off; a model that does not think ignores the effort', async (t) => {
  const e = engine(t);
  const path = await thinkingModelPath();
  const off = await run(e, path, { reasoningEffort: 'none' });
  assert.deepEqual([off.thought, off.text, off.reasoningTokens], ['', TINY_MODEL_ANSWER, undefined]);
  const plain = await finishingModelPath();
  const r = await run(e, plain, { reasoningEffort: 'high' });
  assert.equal(e.thinks(plain), false);
  assert.deepEqual([r.thought, r.text], ['', TINY_MODEL_ANSWER]);
});

test('effort minimal caps the thought at its budget, and the answer follows', async (t) => {
  const e = engine(t);
  const path = await endlessThinkerPath();
  const r = await run(e, path, { reasoningEffort: 'minimal', maxTokens: 400 });
  assert.ok(r.reasoningTokens !== undefined && r.reasoningTokens <= 256 + 2 && r.reasoningTokens >= 200, `${r.reasoningTokens} reasoning tokens`);
  assert.ok(r.text.length > 0, 'an answer after the thought');
  assert.equal(r.order, 'RT');
});

test('a thought cut off by a restart goes on as a thought, without repeating it', async (t) => {
  const e = engine(t);
  const path = await thinkingModelPath();
  const cut = THINKING_MODEL_THOUGHT.slice(0, 4);
  const r = await run(e, path, { continuationThought: cut, continuation: '' });
  assert.equal(cut + r.thought, THINKING_MODEL_THOUGHT);
  assert.equal(r.text, TINY_MODEL_ANSWER);
  // After the thought ended, only the answer goes on.
  const after = await run(e, path, { continuationThought: THINKING_MODEL_THOUGHT, continuation: 'OK,' });
  assert.deepEqual([after.thought, after.text], ['', TINY_MODEL_ANSWER.slice(3)]);
});
