// The legacy Completions API through the real openai SDK, unchanged and with its defaults, against
// a real `sanad serve`: the prompt goes to the model as it is (no chat template), streamed and not,
// with OpenAI's default limit of 16 tokens, `stop`, usage; `suffix` fills in the middle on a
// generated model with FIM tokens, and on a model without them is refused before anything runs.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI, { BadRequestError } from 'openai';
import { DEMO, startClientService, type ClientService } from './client-kit.js';
import { fillingModelPath } from '../fixtures/tiny-model.js';

const FILLER = 'filler';

let svc: ClientService;
let client: OpenAI;

before(async () => {
  svc = await startClientService();
  client = new OpenAI({ baseURL: svc.baseURL, apiKey: svc.token });
});

test('completions.create: a text_completion of the raw prompt, repeatable at temperature 0, cut at max_tokens (16 by default)', async () => {
  const c = await client.completions.create({ model: DEMO, prompt: 'def add(a, b):', temperature: 0 });
  assert.equal(c.object, 'text_completion');
  assert.match(c.id, /^cmpl-/);
  assert.equal(c.model, DEMO);
  assert.equal(c.choices.length, 1);
  const choice = c.choices[0];
  assert.ok(choice);
  assert.equal(choice.index, 0);
  assert.ok(choice.text.length > 0);
  assert.ok(['stop', 'length'].includes(choice.finish_reason ?? ''));
  assert.ok((c.usage?.completion_tokens ?? 0) <= 16, 'OpenAI’s default limit of 16 tokens');
  assert.ok((c.usage?.prompt_tokens ?? 0) > 0);
  const again = await client.completions.create({ model: DEMO, prompt: 'def add(a, b):', temperature: 0 });
  assert.equal(again.choices[0]?.text, choice.text, 'greedy decoding repeats itself');
  const cut = await client.completions.create({ model: DEMO, prompt: 'def add(a, b):', temperature: 0, max_tokens: 3 });
  assert.equal(cut.choices[0]?.finish_reason, 'length');
  assert.equal(cut.usage?.completion_tokens, 3);
  assert.ok(choice.text.startsWith(cut.choices[0]?.text ?? '?'), 'the shorter completion is the start of the longer');
});

test('streamed: the chunks make the same text, then the finish reason, usage last when asked', async () => {
  const whole = await client.completions.create({ model: DEMO, prompt: 'Once upon a time', temperature: 0, max_tokens: 12 });
  const stream = await client.completions.create({
    model: DEMO,
    prompt: 'Once upon a time',
    temperature: 0,
    max_tokens: 12,
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = '';
  let finish: string | null = null;
  let usage: OpenAI.CompletionUsage | null | undefined = null;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.text ?? '';
    finish = chunk.choices[0]?.finish_reason ?? finish;
    if (chunk.usage) usage = chunk.usage;
  }
  assert.equal(text, whole.choices[0]?.text);
  assert.equal(finish, whole.choices[0]?.finish_reason);
  assert.equal(usage?.completion_tokens, whole.usage?.completion_tokens);
});

test('stop ends the completion before the first stop text', async () => {
  const whole = await client.completions.create({ model: DEMO, prompt: 'Once upon a time', temperature: 0, max_tokens: 16 });
  const text = whole.choices[0]?.text ?? '';
  const stopAt = text.slice(1, 2);
  assert.ok(stopAt !== '', `a completion long enough to stop inside: ${JSON.stringify(text)}`);
  const stopped = await client.completions.create({ model: DEMO, prompt: 'Once upon a time', temperature: 0, max_tokens: 16, stop: [stopAt] });
  assert.equal(stopped.choices[0]?.text, text.slice(0, text.indexOf(stopAt)));
  assert.equal(stopped.choices[0]?.finish_reason, 'stop');
});

test('refused, naming the parameter: suffix on a model without FIM tokens, echo, n > 1', async () => {
  await assert.rejects(
    client.completions.create({ model: DEMO, prompt: 'def f(', suffix: '\n    return x' }),
    (err: unknown) => err instanceof BadRequestError && err.code === 'infill_not_supported' && err.param === 'suffix' && /fill in the middle/.test(err.message),
  );
  await assert.rejects(
    client.completions.create({ model: DEMO, prompt: 'x', echo: true }),
    (err: unknown) => err instanceof BadRequestError && err.param === 'echo',
  );
  await assert.rejects(client.completions.create({ model: DEMO, prompt: 'x', n: 2 }), (err: unknown) => err instanceof BadRequestError && err.param === 'n');
});

test('suffix on a model with FIM tokens: it fills in the middle between prompt and suffix', async () => {
  const added = await svc.service.api.post('/admin/models', { path: await fillingModelPath(), id: FILLER });
  assert.equal(added.status, 201, added.text);
  const filled = await client.completions.create({ model: FILLER, prompt: 'def add(a, b):\n    ', suffix: '\n    return c', max_tokens: 8, temperature: 0 });
  assert.equal(filled.choices[0]?.finish_reason, 'length');
  assert.equal(filled.usage?.completion_tokens, 8);
  assert.ok((filled.choices[0]?.text ?? '').length > 0);
  // The suffix is part of what the model read: a different one fills differently, or at least is read.
  const plain = await client.completions.create({ model: FILLER, prompt: 'def add(a, b):\n    ', max_tokens: 8, temperature: 0 });
  assert.ok((filled.usage?.prompt_tokens ?? 0) > (plain.usage?.prompt_tokens ?? 0), 'the suffix is read as prompt too');
});
