// Property-based fuzzing of the HTTP API (fast-check) against a real running service: random
// methods, paths (every route, with hostile parameters, and garbage), query strings, headers and
// bodies (deep nesting, huge numbers, long strings, NUL bytes, invalid UTF-8, duplicate keys), with
// no token, a wrong one, and tokens of each scope. Every answer is the contract's error shape or a
// success, never a 500 or a stack, never a secret; afterwards the service still serves and its store
// passes integrity_check. A bounded number of cases runs in `npm test`; SANAD_FUZZ_RUNS asks for more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestAppliance } from '../harness/appliance.js';
import { makeClient } from '../api/contract.js';

const RUNS = Number(process.env.SANAD_FUZZ_RUNS ?? 250);

// Every route; long-running or state-switching work (backups, drills, restores, key rotations) and
// the endless admin stream are left out: a random request must not start an hour of restic.
const ROUTES = [
  'DELETE /admin/models/:id',
  'DELETE /admin/repositories/:name',
  'DELETE /admin/secrets/:name',
  'DELETE /v1/responses/:id',
  'GET /',
  'GET /admin/alerts',
  'GET /admin/backups',
  'GET /admin/bring-backs',
  'GET /admin/generations/:generation/responses',
  'GET /admin/backups/status',
  'GET /admin/clients',
  'GET /admin/drills',
  'GET /admin/drills/:id',
  'GET /admin/drills/status',
  'GET /admin/lan',
  'GET /v1/tls/certificate',
  'GET /admin/first-run',
  'GET /admin/maintenance',
  'GET /admin/recovery-kit',
  'GET /admin/repositories',
  'GET /admin/restore/:id',
  'GET /admin/secrets',
  'GET /admin/settings',
  'GET /admin/status',
  'GET /assets/:name',
  'GET /favicon.ico',
  'GET /health/live',
  'GET /health/ready',
  'GET /login',
  'GET /v1/models',
  'GET /v1/models/:id',
  'GET /v1/responses/:id',
  'GET /v1/tasks',
  'GET /v1/tasks/:id',
  'GET /v1/tasks/:id/events',
  'PATCH /admin/repositories/:name',
  'PATCH /admin/settings',
  'POST /admin/clients',
  'POST /admin/clients/:id/revoke',
  'POST /admin/generations/:generation/bring-back',
  'POST /admin/login-link',
  'POST /admin/logout',
  'POST /admin/models',
  'POST /admin/pairing-codes',
  'POST /admin/recovery-kit/confirm',
  'POST /admin/repositories',
  'POST /admin/restore/check-target',
  'POST /admin/restore/generations',
  'POST /login',
  'POST /v1/pair',
  'POST /v1/responses',
  'POST /v1/responses/:id/cancel',
  'POST /v1/tasks/:id/cancel',
  'PUT /admin/secrets/:name',
  'GET /v1/responses/:id/input_items',
  'POST /v1/conversations',
  'GET /v1/conversations',
  'GET /v1/conversations/:id',
  'POST /v1/conversations/:id',
  'DELETE /v1/conversations/:id',
  'GET /v1/conversations/:id/items',
  'POST /v1/conversations/:id/items',
  'GET /v1/conversations/:id/items/:item',
  'DELETE /v1/conversations/:id/items/:item',
  'POST /v1/chat/completions',
];

const hostile = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '..',
    '../../etc/passwd',
    '%2e%2e%2f%2e%2e',
    '%00',
    'a%00b',
    '\u202e',
    'x'.repeat(3000),
    'local',
    'tiny',
    '-1',
    '1e400',
    '__proto__',
    'constructor',
  ),
);

function deep(n: number): string {
  return '['.repeat(n) + ']'.repeat(n);
}

const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 4 }),
  fc.constantFrom(
    deep(200),
    deep(70),
    '{"a":1,"a":2}',
    '{"model":"tiny","input":"x","model":"other"}',
    '1e400',
    '-0',
    '"\u0000"',
    '{"code":"' + 'A'.repeat(100_000) + '"}',
    '{',
    '[1,2',
    'null',
    '{"__proto__":{"admin":true}}',
  ),
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.concat([Buffer.from('{"x":"'), Buffer.from(b), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])),
);

const request = fc.record({
  route: fc.constantFrom(...ROUTES),
  params: fc.array(hostile, { minLength: 3, maxLength: 3 }),
  garbagePath: fc.option(fc.string({ maxLength: 60 }), { freq: 8 }),
  method: fc.option(fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'HEAD'), { freq: 4 }),
  query: fc.dictionary(fc.constantFrom('limit', 'after', 'status', 'model', 'stream', 'starting_after', 'code', 'order', 'x'), hostile, { maxKeys: 3 }),
  token: fc.nat({ max: 6 }),
  body,
  contentType: fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', ''),
  idempotencyKey: fc.option(fc.string({ maxLength: 300 }), { freq: 5 }),
  accept: fc.constantFrom('application/json', 'text/event-stream', '*/*'),
});

