// A crash with devices on the network: `sanad serve` with the saved switch on is SIGKILLed while a
// paired device's background response streams over TLS. After the restart the listener is back on
// the same port by itself (the switch is kept), with the same certificate, so the device's pinned
// certificate and token still work, and it reads its task settled by the restart policy (LMSP §11).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { freePort } from '../harness/ports.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { field, str, waitFor } from '../harness/api.js';
import { killAllServices, prepareCrashDataDir, startService } from './crash-kit.js';

after(killAllServices);

test('SIGKILL mid-stream with devices on: the listener, its certificate and the device token come back; the task is settled', async () => {
  const port = await freePort();
  const prepared = await prepareCrashDataDir({ lan_enabled: true, lan_port: port });
  const first = await startService(prepared.dataDir, prepared.adminToken);
  const lan = await first.api.get('/admin/lan');
  assert.equal(field(lan.body, 'running'), true, lan.text);
  assert.equal(field(lan.body, 'port'), port);
  const fingerprint = str(lan.body, 'tls_fingerprint_sha256');
  const pem = str(lan.body, 'certificate_pem');
  const base = `https://127.0.0.1:${port}`;
  const device = new Agent({ connect: { ca: pem } });

  const code = str((await first.api.post('/admin/pairing-codes', { scopes: ['models:read', 'responses:write'] })).body, 'code');
  const paired = await undiciFetch(`${base}/v1/pair`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code, client_name: 'phone' }),
    dispatcher: device,
  });
  assert.equal(paired.status, 201);
  const token = str(await paired.json(), 'token');
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const created = await undiciFetch(`${base}/v1/responses`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ model: 'tiny', input: 'go on', max_output_tokens: 6000, background: true }),
    dispatcher: device,
  });
  assert.equal(created.status, 202);
  const taskId = str(await created.json(), 'task_id');
  // Text flows over TLS before the kill.
  await waitFor(
    async () => {
      const task = await undiciFetch(`${base}/v1/tasks/${taskId}`, { headers: auth, dispatcher: device });
      const body: unknown = await task.json();
      return Number(field(body, 'last_sequence_number')) >= 8 ? body : undefined;
    },
    60_000,
    'text to flow',
  );
  await first.kill();

  const second = await startService(prepared.dataDir, prepared.adminToken);
  const again = await second.api.get('/admin/lan');
  assert.equal(field(again.body, 'running'), true, 'the kept switch opens the listener again');
  assert.equal(field(again.body, 'port'), port);
  assert.equal(str(again.body, 'tls_fingerprint_sha256'), fingerprint, 'the same certificate: the device pin holds');
  const task = await undiciFetch(`${base}/v1/tasks/${taskId}`, { headers: auth, dispatcher: new Agent({ connect: { ca: pem } }) });
  assert.equal(task.status, 200, 'the device token and its pinned certificate still work');
  const settled: unknown = await task.json();
  assert.equal(field(settled, 'status'), 'failed', 'on_restart fail (the default): the interrupted task is failed, not left running');
  await second.stop();
});
