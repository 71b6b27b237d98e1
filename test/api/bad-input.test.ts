// Bad input gets the contract's error shape with the right status and `param`, creates nothing,
// never shows a stack trace, and leaves the service serving.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { str, type ApiResponse } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { assertError, assertNoStack, countRows } from './contract.js';

/** zod's own wording, which never reaches a user. */
const ZOD_DEFAULTS = /must contain|character\(s\)|Expected |Required|Invalid input|Number must|String must|Array must/;

const GOOD = { model: 'tiny', input: 'hi', max_output_tokens: 4 };

/** [the field, a wrong value, the `param` named when it is deeper than the field]. */
const WRONG_TYPES: Array<[string, unknown, string?]> = [
  ['model', 5],
  ['model', ''],
  ['input', 5],
  ['input', ''],
  ['input', [{ role: 'robot', content: 'x' }], 'input[0].role'],
  ['input', [{ type: 'message', role: 'user', content: 'x', extra: 1 }], 'input[0].extra'],
  ['input', [{ type: 'telepathy' }], 'input[0].type'],
  ['max_output_tokens', 'ten'],
  ['max_output_tokens', 0],
  ['max_output_tokens', 1.5],
  ['temperature', 'hot'],
  ['temperature', 3],
  ['top_p', 'all'],
  ['top_p', 0],
  ['stream', 'yes'],
  ['background', 1],
  ['metadata', 'tags'],
  ['metadata', [1, 2]],
  ['on_restart', 'sometimes'],
  ['on_restart', true],
];

test('each field with a wrong type or value: 400 invalid_request_error naming the field', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  for (const [param, value, named] of WRONG_TYPES) {
    const res = await ta.api.post('/v1/responses', { ...GOOD, [param]: value });
    assertError(res, 400, 'invalid_request_error', named ?? param);
    assert.equal(res.headers.get('x-should-retry'), 'false', 'a bad body is not worth retrying');
    assert.equal(str(res.body, 'error', 'type'), 'invalid_request_error');
    // Sanad's words, not zod's defaults ("String must contain at least 1 character(s)").
    assert.doesNotMatch(str(res.body, 'error', 'message'), ZOD_DEFAULTS, `${param}=${JSON.stringify(value)}`);
  }
  // The admin API too: the GUI shows these sentences beside the field.
  const emptyName = await ta.api.post('/admin/clients', { name: ' ', scopes: ['models:read'] });
  assertError(emptyName, 400, 'invalid_request_error', 'name');
  assert.equal(str(emptyName.body, 'error', 'message'), 'Invalid value for name: must not be empty.');
  const noScopes = await ta.api.post('/admin/clients', { name: 'x', scopes: [] });
  assert.equal(str(noScopes.body, 'error', 'message'), 'Invalid value for scopes: must list at least one item.');
  const shortCode = await ta.api.post('/admin/pairing-codes', { scopes: ['models:read'], ttl_s: 5.5 });
  assert.equal(str(shortCode.body, 'error', 'message'), 'Invalid value for ttl_s: must be a whole number.');
  for (const param of ['model', 'input']) {
    const rest: Record<string, unknown> = { ...GOOD };
    delete rest[param];
    assertError(await ta.api.post('/v1/responses', rest), 400, 'invalid_request_error', param);
  }
  assertError(await ta.api.post('/v1/responses', [GOOD]), 400, 'invalid_request_error');
  assertError(await ta.api.post('/v1/responses', 'null'), 400, 'invalid_request_error');
  assert.equal(countRows(ta.appliance.ctx.writer, 'tasks'), 0);
});

test('malformed JSON, an oversized body, a non-JSON content type and an unknown route', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const malformed = await ta.api.post('/v1/responses', '{"model": "tiny", "input": ');
  assertError(malformed, 400, 'invalid_json');
  assert.equal(str(malformed.body, 'error', 'type'), 'invalid_request_error');

  const huge = await ta.api.post('/v1/responses', { ...GOOD, input: 'x'.repeat(1024 * 1024 + 10) });
  assertError(huge, 413, 'request_too_large', null);
  // Just under the limit is read (and refused only for what it says, not its size).
  const under = await ta.api.post('/v1/responses', { ...GOOD, model: 'nope', input: 'x'.repeat(1024 * 1024 - 100) });
  assertError(under, 404, 'model_not_found', 'model');

  const text = await ta.api.post('/v1/responses', JSON.stringify(GOOD), { 'content-type': 'text/plain' });
  assertError(text, 415, 'unsupported_media_type');
  const form = await ta.api.post('/v1/responses', 'model=tiny&input=hi', { 'content-type': 'application/x-www-form-urlencoded' });
  assertError(form, 415, 'unsupported_media_type');

  for (const [method, path] of [
    ['GET', '/v1/nothing'],
    ['POST', '/v1/responses/x/y/z'],
    ['GET', '/nope?x=1'],
  ] as const) {
    assertError(await ta.api.request(method, path), 404, 'not_found');
  }
  assert.equal(countRows(ta.appliance.ctx.writer, 'tasks'), 0);
});

