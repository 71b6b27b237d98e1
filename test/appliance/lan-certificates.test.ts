// The device certificates: an authority a device pins and the listener's own certificate under it.
// A new address or a near end re-makes only the listener's (the pin holds); "new certificate" makes
// a new authority (every device trusts again). The private keys are sealed in the vault, never in
// a file of the data dir. Over loopback (the listener binds every address, and its certificate
// names 127.0.0.1), with a real TLS client.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { CERTIFICATES_SECRET, ensureDeviceCertificates } from '../../src/appliance/lan/certificates.js';
import { lanNames } from '../../src/appliance/lan/names.js';
import { LEAF_DAYS, parseDeviceCertificates, RENEW_BEFORE_DAYS } from '../../src/secrets/device-certificate.js';
import { field, str } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { assertError } from '../api/contract.js';

const DAY = 86_400_000;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

test('the listener certificate is re-made for new names or near its end under the same authority; a new authority changes the pin', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const vault = ta.appliance.ctx.secrets.vault;
  const now = new Date();
  const first = await ensureDeviceCertificates(vault, 'desk', ['desk', 'desk.local', '10.1.2.3'], now);
  assert.ok(first.changed);
  const leaf = new X509Certificate(first.leaf.certPem);
  const authority = new X509Certificate(first.authority.certPem);
  assert.ok(leaf.verify(authority.publicKey), 'the authority signed the listener certificate');
  assert.ok(leaf.checkIssued(authority));
  assert.equal(leaf.checkIP('10.1.2.3'), '10.1.2.3');
  assert.equal(leaf.checkHost('desk.local'), 'desk.local');
  assert.equal(leaf.checkHost('attacker.example'), undefined);
  assert.equal(authority.ca, true);
  assert.equal(leaf.ca, false);
  assert.equal(leaf.publicKey.asymmetricKeyType, 'ec');

  const again = await ensureDeviceCertificates(vault, 'desk', ['desk', 'desk.local', '10.1.2.3'], now);
  assert.equal(again.changed, false, 'nothing to re-make');
  assert.equal(again.leaf.certPem, first.leaf.certPem);

  const moved = await ensureDeviceCertificates(vault, 'desk', ['desk', 'desk.local', '10.9.9.9'], now);
  assert.ok(moved.changed, 'a new address re-makes the listener certificate');
  assert.equal(moved.fingerprint, first.fingerprint, 'the pin holds');
  assert.equal(new X509Certificate(moved.leaf.certPem).checkIP('10.9.9.9'), '10.9.9.9');

  const later = new Date(now.getTime() + (LEAF_DAYS - RENEW_BEFORE_DAYS + 1) * DAY);
  const renewed = await ensureDeviceCertificates(vault, 'desk', ['desk', 'desk.local', '10.9.9.9'], later);
  assert.ok(renewed.changed, 'renewed before it ends');
  assert.equal(renewed.fingerprint, first.fingerprint);
  assert.ok(renewed.leafExpiresAt > moved.leafExpiresAt);

  const fresh = await ensureDeviceCertificates(vault, 'desk', ['desk'], now, { newAuthority: true });
  assert.notEqual(fresh.fingerprint, first.fingerprint);
  assert.equal(parseDeviceCertificates(vault.get(CERTIFICATES_SECRET))?.authority.keyPem, fresh.authority.keyPem, 'the vault keeps the new authority');
});

