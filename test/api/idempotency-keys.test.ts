// Idempotency keys: their format, their scope (per client), auth before any replay, their
// lifetime, and that a rate-limited request stores nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import type { Db } from '../../src/store/open.js';
import { num, str } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { assertError, countRows, makeClient, waitForStatus } from './contract.js';

const KEY = 'idempotency-key';
const BODY = { model: 'tiny', input: 'hi', max_output_tokens: 4 };

function keyRows(db: Db): Array<{ client_id: string; key: string; expires_at: number }> {
  return db
    .prepare<[], { client_id: string; key: string; expires_at: number }>('SELECT client_id, key, expires_at FROM idempotency_keys ORDER BY client_id')
    .all();
}

test('a malformed key is a 400 naming the header, and nothing runs or is stored', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const bad = ['', 'k'.repeat(256), 'clé', 'a b', 'a\tb'];
  for (const key of bad) {
    const res = await ta.api.post('/v1/responses', BODY, { [KEY]: key });
    assertError(res, 400, 'invalid_idempotency_key', 'Idempotency-Key');
    assert.equal(str(res.body, 'error', 'type'), 'invalid_request_error');
  }
  assert.equal(countRows(db, 'tasks'), 0);
  assert.equal(countRows(db, 'idempotency_keys'), 0);

  // 255 visible ASCII characters are the longest good key.
  const longest = '!~'.repeat(127) + 'x';
  const ok = await ta.api.post('/v1/responses', BODY, { [KEY]: longest });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(
    keyRows(db).map((r) => r.key),
    [longest],
  );
});

test('keys are per client: client B reusing A’s key runs fresh', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const a = await makeClient(ta.api, ['responses:write'], 'a');
  const b = await makeClient(ta.api, ['responses:write'], 'b');
  const fromA = await ta.api.withToken(a.token).post('/v1/responses', BODY, { [KEY]: 'shared' });
  const fromB = await ta.api.withToken(b.token).post('/v1/responses', BODY, { [KEY]: 'shared' });
  assert.equal(fromA.status, 200, fromA.text);
  assert.equal(fromB.status, 200, fromB.text);
  assert.equal(fromB.headers.get('idempotent-replayed'), null);
  assert.notEqual(str(fromB.body, 'id'), str(fromA.body, 'id'));
  assert.equal(countRows(db, 'tasks'), 2);
  assert.deepEqual(
    keyRows(db)
      .map((r) => r.client_id)
      .sort(),
    [a.client_id, b.client_id].sort(),
  );
  const owners = db
    .prepare<[], { client_id: string }>('SELECT client_id FROM responses ORDER BY client_id')
    .all()
    .map((r) => r.client_id);
  assert.deepEqual(owners, [a.client_id, b.client_id].sort());
});

test('auth and scope are checked before any replay: a bad token learns nothing', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const owner = await makeClient(ta.api, ['responses:write'], 'owner');
  const reader = await makeClient(ta.api, ['models:read'], 'reader');
  const first = await ta.api.withToken(owner.token).post('/v1/responses', BODY, { [KEY]: 'secret-key' });
  assert.equal(first.status, 200, first.text);
  const id = str(first.body, 'id');

  const attempts = [
    [ta.api.withToken(null), 401, 'invalid_api_key'],
    [ta.api.withToken('sk-sanad-not-a-real-token'), 401, 'invalid_api_key'],
    [ta.api.withToken(reader.token), 403, 'insufficient_scope'],
  ] as const;
  for (const [api, status, code] of attempts) {
    const res = await api.post('/v1/responses', BODY, { [KEY]: 'secret-key' });
    assertError(res, status, code);
    assert.equal(res.headers.get('idempotent-replayed'), null);
    assert.ok(!res.text.includes(id), 'the stored answer did not leak');
  }
  // A revoked owner cannot replay its own answer either.
  assert.equal((await ta.api.post(`/admin/clients/${owner.client_id}/revoke`)).status, 200);
  const revoked = await ta.api.withToken(owner.token).post('/v1/responses', BODY, { [KEY]: 'secret-key' });
  assertError(revoked, 401, 'invalid_api_key');
  assert.ok(!revoked.text.includes(id));
  assert.equal(countRows(ta.appliance.ctx.writer, 'tasks'), 1);
});

test('keys expire after the configured TTL: then the same key runs fresh', async (t) => {
  const clock = new ManualClock(Date.now());
  const ta = await startTestAppliance({ clock, settings: { idempotency_ttl_hours: 1 } });
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const first = await ta.api.post('/v1/responses', BODY, { [KEY]: 'ttl' });
  assert.equal(first.status, 200, first.text);
  const stored = keyRows(db)[0];
  assert.equal(stored?.expires_at, Math.floor(clock.now() / 1000) + 3600);

  clock.advance(59 * 60_000);
  const replay = await ta.api.post('/v1/responses', BODY, { [KEY]: 'ttl' });
  assert.equal(replay.headers.get('idempotent-replayed'), 'true', 'still inside the hour');
  assert.equal(replay.text, first.text);

  clock.advance(2 * 60_000);
  const fresh = await ta.api.post('/v1/responses', BODY, { [KEY]: 'ttl' });
  assert.equal(fresh.status, 200, fresh.text);
  assert.equal(fresh.headers.get('idempotent-replayed'), null);
  assert.notEqual(str(fresh.body, 'id'), str(first.body, 'id'));
  assert.equal(countRows(db, 'tasks'), 2);
  assert.equal(keyRows(db)[0]?.expires_at, Math.floor(clock.now() / 1000) + 3600, 'the key now belongs to the new request');
  assert.equal(num(fresh.body, 'created_at'), Math.floor(clock.now() / 1000));
});

test('a rate-limited request stores no key, so the same key works once the window passes', async (t) => {
  const clock = new ManualClock(Date.now());
  const ta = await startTestAppliance({ clock, settings: { requests_per_minute_per_client: 10 } });
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  for (let i = 0; i < 10; i++) assert.equal((await ta.api.get('/v1/models')).status, 200);
  const limited = await ta.api.post('/v1/responses', BODY, { [KEY]: 'limited' });
  assertError(limited, 429, 'rate_limited');
  assert.ok(Number(limited.headers.get('retry-after')) > 0);
  assert.equal(countRows(db, 'idempotency_keys'), 0);
  assert.equal(countRows(db, 'tasks'), 0);

  clock.advance(61_000);
  const ok = await ta.api.post('/v1/responses', BODY, { [KEY]: 'limited' });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.headers.get('idempotent-replayed'), null);
  assert.equal(countRows(db, 'tasks'), 1);
});

test('a key sent on a GET is ignored: reads are never replayed and do not use up the key', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const created = await ta.api.post('/v1/responses', { ...BODY, background: true });
  assert.equal(created.status, 202, created.text);
  const taskId = str(created.body, 'task_id');
  const before = await ta.api.get(`/v1/tasks/${taskId}`, { [KEY]: 'sticky' });
  assert.equal(before.status, 200, before.text);
  await waitForStatus(db, taskId, ['completed']);
  const after = await ta.api.get(`/v1/tasks/${taskId}`, { [KEY]: 'sticky' });
  assert.equal(after.headers.get('idempotent-replayed'), null);
  assert.equal(str(after.body, 'status'), 'completed', 'a read shows the current state');
  assert.equal(countRows(db, 'idempotency_keys'), 0);
  const post = await ta.api.post('/v1/responses', BODY, { [KEY]: 'sticky' });
  assert.equal(post.status, 200, post.text);
});
