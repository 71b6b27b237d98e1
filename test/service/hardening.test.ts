// Small holes, each attacked for real against a running service: answers are never cached, a body
// nested past the limit is refused before anything walks it, a response is deleted only by its owner
// (or admin), and a request naming a host Sanad was not given is refused even off loopback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { allowedHostNames } from '../../src/service/listener.js';
import { ManualClock, unixSeconds } from '../../src/clock.js';
import { createClient, TEMPORARY_IDLE_S } from '../../src/store/clients.js';
import { jsonDepth, MAX_JSON_DEPTH } from '../../src/service/server.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { field, str } from '../harness/api.js';
import { tempDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';
import { startTestAppliance } from '../harness/appliance.js';
import { assertError, makeClient, startLongTask, waitForStatus } from '../api/contract.js';

const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

test('every API answer says cache-control: no-store (the recovery kit, tokens, tasks)', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  for (const path of ['/admin/status', '/admin/recovery-kit', '/admin/clients', '/v1/models', '/health/live']) {
    const res = await ta.api.get(path);
    assert.equal(res.headers.get('cache-control'), 'no-store', path);
  }
  const made = await ta.api.post('/admin/clients', { name: 'x', scopes: ['models:read'] });
  assert.equal(made.headers.get('cache-control'), 'no-store', 'the answer holding a new token');
  // The GUI's hashed assets keep their own, long cache.
  const page = await fetch(`${ta.appliance.url}/`);
  assert.notEqual(page.headers.get('cache-control'), 'no-store');
});

test(`a JSON body nested deeper than ${MAX_JSON_DEPTH} is a 400 naming the limit; the service goes on`, async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  assert.equal(jsonDepth(JSON.parse(nested(MAX_JSON_DEPTH)), MAX_JSON_DEPTH), MAX_JSON_DEPTH);
  assert.equal(jsonDepth({ a: [{ b: 1 }] }, 10), 3);
  assert.equal(jsonDepth(7, 10), 0);
  const deep = await ta.api.request('POST', '/v1/responses', nested(100_000), { 'content-type': 'application/json', 'idempotency-key': 'deep-1' });
  assertError(deep, 400, 'too_deep');
  assert.match(deep.text, new RegExp(`more than ${MAX_JSON_DEPTH} levels`));
  const ok = await ta.api.request(
    'POST',
    '/v1/responses',
    JSON.stringify({ model: 'tiny', input: 'x', background: true, max_output_tokens: 4, metadata: { deep: nested(10) } }),
    {},
  );
  assert.notEqual(ok.status, 500);
  assert.equal((await ta.api.get('/health/live')).status, 200);
});

test('DELETE /v1/responses/{id}: the owner or admin only; tasks:write is not enough', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const { responseId, taskId } = await startLongTask(ta.api, 8);
  await waitForStatus(ta.appliance.ctx.writer, taskId, ['completed', 'incomplete']);
  const other = ta.api.withToken((await makeClient(ta.api, ['responses:write', 'tasks:read', 'tasks:write'])).token);
  assertError(await other.delete(`/v1/responses/${responseId}`), 403, 'insufficient_scope');
  assert.ok(ta.appliance.ctx.writer.prepare('SELECT 1 FROM responses WHERE id = ?').get(responseId), 'still there');
  assert.equal((await ta.api.delete(`/v1/responses/${responseId}`)).status, 200, 'admin may');
});

test('Host names: loopback and the bound address, plus SANAD_ALLOWED_HOSTS; a wildcard bind allows no other name', () => {
  assert.deepEqual(allowedHostNames('127.0.0.1', {}), ['127.0.0.1', 'localhost', '[::1]']);
  assert.deepEqual(allowedHostNames('192.168.1.5', {}), ['127.0.0.1', 'localhost', '[::1]', '192.168.1.5']);
  assert.deepEqual(allowedHostNames('0.0.0.0', {}), ['127.0.0.1', 'localhost', '[::1]'], 'not "anything"');
  assert.deepEqual(allowedHostNames('0.0.0.0', { SANAD_ALLOWED_HOSTS: 'Sanad.lan, 10.0.0.2' }), ['127.0.0.1', 'localhost', '[::1]', 'sanad.lan', '10.0.0.2']);
  assert.deepEqual(allowedHostNames('fe80::1', {}), ['127.0.0.1', 'localhost', '[::1]', '[fe80::1]']);
});