test('with the listener on: pairing codes carry the pin and address, keys are in no file, "new certificate" makes devices trust again', async (t) => {
  const ta = await startTestAppliance({ lan: { forced: true, port: 0, advertise: false } });
  t.after(() => ta.close());
  const lan = ta.appliance.ctx.lan;
  const status = lan.status();
  assert.ok(status.running, String(status.error));
  assert.deepEqual(status.names, lanNames());
  const made = await ta.api.post('/admin/pairing-codes', { scopes: ['models:read'] });
  assert.equal(made.status, 201);
  assert.equal(str(made.body, 'tls_fingerprint_sha256'), status.tls_fingerprint_sha256);
  assert.equal(str(made.body, 'lan_url'), status.url);

  // The keys: sealed in the vault, so no file of the data dir (the store included) holds one.
  const stored = parseDeviceCertificates(ta.appliance.ctx.secrets.vault.get(CERTIFICATES_SECRET));
  // A line of each key's base64: no file may hold it, in any framing.
  const keyLines = [stored?.authority.keyPem, stored?.leaf.keyPem].map((pem) => pem?.split('\n')[1] ?? 'missing');
  assert.ok(
    keyLines.every((l) => l.length > 40),
    'both keys were read back from the vault',
  );
  for (const file of filesUnder(ta.dataDir)) {
    const bytes = readFileSync(file);
    assert.ok(!bytes.includes('PRIVATE KEY') && keyLines.every((l) => !bytes.includes(l)), `${file} holds no private key`);
  }

  const oldPem = (await lan.certificatePem()) ?? assert.fail('the listener has its certificate');
  const url = `https://127.0.0.1:${status.port}`;
  const trusting = (pem: string): Agent => new Agent({ connect: { ca: pem } });
  assert.equal((await undiciFetch(`${url}/v1/tls/certificate`, { dispatcher: trusting(oldPem) })).status, 200);
  const renewed = await ta.api.post('/admin/lan/new-certificate');
  assert.equal(renewed.status, 200, renewed.text);
  const newFingerprint = str(renewed.body, 'tls_fingerprint_sha256');
  assert.notEqual(newFingerprint, status.tls_fingerprint_sha256);
  await assert.rejects(undiciFetch(`${url}/v1/tls/certificate`, { dispatcher: trusting(oldPem) }), 'a device that trusts the old certificate is refused');
  const newPem = (await lan.certificatePem()) ?? assert.fail('the new certificate is there');
  const fetched = await undiciFetch(`${url}/v1/tls/certificate`, { dispatcher: trusting(newPem) });
  assert.equal(fetched.status, 200);
  assert.equal(fetched.headers.get('x-tls-fingerprint-sha256'), newFingerprint);
  assert.equal((await ta.api.get('/v1/tls/certificate')).text, newPem, 'the main listener gives the same certificate');
});

test('turning devices on where the port is taken is a 409 with the fix, and the switch stays off', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  // Never on: no certificate, and asking for it (no auth) does not make one.
  assertError(await ta.api.withToken(null).get('/v1/tls/certificate'), 404, 'lan_off');
  assert.equal(ta.appliance.ctx.secrets.vault.get(CERTIFICATES_SECRET), null, 'an unauthenticated GET wrote nothing');
  const squatter = createServer();
  await new Promise<void>((resolve) => squatter.listen(0, '0.0.0.0', resolve));
  t.after(() => squatter.close());
  const address = squatter.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const answer = await ta.api.request('PATCH', '/admin/settings', { lan_enabled: true, lan_port: port });
  assertError(answer, 409, 'lan_unavailable', 'lan_port');
  assert.match(answer.text, new RegExp(`Port ${port} for devices on the network is already taken`));
  const settings = await ta.api.get('/admin/settings');
  assert.equal(field(settings.body, 'lan_enabled'), false);
  assert.equal(ta.appliance.ctx.lan.status().running, false);
  const code = await ta.api.post('/admin/pairing-codes', { scopes: ['models:read'] });
  assert.deepEqual(Object.keys(code.body ?? {}).sort(), ['code', 'expires_at'], 'no address while devices are off');
});

test('a saved switch whose port is taken at start: Sanad starts, says why in status and health; `--lan` on that port refuses to start', async (t) => {
  const squatter = createServer();
  await new Promise<void>((resolve) => squatter.listen(0, '0.0.0.0', resolve));
  t.after(() => squatter.close());
  const address = squatter.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const ta = await startTestAppliance({ settings: { lan_enabled: true, lan_port: port } });
  const status = ta.appliance.ctx.lan.status();
  assert.equal(status.enabled, true);
  assert.equal(status.running, false);
  assert.match(String(status.error), new RegExp(`Port ${port} .* already taken`));
  const health = await ta.api.get('/health/ready');
  assert.equal(field(health.body, 'checks', 'network_devices', 'ok'), false);
  assert.equal(field(health.body, 'checks', 'network_devices', 'severity'), 'warning');
  assert.equal(health.status, 200, 'a warning: the desktop itself is ready');
  await ta.close();
  await assert.rejects(
    startTestAppliance({ dataDir: ta.dataDir, adminToken: ta.adminToken, lan: { forced: true, port } }),
    /already taken by another program; choose another port/,
  );
});
