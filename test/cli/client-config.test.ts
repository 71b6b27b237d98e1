// `sanad client-config` and the flags of `sanad serve` for devices on the network, as a person
// types them: the real CLI beside a real `sanad serve`, and the certificate it writes trusted by a
// real TLS client (undici) that pairs with the code it printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { str } from '../harness/api.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { startServiceProcess } from '../harness/service-process.js';
import { assertOneLineError, jsonOut, runCli } from './run-cli.js';

test('serve refuses a non-loopback --host, pointing at --lan; --lan-port without --lan and a bad port are usage errors', async () => {
  const prepared = await prepareDataDir();
  const wide = await runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--data-dir', prepared.dataDir]);
  assertOneLineError(wide, 1, /stays on this machine.*sanad serve --lan/);
  const lanIp = await runCli(['serve', '--host', '192.168.1.5', '--port', '0', '--data-dir', prepared.dataDir]);
  assertOneLineError(lanIp, 1, /does not serve 192\.168\.1\.5/);
  assertOneLineError(await runCli(['serve', '--lan-port', '9000', '--data-dir', prepared.dataDir]), 2, /--lan-port needs --lan/);
  assertOneLineError(await runCli(['serve', '--lan', '--lan-port', 'x', '--data-dir', prepared.dataDir]), 2, /"x" is not a port for --lan-port/);
});

test('client-config says how to turn devices on while they are off, and takes no stray arguments', async (t) => {
  const prepared = await prepareDataDir();
  const sp = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  t.after(() => sp.kill());
  assertOneLineError(await runCli(['client-config', '--data-dir', prepared.dataDir]), 1, /Devices on the network are off: switch on .* `sanad serve --lan`/);
  assertOneLineError(await runCli(['client-config', '--outt', 'x', '--data-dir', prepared.dataDir]), 2, /client-config \[--out FILE\] \[--pair\]/);
  assert.equal(await sp.stop(), 0);
  assertOneLineError(await runCli(['client-config', '--data-dir', prepared.dataDir]), 1, /No Sanad is running/);
});

test('client-config --pair writes the certificate a device trusts and a code it pairs with over TLS', async (t) => {
  const prepared = await prepareDataDir();
  const sp = await startServiceProcess(prepared.dataDir, prepared.adminToken, {}, ['--lan', '--lan-port', '0']);
  t.after(() => sp.kill());
  const out = join(mkdtempSync(join(tmpdir(), 'sanad-cc-')), 'phone.pem');
  const ran = await runCli(['client-config', '--pair', '--out', out, '--json', '--data-dir', prepared.dataDir]);
  assert.equal(ran.code, 0, ran.stderr);
  const answer = jsonOut(ran);
  const pem = readFileSync(out, 'utf8');
  assert.ok(!pem.includes('PRIVATE KEY'), 'the file holds the certificate only');
  const fingerprint = createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');
  assert.equal(str(answer, 'tls_fingerprint_sha256'), fingerprint);
  const base = str(answer, 'base_url');
  assert.match(base, /^https:\/\/.+:\d+\/v1$/);
  // The loopback names are on the certificate too: a device here is the desktop itself.
  const port = new URL(base).port;
  const dispatcher = new Agent({ connect: { ca: pem } });
  const paired = await undiciFetch(`https://127.0.0.1:${port}/v1/pair`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: str(answer, 'pairing_code'), client_name: 'laptop' }),
    dispatcher,
  });
  assert.equal(paired.status, 201);
  const human = await runCli(['client-config', '--out', out, '--data-dir', prepared.dataDir]);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, new RegExp(`Base URL: +${base.replace(/[.]/g, '\\.')}`));
  assert.match(human.stdout, /curl --cacert/);
  assert.equal(await sp.stop(), 0, sp.stderr());
});
