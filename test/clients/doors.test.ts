// The door details clients expect, against a real `sanad serve`: x-request-id on every answer (the
// openai SDK's request_id), localhost over IPv6, x-api-key like the bearer token, browser origins
// only from the Settings list (never for /admin), a 404 that names /v1/, and a streamed request too
// long for the model answered as a 400 before any stream header.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { Api } from '../harness/api.js';
import { finishingModelPath } from '../fixtures/tiny-model.js';
import { DEMO, startClientService, type ClientService } from './client-kit.js';

let svc: ClientService;
let port: string;

before(async () => {
  svc = await startClientService();
  port = new URL(svc.service.url).port;
  // A model with a context of 256 tokens, for the overflow.
  const small = await new Api(svc.service.url, svc.adminToken).post('/admin/models', { path: await finishingModelPath(1, 256), id: 'small' });
  assert.equal(small.status, 201, small.text);
});

const headers = (): Record<string, string> => ({ authorization: `Bearer ${svc.token}`, 'content-type': 'application/json' });

test('every answer carries x-request-id, and the openai SDK reads it as request_id', async () => {
  const client = new OpenAI({ baseURL: svc.baseURL, apiKey: svc.token });
  const r = await client.responses.create({ model: DEMO, input: 'Hello' });
  assert.match(r._request_id ?? '', /^req_/);
  const missing = await fetch(`${svc.service.url}/v1/responses/resp_nope`, { headers: headers() });
  assert.equal(missing.status, 404);
  assert.match(missing.headers.get('x-request-id') ?? '', /^req_/);
  const stream = await fetch(`${svc.baseURL}/responses`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ model: DEMO, input: 'x', stream: true }),
  });
  assert.equal(stream.headers.get('content-type')?.split(';')[0], 'text/event-stream');
  assert.match(stream.headers.get('x-request-id') ?? '', /^req_/);
  await stream.text();
  assert.notEqual(missing.headers.get('x-request-id'), stream.headers.get('x-request-id'));
});

test('localhost over IPv6 ([::1]) reaches the same service', async () => {
  const client = new OpenAI({ baseURL: `http://[::1]:${port}/v1`, apiKey: svc.token });
  const models = await client.models.list();
  assert.ok(models.data.some((m) => m.id === DEMO));
});

test('x-api-key is accepted like the bearer token; a wrong one is refused', async () => {
  const ok = await fetch(`${svc.baseURL}/models`, { headers: { 'x-api-key': svc.token } });
  assert.equal(ok.status, 200);
  const bad = await fetch(`${svc.baseURL}/models`, { headers: { 'x-api-key': 'nope-nope-nope' } });
  assert.equal(bad.status, 401);
});

test('browser origins: only those in Settings, only on /v1, preflight answered only for them', async () => {
  const app = 'http://localhost:3000';
  const other = 'http://evil.example';
  const before = await fetch(`${svc.baseURL}/models`, { headers: { ...headers(), origin: app } });
  assert.equal(before.status, 403);
  assert.match(await before.text(), /Allowed browser origins/);

  const admin = new Api(svc.service.url, svc.adminToken);
  const set = await admin.request('PATCH', '/admin/settings', { allowed_origins: [app] });
  assert.equal(set.status, 200, set.text);

  const preflight = await fetch(`${svc.baseURL}/chat/completions`, {
    method: 'OPTIONS',
    headers: { origin: app, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, x-stainless-os' },
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get('access-control-allow-origin'), app);
  assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /x-stainless-os/);
  const allowed = await fetch(`${svc.baseURL}/models`, { headers: { ...headers(), origin: app } });
  assert.equal(allowed.status, 200);
  assert.equal(allowed.headers.get('access-control-allow-origin'), app);

  const refusedPreflight = await fetch(`${svc.baseURL}/models`, { method: 'OPTIONS', headers: { origin: other, 'access-control-request-method': 'GET' } });
  assert.equal(refusedPreflight.headers.get('access-control-allow-origin'), null);
  const refused = await fetch(`${svc.baseURL}/models`, { headers: { ...headers(), origin: other } });
  assert.equal(refused.status, 403);
  // Never /admin, whatever the list says.
  const adminFromPage = await fetch(`${svc.service.url}/admin/settings`, { headers: { authorization: `Bearer ${svc.adminToken}`, origin: app } });
  assert.equal(adminFromPage.status, 403);
  assert.equal(adminFromPage.headers.get('access-control-allow-origin'), null);
});

test('a base URL without /v1 gets a 404 that names the route under /v1/', async () => {
  const res = await fetch(`${svc.service.url}/chat/completions`, { method: 'POST', headers: headers(), body: '{}' });
  assert.equal(res.status, 404);
  assert.match(await res.text(), /POST \/v1\/chat\/completions/);
});

test('a streamed request too long for the model is a 400 before the stream, on both doors', async () => {
  const long = 'word '.repeat(400);
  const chat = await fetch(`${svc.baseURL}/chat/completions`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ model: 'small', stream: true, messages: [{ role: 'user', content: long }] }),
  });
  assert.equal(chat.status, 400);
  const body = await chat.text();
  assert.match(body, /"code":"context_length_exceeded"/);
  assert.match(body, /"param":"messages"/);
  assert.doesNotMatch(body, /truncation/, 'Chat Completions has no truncation parameter to advise');

  const client = new OpenAI({ baseURL: svc.baseURL, apiKey: svc.token });
  await assert.rejects(
    client.responses.create({ model: 'small', input: long, stream: true }),
    (err: unknown) => err instanceof OpenAI.BadRequestError && err.code === 'context_length_exceeded' && /truncation/.test(err.message),
  );
  // An output limit beyond the model's context is refused naming it, not capped at 8192.
  await assert.rejects(
    client.chat.completions.create({ model: 'small', max_completion_tokens: 300, messages: [{ role: 'user', content: 'x' }] }),
    (err: unknown) => err instanceof OpenAI.BadRequestError && err.param === 'max_completion_tokens' && /256/.test(err.message),
  );
});
