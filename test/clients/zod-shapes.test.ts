// zod 4 schemas as every framework writes them, through three frameworks (the AI SDK with
// `@ai-sdk/openai-compatible` and `@ai-sdk/openai`, LangChain, the openai SDK's zod helpers), as
// structured output and as a tool's parameters, against a real `sanad serve` with the demo model: each either satisfies its schema or fails
// naming the JSON path that broke it; none is refused as a schema. Then the provider's ordinary
// flows: text, stream, and a tool with `execute` over several steps.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createOpenAI } from '@ai-sdk/openai';
import { generateObject, generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import { ChatOpenAI } from '@langchain/openai';
import OpenAI from 'openai';
import { zodFunction, zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import { TINY_MODEL_ANSWER } from '../../src/demo/tiny-model.js';
import { DEMO, startClientService, type ClientService } from './client-kit.js';

let svc: ClientService;
before(async () => {
  svc = await startClientService();
});

const compatible = () => createOpenAICompatible({ name: 'sanad', baseURL: svc.baseURL, apiKey: svc.token, supportsStructuredOutputs: true });

/** Common shapes (zod 4): each becomes JSON Schema keywords a grammar alone cannot hold. */
const SHAPES: Record<string, z.ZodType> = {
  int: z.object({ n: z.number().int() }),
  positive: z.object({ n: z.number().positive() }),
  email: z.object({ to: z.email() }),
  uuid: z.object({ id: z.uuid() }),
  url: z.object({ link: z.url() }),
  datetime: z.object({ at: z.iso.datetime() }),
  enum: z.object({ color: z.enum(['red', 'green', 'blue']) }),
  nullable: z.object({ note: z.string().nullable() }),
  nestedArrays: z.object({ rows: z.array(z.array(z.number().int().min(0).max(9)).min(1).max(3)).max(2) }),
  record: z.object({ scores: z.record(z.string(), z.number()) }),
  bounded: z.object({ name: z.string().min(1).max(20), tags: z.array(z.string()).max(3) }),
};

/** A schema problem is a 400 before anything ran; a model that broke a schema fails naming the path. */
function satisfiedOrPath(name: string, err: unknown): void {
  // (The AI SDK reports a failed Responses answer as its own 400; the code says whose fault it was.)
  const text = err instanceof Error ? `${err.message} ${JSON.stringify(err)}` : String(err);
  assert.doesNotMatch(
    text,
    /invalid_json_schema|cannot be enforced|cannot be honoured|not a JSON Schema keyword/,
    `${name}: the schema itself was refused: ${text}`,
  );
  assert.match(text, /output_schema_mismatch|at \$/, `${name}: failed without naming the path: ${text}`);
}

test('zod shapes as structured output (openai-compatible, supportsStructuredOutputs): satisfied, or failed with the path', async () => {
  for (const [name, schema] of Object.entries(SHAPES)) {
    try {
      const { object } = await generateObject({ model: compatible().chatModel(DEMO), schema, prompt: `A ${name}.` });
      assert.ok(schema.safeParse(object).success, `${name}: ${JSON.stringify(object)}`);
    } catch (err) {
      satisfiedOrPath(name, err);
    }
  }
});

test('zod shapes as a tool the model must call (both AI SDK providers): arguments satisfy, or the path is named', async () => {
  const openai = createOpenAI({ baseURL: svc.baseURL, apiKey: svc.token });
  for (const [name, schema] of Object.entries(SHAPES)) {
    for (const model of [compatible().chatModel(DEMO), openai.responses(DEMO)]) {
      try {
        const r = await generateText({
          model,
          prompt: 'Use the tool.',
          tools: { act: tool({ description: `takes a ${name}`, inputSchema: schema }) },
          toolChoice: 'required',
        });
        const call = r.toolCalls[0];
        assert.ok(call, `${name}: no call`);
        assert.ok(schema.safeParse(call.input).success, `${name}: ${JSON.stringify(call.input)}`);
      } catch (err) {
        satisfiedOrPath(name, err);
      }
    }
  }
});

test('zod shapes through LangChain (withStructuredOutput, bindTools) and the openai SDK (responses.parse)', async () => {
  const lc = new ChatOpenAI({ model: DEMO, apiKey: svc.token, configuration: { baseURL: svc.baseURL } });
  const client = new OpenAI({ baseURL: svc.baseURL, apiKey: svc.token });
  for (const [name, schema] of Object.entries(SHAPES)) {
    try {
      const out: unknown = await lc.withStructuredOutput(schema, { name: 'shape', method: 'jsonSchema' }).invoke(`A ${name}.`);
      assert.ok(schema.safeParse(out).success, `${name}: ${JSON.stringify(out)}`);
    } catch (err) {
      satisfiedOrPath(name, err);
    }
    try {
      const asked = await lc.bindTools([{ name: 'act', description: `takes a ${name}`, schema }], { tool_choice: 'act' }).invoke('Use the tool.');
      const args: unknown = asked.tool_calls?.[0]?.args;
      assert.ok(schema.safeParse(args).success, `${name}: ${JSON.stringify(args)}`);
    } catch (err) {
      satisfiedOrPath(name, err);
    }
    try {
      const r = await client.responses.parse({ model: DEMO, input: `A ${name}.`, text: { format: zodTextFormat(schema, 'shape') } });
      if (r.status === 'completed') assert.ok(schema.safeParse(r.output_parsed).success, `${name}: ${r.output_text}`);
      else assert.match(r.error?.message ?? '', /at \$/, `${name}: ${JSON.stringify(r.error)}`);
    } catch (err) {
      // The SDK's zod helper refuses some shapes itself (a record under strict mode) before sending.
      if (!(err instanceof OpenAI.APIError) && /strict Structured Outputs/.test(String(err))) continue;
      satisfiedOrPath(name, err);
    }
  }
});

test('openai-compatible: generateText and streamText answer, finished', async () => {
  const g = await generateText({ model: compatible().chatModel(DEMO), prompt: 'Hello' });
  assert.equal(g.text, TINY_MODEL_ANSWER);
  assert.equal(g.finishReason, 'stop');
  const s = streamText({ model: compatible().chatModel(DEMO), prompt: 'Hello again' });
  assert.equal(await s.text, TINY_MODEL_ANSWER);
});

test('openai-compatible: a tool with execute and an integer parameter, over several steps', async () => {
  const calls: number[] = [];
  const r = await generateText({
    model: compatible().chatModel(DEMO),
    prompt: 'Roll a die.',
    tools: {
      roll: tool({
        description: 'rolls n dice',
        inputSchema: z.object({ n: z.number().int() }),
        execute: async ({ n }) => {
          calls.push(n);
          return { rolled: n };
        },
      }),
    },
    toolChoice: 'required',
    stopWhen: stepCountIs(2),
  });
  assert.equal(calls.length >= 1, true, 'the tool ran');
  assert.ok(calls.every((n) => Number.isInteger(n)));
  assert.ok(r.steps.length >= 2, `steps: ${r.steps.length}`);
});

test('tools and a format together with tool_choice auto: calls or a message in the format, never free text', async () => {
  const res = await fetch(`${svc.baseURL}/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${svc.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: DEMO,
      input: 'Weather?',
      tool_choice: 'auto',
      tools: [{ type: 'function', name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }],
      text: {
        format: {
          type: 'json_schema',
          name: 'w',
          schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false },
        },
      },
    }),
  });
  assert.equal(res.status, 200);
  const body: unknown = await res.json();
  assert.ok(typeof body === 'object' && body !== null && 'output' in body && Array.isArray(body.output) && 'status' in body);
  const items: unknown[] = body.output;
  const typeOf = (i: unknown): unknown => (typeof i === 'object' && i !== null && 'type' in i ? i.type : undefined);
  const called = items.some((i) => typeOf(i) === 'function_call');
  if (!called && body.status === 'completed') {
    const text = JSON.stringify(items.find((i) => typeOf(i) === 'message')).match(/"text":"((?:[^"\\]|\\.)*)"/)?.[1] ?? '';
    const unescaped: unknown = JSON.parse(`"${text}"`);
    const parsed: unknown = JSON.parse(String(unescaped));
    assert.ok(typeof parsed === 'object' && parsed !== null && 'ok' in parsed && typeof parsed.ok === 'boolean', JSON.stringify(parsed));
  }
  assert.ok(called || body.status === 'completed' || body.status === 'incomplete', JSON.stringify(body));
});

test('the openai SDK parse helpers with a tool and a format (auto): a call, or an answer that parses', async () => {
  const client = new OpenAI({ baseURL: svc.baseURL, apiKey: svc.token });
  const Weather = z.object({ city: z.string(), degrees: z.number().int() });
  const lookup = {
    type: 'function' as const,
    name: 'lookup',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
    strict: true,
  };
  const r = await client.responses.parse({ model: DEMO, input: 'Weather in Kuwait?', tools: [lookup], text: { format: zodTextFormat(Weather, 'weather') } });
  const called = r.output.some((item) => item.type === 'function_call');
  assert.ok(called || (r.status === 'completed' && Weather.safeParse(r.output_parsed).success) || r.status === 'failed', JSON.stringify(r.output));
  if (r.status === 'failed') assert.match(r.error?.message ?? '', /at \$/);

  try {
    const c = await client.chat.completions.parse({
      model: DEMO,
      messages: [{ role: 'user', content: 'Weather in Kuwait?' }],
      tools: [zodFunction({ name: 'lookup', parameters: z.object({ city: z.string() }) })],
      response_format: zodResponseFormat(Weather, 'weather'),
    });
    const message = c.choices[0]?.message;
    assert.ok(message);
    assert.ok((message.tool_calls?.length ?? 0) > 0 || Weather.safeParse(message.parsed).success, JSON.stringify(message));
  } catch (err) {
    satisfiedOrPath('weather (chat)', err);
  }
});
