// LlamaIndex TS (`@llamaindex/openai` and `@llamaindex/workflow`), unchanged, against a real
// `sanad serve`: chat, a stream, a tool call with a zod 4 schema (integer included), and an agent
// workflow that runs a tool and answers.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenAI } from '@llamaindex/openai';
import { tool } from '@llamaindex/core/tools';
import { agent } from '@llamaindex/workflow';
import { z } from 'zod';
import { TINY_MODEL_ANSWER } from '../../src/demo/tiny-model.js';
import { DEMO, startClientService, type ClientService } from './client-kit.js';

let svc: ClientService;
before(async () => {
  svc = await startClientService();
});

const llm = (extra: ConstructorParameters<typeof OpenAI>[0] = {}): OpenAI => new OpenAI({ model: DEMO, apiKey: svc.token, baseURL: svc.baseURL, ...extra });

function diceTool(rolled: number[]) {
  return tool({
    name: 'roll',
    description: 'Rolls n dice.',
    parameters: z.object({ n: z.number().int().min(1).max(6) }),
    execute: ({ n }) => {
      rolled.push(n);
      return `rolled ${n}`;
    },
  });
}

test('chat and a stream answer with the demo model', async () => {
  const r = await llm().chat({ messages: [{ role: 'user', content: 'Hello' }] });
  assert.equal(r.message.content, TINY_MODEL_ANSWER);
  let streamed = '';
  for await (const chunk of await llm().chat({ messages: [{ role: 'user', content: 'Hello again' }], stream: true })) streamed += chunk.delta;
  assert.equal(streamed, TINY_MODEL_ANSWER);
});

test('a tool with an integer parameter: the call satisfies its zod schema, or fails naming the path', async () => {
  const rolled: number[] = [];
  const schema = z.object({ n: z.number().int().min(1).max(6) });
  try {
    const r = await llm({ additionalChatOptions: { tool_choice: 'required' } }).chat({
      messages: [{ role: 'user', content: 'Roll.' }],
      tools: [diceTool(rolled)],
    });
    const calls = r.message.options && 'toolCall' in r.message.options ? r.message.options.toolCall : [];
    assert.equal(calls.length, 1, JSON.stringify(r.message));
    const input = calls[0]?.input;
    assert.ok(schema.safeParse(typeof input === 'string' ? JSON.parse(input) : input).success, JSON.stringify(input));
  } catch (err) {
    // Bounds the grammar cannot hold are checked after: a model that broke them fails with the path.
    assert.match(String(err), /at \$\.n/);
  }
});

test('an agent workflow runs with its tool and answers', async () => {
  const rolled: number[] = [];
  const workflow = agent({ llm: llm(), tools: [diceTool(rolled)], systemPrompt: 'Answer briefly.' });
  const result = await workflow.run('Say hello.');
  assert.equal(result.data.result, TINY_MODEL_ANSWER);
});
