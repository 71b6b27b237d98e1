// Devices on a real network: Sanad here, a "device" in a network namespace behind a veth pair
// (test/harness/test-network.ts). The device pins the certificate at pairing, then the official
// openai SDK uses Sanad through it; everything else a device (or an attacker on the same network)
// might try is refused. The appliance runs with its real network listener and mDNS announcement.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { makeAuthority } from '../../src/secrets/device-certificate.js';
import { FREE_FAILURES } from '../../src/service/pairing-throttle.js';
import { field, num, str } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { makeTestNetwork, networkSkipReason, type TestNetwork } from '../harness/test-network.js';
import { freePort } from '../harness/ports.js';

const skip = networkSkipReason() ?? false;

/** A JSON array as unknown values (Array.isArray alone would make them `any`). */
function items(value: unknown): unknown[] {
  return Array.isArray(value) ? value.map((v: unknown) => v) : [];
}
let net: TestNetwork;
let ta: TestAppliance;
let url: string;

before(async () => {
  if (skip) return;
  // The veth pair first: the listener's certificate names the machine's addresses as they are at start.
  net = await makeTestNetwork();
  // A port no outgoing connection can take while the switch is off (harness/ports.ts).
  ta = await startTestAppliance({ lan: { forced: true, port: await freePort() } });
  const lan = ta.appliance.ctx.lan.status();
  assert.ok(lan.running, `the network listener runs: ${lan.error ?? ''}`);
  assert.ok(lan.names.includes(net.hostAddress), `the certificate names the veth address: ${lan.names.join(', ')}`);
  url = `https://${net.hostAddress}:${lan.port}`;
});
after(async () => {
  if (skip) return;
  await ta?.close();
  await net?.close();
});

async function pairingCode(): Promise<{ code: string; fingerprint: string; lanUrl: string }> {
  const res = await ta.api.post('/admin/pairing-codes', { scopes: ['models:read', 'responses:write'], ttl_s: 600 });
  assert.equal(res.status, 201, res.text);
  return { code: str(res.body, 'code'), fingerprint: str(res.body, 'tls_fingerprint_sha256'), lanUrl: str(res.body, 'lan_url') };
}

async function pairedDevice(): Promise<{ token: string; pem: string; clientId: string }> {
  const { code, fingerprint } = await pairingCode();
  const paired = await net.device({ action: 'pair', url, code, fingerprint });
  assert.equal(paired.status, 201, JSON.stringify(paired));
  return { token: str(paired.body, 'token'), pem: str(paired, 'pem'), clientId: str(paired.body, 'client_id') };
}

test('a device checks the fingerprint, pairs over TLS, and the openai SDK creates, streams and cancels with the pinned certificate', { skip }, async () => {
  const { code, fingerprint, lanUrl } = await pairingCode();
  assert.match(fingerprint, /^[0-9a-f]{64}$/);
  assert.equal(fingerprint, ta.appliance.ctx.lan.fingerprint());
  assert.match(lanUrl, /^https:\/\/[^/]+:\d+$/);
  const paired = await net.device({ action: 'pair', url, code, fingerprint });
  assert.equal(paired.status, 201, JSON.stringify(paired));
  assert.equal(paired.seen, fingerprint, 'the device saw the fingerprint the screen shows');
  const token = str(paired.body, 'token');

  const used = await net.device({ action: 'sdk', url, token, pem: str(paired, 'pem') });
  assert.equal(used.error, undefined, JSON.stringify(used));
  assert.deepEqual(field(used, 'models'), ['tiny']);
  assert.equal(field(field(used, 'created'), 'status'), 'incomplete');
  assert.ok(str(field(used, 'created'), 'text').length > 0);
  const seqs = items(field(field(used, 'streamed'), 'seqs'));
  assert.ok(seqs.length > 3);
  seqs.forEach((s, i) => assert.equal(s, i + 1, 'gap-free sequence numbers over TLS'));
  assert.ok(str(field(used, 'streamed'), 'text').length > 0);
  assert.equal(field(field(used, 'cancelled'), 'status'), 'cancelled');

  // The Clients screen: where the device called from, and when.
  const clients = await ta.api.get('/admin/clients');
  const me = items(field(clients.body, 'data')).find((c) => field(c, 'id') === str(paired.body, 'client_id'));
  assert.equal(field(me, 'last_address'), net.deviceAddress);
  assert.ok(num(me, 'last_used_at') > 0);
});

