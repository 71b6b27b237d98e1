// Models in memory through the service: loading and unloading by hand, what GET /v1/models shows
// admin (and not a paired client), a conversation's next turn reported as cached input, and a
// client flooding the queue not delaying another client's request beyond one turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renameSync } from 'node:fs';
import { field, num, str, waitFor, type Api } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { assertError } from './contract.js';

async function pairedClient(api: Api, name: string): Promise<Api> {
  const code = str((await api.post('/admin/pairing-codes', { scopes: ['models:read', 'responses:write', 'tasks:read'], ttl_s: 600 })).body, 'code');
  const paired = await api.withToken(null).post('/v1/pair', { code, client_name: name });
  assert.equal(paired.status, 201, paired.text);
  return api.withToken(str(paired.body, 'token'));
}

function loadedOf(model: unknown): unknown {
  return field(model, 'loaded');
}

test('a model loads and unloads by hand; admin sees what it takes, a paired client does not', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const listed = async (): Promise<unknown> => field((await ta.api.get('/v1/models')).body, 'data');
  const first = async (): Promise<unknown> => {
    const data = await listed();
    assert.ok(Array.isArray(data));
    return data[0];
  };
  assert.equal(loadedOf(await first()), null, 'nothing is loaded before the first request');

  const loaded = await ta.api.post('/admin/models/tiny/load', {});
  assert.equal(loaded.status, 200, loaded.text);
  const state = loadedOf(loaded.body);
  // Four sequences by default (max_concurrent_generations), as the tiny model's memory allows.
  assert.equal(num(state, 'sequences'), 4);
  assert.equal(num(state, 'busy'), 0);
  assert.ok(num(state, 'memory_bytes') > 0);
  assert.ok(num(state, 'context_size') >= 256);
  assert.equal(field(state, 'last_tokens_per_second'), null);
  assert.deepEqual(loadedOf(await first()), state);

  const client = await pairedClient(ta.api, 'laptop');
  const seen = field((await client.get('/v1/models')).body, 'data');
  assert.ok(Array.isArray(seen) && seen.length === 1);
  assert.ok(!JSON.stringify(seen).includes('"loaded"'), 'a paired client is not told what is in memory');

  const answered = await client.post('/v1/responses', { model: 'tiny', input: 'hi', max_output_tokens: 8 });
  assert.equal(answered.status, 200, answered.text);
  assert.ok(num(loadedOf(await first()), 'last_tokens_per_second') > 0);

  const unloaded = await ta.api.post('/admin/models/tiny/unload', {});
  assert.equal(unloaded.status, 200, unloaded.text);
  assert.equal(loadedOf(unloaded.body), null);
  assert.equal(loadedOf(await first()), null);

  assertError(await ta.api.post('/admin/models/nope/load', {}), 404, 'model_not_found');
  assertError(await ta.api.post('/admin/models/nope/unload', {}), 404, 'model_not_found');
  assertError(await client.post('/admin/models/tiny/load', {}), 403, 'insufficient_scope');
  const path = str(await first(), 'path');
  renameSync(path, `${path}.away`);
  t.after(() => renameSync(`${path}.away`, path));
  assertError(await ta.api.post('/admin/models/tiny/load', {}), 503, 'model_missing');
});

test("a conversation's next turn reports the kept part of its input as cached tokens", async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const long = Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n');
  const one = await ta.api.post('/v1/responses', { model: 'tiny', input: long, max_output_tokens: 16 });
  assert.equal(one.status, 200, one.text);
  const usage1 = field(one.body, 'usage');
  assert.equal(num(field(usage1, 'input_tokens_details'), 'cached_tokens'), 0);
  const two = await ta.api.post('/v1/responses', { model: 'tiny', previous_response_id: str(one.body, 'id'), input: 'and then?', max_output_tokens: 16 });
  assert.equal(two.status, 200, two.text);
  const usage2 = field(two.body, 'usage');
  const cached = num(field(usage2, 'input_tokens_details'), 'cached_tokens');
  assert.ok(cached >= num(usage1, 'input_tokens'), `turn 2 reused ${cached} of its ${num(usage2, 'input_tokens')} input tokens`);

  // Chat Completions clients resend the whole history: the same sequence serves them.
  const history = [
    { role: 'user', content: long },
    { role: 'assistant', content: 'noted' },
  ];
  const c1 = await ta.api.post('/v1/chat/completions', { model: 'tiny', messages: history, max_tokens: 8 });
  assert.equal(c1.status, 200, c1.text);
  const c2 = await ta.api.post('/v1/chat/completions', { model: 'tiny', messages: [...history, { role: 'user', content: 'more' }], max_tokens: 8 });
  assert.equal(c2.status, 200, c2.text);
  const details = field(field(c2.body, 'usage'), 'prompt_tokens_details');
  assert.ok(num(details, 'cached_tokens') > num(field(c1.body, 'usage'), 'prompt_tokens') / 2, JSON.stringify(field(c2.body, 'usage')));
});

test("a client flooding the queue does not delay another client's request beyond one turn", async (t) => {
  // One generation at a time, so the order the queue serves in is the order they run in.
  const ta = await startTestAppliance({ settings: { max_concurrent_generations: 1 } });
  t.after(() => ta.close());
  const flood = await pairedClient(ta.api, 'agent');
  const gui = await pairedClient(ta.api, 'gui');
  const background = async (api: Api, tokens: number): Promise<string> => {
    const res = await api.post('/v1/responses', { model: 'tiny', input: 'go', background: true, max_output_tokens: tokens });
    assert.equal(res.status, 202, res.text);
    return str(res.body, 'task_id');
  };
  const floods: string[] = [];
  for (let i = 0; i < 8; i++) floods.push(await background(flood, 400));
  const status = async (api: Api, id: string): Promise<string> => str((await api.get(`/v1/tasks/${id}`)).body, 'status');
  await waitFor(async () => (await status(flood, floods[0] ?? '')) === 'running', 20_000, 'the first of the flood to run');
  const mine = await background(gui, 8);
  await waitFor(async () => (await status(gui, mine)) === 'completed', 60_000, "the gui's request to complete");
  // By then only the flood's first request had finished: the gui's ran right after it.
  const states = await Promise.all(floods.map((id) => status(flood, id)));
  assert.equal(states.filter((s) => s === 'completed').length, 1, `the flood's tasks when the gui's was served: ${states.join(', ')}`);
});
