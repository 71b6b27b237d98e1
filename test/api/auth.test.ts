// Auth: bearer tokens, scopes, revocation, hashed storage, and who may see whose responses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { hashToken } from '../../src/store/clients.js';
import { str } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { assertError, countRows, makeClient, waitForStatus } from './contract.js';
import { storePath } from '../../src/files/data-dir-layout.js';

const V1_ROUTES: Array<[string, string]> = [
  ['GET', '/v1/models'],
  ['GET', '/v1/models/tiny'],
  ['POST', '/v1/responses'],
  ['GET', '/v1/responses/resp_x'],
  ['POST', '/v1/responses/resp_x/cancel'],
  ['DELETE', '/v1/responses/resp_x'],
  ['GET', '/v1/tasks'],
  ['GET', '/v1/tasks/task_x'],
  ['POST', '/v1/tasks/task_x/cancel'],
  ['GET', '/v1/tasks/task_x/events'],
  ['GET', '/admin/clients'],
  ['POST', '/admin/pairing-codes'],
];

test('no token, an unknown token or a malformed header: 401 invalid_api_key on every route', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const body = { model: 'tiny', input: 'hi', max_output_tokens: 4 };
  const callers = [ta.api.withToken(null), ta.api.withToken(`sk-sanad-${'A'.repeat(43)}`), ta.api.withToken(ta.adminToken + 'x')];
  for (const api of callers) {
    for (const [method, path] of V1_ROUTES) {
      const res = await api.request(method, path, method === 'POST' ? body : undefined);
      assertError(res, 401, 'invalid_api_key');
      assert.equal(str(res.body, 'error', 'type'), 'authentication_error');
    }
  }
  assertError(await ta.api.withToken(null).get('/v1/models', { authorization: `Basic ${ta.adminToken}` }), 401, 'invalid_api_key');
  assert.equal(countRows(ta.appliance.ctx.writer, 'tasks'), 0, 'nothing was created without a valid token');
});

test('a valid token without the scope gets 403 insufficient_scope and changes nothing', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const reader = ta.api.withToken((await makeClient(ta.api, ['models:read'])).token);
  const writer = ta.api.withToken((await makeClient(ta.api, ['responses:write'])).token);
  assert.equal((await reader.get('/v1/models')).status, 200);
  assertError(await reader.post('/v1/responses', { model: 'tiny', input: 'hi', max_output_tokens: 4 }), 403, 'insufficient_scope');
  assertError(await reader.get('/v1/tasks'), 403, 'insufficient_scope');
  assertError(await reader.post('/admin/pairing-codes', { scopes: ['admin'] }), 403, 'insufficient_scope');
  assertError(await writer.get('/v1/models'), 403, 'insufficient_scope');
  assertError(await writer.post('/admin/clients', { name: 'evil', scopes: ['admin'] }), 403, 'insufficient_scope');
  const db = ta.appliance.ctx.writer;
  assert.equal(countRows(db, 'tasks'), 0);
  assert.equal(countRows(db, 'clients'), 3, 'the admin and the two test clients only');
  assert.equal(db.prepare('SELECT 1 FROM pairing_codes').get(), undefined);
});

test('revocation takes effect on the very next request', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const made = await makeClient(ta.api, ['models:read']);
  const api = ta.api.withToken(made.token);
  assert.equal((await api.get('/v1/models')).status, 200);
  const revoked = await ta.api.post(`/admin/clients/${made.client_id}/revoke`);
  assert.equal(revoked.status, 200, revoked.text);
  assertError(await api.get('/v1/models'), 401, 'invalid_api_key');
  const row = ta.appliance.ctx.writer.prepare<[string], { revoked_at: number | null }>('SELECT revoked_at FROM clients WHERE id = ?').get(made.client_id);
  assert.equal(typeof row?.revoked_at, 'number', 'the revocation is stored');
  assertError(await ta.api.post('/admin/clients/client_nope/revoke'), 404, 'client_not_found');
});

test('tokens are stored only as hashes: the database files never contain a token', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const made = await makeClient(ta.api, ['models:read', 'responses:write']);
  assert.match(made.token, /^sk-sanad-[A-Za-z0-9_-]{43}$/, 'a 256-bit token');
  assert.equal((await ta.api.withToken(made.token).get('/v1/models')).status, 200);
  const path = storePath(ta.dataDir);
  const bytes = Buffer.concat([path, `${path}-wal`].filter(existsSync).map((p) => readFileSync(p)));
  for (const token of [ta.adminToken, made.token]) {
    // The hash is there, so the search does see the stored rows (the WAL included).
    assert.ok(bytes.includes(hashToken(token)), 'the token hash is stored');
    assert.ok(!bytes.includes(token), 'the token itself is not');
    assert.ok(!bytes.includes(token.slice('sk-sanad-'.length)), 'nor its random part');
  }
});

test("another client's response reads as 404 for responses:write, and is visible with tasks:read", async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const alice = ta.api.withToken((await makeClient(ta.api, ['responses:write'], 'alice')).token);
  const bob = ta.api.withToken((await makeClient(ta.api, ['responses:write'], 'bob')).token);
  const auditor = ta.api.withToken((await makeClient(ta.api, ['tasks:read'], 'auditor')).token);

  const created = await alice.post('/v1/responses', { model: 'tiny', input: 'hi', max_output_tokens: 4, background: true });
  assert.equal(created.status, 202, created.text);
  const id = str(created.body, 'id');
  const taskId = str(created.body, 'task_id');
  await waitForStatus(db, taskId, ['completed']);

  assertError(await bob.get(`/v1/responses/${id}`), 404, 'response_not_found');
  assertError(await bob.get(`/v1/tasks/${taskId}`), 404, 'task_not_found');
  assertError(await bob.get(`/v1/tasks/${taskId}/events`), 404, 'task_not_found');
  assertError(await bob.post(`/v1/responses/${id}/cancel`), 404, 'response_not_found');
  assertError(await bob.delete(`/v1/responses/${id}`), 404, 'response_not_found');
  const bobList = await bob.get('/v1/tasks');
  assert.equal(bobList.status, 200);
  assert.ok(!bobList.text.includes(taskId), "bob's list does not show alice's task");
  assert.equal(db.prepare('SELECT 1 FROM responses WHERE id = ?').get(id) !== undefined, true, 'bob deleted nothing');

  const mine = await alice.get(`/v1/responses/${id}`);
  const seen = await auditor.get(`/v1/responses/${id}`);
  assert.equal(mine.status, 200);
  assert.equal(seen.status, 200, seen.text);
  assert.deepEqual(seen.body, mine.body);
  assert.equal(str(seen.body, 'status'), 'incomplete');
  assert.equal((await auditor.get(`/v1/tasks/${taskId}`)).status, 200);
  assert.ok((await auditor.get('/v1/tasks')).text.includes(taskId), 'tasks:read lists every task');
  assertError(await auditor.delete(`/v1/responses/${id}`), 403, 'insufficient_scope');
  assertError(await auditor.post(`/v1/tasks/${taskId}/cancel`), 403, 'insufficient_scope');
});