test('limits and conflicts: huge max_output_tokens, unknown model, background without store', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  assertError(await ta.api.post('/v1/responses', { ...GOOD, max_output_tokens: 1e9 }), 400, 'invalid_request_error', 'max_output_tokens');
  // The limit is the model's own context (the test model holds 2048 tokens), not an arbitrary number.
  const over = await ta.api.post('/v1/responses', { ...GOOD, max_output_tokens: 8193 });
  assertError(over, 400, 'max_output_tokens_too_large', 'max_output_tokens');
  assert.match(over.text, /holds \d+ tokens/);
  const unknown = await ta.api.post('/v1/responses', { ...GOOD, model: 'no-such-model' });
  assertError(unknown, 404, 'model_not_found', 'model');
  assertError(await ta.api.post('/v1/responses', { ...GOOD, background: true, store: false }), 400, 'invalid_request_error', 'store');
  assert.equal(countRows(ta.appliance.ctx.writer, 'tasks'), 0);
  assert.equal(countRows(ta.appliance.ctx.writer, 'responses'), 0);
});

test('after a barrage of bad requests the service still serves, and no body ever holds a stack', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const seen: ApiResponse[] = [];
  const send = async (p: Promise<ApiResponse>): Promise<void> => void seen.push(await p);
  await send(ta.api.post('/v1/responses', '{'));
  await send(ta.api.post('/v1/responses', '{"a":' + '['.repeat(5000)));
  await send(ta.api.post('/v1/responses', { ...GOOD, input: 'x'.repeat(2 * 1024 * 1024) }));
  await send(ta.api.post('/v1/responses', 'x', { 'content-type': 'application/xml' }));
  await send(ta.api.post('/v1/responses', { ...GOOD, metadata: { k: 'v'.repeat(600) } }));
  await send(ta.api.post('/v1/responses', { ...GOOD, tools: [{ type: 'function' }] }));
  await send(ta.api.get('/v1/tasks?limit=abc'));
  await send(ta.api.get('/v1/tasks?status=weird'));
  await send(ta.api.get('/v1/tasks/task_x/events?after=-1'));
  await send(ta.api.get('/v1/responses/resp_x?stream=true&starting_after=zz'));
  await send(ta.api.request('PUT', '/v1/responses'));
  for (const res of seen) {
    assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${res.text.slice(0, 200)}`);
    assertNoStack(res);
    assert.ok(typeof str(res.body, 'error', 'message') === 'string');
  }
  assert.equal(countRows(ta.appliance.ctx.writer, 'tasks'), 0);

  const ok = await ta.api.post('/v1/responses', GOOD);
  assert.equal(ok.status, 200, ok.text);
  assert.equal(str(ok.body, 'status'), 'incomplete');
  assert.equal(str(ok.body, 'object'), 'response');
  assert.equal(countRows(ta.appliance.ctx.writer, 'tasks'), 1);
});

test('a misspelt parameter is refused by name, with the one it most likely meant', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const typo = await ta.api.post('/v1/responses', { ...GOOD, temprature: 0.5 });
  assertError(typo, 400, 'invalid_request_error', 'temprature');
  assert.match(str(typo.body, 'error', 'message'), /did you mean temperature\?/);
  const unknown = await ta.api.post('/v1/responses', { ...GOOD, frobnicate: true });
  assertError(unknown, 400, 'invalid_request_error', 'frobnicate');
  assert.match(str(unknown.body, 'error', 'message'), /docs\/api\.md lists every parameter/);
  assert.equal(countRows(ta.appliance.ctx.writer, 'tasks'), 0);
});