test('a device that pins another fingerprint refuses to talk, and one that trusts another authority fails the handshake', { skip }, async () => {
  const { code } = await pairingCode();
  const wrong = await net.device({ action: 'pair', url, code, fingerprint: 'ab'.repeat(32) });
  assert.equal(wrong.refused, 'fingerprint_mismatch', 'no code is sent to a listener with another certificate');
  const other = await makeAuthority('elsewhere', new Date());
  const answer = await net.device({ action: 'raw', url, path: '/v1/models', pem: other.certPem });
  assert.match(String(answer.error), /SELF_SIGNED|UNABLE_TO_VERIFY|unable to verify/i, JSON.stringify(answer));
  // The code was never spent: the real device pairs with it.
  const fingerprint = ta.appliance.ctx.lan.fingerprint();
  const paired = await net.device({ action: 'pair', url, code, fingerprint });
  assert.equal(paired.status, 201, JSON.stringify(paired));
});

test('on the network port: plain HTTP fails, /admin, /login, health and the GUI are 404, and a rebinding Host or any Origin is refused', { skip }, async () => {
  const { token, pem } = await pairedDevice();
  const plain = await net.device({ action: 'raw', url: url.replace('https:', 'http:'), path: '/v1/models' });
  assert.ok(plain.error !== undefined, `plain HTTP gets no answer: ${JSON.stringify(plain)}`);
  for (const path of ['/admin/status', '/admin/clients', '/login', '/', '/health/ready', '/admin/recovery-kit']) {
    const answer = await net.device({ action: 'raw', url, path, pem, authorization: `Bearer ${ta.adminToken}` });
    assert.equal(answer.status, 404, `${path}: ${JSON.stringify(answer)}`);
  }
  const loginPost = await net.device({
    action: 'raw',
    url,
    path: '/login',
    method: 'POST',
    pem,
    'content-type': 'application/json',
    body: JSON.stringify({ code: 'x' }),
  });
  assert.equal(loginPost.status, 404);
  const port = new URL(url).port;
  const rebound = await net.device({ action: 'raw', url, path: '/v1/models', pem, host: `attacker.example:${port}`, authorization: `Bearer ${token}` });
  assert.equal(rebound.status, 403);
  assert.match(String(rebound.text), /forbidden_host/);
  const page = await net.device({
    action: 'raw',
    url,
    path: '/v1/models',
    pem,
    origin: `https://${net.hostAddress}:${port}`,
    authorization: `Bearer ${token}`,
  });
  assert.equal(page.status, 403, 'no browser page calls the network listener');
  const ok = await net.device({ action: 'raw', url, path: '/v1/models', pem, authorization: `Bearer ${token}` });
  assert.equal(ok.status, 200, JSON.stringify(ok));
  const cert = await net.device({ action: 'raw', url, path: '/v1/tls/certificate', pem });
  assert.equal(cert.status, 200);
  assert.equal(String(cert.text).trim(), pem.trim(), 'GET /v1/tls/certificate gives the authority the device trusts');
  // The GUI's session belongs to this machine: sent from the network it is no credential.
  const login = new URL(ta.appliance.loginUrl());
  const signedIn = await ta.api.withToken(null).post('/login', { code: login.searchParams.get('code') });
  const sessionToken = str(signedIn.body, 'token');
  assert.equal((await ta.api.withToken(null).get('/admin/status', { 'x-sanad-session': sessionToken })).status, 200, 'it works on this machine');
  const session = await net.device({ action: 'raw', url, path: '/v1/models', pem, 'x-sanad-session': sessionToken });
  assert.equal(session.status, 401);
});

test('a revoked device gets 401 on its next request', { skip }, async () => {
  const { token, pem, clientId } = await pairedDevice();
  const before = await net.device({ action: 'raw', url, path: '/v1/models', pem, authorization: `Bearer ${token}` });
  assert.equal(before.status, 200);
  assert.equal((await ta.api.post(`/admin/clients/${clientId}/revoke`)).status, 200);
  const afterRevoke = await net.device({ action: 'raw', url, path: '/v1/models', pem, authorization: `Bearer ${token}` });
  assert.equal(afterRevoke.status, 401);
  assert.match(String(afterRevoke.text), /invalid_api_key/);
});

