// The demo model on the real engine: it ends every answer by itself ("OK,demo!" then </s>), for any
// prompt, greedy or sampled, within a few tokens, so clients see `completed` as with a real model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TINY_MODEL_ANSWER } from '../../src/demo/tiny-model.js';
import { LlamaEngine } from '../../src/engine/llama-engine.js';
import type { ChatMessage } from '../../src/engine/engine.js';
import { finishingModelPath } from '../fixtures/tiny-model.js';

const PROMPTS: ChatMessage[][] = [
  [{ role: 'user', content: 'Hello' }],
  [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Tell me a long story about OK,demo! and more.' },
  ],
  [
    { role: 'user', content: 'a' },
    { role: 'assistant', content: 'OK,de' },
    { role: 'user', content: '!!!' },
  ],
  [{ role: 'user', content: 'مرحبا' }],
];

test("every answer ends by itself, deterministically, within the answer's length", async (t) => {
  const e = new LlamaEngine({ concurrency: 1, threads: 1, gpu: false, idleUnloadMs: 60_000 });
  t.after(() => e.close());
  const modelPath = await finishingModelPath();
  for (const messages of PROMPTS) {
    for (const temperature of [0, 1, 1.5]) {
      const r = await e.generate({
        modelId: 'demo',
        modelPath,
        messages,
        maxTokens: 256,
        temperature,
        signal: new AbortController().signal,
        onText: () => undefined,
      });
      assert.equal(r.stopReason, 'eos', `${JSON.stringify(messages)} at ${temperature}`);
      assert.equal(r.text, TINY_MODEL_ANSWER);
      assert.ok(r.outputTokens <= TINY_MODEL_ANSWER.length + 1, `${r.outputTokens} tokens`);
    }
  }
});