test('bound to every interface, a request naming another host is refused (DNS rebinding off loopback too)', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const ctx = ta.appliance.ctx;
  const was = ctx.address.host;
  ctx.address.host = '0.0.0.0';
  t.after(() => {
    ctx.address.host = was;
  });
  const port = ctx.address.port;
  // node:http, not fetch: fetch sets Host from the URL whatever a caller asks.
  const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/admin/status', headers: { host: `attacker.example:${port}`, authorization: `Bearer ${ta.adminToken}` } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end();
  });
  assert.equal(answer.status, 403);
  assert.match(answer.text, /forbidden_host/);
  assert.equal((await ta.api.get('/admin/status')).status, 200, '127.0.0.1 still works');
});

test('answers that hold a secret are never stored for replay: a key on them is a clear 409, and no token reaches the store', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  for (const [path, body] of [
    ['/admin/clients', { name: 'k', scopes: ['models:read'] }],
    ['/admin/pairing-codes', { scopes: ['models:read'] }],
    ['/admin/login-link', undefined],
  ] as const) {
    const refused = await ta.api.post(path, body, { 'idempotency-key': `k-${path}` });
    assertError(refused, 409, 'not_replayable', 'Idempotency-Key');
  }
  const made = await ta.api.post('/admin/clients', { name: 'k', scopes: ['models:read'] });
  assert.equal(made.status, 201);
  const token = str(made.body, 'token');
  assert.ok(token.length > 20);
  const kept = ta.appliance.ctx.writer.prepare<[], { body: string | null }>('SELECT body FROM idempotency_keys').all();
  assert.ok(
    kept.every((r) => !(r.body ?? '').includes(token)),
    'no stored answer holds the token',
  );
  // Other POSTs still replay.
  const a = await ta.api.post('/v1/responses', { model: 'tiny', input: 'x', background: true, max_output_tokens: 4 }, { 'idempotency-key': 'replay-me' });
  const b = await ta.api.post('/v1/responses', { model: 'tiny', input: 'x', background: true, max_output_tokens: 4 }, { 'idempotency-key': 'replay-me' });
  assert.equal(b.headers.get('idempotent-replayed'), 'true');
  assert.equal(b.text, a.text);
});

test("a CLI command's temporary admin token dies after 10 idle minutes (a killed command leaves none that lives on)", async (t) => {
  const clock = new ManualClock(Date.parse('2026-06-01T10:00:00Z'));
  const ta = await startTestAppliance({ clock });
  t.after(() => ta.close());
  const { token } = createClient(ta.appliance.ctx.writer, 'sanad backup now (temporary)', ['admin'], unixSeconds(clock), { temporary: true });
  const temp = ta.api.withToken(token);
  assert.equal((await temp.get('/admin/status')).status, 200);
  clock.advance(9 * 60_000);
  assert.equal((await temp.get('/admin/status')).status, 200, 'in use: still valid');
  clock.advance(TEMPORARY_IDLE_S * 1000 - 30_000);
  assert.equal((await temp.get('/admin/status')).status, 200, 'each use counts (a waiting command polls)');
  clock.advance(TEMPORARY_IDLE_S * 1000 + 61_000);
  assertError(await temp.get('/admin/status'), 401, 'invalid_api_key');
  assert.equal((await ta.api.get('/admin/status')).status, 200, 'a paired client has no such limit');
});

test('an rclone destination must name a configured remote: the repository, the offsite-copy setting, the CLI', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const config = join(tempDir('sanad-rclone-'), 'rclone.conf');
  writeFileSync(config, `[known]\ntype = local\n`);
  const unknown = await ta.api.post('/admin/repositories', { name: 'typo', type: 'rclone', location: 'knwon:backups', options: { rclone_config: config } });
  assertError(unknown, 400, 'rclone_remote_unknown', 'remote');
  assert.match(unknown.text, /no rclone remote named \\"knwon\\" is configured/);
  const known = await ta.api.post('/admin/repositories', { name: 'ok', type: 'rclone', location: 'known:backups', options: { rclone_config: config } });
  assert.equal(known.status, 201, known.text);
  const setting = await ta.api.request('PATCH', '/admin/settings', { offsite_copy_destination: 'nowhere:copies', offsite_copy_rclone_config: config });
  assert.equal(setting.status, 400, setting.text);
  assert.equal(field(setting.body, 'error', 'param'), 'offsite_copy_destination');
  assert.match(setting.text, /no rclone remote named \\"nowhere\\"/);
  const cli = await runSanad([
    'repo',
    'add',
    'typo',
    '--type',
    'rclone',
    '--remote',
    'knwon:backups',
    '--rclone-config',
    config,
    '--data-dir',
    tempDir('sanad-cli-'),
  ]);
  assert.equal(cli.code, 1, cli.stderr);
  assert.match(cli.stderr, /no rclone remote named "knwon" is configured/);
});