test(`fuzz: ${RUNS} random requests over every route; the contract's errors only, no 500, no stack, no secret; the store stays whole`, async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const ctx = ta.appliance.ctx;
  const tokens: Array<string | null> = [null, 'sk-sanad-not-a-real-token', ta.adminToken];
  for (const scopes of [['models:read'], ['responses:write'], ['tasks:read'], ['tasks:write']]) tokens.push((await makeClient(ta.api, scopes)).token);
  const secrets = [ctx.secrets.master.vaultKey.toString('base64'), ctx.secrets.master.resticPassphrase, ta.adminToken];
  let count = 0;

  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      count += 1;
      const [routeMethod = 'GET', template = '/'] = r.route.split(' ');
      let n = 0;
      const path = r.garbagePath ?? template.replace(/:[a-z]+/g, () => encodeURIComponent(r.params[n++] ?? ''));
      const qs = new URLSearchParams(r.query).toString();
      const method = r.method ?? routeMethod;
      const headers: Record<string, string> = { accept: r.accept };
      const token = tokens[r.token % tokens.length] ?? null;
      if (token !== null) headers.authorization = `Bearer ${token}`;
      if (r.contentType !== '') headers['content-type'] = r.contentType;
      if (r.idempotencyKey !== null) headers['idempotency-key'] = r.idempotencyKey.replace(/[^\x20-\x7e]/g, '');
      const send = r.body !== undefined && method !== 'GET' && method !== 'HEAD';
      const url = `${ta.appliance.url}${path.startsWith('/') ? path : `/${path}`}${qs ? `?${qs}` : ''}`;
      let res: Response;
      try {
        res = await fetch(url, {
          method,
          headers,
          signal: AbortSignal.timeout(5_000),
          ...(send ? { body: typeof r.body === 'string' ? r.body : r.body instanceof Buffer ? r.body : JSON.stringify(r.body) } : {}),
        });
      } catch (err) {
        // A URL fetch itself refuses to send (a malformed path) is not the service's answer.
        if (err instanceof TypeError && !/fetch failed/.test(err.message)) return;
        throw new Error(`${method} ${url}: no answer (${String(err)})`);
      }
      const type = res.headers.get('content-type') ?? '';
      // A stream that opened is a success; do not wait for it to end.
      const text = type.includes('event-stream') ? '' : await res.text();
      if (type.includes('event-stream')) await res.body?.cancel();
      const where = `${method} ${url} (token ${r.token}) → ${res.status} ${text.slice(0, 200)}`;
      // 503 / 507 are honest answers (no repository yet, a full disk) when they come in the contract's shape; 500 never.
      assert.ok(res.status < 500 || res.status === 503 || res.status === 507, where);
      assert.doesNotMatch(text, /\bat [\w.<>]+ \(?(file:|node:|\/)[^)]*:\d+:\d+/, `no stack: ${where}`);
      if (res.status >= 500) assert.ok(type.includes('application/json'), `a 5xx in the contract's shape: ${where}`);
      if (res.status >= 400 && type.includes('application/json') && method !== 'HEAD' && path !== '/health/ready') {
        const parsed: unknown = JSON.parse(text);
        assert.ok(typeof parsed === 'object' && parsed !== null && 'error' in parsed, where);
        const e = parsed.error;
        assert.ok(
          typeof e === 'object' &&
            e !== null &&
            'type' in e &&
            'message' in e &&
            typeof e.type === 'string' &&
            typeof e.message === 'string' &&
            e.message.length > 0,
          where,
        );
      }
      // The recovery kit is the one answer meant to hold the passphrase (to admin, on purpose).
      if (!(path === '/admin/recovery-kit' && res.status === 200)) for (const s of secrets) assert.ok(!text.includes(s), `a secret in ${where}`);
    }),
    { numRuns: RUNS, seed: process.env.SANAD_FUZZ_SEED ? Number(process.env.SANAD_FUZZ_SEED) : undefined },
  );
  t.diagnostic(`${count} requests`);
  assert.equal((await ta.api.get('/health/live')).status, 200, 'still serving');
  assert.equal((await ta.api.get('/admin/status')).status, 200);
  assert.deepEqual(ctx.writer.pragma('integrity_check'), [{ integrity_check: 'ok' }], 'the store is whole');
});
