// Pairing: an admin makes a one-time code, a client redeems it for its own token. Used, expired
// and unknown codes are refused alike, and guessing from one address is rate-limited.
import { PAIRING_FAILURES_PER_WINDOW, PAIRING_WINDOW_MS } from '../../src/service/routes/pair.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock, unixSeconds } from '../../src/clock.js';
import { field, num, str, type Api } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { assertError, countRows } from './contract.js';

const CODE = /^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;

async function newCode(admin: Api, scopes: string[], ttl_s = 600): Promise<string> {
  const res = await admin.post('/admin/pairing-codes', { scopes, ttl_s });
  assert.equal(res.status, 201, res.text);
  return str(res.body, 'code');
}

test('a pairing code is redeemed once for a token with exactly its scopes', async (t) => {
  const clock = new ManualClock(Date.now());
  const ta = await startTestAppliance({ clock });
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const res = await ta.api.post('/admin/pairing-codes', { scopes: ['models:read', 'responses:write'], ttl_s: 600 });
  assert.equal(res.status, 201, res.text);
  const code = str(res.body, 'code');
  assert.match(code, CODE);
  assert.equal(num(res.body, 'expires_at'), unixSeconds(clock) + 600);
  const stored = db.prepare<[], { code_hash: string }>('SELECT code_hash FROM pairing_codes').all();
  assert.equal(stored.length, 1);
  assert.ok(!JSON.stringify(stored).includes(code.replace('-', '')), 'the code is stored hashed');

  const anon = ta.api.withToken(null);
  const paired = await anon.post('/v1/pair', { code, client_name: 'laptop' });
  assert.equal(paired.status, 201, paired.text);
  assert.deepEqual(Object.keys(paired.body ?? {}).sort(), ['client_id', 'scopes', 'token']);
  assert.deepEqual(field(paired.body, 'scopes'), ['models:read', 'responses:write']);
  const clientId = str(paired.body, 'client_id');
  const token = str(paired.body, 'token');

  const row = db.prepare<[string], { name: string; scopes: string }>('SELECT name, scopes FROM clients WHERE id = ?').get(clientId);
  assert.equal(row?.name, 'laptop');
  assert.deepEqual(JSON.parse(row?.scopes ?? '[]'), ['models:read', 'responses:write']);
  const used = db.prepare<[], { used_at: number | null; client_id: string | null }>('SELECT used_at, client_id FROM pairing_codes').get();
  assert.equal(used?.client_id, clientId);
  assert.equal(used?.used_at, unixSeconds(clock));

  const client = ta.api.withToken(token);
  assert.equal((await client.get('/v1/models')).status, 200);
  assertError(await client.get('/admin/clients'), 403, 'insufficient_scope');

  const clients = countRows(db, 'clients');
  assertError(await anon.post('/v1/pair', { code, client_name: 'thief' }), 403, 'pairing_code_invalid');
  assert.equal(countRows(db, 'clients'), clients, 'a reused code makes no client');
  // Typed by hand: lower case and without the dash is the same code, and still used.
  assertError(await anon.post('/v1/pair', { code: code.toLowerCase().replace('-', ''), client_name: 'thief' }), 403, 'pairing_code_invalid');
});

test('an expired code is refused; one still inside its time is not', async (t) => {
  const clock = new ManualClock(Date.now());
  const ta = await startTestAppliance({ clock });
  t.after(() => ta.close());
  const early = await newCode(ta.api, ['models:read'], 60);
  const late = await newCode(ta.api, ['models:read'], 60);
  clock.advance(59_000);
  const ok = await ta.api.withToken(null).post('/v1/pair', { code: early, client_name: 'in time' });
  assert.equal(ok.status, 201, ok.text);
  clock.advance(2_000);
  assertError(await ta.api.withToken(null).post('/v1/pair', { code: late, client_name: 'too late' }), 403, 'pairing_code_invalid');
  const names = ta.appliance.ctx.writer
    .prepare<[], { name: string }>('SELECT name FROM clients ORDER BY name')
    .all()
    .map((r) => r.name);
  assert.deepEqual(names, ['in time', 'test-admin']);
});

test('unknown codes and bad bodies are refused; pairing needs no token', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const anon = ta.api.withToken(null);
  assertError(await anon.post('/v1/pair', { code: 'ABCD-EFGH', client_name: 'x' }), 403, 'pairing_code_invalid');
  assertError(await anon.post('/v1/pair', { code: 'ABCD-EFGH' }), 400, 'invalid_request_error', 'client_name');
  assertError(await anon.post('/v1/pair', { code: 5, client_name: 'x' }), 400, 'invalid_request_error', 'code');
  assertError(await ta.api.post('/admin/pairing-codes', { scopes: ['root'] }), 400, 'invalid_request_error');
  assertError(await ta.api.post('/admin/pairing-codes', { scopes: ['admin'], ttl_s: 1 }), 400, 'invalid_request_error', 'ttl_s');
  assert.equal(countRows(ta.appliance.ctx.writer, 'clients'), 1);
});

test('a burst of failures (from anyone) gets 429 with Retry-After: 1; the owner pairs a second later: no lockout', async (t) => {
  const clock = new ManualClock(Date.now());
  const ta = await startTestAppliance({ clock });
  t.after(() => ta.close());
  const anon = ta.api.withToken(null);
  const good = await newCode(ta.api, ['models:read'], 3600);
  let failures = 0;
  for (;;) {
    const res = await anon.post('/v1/pair', { code: `ZZZZ-${String(failures).padStart(4, '2').slice(-4)}`, client_name: 'guess' });
    if (res.status === 429) {
      assertError(res, 429, 'rate_limited');
      const retry = Number(res.headers.get('retry-after'));
      assert.equal(retry, 1, `Retry-After ${String(res.headers.get('retry-after'))}: a short window, not ten minutes`);
      break;
    }
    assertError(res, 403, 'pairing_code_invalid');
    failures += 1;
    assert.ok(failures <= 20, 'rate limiting kicked in after a handful of failures');
  }
  assert.equal(failures, PAIRING_FAILURES_PER_WINDOW, 'the global budget of failures in one window');
  // While limited, even a valid code is not tried (and so not used up).
  assertError(await anon.post('/v1/pair', { code: good, client_name: 'blocked' }), 429, 'rate_limited');
  const unused = ta.appliance.ctx.writer.prepare<[], { used_at: number | null }>('SELECT used_at FROM pairing_codes').get();
  assert.equal(unused?.used_at, null);

  clock.advance(PAIRING_WINDOW_MS);
  const paired = await anon.post('/v1/pair', { code: good, client_name: 'after the window' });
  assert.equal(paired.status, 201, paired.text);
});
