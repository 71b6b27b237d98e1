// The OpenAI Agents SDK (`@openai/agents`), unchanged, against a real `sanad serve`: an agent that
// calls one function tool and answers, an agent with a structured `outputType`, on the Responses
// API and on Chat Completions. Tracing is off: it would send every run to OpenAI's servers.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { Agent, run, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled, tool } from '@openai/agents';
import { z } from 'zod';
import { TINY_MODEL_ANSWER } from '../../src/demo/tiny-model.js';
import { DEMO, startClientService, type ClientService } from './client-kit.js';

let svc: ClientService;

before(async () => {
  svc = await startClientService();
  setTracingDisabled(true);
  setDefaultOpenAIClient(new OpenAI({ baseURL: svc.baseURL, apiKey: svc.token, maxRetries: 0 }));
});

function weatherTool(seen: string[]) {
  return tool({
    name: 'get_weather',
    description: 'The weather in a city.',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      seen.push(city);
      return Promise.resolve(`It is 31 degrees in ${city}.`);
    },
  });
}

function weatherAgent(seen: string[]): Agent {
  const getWeather = weatherTool(seen);
  // The demo model was not trained to call: the first turn is made to (the SDK then resets the
  // choice, so the next turn answers).
  return new Agent({ name: 'Weather', instructions: 'Answer with the weather.', tools: [getWeather], model: DEMO, modelSettings: { toolChoice: 'required' } });
}

for (const api of ['responses', 'chat_completions'] as const) {
  test(`an agent calls its function tool and answers (${api})`, async () => {
    setOpenAIAPI(api);
    const seen: string[] = [];
    const result = await run(weatherAgent(seen), 'Weather in Kuwait?');
    assert.equal(seen.length, 1, 'the tool ran once');
    assert.equal(result.finalOutput, TINY_MODEL_ANSWER);
  });

  test(`an agent with a structured outputType (${api})`, async () => {
    setOpenAIAPI(api);
    const agent = new Agent({ name: 'Typed', instructions: 'Answer.', model: DEMO, outputType: z.object({ answer: z.string(), sure: z.boolean() }) });
    const result = await run(agent, 'Hello');
    assert.equal(result.finalOutput?.answer, TINY_MODEL_ANSWER);
    assert.equal(typeof result.finalOutput?.sure, 'boolean');
  });

  test(`an agent with a tool and a structured outputType: it calls, then answers in the type (${api})`, async () => {
    setOpenAIAPI(api);
    const seen: string[] = [];
    const report = z.object({ city: z.string(), degrees: z.number().int() });
    // After the forced first call the SDK sends tool_choice auto with the tools and the output
    // format together: the answer is calls or the format, never free text.
    const agent = new Agent({
      name: 'TypedWeather',
      instructions: 'Answer with the weather.',
      tools: [weatherTool(seen)],
      model: DEMO,
      modelSettings: { toolChoice: 'required' },
      outputType: report,
    });
    const result = await run(agent, 'Weather in Kuwait?', { maxTurns: 4 });
    assert.equal(seen.length >= 1, true, 'the tool ran');
    assert.ok(report.safeParse(result.finalOutput).success, JSON.stringify(result.finalOutput));
  });
}