test('guessing pairing codes from the network is slowed per address, and never slows the desktop', { skip }, async () => {
  const cert = await ta.api.get('/v1/tls/certificate');
  const pem = cert.text;
  const { code } = await pairingCode();
  // The right code last, in the same breath: even it waits while that address is held off.
  const guessed = await net.device({ action: 'guess', url, pem, count: FREE_FAILURES + 3, then: code });
  const answers = items(field(guessed, 'answers'));
  const held = answers.pop();
  assert.equal(field(held, 'status'), 429);
  assert.match(str(held, 'text'), /pairing_backoff/);
  const statuses = answers.map((a) => field(a, 'status'));
  assert.deepEqual(statuses.slice(0, FREE_FAILURES), Array(FREE_FAILURES).fill(403), 'the first wrong codes are just wrong');
  assert.equal(statuses[FREE_FAILURES], 403, 'the one after them is counted…');
  assert.ok(
    statuses.slice(FREE_FAILURES + 1).every((s) => s === 429),
    `…and then the device must wait: ${JSON.stringify(statuses)}`,
  );
  const waits = answers.slice(FREE_FAILURES + 1).map((a) => Number(field(a, 'retry_after')));
  assert.ok(
    waits.every((w) => w >= 1),
    `Retry-After says how long: ${JSON.stringify(waits)}`,
  );

  // The desktop pairs with that same code at once (its own budget), and its GUI works.
  const local = await ta.api.withToken(null).post('/v1/pair', { code, client_name: 'desktop tool' });
  assert.equal(local.status, 201, local.text);
  assert.equal((await ta.api.get('/admin/status')).status, 200);
});

test('another host holding 300 idle connections and slow TLS clients cannot lock a device out', { skip }, async () => {
  // From the namespace's second address: 280 sockets that never start TLS, 20 that start it one byte a second.
  const flooding = net.device({ action: 'flood', url, from: net.otherAddress, idle: 280, slow: 20, ms: 12_000 });
  await new Promise((r) => setTimeout(r, 1500));
  // Meanwhile a device pairs, and the openai SDK creates, streams and cancels.
  const { code, fingerprint } = await pairingCode();
  const paired = await net.device({ action: 'pair', url, code, fingerprint });
  assert.equal(paired.status, 201, JSON.stringify(paired));
  const used = await net.device({ action: 'sdk', url, token: str(paired.body, 'token'), pem: str(paired, 'pem') });
  assert.equal(used.error, undefined, JSON.stringify(used));
  assert.equal(field(field(used, 'cancelled'), 'status'), 'cancelled');
  const flood = await flooding;
  console.log(`flood: ${JSON.stringify(flood)}`);
  assert.equal(flood.opened, 300);
  assert.equal(flood.heldAtEnd, 0, `the listener closed every one of them: ${JSON.stringify(flood)}`);
  assert.equal(flood.closedByServer, 300);
});

test('turning the switch off closes the listener and ends the announcement; on again, same certificate', { skip }, async () => {
  const seen = await net.device({ action: 'browse', ms: 2500 });
  const found = items(field(seen, 'found'));
  assert.ok(found.length > 0, `the device finds _lmsp._tcp: ${JSON.stringify(seen)}`);
  const fingerprint = ta.appliance.ctx.lan.fingerprint();
  const ours = found.find((s) => field(field(s, 'txt'), 'fp') === fingerprint);
  assert.ok(ours, `the TXT record carries the fingerprint: ${JSON.stringify(found)}`);
  assert.equal(field(ours, 'port'), Number(new URL(url).port));

  const off = await ta.api.request('PATCH', '/admin/settings', { lan_enabled: false });
  assert.equal(off.status, 200, off.text);
  assert.equal(ta.appliance.ctx.lan.status().running, false);
  const refused = await net.device({ action: 'raw', url, path: '/v1/models', pem: await ta.appliance.ctx.lan.certificatePem() });
  assert.equal(refused.error, 'ECONNREFUSED', JSON.stringify(refused));
  const quiet = await net.device({ action: 'browse', ms: 2500 });
  assert.deepEqual(field(quiet, 'found'), [], 'nothing is announced while off');

  const on = await ta.api.request('PATCH', '/admin/settings', { lan_enabled: true, lan_port: Number(new URL(url).port) });
  assert.equal(on.status, 200, on.text);
  assert.equal(ta.appliance.ctx.lan.fingerprint(), fingerprint, 'a device paired before still trusts it');
  const back = await net.device({ action: 'raw', url, path: '/v1/tls/certificate', pem: await ta.appliance.ctx.lan.certificatePem() });
  assert.equal(back.status, 200, JSON.stringify(back));
});
